//! The IO seams of the exchanges: an HTTP [`Transport`], a [`Clock`] and [`Files`], the host's
//! attachment bodies. The wasm bindings implement them over `fetch`, `setTimeout`/`Date.now` and
//! the host's files and compressor; native tests implement them with fakes that drive a virtual
//! clock.

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
    pub body: Body,
}

/// A body the host holds (an attachment's bytes as the caller gave them, a file, or what the
/// host's compressor made of them): the transport sends it without it passing through wasm
/// memory, and can send it again (a retry). `len` is its size in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostBody {
    pub handle: u32,
    pub len: u64,
}

/// The body of a [`Request`]: bytes in memory, or a [`HostBody`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    Bytes(Vec<u8>),
    Host(HostBody),
}

impl Body {
    /// Size in bytes, as sent.
    pub fn len(&self) -> u64 {
        match self {
            Body::Bytes(b) => b.len() as u64,
            Body::Host(h) => h.len,
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The bytes of a body in memory (empty for a host body).
    pub fn bytes(&self) -> &[u8] {
        match self {
            Body::Bytes(b) => b,
            Body::Host(_) => &[],
        }
    }
}

impl From<Vec<u8>> for Body {
    fn from(b: Vec<u8>) -> Self {
        Body::Bytes(b)
    }
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

/// The host's attachment bodies: files opened for the transport to stream, samples, and the
/// host's own Brotli compressor (Node's zlib, off the event loop). Errors are `INVALID_INPUT`
/// with a message naming the path or saying what could not be read.
#[allow(async_fn_in_trait)]
pub trait Files {
    /// Opens the file at `path` as a host body (Node: a file-backed `Blob` that `fetch` reads as
    /// it sends).
    async fn open(&self, path: &str) -> Result<HostBody, Error>;
    /// Up to the first `n` bytes of a host body.
    async fn head(&self, body: HostBody, n: usize) -> Result<Vec<u8>, Error>;
    /// A host body's bytes, for the wasm encoder when the host has no compressor.
    async fn read(&self, body: HostBody) -> Result<Vec<u8>, Error>;
    /// Brotli of a host body at `quality` (text mode), made by the host; `None` when the host has
    /// no compressor (the core then compresses in wasm).
    async fn compress(&self, body: HostBody, quality: u32) -> Result<Option<HostBody>, Error>;
    /// The host may forget `body`: it will not be sent again.
    fn release(&self, body: HostBody);
    /// Brotli of `bytes` at `quality`, made by the host at once (for the report, which every
    /// later step waits for); `None` when the host has no compressor.
    fn compress_now(&self, bytes: &[u8], quality: u32) -> Result<Option<HostBody>, Error>;
}

/// [`Files`] for platforms without a file system or host compressor: every path is an
/// `INVALID_INPUT` error, and there are no host bodies.
pub struct NoFiles;

impl Files for NoFiles {
    async fn open(&self, path: &str) -> Result<HostBody, Error> {
        Err(Error::invalid_input(format!(
            "attachment path {path:?} cannot be read here: pass `data` (paths are read only in Node)"
        )))
    }
    async fn head(&self, _: HostBody, _: usize) -> Result<Vec<u8>, Error> {
        Err(no_host_bodies())
    }
    async fn read(&self, _: HostBody) -> Result<Vec<u8>, Error> {
        Err(no_host_bodies())
    }
    async fn compress(&self, _: HostBody, _: u32) -> Result<Option<HostBody>, Error> {
        Ok(None)
    }
    fn release(&self, _: HostBody) {}
    fn compress_now(&self, _: &[u8], _: u32) -> Result<Option<HostBody>, Error> {
        Ok(None)
    }
}

fn no_host_bodies() -> Error {
    Error::invalid_input("internal: no host bodies here")
}
