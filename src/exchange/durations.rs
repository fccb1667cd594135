//! The durations exchange: create -> PUT test list -> submit -> poll (docs/service-contract.md
//! §4).

use serde::{Deserialize, Serialize};

use super::ctx::{success, with, Ctx, Env};
use super::http::{Clock, Files, Method, Request, Transport};
use super::payload::{decode_download_body, encode_upload_body, ReportDocument, ReportInput};
use super::url::{is_http_url, BaseUrl};
use super::{bearer, check_token, endpoints, header, is_header_safe};
use crate::error::{Error, ErrorCode, Step};
use crate::limits;

/// Options of [`fetch_durations`]: `FetchDurationsOptions` of pkg-template/types/exchange.d.ts.
#[derive(Debug, Clone, PartialEq)]
pub struct DurationsOptions {
    pub base_url: String,
    pub access_token: String,
    pub commit_id: String,
    pub shard_group_key: String,
    pub org_slug: Option<String>,
    pub project_slug: Option<String>,
    /// The test list: a report whose tests have empty `attempts`.
    pub report: ReportInput,
    pub timeout_ms: u64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CreateBody<'a> {
    commit_id: &'a str,
    shard_group_key: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    org_slug: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    project_slug: Option<&'a str>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Session {
    test_durations_token: String,
    upload_url: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Submitted {
    download_url: String,
}

impl DurationsOptions {
    /// Checks every input; returns the base URL and the encoded test list.
    fn check(&self) -> Result<(BaseUrl, Vec<u8>), Error> {
        let base = BaseUrl::parse(&self.base_url)?;
        check_token(&self.access_token, "accessToken")?;
        if !limits::is_valid_commit_id(&self.commit_id) {
            return Err(Error::invalid_input(format!(
                "commitId must be a full git commit SHA ({} lowercase hex characters), got {:?}",
                limits::COMMIT_ID_LEN,
                self.commit_id.chars().take(60).collect::<String>()
            )));
        }
        if !limits::is_valid_shard_group_key(&self.shard_group_key) {
            return Err(Error::invalid_input(format!(
                "shardGroupKey must match {} and be 1 to {} characters long (use shardGroupKeyFor to derive one), got {:?}",
                limits::SHARD_GROUP_KEY_PATTERN,
                limits::SHARD_GROUP_KEY_MAX_LEN,
                self.shard_group_key.chars().take(60).collect::<String>()
            )));
        }
        for (name, slug) in [("orgSlug", &self.org_slug), ("projectSlug", &self.project_slug)] {
            if matches!(slug, Some(s) if s.trim().is_empty()) {
                return Err(Error::invalid_input(format!("{name} must not be empty: omit it instead")));
            }
        }
        let body = encode_upload_body(&self.report).map_err(|e| Error { message: format!("report: {}", e.message), ..e })?;
        Ok((base, body))
    }
}

/// Runs the durations exchange and returns the annotated report.
pub async fn fetch_durations<T: Transport, C: Clock, F: Files>(
    env: Env<'_, T, C, F>,
    opts: &DurationsOptions,
) -> Result<ReportDocument, Error> {
    let (base, test_list) = opts.check()?;
    let cx = Ctx::new(env, "durations exchange", opts.timeout_ms);
    cx.secret(&opts.access_token);

    // 1. create
    let body = CreateBody {
        commit_id: &opts.commit_id,
        shard_group_key: &opts.shard_group_key,
        org_slug: opts.org_slug.as_deref(),
        project_slug: opts.project_slug.as_deref(),
    };
    let req = Request {
        method: Method::Post,
        url: base.join(endpoints::CREATE),
        headers: vec![bearer(&opts.access_token), header("Content-Type", "application/json")],
        body: serde_json::to_vec(&body).unwrap_or_default().into(),
    };
    let (resp, n) = cx.call(Step::Create, &req, success).await?;
    let session: Session = cx.json(Step::Create, &resp, n)?;
    cx.secret(&session.test_durations_token);
    cx.secret(&session.upload_url);
    if !is_header_safe(&session.test_durations_token) || !is_http_url(&session.upload_url) {
        return Err(cx.invalid_response(Step::Create, n, resp.status, "create returned an empty or malformed testDurationsToken or uploadUrl"));
    }

    // 2. PUT the test list (no Authorization: the presigned URL carries it)
    let req = Request {
        method: Method::Put,
        url: session.upload_url.clone(),
        headers: vec![
            header("Content-Type", limits::REPORT_CONTENT_TYPE),
            header("Content-Encoding", limits::REPORT_CONTENT_ENCODING),
        ],
        body: test_list.into(),
    };
    cx.call(Step::UploadTestList, &req, success).await?;

    // 3. submit
    let req = Request {
        method: Method::Post,
        url: base.join(endpoints::SUBMIT),
        headers: vec![bearer(&session.test_durations_token)],
        body: Vec::new().into(),
    };
    let (resp, n) = cx.call(Step::Submit, &req, success).await?;
    let submitted: Submitted = cx.json(Step::Submit, &resp, n)?;
    cx.secret(&submitted.download_url);
    if !is_http_url(&submitted.download_url) {
        return Err(cx.invalid_response(Step::Submit, n, resp.status, "submit returned an empty or malformed downloadUrl"));
    }

    // 4. poll: 404 while computing, 200 when ready
    let req = Request { method: Method::Get, url: submitted.download_url.clone(), headers: Vec::new(), body: Vec::new().into() };
    let mut polls = 0;
    let mut interval = cx.env.retry.poll_interval_ms;
    loop {
        cx.earlier.set(polls);
        // a poll that failed without a status of its own (the deadline passed while it was in
        // flight) says the one the polls before it got: the result was still not ready
        let (resp, n) = cx
            .call(Step::Poll, &req, |s| s == 200 || s == 404)
            .await
            .map_err(|e| Error { attempts: Some(polls + e.attempts.unwrap_or(0)), status: e.status.or((polls > 0).then_some(404)), ..e })?;
        polls += n;
        if resp.status == 200 {
            return decode_download_body(&resp.body, resp.header("content-encoding")).map_err(|e| {
                let code = if e.code == ErrorCode::InvalidInput { ErrorCode::InvalidResponse } else { e.code };
                with(Error { code, ..e }, Step::Poll, polls, Some(200))
            });
        }
        let why = format!("the annotated report was still not ready after {polls} polls");
        cx.sleep(interval, Step::Poll, polls, Some(404), &why).await?;
        interval = cx.env.retry.next_poll_interval(interval);
    }
}
