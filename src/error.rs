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
}
