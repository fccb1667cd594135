//! The one error type of the crate. Every failure that can reach a user is a [`Error`] with a
//! machine-readable [`ErrorCode`], the exchange [`Step`] that failed (when there is one) and a
//! message a person can act on. The wasm bindings turn it into a JavaScript `ShardwiseError`.
//!
//! Messages never contain a token or a presigned URL's query string: build URLs for messages
//! with [`redact_url`].

use std::fmt;

/// What went wrong, as the `code` of a `ShardwiseError`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    InvalidInput,
    HttpStatus,
    Network,
    Timeout,
    Aborted,
    InvalidResponse,
    BrotliCorrupt,
    LimitExceeded,
}

impl ErrorCode {
    /// Every code, in declaration order: what `types/errors.d.ts` must list (a test below reads it).
    pub const ALL: [Self; 8] = [
        ErrorCode::InvalidInput,
        ErrorCode::HttpStatus,
        ErrorCode::Network,
        ErrorCode::Timeout,
        ErrorCode::Aborted,
        ErrorCode::InvalidResponse,
        ErrorCode::BrotliCorrupt,
        ErrorCode::LimitExceeded,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidInput => "INVALID_INPUT",
            ErrorCode::HttpStatus => "HTTP_STATUS",
            ErrorCode::Network => "NETWORK",
            ErrorCode::Timeout => "TIMEOUT",
            ErrorCode::Aborted => "ABORTED",
            ErrorCode::InvalidResponse => "INVALID_RESPONSE",
            ErrorCode::BrotliCorrupt => "BROTLI_CORRUPT",
            ErrorCode::LimitExceeded => "LIMIT_EXCEEDED",
        }
    }
}

/// Which call of an exchange failed, as the `step` of a `ShardwiseError`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    Create,
    UploadTestList,
    Submit,
    Poll,
    Start,
    UploadReport,
    Attachments,
    UploadAttachment,
    Finish,
}

impl Step {
    /// Every step, in declaration order: what `types/errors.d.ts` must list (a test below reads it).
    pub const ALL: [Self; 9] = [
        Step::Create,
        Step::UploadTestList,
        Step::Submit,
        Step::Poll,
        Step::Start,
        Step::UploadReport,
        Step::Attachments,
        Step::UploadAttachment,
        Step::Finish,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Step::Create => "create",
            Step::UploadTestList => "upload-test-list",
            Step::Submit => "submit",
            Step::Poll => "poll",
            Step::Start => "start",
            Step::UploadReport => "upload-report",
            Step::Attachments => "attachments",
            Step::UploadAttachment => "upload-attachment",
            Step::Finish => "finish",
        }
    }
}

/// A failure with everything a caller needs to act on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
    pub step: Option<Step>,
    /// HTTP status of the last response, when there was one.
    pub status: Option<u16>,
    /// How many tries were made of the failing call.
    pub attempts: Option<u32>,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error { code, message: message.into(), step: None, status: None, attempts: None }
    }
    pub fn invalid_input(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidInput, message)
    }
    pub fn with_step(mut self, step: Step) -> Self {
        self.step = Some(step);
        self
    }
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }
    pub fn with_attempts(mut self, attempts: u32) -> Self {
        self.attempts = Some(attempts);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code.as_str())?;
        if let Some(step) = self.step {
            write!(f, " at {}", step.as_str())?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for Error {}

/// A URL fit for a message or a log: scheme, host and path, never the query string (where
/// presigned URLs carry their credentials) nor the fragment or user info.
pub fn redact_url(url: &str) -> String {
    let cut = url.find(['?', '#']).unwrap_or(url.len());
    let mut out = url[..cut].to_string();
    // drop `user:pass@` from the authority
    if let Some(scheme_end) = out.find("://") {
        let rest = &out[scheme_end + 3..];
        let auth_end = rest.find('/').unwrap_or(rest.len());
        if let Some(at) = rest[..auth_end].rfind('@') {
            out = format!("{}{}", &out[..scheme_end + 3], &rest[at + 1..]);
        }
    }
    if cut < url.len() && url[cut..].starts_with('?') {
        out.push_str("?…");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redact_url_drops_query_and_credentials() {
        assert_eq!(
            redact_url("https://u:p@store.example/b/k?X-Amz-Signature=abc#f"),
            "https://store.example/b/k?…"
        );
        assert_eq!(redact_url("http://127.0.0.1:8080/api/x"), "http://127.0.0.1:8080/api/x");
    }

    #[test]
    fn display_names_code_and_step() {
        let e = Error::new(ErrorCode::HttpStatus, "server answered 503").with_step(Step::Submit);
        assert_eq!(e.to_string(), "HTTP_STATUS at submit: server answered 503");
    }

    /// The members of `export type <name> = | '...' | ...;` in a declaration file.
    fn ts_union(dts: &str, name: &str) -> Vec<String> {
        let head = format!("export type {name} =");
        let start = dts.find(&head).unwrap_or_else(|| panic!("errors.d.ts declares no {name}")) + head.len();
        let body = &dts[start..start + dts[start..].find(';').expect("union ends with ;")];
        body.split('|').map(str::trim).filter(|m| !m.is_empty()).map(|m| m.trim_matches('\'').to_string()).collect()
    }

    /// The variants of `pub enum <name> { ... }` in this file, as written.
    fn rust_variants(src: &str, name: &str) -> Vec<String> {
        let head = format!("pub enum {name} {{");
        let start = src.find(&head).unwrap_or_else(|| panic!("error.rs declares no enum {name}")) + head.len();
        let body = &src[start..start + src[start..].find('}').unwrap()];
        body.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with("#["))
            .map(|l| l.trim_end_matches(',').to_string()).collect()
    }

    // The TypeScript types are written by hand: these keep them equal to the enums. `ALL` is
    // checked against the enums' declarations (a variant added there and not to `ALL` fails here;
    // `as_str`'s match has no wildcard arm, so it cannot miss one), and the .d.ts against `ALL`.
    #[test]
    fn declared_types_list_every_code_and_step() {
        let dts = include_str!("../pkg-template/types/errors.d.ts");
        let src = include_str!("error.rs");

        let debug = |v: &dyn fmt::Debug| format!("{v:?}");
        assert_eq!(ErrorCode::ALL.iter().map(|c| debug(c)).collect::<Vec<_>>(), rust_variants(src, "ErrorCode"), "ErrorCode::ALL against the enum");
        assert_eq!(Step::ALL.iter().map(|s| debug(s)).collect::<Vec<_>>(), rust_variants(src, "Step"), "Step::ALL against the enum");

        let codes: Vec<String> = ErrorCode::ALL.iter().map(|c| c.as_str().to_string()).collect();
        let steps: Vec<String> = Step::ALL.iter().map(|s| s.as_str().to_string()).collect();
        assert_eq!(ts_union(dts, "ErrorCode"), codes, "types/errors.d.ts ErrorCode against ErrorCode::ALL");
        assert_eq!(ts_union(dts, "Step"), steps, "types/errors.d.ts Step against Step::ALL");
        // No two variants share a string: the union would hide one.
        for list in [&codes, &steps] {
            let mut unique = list.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), list.len(), "duplicate in {list:?}");
        }
    }
}
