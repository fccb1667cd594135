//! The upload exchange: start -> PUT report -> attachment URLs (batches of at most 1000 ids)
//! -> PUT attachments (bounded, adaptive concurrency) -> finish (docs/service-contract.md §5).
//!
//! Attachment bytes need not pass through wasm memory: an attachment given as the caller's bytes
//! or as a file is a [`HostBody`] the transport sends as it is, and a text-like one is compressed
//! by the host's compressor when there is one ([`Files::compress`]: Node's zlib, in its thread
//! pool, so PUTs overlap compression). What gets compressed, at which quality and with which
//! headers is decided here.

use std::cell::Cell;
use std::collections::{HashMap, HashSet};

use futures_util::stream::{FuturesUnordered, StreamExt};
use serde::{Deserialize, Serialize};

use super::ctx::{success, with, Ctx, Env};
use super::http::{Body, Clock, Files, HostBody, Method, Request, Transport};
use super::payload::{check_report, is_text_like, CheckedReport, ReportInput};
use super::url::{is_http_url, BaseUrl};
use super::{bearer, check_token, endpoints, header, is_header_safe};
use crate::codec::{self, CompressOptions};
use crate::error::{Error, Step};
use crate::limits;

/// Where an attachment's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttachmentData {
    Bytes(Vec<u8>),
    /// Bytes the host holds (the caller's, as given: not copied).
    Host(HostBody),
    /// A file path, opened through [`Files`] when its turn to upload comes (Node only).
    Path(String),
}

/// One attachment to upload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// The id the report references (at most 256 characters, unique).
    pub id: String,
    pub content_type: String,
    pub data: AttachmentData,
}

/// Options of [`upload_report`]: `UploadReportOptions` of pkg-template/types/exchange.d.ts.
#[derive(Debug, Clone, PartialEq)]
pub struct UploadOptions {
    pub base_url: String,
    pub access_token: String,
    pub report: ReportInput,
    pub attachments: Vec<Attachment>,
    /// Attachment uploads in flight at once (>= 1); `None`: adaptive (see
    /// [`limits::MAX_ADAPTIVE_ATTACHMENT_CONCURRENCY`]).
    pub concurrency: Option<usize>,
    pub timeout_ms: u64,
}

/// What [`upload_report`] resolves with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadResult {
    /// The service's relative tracking path.
    pub web_url: String,
    /// `web_url` resolved against `baseUrl`.
    pub report_url: String,
    /// Attachments uploaded.
    pub attachments: usize,
    /// Bytes sent to storage: the encoded report plus every attachment as sent.
    pub bytes: u64,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Session {
    upload_token: String,
    web_url: String,
    presigned_report_url: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AttachmentsBody<'a> {
    attachment_ids: Vec<&'a str>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AttachmentUrl {
    attachment_id: String,
    presigned_url: String,
}

impl UploadOptions {
    /// Checks every input; returns the base URL and the report found valid.
    fn check(&self) -> Result<(BaseUrl, CheckedReport<'_>), Error> {
        let base = BaseUrl::parse(&self.base_url)?;
        check_token(&self.access_token, "accessToken")?;
        if self.concurrency == Some(0) {
            return Err(Error::invalid_input("concurrency must be at least 1"));
        }
        let mut seen = HashSet::new();
        for (i, a) in self.attachments.iter().enumerate() {
            let len = a.id.chars().count();
            if len == 0 || len > limits::MAX_ATTACHMENT_ID_LEN {
                return Err(Error::invalid_input(format!(
                    "attachments[{i}].id must be 1 to {} characters long, got {len}",
                    limits::MAX_ATTACHMENT_ID_LEN
                )));
            }
            if !seen.insert(a.id.as_str()) {
                return Err(Error::invalid_input(format!("attachments[{i}].id {:?} is given twice; ids must be unique", a.id)));
            }
            if a.content_type.trim().is_empty() {
                return Err(Error::invalid_input(format!("attachments[{i}].contentType is required (e.g. image/png)")));
            }
            if let AttachmentData::Path(p) = &a.data {
                if p.is_empty() {
                    return Err(Error::invalid_input(format!("attachments[{i}].path is empty")));
                }
            }
        }
        let report = check_report(&self.report).map_err(|e| Error { message: format!("report: {}", e.message), ..e })?;
        Ok((base, report))
    }
}

/// Runs the upload exchange. `finish` is called only after the report and every attachment
/// are stored; a failed attachment fails the upload (its id is in the message).
pub async fn upload_report<T: Transport, C: Clock, F: Files>(
    env: Env<'_, T, C, F>,
    opts: &UploadOptions,
) -> Result<UploadResult, Error> {
    let (base, report) = opts.check()?;
    let cx = Ctx::new(env, "upload exchange", opts.timeout_ms);
    cx.secret(&opts.access_token);

    // 1. start (no body is sent, but the contract gives the request a Content-Type:
    // docs/service-contract.md §5.1), while the report is encoded
    let req = Request {
        method: Method::Post,
        url: base.join(endpoints::START),
        headers: vec![bearer(&opts.access_token), header("Content-Type", "application/json")],
        body: Vec::new().into(),
    };
    let (started, encoded) = futures_util::future::join(cx.call(Step::Start, &req, success), report_body(cx.env.files, report)).await;
    let (resp, n) = started?;
    let session: Session = cx.json(Step::Start, &resp, n)?;
    cx.secret(&session.upload_token);
    cx.secret(&session.presigned_report_url);
    if !is_header_safe(&session.upload_token) || !is_http_url(&session.presigned_report_url) {
        return Err(cx.invalid_response(Step::Start, n, resp.status, "start returned an empty or malformed uploadToken or presignedReportUrl"));
    }

    // 2. PUT the report
    let (body, _held) = encoded.map_err(|e| Error { message: format!("report: {}", e.message), ..with(e, Step::UploadReport, 0, None) })?;
    let bytes = Cell::new(body.len());
    let req = Request {
        method: Method::Put,
        url: session.presigned_report_url.clone(),
        headers: vec![
            header("Content-Type", limits::REPORT_CONTENT_TYPE),
            header("Content-Encoding", limits::REPORT_CONTENT_ENCODING),
        ],
        body,
    };
    cx.call(Step::UploadReport, &req, success).await?;
    drop((req, _held));

    // 3. attachments, batch by batch: request URLs, then PUT them, a window of them in flight
    let mut window = Window::new(opts.concurrency);
    let budget = Budget::default();
    for batch in opts.attachments.chunks(limits::MAX_ATTACHMENT_IDS_PER_REQUEST) {
        let urls = request_urls(&cx, &base, &session.upload_token, batch).await?;
        let mut todo = batch.iter();
        let mut puts = FuturesUnordered::new();
        loop {
            while puts.len() < window.size {
                let Some(a) = todo.next() else { break };
                let url = urls.get(a.id.as_str()).map(String::as_str).unwrap_or_default();
                puts.push(put_attachment(&cx, &budget, a, url));
            }
            let Some(done) = puts.next().await else { break };
            let (sent, tries) = done?;
            bytes.set(bytes.get() + sent);
            window.stored(tries);
        }
    }

    // 4. finish
    let req = Request {
        method: Method::Post,
        url: base.join(endpoints::FINISH),
        headers: vec![bearer(&session.upload_token)],
        body: Vec::new().into(),
    };
    cx.call(Step::Finish, &req, success).await?;

    Ok(UploadResult {
        report_url: base.resolve(&session.web_url),
        web_url: session.web_url,
        attachments: opts.attachments.len(),
        bytes: bytes.get(),
    })
}

/// The report's body: Brotli bytes as given, or the JSON encoded at quality 9 (the contract's
/// setting, docs/service-contract.md §2.2) by the host's compressor when there is one (Node's
/// zlib: about 3x the speed of the wasm encoder in a fresh process, whose code is not yet
/// optimised; bench/upload.mjs), else by the Rust codec. Awaited beside `start`, so the encoding overlaps start's round trip.
async fn report_body<'f, F: Files>(files: &'f F, report: CheckedReport<'_>) -> Result<(Body, Held<'f, F>), Error> {
    let mut held = Held { files, body: None };
    let body = match report {
        CheckedReport::Encoded(b) => Body::Bytes(b.into_owned()),
        // the caller's bytes, sent from where they are (not released: the caller's, as their
        // attachments' bytes)
        CheckedReport::Held(h) => Body::Host(h.body),
        CheckedReport::Json(json) => match files.compress_now(&json, codec::DEFAULT_QUALITY)? {
            Some(h) => {
                held.body = Some(h);
                Body::Host(h)
            }
            None => Body::Bytes(crate::report::encode_json(&json)),
        },
    };
    Ok((body, held))
}

/// `POST attachments` for one batch: a presigned URL per id, every id answered.
async fn request_urls<T: Transport, C: Clock, F: Files>(
    cx: &Ctx<'_, T, C, F>,
    base: &BaseUrl,
    token: &str,
    batch: &[Attachment],
) -> Result<HashMap<String, String>, Error> {
    let body = AttachmentsBody { attachment_ids: batch.iter().map(|a| a.id.as_str()).collect() };
    let req = Request {
        method: Method::Post,
        url: base.join(endpoints::ATTACHMENTS),
        headers: vec![bearer(token), header("Content-Type", "application/json")],
        body: serde_json::to_vec(&body).unwrap_or_default().into(),
    };
    let (resp, n) = cx.call(Step::Attachments, &req, success).await?;
    let entries: Vec<AttachmentUrl> = cx.json(Step::Attachments, &resp, n)?;
    let mut urls = HashMap::with_capacity(entries.len());
    for e in entries {
        cx.secret(&e.presigned_url);
        if !is_http_url(&e.presigned_url) {
            let msg = format!("attachments returned a malformed presignedUrl for attachment {:?}", e.attachment_id);
            return Err(cx.invalid_response(Step::Attachments, n, resp.status, &msg));
        }
        urls.insert(e.attachment_id, e.presigned_url);
    }
    if let Some(missing) = batch.iter().find(|a| !urls.contains_key(&a.id)) {
        let msg = format!("attachments returned no presignedUrl for attachment {:?}", missing.id);
        return Err(cx.invalid_response(Step::Attachments, n, resp.status, &msg));
    }
    Ok(urls)
}

/// How many attachment PUTs may be in flight: fixed by the `concurrency` option, else adaptive
/// (limits.rs): one more per attachment stored at the first try, half after a retry.
struct Window {
    size: usize,
    adaptive: bool,
}

impl Window {
    fn new(concurrency: Option<usize>) -> Self {
        match concurrency {
            Some(n) => Window { size: n.max(1), adaptive: false },
            None => Window { size: limits::DEFAULT_ATTACHMENT_CONCURRENCY, adaptive: true },
        }
    }
    fn stored(&mut self, tries: u32) {
        if self.adaptive {
            self.size = if tries > 1 {
                (self.size / 2).max(1)
            } else {
                (self.size + 1).min(limits::MAX_ADAPTIVE_ATTACHMENT_CONCURRENCY)
            };
        }
    }
}

/// The attachment bytes in flight, bounded by [`limits::MAX_ATTACHMENT_BYTES_IN_FLIGHT`]: a
/// PUT takes its share before its body is read, compressed or sent, and gives it back when
/// done (or dropped).
#[derive(Default)]
struct Budget {
    in_flight: Cell<u64>,
    waiting: std::cell::RefCell<Vec<std::task::Waker>>,
}

impl Budget {
    /// Waits until `n` more bytes fit (or nothing else is in flight), and takes them.
    async fn take(&self, n: u64) -> Taken<'_> {
        futures_util::future::poll_fn(|cx| {
            let now = self.in_flight.get();
            if now == 0 || now + n <= limits::MAX_ATTACHMENT_BYTES_IN_FLIGHT {
                self.in_flight.set(now + n);
                std::task::Poll::Ready(())
            } else {
                self.waiting.borrow_mut().push(cx.waker().clone());
                std::task::Poll::Pending
            }
        })
        .await;
        Taken { budget: self, n }
    }
}

/// Bytes taken from a [`Budget`], given back when dropped.
struct Taken<'b> {
    budget: &'b Budget,
    n: u64,
}

impl Drop for Taken<'_> {
    fn drop(&mut self) {
        self.budget.in_flight.set(self.budget.in_flight.get() - self.n);
        for w in self.budget.waiting.take() {
            w.wake();
        }
    }
}

/// Brotli quality of text-like attachments: the size of quality 9 within about 2.5% (test logs)
/// at a fifth of its time (bench/upload.mjs); the same as @flakiness/sdk's, in text mode.
pub const ATTACHMENT_BROTLI_QUALITY: u32 = 6;
/// Compression is tried only when a prefix of this many bytes looks compressible: text that is
/// really random data (an encrypted or already compressed file) is sent as it is.
pub const SAMPLE_BYTES: usize = 8 * 1024;
/// The sample's collision entropy (Rényi order 2, in bits per byte) below which compressing
/// pays: random bytes have 8, base64 6, hex 4, logs and JSON 3 to 5. Entropy below `7.2` bits
/// is a sum of squared byte frequencies above `2^-7.2`, about `68 / 10_000`: no logarithm.
const MIN_COLLISION_PER_10K: u64 = 68;

/// The Brotli quality to compress an attachment of `content_type` at, given the first
/// [`SAMPLE_BYTES`] of it (or all of a shorter one): `None` to send it as it is (not text-like,
/// empty, or it looks incompressible). Whether the compressed body is sent is decided after:
/// only when it is smaller.
pub fn attachment_compression(content_type: &str, sample: &[u8]) -> Option<u32> {
    (is_text_like(content_type) && !sample.is_empty() && compression_pays(sample)).then_some(ATTACHMENT_BROTLI_QUALITY)
}

/// True when the sample looks worth compressing the whole (a short body is simply compressed:
/// whether that is smaller decides). Counting bytes costs microseconds, where a trial
/// compression would cost a millisecond per attachment on the event loop.
fn compression_pays(sample: &[u8]) -> bool {
    if sample.len() < 1024 {
        return true;
    }
    let mut counts = [0u64; 256];
    for &b in sample {
        counts[b as usize] += 1;
    }
    let n = sample.len() as u64;
    let squares: u64 = counts.iter().map(|c| c * c).sum();
    squares * 10_000 > MIN_COLLISION_PER_10K * n * n
}

/// Releases a host body when dropped (sent, refused, or the exchange stopped).
struct Held<'f, F: Files> {
    files: &'f F,
    body: Option<HostBody>,
}

impl<F: Files> Drop for Held<'_, F> {
    fn drop(&mut self) {
        if let Some(b) = self.body.take() {
            self.files.release(b);
        }
    }
}

/// PUTs one attachment, Brotli-compressed when text-like and it pays; returns the bytes sent
/// and the tries made.
async fn put_attachment<T: Transport, C: Clock, F: Files>(
    cx: &Ctx<'_, T, C, F>,
    budget: &Budget,
    a: &Attachment,
    url: &str,
) -> Result<(u64, u32), Error> {
    let in_context = |e: Error| Error { message: format!("attachment {:?}: {}", a.id, e.message), ..e };
    let fail = |e: Error| in_context(with(e, Step::UploadAttachment, 0, None));
    let files = cx.env.files;
    // the body as given: bytes here, or held by the host (a file opened now)
    let mut opened = Held { files, body: None };
    let raw = match &a.data {
        AttachmentData::Bytes(b) => Body::Bytes(b.clone()),
        AttachmentData::Host(h) => Body::Host(*h),
        AttachmentData::Path(p) => {
            let h = files.open(p).await.map_err(fail)?;
            opened.body = Some(h);
            Body::Host(h)
        }
    };
    let _taken = budget.take(raw.len()).await;
    let mut headers = vec![header("Content-Type", &a.content_type)];
    let mut compressed = Held { files, body: None };
    let mut body = raw;
    if is_text_like(&a.content_type) && !body.is_empty() {
        let sample = match &body {
            Body::Bytes(b) => std::borrow::Cow::Borrowed(&b[..b.len().min(SAMPLE_BYTES)]),
            Body::Host(h) => std::borrow::Cow::Owned(files.head(*h, SAMPLE_BYTES).await.map_err(fail)?),
        };
        if let Some(quality) = attachment_compression(&a.content_type, &sample) {
            let opts = CompressOptions { quality, ..CompressOptions::default() };
            let br = match &body {
                Body::Bytes(b) => Body::Bytes(codec::compress(b, opts).map_err(fail)?),
                Body::Host(h) => match files.compress(*h, quality).await.map_err(fail)? {
                    Some(c) => {
                        compressed.body = Some(c);
                        Body::Host(c)
                    }
                    None => Body::Bytes(codec::compress(&files.read(*h).await.map_err(fail)?, opts).map_err(fail)?),
                },
            };
            if br.len() < body.len() {
                headers.push(header("Content-Encoding", "br"));
                body = br;
            }
        }
    }
    let req = Request { method: Method::Put, url: url.to_string(), headers, body };
    let (_, tries) = cx.call(Step::UploadAttachment, &req, success).await.map_err(in_context)?;
    Ok((req.body.len(), tries))
}
