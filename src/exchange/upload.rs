//! The upload exchange: start -> PUT report -> attachment URLs (batches of at most 1000 ids)
//! -> PUT attachments (bounded concurrency) -> finish (service-api.md 3.2, 4.5-4.9).

use std::cell::Cell;
use std::collections::{HashMap, HashSet};

use futures_util::stream::{self, StreamExt};
use serde::{Deserialize, Serialize};

use super::ctx::{success, with, Ctx, Env};
use super::http::{Clock, Files, Method, Request, Transport};
use super::payload::{encode_report, is_text_like, ReportInput};
use super::url::{is_http_url, BaseUrl};
use super::{bearer, check_token, endpoints, header, is_header_safe};
use crate::codec::{self, CompressOptions};
use crate::error::{Error, Step};
use crate::limits;

/// Where an attachment's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttachmentData {
    Bytes(Vec<u8>),
    /// A file path, read through [`Files`] when its turn to upload comes (Node only).
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

/// Options of [`upload_report`] (api.md, "The upload exchange").
#[derive(Debug, Clone, PartialEq)]
pub struct UploadOptions {
    pub base_url: String,
    pub access_token: String,
    pub report: ReportInput,
    pub attachments: Vec<Attachment>,
    /// Attachment uploads in flight at once (>= 1).
    pub concurrency: usize,
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
    /// Checks every input; returns the base URL and the encoded report.
    fn check(&self) -> Result<(BaseUrl, Vec<u8>), Error> {
        let base = BaseUrl::parse(&self.base_url)?;
        check_token(&self.access_token, "accessToken")?;
        if self.concurrency == 0 {
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
        let body = encode_report(&self.report).map_err(|e| Error { message: format!("report: {}", e.message), ..e })?;
        Ok((base, body))
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

    // 1. start: no body is sent, but the spec (4.5) gives the request Content-Type
    let req = Request {
        method: Method::Post,
        url: base.join(endpoints::START),
        headers: vec![bearer(&opts.access_token), header("Content-Type", "application/json")],
        body: Vec::new(),
    };
    let (resp, n) = cx.call(Step::Start, &req, success).await?;
    let session: Session = cx.json(Step::Start, &resp, n)?;
    cx.secret(&session.upload_token);
    cx.secret(&session.presigned_report_url);
    if !is_header_safe(&session.upload_token) || !is_http_url(&session.presigned_report_url) {
        return Err(cx.invalid_response(Step::Start, n, resp.status, "start returned an empty or malformed uploadToken or presignedReportUrl"));
    }

    // 2. PUT the report
    let bytes = Cell::new(report.len() as u64);
    let req = Request {
        method: Method::Put,
        url: session.presigned_report_url.clone(),
        headers: vec![
            header("Content-Type", limits::REPORT_CONTENT_TYPE),
            header("Content-Encoding", limits::REPORT_CONTENT_ENCODING),
        ],
        body: report,
    };
    cx.call(Step::UploadReport, &req, success).await?;
    drop(req);

    // 3. attachments, batch by batch: request URLs, then PUT them
    for batch in opts.attachments.chunks(limits::MAX_ATTACHMENT_IDS_PER_REQUEST) {
        let urls = request_urls(&cx, &base, &session.upload_token, batch).await?;
        let mut puts = stream::iter(batch.iter().map(|a| {
            let url = urls.get(a.id.as_str()).map(String::as_str).unwrap_or_default();
            put_attachment(&cx, a, url)
        }))
        .buffer_unordered(opts.concurrency);
        while let Some(sent) = puts.next().await {
            bytes.set(bytes.get() + sent?);
        }
    }

    // 4. finish
    let req = Request {
        method: Method::Post,
        url: base.join(endpoints::FINISH),
        headers: vec![bearer(&session.upload_token)],
        body: Vec::new(),
    };
    cx.call(Step::Finish, &req, success).await?;

    Ok(UploadResult {
        report_url: base.resolve(&session.web_url),
        web_url: session.web_url,
        attachments: opts.attachments.len(),
        bytes: bytes.get(),
    })
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
        body: serde_json::to_vec(&body).unwrap_or_default(),
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

/// PUTs one attachment, Brotli-compressed when text-like; returns the bytes sent.
async fn put_attachment<T: Transport, C: Clock, F: Files>(
    cx: &Ctx<'_, T, C, F>,
    a: &Attachment,
    url: &str,
) -> Result<u64, Error> {
    let in_context = |e: Error| Error { message: format!("attachment {:?}: {}", a.id, e.message), ..e };
    let raw = match &a.data {
        AttachmentData::Bytes(b) => std::borrow::Cow::Borrowed(b.as_slice()),
        AttachmentData::Path(p) => std::borrow::Cow::Owned(
            cx.env.files.read(p).await.map_err(|e| in_context(with(e, Step::UploadAttachment, 0, None)))?,
        ),
    };
    let mut headers = vec![header("Content-Type", &a.content_type)];
    let body = if is_text_like(&a.content_type) {
        headers.push(header("Content-Encoding", "br"));
        codec::compress(&raw, CompressOptions::default()).map_err(|e| in_context(with(e, Step::UploadAttachment, 0, None)))?
    } else {
        raw.into_owned()
    };
    let req = Request { method: Method::Put, url: url.to_string(), headers, body };
    cx.call(Step::UploadAttachment, &req, success).await.map_err(in_context)?;
    Ok(req.body.len() as u64)
}
