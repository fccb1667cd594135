//! The IO seams of the exchanges: an HTTP [`Transport`], a [`Clock`] and a [`Files`] reader.
//! The wasm bindings implement them over `fetch`, `setTimeout`/`Date.now` and a JS reader;
//! native tests implement them with fakes that drive a virtual clock.

use crate::error::Error;

/// HTTP method of a [`Request`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Put,
    Post,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Put => "PUT",
            Method::Post => "POST",
        }
    }
}

/// One HTTP request, exactly as it goes on the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub method: Method,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// The value of header `name` (case-insensitive), if set.
    pub fn header(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }
}

/// One HTTP response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// The value of header `name` (case-insensitive), if set.
    pub fn header(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }
}

fn find_header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

/// Sends HTTP requests. A request that got no response fails with an [`Error`] whose code is
/// `NETWORK` (retried), `ABORTED` or `TIMEOUT` (not retried); the exchange adds the step and the
/// attempt count. A non-2xx status is a response, not an error.
#[allow(async_fn_in_trait)] // single-threaded (wasm): no `Send` bound wanted
pub trait Transport {
    async fn send(&self, request: &Request) -> Result<Response, Error>;
}

/// Wall-clock time and timers.
#[allow(async_fn_in_trait)]
pub trait Clock {
    /// Milliseconds since the Unix epoch (used for deadlines and HTTP-date `Retry-After`).
    fn now_ms(&self) -> u64;
    /// Resolves after `ms` milliseconds.
    async fn sleep(&self, ms: u64);
}

/// Reads an attachment given by path (Node only). Errors are `INVALID_INPUT` with a message
/// naming the path.
#[allow(async_fn_in_trait)]
pub trait Files {
    async fn read(&self, path: &str) -> Result<Vec<u8>, Error>;
}

/// A [`Files`] for platforms without a file system: every path is an `INVALID_INPUT` error.
pub struct NoFiles;

impl Files for NoFiles {
    async fn read(&self, path: &str) -> Result<Vec<u8>, Error> {
        Err(Error::invalid_input(format!(
            "attachment path {path:?} cannot be read here: pass `data` (paths are read only in Node)"
        )))
    }
}
