//! The running state of one exchange: IO seams, deadline, abort check, progress events,
//! secrets to keep out of messages, and the retrying `call`.

use std::cell::{Cell, RefCell};

use serde::Serialize;

use super::http::{Clock, Files, Request, Response, Transport};
use super::retry::{is_retryable_status, retry_after_ms, Jitter, RetryPolicy};
use crate::error::{redact_url, Error, ErrorCode, Step};

/// A progress event: one per try of a call (`status` absent when no response came), with the
/// request body size for uploads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Event {
    pub step: &'static str,
    pub attempt: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
}

/// Where an exchange is: the call in progress (or the last one), its try, and the last HTTP
/// status it got. The edge reads it to name the step of a timeout or abort that cuts a request
/// short.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    pub step: Option<Step>,
    pub attempts: u32,
    pub status: Option<u16>,
}

/// Query values of presigned URLs at least this long are treated as credentials (signatures,
/// access key ids, security tokens); shorter ones (methods, expiry times) are not.
const MIN_SECRET_QUERY_VALUE_LEN: usize = 16;

/// The IO and hooks an exchange runs with.
pub struct Env<'a, T, C, F> {
    pub transport: &'a T,
    pub clock: &'a C,
    pub files: &'a F,
    /// True once the caller's abort signal fired.
    pub is_aborted: &'a dyn Fn() -> bool,
    pub on_event: &'a dyn Fn(&Event),
    /// Updated before and after every try.
    pub progress: &'a Cell<Progress>,
    pub retry: RetryPolicy,
    /// Seed of the backoff jitter (fixed in tests, from the clock in production).
    pub jitter_seed: u64,
}

/// One running exchange.
pub(crate) struct Ctx<'a, T, C, F> {
    pub env: Env<'a, T, C, F>,
    what: &'static str,
    timeout_ms: u64,
    deadline_ms: u64,
    jitter: RefCell<Jitter>,
    /// Tokens and presigned URLs: replaced in any text that reaches a message.
    secrets: RefCell<Vec<String>>,
    /// Tries of the current step made by its earlier calls (the polls before this one): the
    /// progress counts them, as the step's own errors do, so a timeout the edge names says as
    /// many attempts as the one the core names.
    pub earlier: Cell<u32>,
}

impl<'a, T: Transport, C: Clock, F: Files> Ctx<'a, T, C, F> {
    pub fn new(env: Env<'a, T, C, F>, what: &'static str, timeout_ms: u64) -> Self {
        let deadline_ms = env.clock.now_ms().saturating_add(timeout_ms);
        let jitter = RefCell::new(Jitter::new(env.jitter_seed));
        Ctx { env, what, timeout_ms, deadline_ms, jitter, secrets: RefCell::new(Vec::new()), earlier: Cell::new(0) }
    }

    /// Registers a token or presigned URL so it never appears in a message. For a URL its
    /// query string and every long query value (signatures, credentials) are registered too:
    /// storage error bodies echo them without the URL around them.
    pub fn secret(&self, s: &str) {
        if s.is_empty() {
            return;
        }
        let mut secrets = self.secrets.borrow_mut();
        secrets.push(s.to_string());
        if let (true, Some((_, query))) = (s.contains("://"), s.split_once('?')) {
            let query = query.split('#').next().unwrap_or("");
            if !query.is_empty() {
                secrets.push(query.to_string());
            }
            for value in query.split('&').filter_map(|kv| kv.split_once('=').map(|(_, v)| v)) {
                if value.len() >= MIN_SECRET_QUERY_VALUE_LEN {
                    secrets.push(value.to_string());
                }
            }
        }
    }

    /// `text` with every registered secret replaced (URLs by their redacted form).
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_string();
        let mut secrets = self.secrets.borrow().clone();
        // longest first: a URL before the token inside it (a handful of secrets: no sort, whose
        // stable version would be the only one in the .wasm)
        while let Some(i) = (0..secrets.len()).max_by_key(|&i| secrets[i].len()) {
            let s = secrets.swap_remove(i);
            let with = if s.contains("://") { redact_url(&s) } else { "[redacted]".to_string() };
            out = out.replace(&s, &with);
        }
        out
    }

    /// Fails when aborted or past the deadline.
    pub fn check(&self, step: Step, attempts: u32, status: Option<u16>) -> Result<(), Error> {
        let err = if (self.env.is_aborted)() {
            Error::new(ErrorCode::Aborted, format!("the {} was aborted", self.what))
        } else if self.env.clock.now_ms() >= self.deadline_ms {
            self.timeout_error("")
        } else {
            return Ok(());
        };
        Err(with(err, step, attempts, status))
    }

    fn timeout_error(&self, detail: &str) -> Error {
        Error::new(
            ErrorCode::Timeout,
            format!("the {} did not finish within timeoutMs={}{detail}", self.what, self.timeout_ms),
        )
    }

    /// Sleeps `ms`, failing at once with `TIMEOUT` if that would pass the deadline.
    pub async fn sleep(&self, ms: u64, step: Step, attempts: u32, status: Option<u16>, why: &str) -> Result<(), Error> {
        let now = self.env.clock.now_ms();
        if now.saturating_add(ms) > self.deadline_ms {
            let detail = format!(" ({why}; waiting {ms} ms more would pass it)");
            return Err(with(self.timeout_error(&detail), step, attempts, status));
        }
        self.env.clock.sleep(ms).await;
        self.check(step, attempts, status)
    }

    /// Sends `req` until a status `accept`s, retrying network errors and retryable statuses
    /// (honouring `Retry-After`) up to the policy's tries. Returns the response and the tries.
    /// `accept` is a function pointer, not a generic: each closure type would compile its own
    /// copy of this state machine into the .wasm (about 1.5 KB each).
    pub async fn call(&self, step: Step, req: &Request, accept: fn(u16) -> bool) -> Result<(Response, u32), Error> {
        let bytes = (!req.body.is_empty()).then_some(req.body.len());
        let max = self.env.retry.max_attempts.max(1);
        let mut attempt = 0;
        let mut last_status = None;
        loop {
            self.check(step, attempt, last_status)?;
            attempt += 1;
            let earlier = self.earlier.get();
            self.env.progress.set(Progress { step: Some(step), attempts: earlier + attempt, status: last_status });
            let outcome = self.env.transport.send(req).await;
            // a transport error may still carry a status (a body that failed to decode)
            let status = match &outcome {
                Ok(r) => Some(r.status),
                Err(e) => e.status,
            };
            self.env.progress.set(Progress { step: Some(step), attempts: earlier + attempt, status: status.or(last_status) });
            (self.env.on_event)(&Event { step: step.as_str(), attempt, status, bytes });
            self.check(step, attempt, status.or(last_status))?;
            let wait = match outcome {
                Ok(resp) if accept(resp.status) => return Ok((resp, attempt)),
                Ok(resp) => {
                    last_status = Some(resp.status);
                    let err = self.status_error(step, req, &resp, attempt);
                    if !is_retryable_status(resp.status) || attempt >= max {
                        return Err(err);
                    }
                    match resp.header("retry-after").and_then(|v| retry_after_ms(v, self.env.clock.now_ms())) {
                        Some(ms) => ms,
                        None => self.backoff(attempt),
                    }
                }
                Err(e) if e.code == ErrorCode::Network => {
                    let err = Error::new(
                        ErrorCode::Network,
                        format!(
                            "{} {} failed: {}",
                            req.method.as_str(),
                            redact_url(&req.url),
                            self.scrub(&e.message)
                        ),
                    );
                    if attempt >= max {
                        return Err(with(err, step, attempt, last_status));
                    }
                    self.backoff(attempt)
                }
                Err(e) => {
                    let msg = self.scrub(&e.message);
                    return Err(with(Error { message: msg, ..e }, step, attempt, status.or(last_status)));
                }
            };
            self.sleep(wait, step, attempt, last_status, "retrying").await?;
        }
    }

    fn backoff(&self, attempt: u32) -> u64 {
        let r = self.jitter.borrow_mut().next();
        self.env.retry.backoff_ms(attempt, r)
    }

    fn status_error(&self, step: Step, req: &Request, resp: &Response, attempts: u32) -> Error {
        let snippet: String = String::from_utf8_lossy(&resp.body).chars().take(300).collect();
        let snippet = self.scrub(snippet.trim());
        let hint = match resp.status {
            401 | 403 => " (check the token: missing, invalid, expired or without access)",
            _ => "",
        };
        let mut msg = format!(
            "{} {} answered HTTP {}{hint}",
            req.method.as_str(),
            redact_url(&req.url),
            resp.status
        );
        if !snippet.is_empty() {
            msg.push_str(&format!(": {snippet}"));
        }
        if attempts > 1 {
            msg.push_str(&format!(" (after {attempts} tries)"));
        }
        with(Error::new(ErrorCode::HttpStatus, msg), step, attempts, Some(resp.status))
    }

    /// An `INVALID_RESPONSE` error for `step`.
    pub fn invalid_response(&self, step: Step, attempts: u32, status: u16, msg: &str) -> Error {
        with(Error::new(ErrorCode::InvalidResponse, self.scrub(msg)), step, attempts, Some(status))
    }

    /// Parses a JSON response body into `D`.
    pub fn json<D: serde::de::DeserializeOwned>(&self, step: Step, resp: &Response, attempts: u32) -> Result<D, Error> {
        crate::from_json(&resp.body).map_err(|e| {
            let msg = format!("the {} response is not the expected JSON: {e}", step.as_str());
            self.invalid_response(step, attempts, resp.status, &msg)
        })
    }
}

/// The statuses of success: 2xx.
pub(crate) fn success(status: u16) -> bool {
    (200..300).contains(&status)
}

/// `e` with step, attempts and status set (status only when known).
pub(crate) fn with(mut e: Error, step: Step, attempts: u32, status: Option<u16>) -> Error {
    e.step = Some(step);
    if attempts > 0 {
        e.attempts = Some(attempts);
    }
    if status.is_some() {
        e.status = status;
    }
    e
}
