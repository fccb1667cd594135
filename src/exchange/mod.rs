//! Both exchanges of the service (docs/service-contract.md): the durations exchange
//! ([`fetch_durations`]: create -> PUT test list -> submit -> poll) and the upload exchange
//! ([`upload_report`]: start -> PUT report -> attachment URLs -> PUT attachments -> finish).
//!
//! The logic is plain Rust over three IO seams ([`Transport`], [`Clock`], [`Files`]: the host's
//! attachment bodies, sent without passing through wasm memory), so retry
//! and poll schedules are tested natively against fakes with a virtual clock. Inputs are
//! checked before the first request; every failure is an [`Error`] with the step, the HTTP
//! status when there was one, and the tries made. Messages never hold a token or a presigned
//! URL's query string.
//!
//! Deadlines: the core checks `timeoutMs` between tries and never sleeps past it; a request
//! in flight is bounded by the edge (the wasm bindings race the whole exchange against the
//! deadline and the abort signal, and cancel the `fetch`es).

mod ctx;
mod durations;
mod http;
mod key;
mod payload;
mod retry;
mod upload;
mod url;

#[cfg(test)]
mod tests;

pub use ctx::{Env, Event, Progress};
pub use durations::{fetch_durations, DurationsOptions};
pub use http::{Body, Clock, Files, HostBody, Method, NoFiles, Request, Response, Transport};
pub use key::{shard_group_key_for, ShardGroupKeyInput};
pub use payload::{decode_download_body, encode_upload_body, is_text_like, HeldReport, ReportDocument, ReportInput};
pub use retry::RetryPolicy;
pub use upload::{attachment_compression, upload_report, Attachment, AttachmentData, UploadOptions, UploadResult, SAMPLE_BYTES};
pub use url::BaseUrl;

use crate::error::Error;

/// Service endpoints, relative to `baseUrl` (docs/service-contract.md §2.1).
pub mod endpoints {
    pub const CREATE: &str = "api/testDurations/create";
    pub const SUBMIT: &str = "api/testDurations/submit";
    pub const START: &str = "api/upload/start";
    pub const ATTACHMENTS: &str = "api/upload/attachments";
    pub const FINISH: &str = "api/upload/finish";
}

/// `Authorization: Bearer <token>`.
fn bearer(token: &str) -> (String, String) {
    ("Authorization".to_string(), format!("Bearer {token}"))
}

fn header(name: &str, value: &str) -> (String, String) {
    (name.to_string(), value.to_string())
}

/// Checks a token given by the caller: present and fit for a header.
fn check_token(token: &str, name: &str) -> Result<(), Error> {
    if token.trim().is_empty() {
        return Err(Error::invalid_input(format!("{name} is required (a CI access token or an OIDC token)")));
    }
    if token.chars().any(|c| c.is_whitespace() || c.is_control() || !c.is_ascii()) {
        return Err(Error::invalid_input(format!(
            "{name} contains whitespace or non-ASCII characters; pass the bare token without `Bearer `"
        )));
    }
    Ok(())
}

/// Checks a token returned by the service before it goes into a header.
fn is_header_safe(token: &str) -> bool {
    !token.is_empty() && token.chars().all(|c| c.is_ascii_graphic())
}
