//! `fetchDurations`, `uploadReport`, `shardGroupKeyFor`: the exchanges over `fetch`,
//! `setTimeout`/`Date.now` and an `AbortSignal`.
//!
//! Deadline and abort: one internal `AbortController` cancels every `fetch` of an exchange; it
//! fires when the caller's `signal` aborts or `timeoutMs` passes, and the exchange future is
//! raced against the same event, so the exchange stops at once (`ABORTED` / `TIMEOUT`) even
//! during a wait between tries.
//!
//! A stop is clean: when the exchange ends early (a permanent failure, an abort, a timeout), no
//! new request starts (the core's future, which would start them, is dropped), the controller
//! aborts every request still in flight, and the returned promise settles only once each request
//! the exchange started has settled: nothing reaches the service or storage after it.

use std::cell::{Cell, RefCell};
use std::pin::pin;
use std::rc::Rc;

use futures_util::future::{select, Either};
use js_sys::{Function, Object, Promise, Reflect, Uint8Array};
use serde::Deserialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::report::{parse, stringify};
use super::{from_js_required, js_error, to_js, JsResult};
use crate::error::{Error, ErrorCode};
use crate::exchange::{
    self, Attachment, AttachmentData, Body, Clock, DurationsOptions, Env, Event, Files, HeldReport, HostBody, Progress, ReportInput,
    Request, Response, RetryPolicy, ShardGroupKeyInput, Transport, UploadOptions,
};
use crate::codec::HeldBytes;
use crate::limits;

fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn global(name: &str) -> JsValue {
    get(&js_sys::global().into(), name)
}

/// The `message` of a thrown value, with a Node `cause` code when there is one.
fn describe(e: &JsValue) -> String {
    let msg = get(e, "message").as_string().or_else(|| e.as_string()).unwrap_or_else(|| "unknown error".into());
    let cause = get(e, "cause");
    let (code, why) = (get(&cause, "code").as_string(), get(&cause, "message").as_string());
    match (code, why) {
        (Some(code), why) if is_certificate_error(&code) => format!(
            "{msg} ({code}{}): the server's TLS certificate is not trusted here (a private CA's certificate goes in NODE_EXTRA_CA_CERTS)",
            why.map(|w| format!(": {w}")).unwrap_or_default()
        ),
        (Some(c), _) | (None, Some(c)) => format!("{msg} ({c})"),
        (None, None) => msg,
    }
}

/// Node's codes for a TLS certificate that was not verified (OpenSSL's, and Node's own).
fn is_certificate_error(code: &str) -> bool {
    code.contains("CERT") || code.contains("SELF_SIGNED") || code.starts_with("UNABLE_TO_") || code.starts_with("ERR_TLS_")
}

/// Why the internal controller fired.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    Running,
    Aborted,
    TimedOut,
}

/// HTTP over a `fetch` function, every request carrying the exchange's abort signal.
struct Fetch {
    fetch: Function,
    signal: JsValue,
    stop: Rc<Cell<Stop>>,
    /// For messages: "did not finish within timeoutMs=N".
    timeout_ms: u64,
    /// The promises of the requests (and body reads) started, for [`Edge::run`] to wait for
    /// those still in flight when the exchange ends early (the tries of other attachments,
    /// dropped with the exchange's future). Each is small: a response whose body was read.
    pending: RefCell<Vec<Promise>>,
    /// The bodies the host holds, sent by handle.
    bodies: Rc<HostBodies>,
}

/// The host's bodies of one exchange: the caller's `Uint8Array`s as given, files opened as
/// `Blob`s, the host compressor's output; a [`HostBody`] is an index here.
#[derive(Default)]
struct HostBodies(RefCell<Vec<Option<JsValue>>>);

impl HostBodies {
    /// Holds `value` (a `Uint8Array` or a `Blob`) of `len` bytes.
    fn hold(&self, value: JsValue, len: u64) -> HostBody {
        let mut v = self.0.borrow_mut();
        v.push(Some(value));
        HostBody { handle: (v.len() - 1) as u32, len }
    }
    /// Holds a caller's bytes where they are.
    fn hold_view(&self, view: &Uint8Array) -> HostBody {
        self.hold(view.clone().into(), view.length() as u64)
    }
    fn get(&self, body: HostBody) -> Result<JsValue, Error> {
        self.0.borrow().get(body.handle as usize).cloned().flatten().ok_or_else(|| Error::invalid_input("internal: a released body"))
    }
    fn release(&self, body: HostBody) {
        if let Some(slot) = self.0.borrow_mut().get_mut(body.handle as usize) {
            *slot = None;
        }
    }
}

impl Fetch {
    /// Awaits `promise`, remembered as a request of this exchange.
    fn started(&self, promise: Promise) -> JsFuture {
        self.pending.borrow_mut().push(promise.clone());
        JsFuture::from(promise)
    }

    /// Waits until every request started has settled (each aborted one rejects at once; they
    /// settle side by side, so awaiting them in turn takes as long as the slowest).
    async fn drain(&self) {
        for promise in self.pending.take() {
            let _ = JsFuture::from(promise).await;
        }
    }
}

impl Transport for Fetch {
    async fn send(&self, req: &Request) -> Result<Response, Error> {
        let headers = Object::new();
        for (k, v) in &req.headers {
            let _ = Reflect::set(&headers, &JsValue::from_str(k), &JsValue::from_str(v));
        }
        let init = Object::new();
        let _ = Reflect::set(&init, &"method".into(), &req.method.as_str().into());
        let _ = Reflect::set(&init, &"headers".into(), &headers);
        let _ = Reflect::set(&init, &"signal".into(), &self.signal);
        match &req.body {
            Body::Bytes(b) if b.is_empty() => {}
            Body::Bytes(b) => {
                let _ = Reflect::set(&init, &"body".into(), &Uint8Array::from(b.as_slice()));
            }
            Body::Host(h) => {
                let _ = Reflect::set(&init, &"body".into(), &self.bodies.get(*h)?);
            }
        }
        let fail = |e: JsValue| match self.stop.get() {
            // a file-backed body that could not be read (changed or deleted since it was opened)
            Stop::Running if matches!(req.body, Body::Host(_)) && unreadable(&e) => {
                Error::invalid_input(format!(
                    "its file could not be read (changed or deleted during the upload): {}",
                    describe(&e)
                ))
            }
            Stop::Aborted => Error::new(ErrorCode::Aborted, "the exchange was aborted by the signal during a request"),
            Stop::TimedOut => Error::new(
                ErrorCode::Timeout,
                format!("the exchange did not finish within timeoutMs={} (a request was still waiting for its answer)", self.timeout_ms),
            ),
            Stop::Running => Error::new(ErrorCode::Network, describe(&e)),
        };
        let promise = self
            .fetch
            .call2(&js_sys::global(), &JsValue::from_str(&req.url), &init)
            .map_err(fail)?;
        let resp = self.started(Promise::resolve(&promise)).await.map_err(fail)?;
        let status = get(&resp, "status").as_f64().unwrap_or(0.0) as u16;
        let js_headers = get(&resp, "headers");
        let mut headers = Vec::new();
        if let Ok(getter) = get(&js_headers, "get").dyn_into::<Function>() {
            for name in ["retry-after", "content-encoding", "content-type"] {
                if let Some(v) = getter.call1(&js_headers, &name.into()).ok().and_then(|v| v.as_string()) {
                    headers.push((name.to_string(), v));
                }
            }
        }
        let read = get(&resp, "arrayBuffer")
            .dyn_into::<Function>()
            .map_err(|_| Error::new(ErrorCode::Network, "the fetch response has no arrayBuffer()"))?;
        // `fetch` undoes `Content-Encoding` itself: a body that fails to decode arrived whole
        // but corrupt, which another try would not fix (a cut connection is `NETWORK`).
        let encoding = headers.iter().find(|(k, _)| k == "content-encoding").map(|(_, v)| v.clone());
        let body_fail = |e: JsValue| match (self.stop.get(), &encoding) {
            (Stop::Running, Some(enc)) if is_decoding_error(&e) => Error::new(
                if enc.eq_ignore_ascii_case("br") { ErrorCode::BrotliCorrupt } else { ErrorCode::InvalidResponse },
                format!("the response body (Content-Encoding: {enc}) could not be decoded: {}", describe(&e)),
            )
            .with_status(status),
            _ => fail(e),
        };
        let buf = read.call0(&resp).map_err(body_fail)?;
        let buf = self.started(Promise::resolve(&buf)).await.map_err(body_fail)?;
        Ok(Response { status, headers, body: Uint8Array::new(&buf).to_vec() })
    }
}

/// True when `fetch` failed because a file-backed body could not be read (Node's
/// `NotReadableError`, on the error or its cause).
fn unreadable(e: &JsValue) -> bool {
    let cause = get(e, "cause");
    [get(e, "name"), get(&cause, "name"), get(&get(&cause, "cause"), "name")]
        .iter()
        .any(|n| n.as_string().as_deref() == Some("NotReadableError"))
}

/// True when a body read failed in the content decoder (zlib/Brotli), not in the connection.
fn is_decoding_error(e: &JsValue) -> bool {
    let mut texts = vec![describe(e)];
    let cause = get(e, "cause");
    for v in [get(e, "code"), get(e, "name"), get(&cause, "code"), get(&cause, "name"), get(&cause, "message")] {
        if let Some(t) = v.as_string() {
            texts.push(t);
        }
    }
    texts.iter().any(|t| {
        let t = t.to_ascii_lowercase();
        t.starts_with("z_") || t.contains("zlib") || t.contains("brotli") || t.contains("decompress") || t.contains("decod")
            || t.contains("unexpected end of file")
    })
}

/// `setTimeout`/`Date.now`, remembering the pending timers so an exchange that stops early
/// clears them (a stopped exchange leaves nothing that keeps Node running).
#[derive(Default)]
struct JsClock {
    timers: RefCell<Vec<JsValue>>,
}

impl JsClock {
    fn clear_timers(&self) {
        if let Ok(clear) = global("clearTimeout").dyn_into::<Function>() {
            for id in self.timers.borrow_mut().drain(..) {
                let _ = clear.call1(&JsValue::UNDEFINED, &id);
            }
        }
    }
}

impl Clock for JsClock {
    fn now_ms(&self) -> u64 {
        js_sys::Date::now() as u64
    }
    async fn sleep(&self, ms: u64) {
        let mut id = None;
        let promise = Promise::new(&mut |resolve, _| {
            if let Ok(set) = global("setTimeout").dyn_into::<Function>() {
                id = set.call2(&JsValue::UNDEFINED, &resolve, &JsValue::from_f64(ms as f64)).ok();
            }
        });
        let Some(id) = id else { return };
        self.timers.borrow_mut().push(id.clone());
        let _ = JsFuture::from(promise).await;
        self.timers.borrow_mut().retain(|t| !Object::is(t, &id));
    }
}

/// The host's files and compressor: `{openFile(path) -> Promise<Blob>, compress(body, quality) ->
/// Promise<Uint8Array>, compressSync(bytes, quality) -> Uint8Array}`, which the package's Node
/// entry passes (browsers have neither: paths are refused, and text is compressed by the wasm
/// encoder).
struct JsFiles {
    open_file: Option<Function>,
    compress: Option<Function>,
    compress_sync: Option<Function>,
    bodies: Rc<HostBodies>,
    /// Compressions started ahead of their PUT (handle, quality, promise): see
    /// [`JsFiles::start_compressions`].
    early: RefCell<Vec<(u32, u32, Promise)>>,
}

fn compress_failed(e: JsValue) -> Error {
    Error::invalid_input(format!("could not be compressed: {}", describe(&e)))
}

/// A host body's length: `byteLength` of bytes, `size` of a `Blob`.
fn js_len(v: &JsValue) -> u64 {
    get(v, "byteLength").as_f64().or_else(|| get(v, "size").as_f64()).unwrap_or(0.0) as u64
}

impl JsFiles {
    /// Starts the host's compression of every text attachment given as bytes, as the core
    /// decides it ([`exchange::attachment_compression`]), before the exchange begins: Node's
    /// zlib works in its thread pool while this thread checks and encodes the report, and the
    /// PUTs find their bodies ready.
    fn start_compressions(&self, attachments: &[Attachment]) {
        let Some(compress) = &self.compress else { return };
        for a in attachments {
            let AttachmentData::Host(h) = &a.data else { continue };
            let Ok(value) = self.bodies.get(*h) else { continue };
            let Some(bytes) = value.dyn_ref::<Uint8Array>() else { continue };
            let sample = bytes.subarray(0, exchange::SAMPLE_BYTES.min(h.len as usize) as u32).to_vec();
            let Some(q) = exchange::attachment_compression(&a.content_type, &sample) else { continue };
            if let Ok(p) = compress.call2(&JsValue::UNDEFINED, &value, &JsValue::from_f64(q as f64)) {
                let p = Promise::resolve(&p);
                // a rejection is seen when the core asks for the body
                if let Ok(catch) = get(&p, "catch").dyn_into::<Function>() {
                    let _ = catch.call1(&p, &Function::new_no_args(""));
                }
                self.early.borrow_mut().push((h.handle, q, p));
            }
        }
    }

    /// Holds what the host compressor gave (it must be bytes).
    fn hold_compressed(&self, out: JsValue) -> Result<Option<HostBody>, Error> {
        if !out.is_instance_of::<Uint8Array>() {
            return Err(Error::invalid_input("internal: the host compressor gave no bytes"));
        }
        Ok(Some(self.bodies.hold(out.clone(), js_len(&out))))
    }

    /// The bytes of `value` (a `Uint8Array`, or a `Blob` read through `arrayBuffer()`).
    async fn bytes(&self, value: JsValue) -> Result<Vec<u8>, Error> {
        if let Some(a) = value.dyn_ref::<Uint8Array>() {
            return Ok(a.to_vec());
        }
        let fail = |e: JsValue| Error::invalid_input(format!("its file could not be read: {}", describe(&e)));
        let read = get(&value, "arrayBuffer").dyn_into::<Function>().map_err(|_| Error::invalid_input("internal: not a body"))?;
        let buf = JsFuture::from(Promise::resolve(&read.call0(&value).map_err(fail)?)).await.map_err(fail)?;
        Ok(Uint8Array::new(&buf).to_vec())
    }
}

impl Files for JsFiles {
    async fn open(&self, path: &str) -> Result<HostBody, Error> {
        let Some(open) = &self.open_file else {
            return exchange::NoFiles.open(path).await;
        };
        let fail = |e: JsValue| Error::invalid_input(format!("cannot read attachment path {path:?}: {}", describe(&e)));
        let v = open.call1(&JsValue::UNDEFINED, &JsValue::from_str(path)).map_err(fail)?;
        let blob = JsFuture::from(Promise::resolve(&v)).await.map_err(fail)?;
        Ok(self.bodies.hold(blob.clone(), js_len(&blob)))
    }
    async fn head(&self, body: HostBody, n: usize) -> Result<Vec<u8>, Error> {
        let v = self.bodies.get(body)?;
        let end = JsValue::from_f64(n.min(body.len as usize) as f64);
        let part = match v.dyn_ref::<Uint8Array>() {
            Some(a) => a.subarray(0, end.as_f64().unwrap_or(0.0) as u32).into(),
            None => get(&v, "slice")
                .dyn_into::<Function>()
                .and_then(|slice| slice.call2(&v, &JsValue::from_f64(0.0), &end))
                .map_err(|e| Error::invalid_input(format!("its file could not be read: {}", describe(&e))))?,
        };
        self.bytes(part).await
    }
    async fn read(&self, body: HostBody) -> Result<Vec<u8>, Error> {
        self.bytes(self.bodies.get(body)?).await
    }
    async fn compress(&self, body: HostBody, quality: u32) -> Result<Option<HostBody>, Error> {
        let Some(compress) = &self.compress else { return Ok(None) };
        let fail = compress_failed;
        let early = {
            let mut early = self.early.borrow_mut();
            early.iter().position(|(h, q, _)| *h == body.handle && *q == quality).map(|i| early.swap_remove(i).2)
        };
        let promise = match early {
            Some(p) => p,
            None => Promise::resolve(
                &compress.call2(&JsValue::UNDEFINED, &self.bodies.get(body)?, &JsValue::from_f64(quality as f64)).map_err(fail)?,
            ),
        };
        self.hold_compressed(JsFuture::from(promise).await.map_err(fail)?)
    }
    fn release(&self, body: HostBody) {
        self.bodies.release(body);
    }
    fn compress_now(&self, bytes: &[u8], quality: u32) -> Result<Option<HostBody>, Error> {
        let Some(compress) = &self.compress_sync else { return Ok(None) };
        let out = compress
            .call2(&JsValue::UNDEFINED, &Uint8Array::from(bytes), &JsValue::from_f64(quality as f64))
            .map_err(compress_failed)?;
        self.hold_compressed(out)
    }
}

/// The JS side of one exchange: fetch, signal, events, file reader and the stop event.
struct Edge {
    transport: Fetch,
    files: JsFiles,
    on_event: Option<Function>,
    user_signal: JsValue,
    timeout_ms: u64,
}

fn optional_function(v: &JsValue, name: &str) -> JsResult<Option<Function>> {
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    v.clone().dyn_into::<Function>().map(Some).map_err(|_| js_error(Error::invalid_input(format!("{name} must be a function"))))
}

fn timeout(v: Option<f64>) -> Result<u64, Error> {
    match v {
        None => Ok(limits::DEFAULT_EXCHANGE_TIMEOUT_MS),
        Some(t) if t.fract() == 0.0 && t >= 1.0 && t <= 2f64.powi(53) => Ok(t as u64),
        Some(t) => Err(Error::invalid_input(format!("timeoutMs must be a positive integer, got {t}"))),
    }
}

impl Edge {
    fn new(fetch: &JsValue, signal: JsValue, on_event: &JsValue, host: &JsValue, timeout_ms: Option<f64>) -> JsResult<Self> {
        let fetch = match optional_function(fetch, "fetch")? {
            Some(f) => f,
            None => global("fetch")
                .dyn_into::<Function>()
                .map_err(|_| js_error(Error::invalid_input("no global fetch here: pass the `fetch` option")))?,
        };
        if !signal.is_undefined() && !signal.is_null() && !get(&signal, "addEventListener").is_function() {
            return Err(js_error(Error::invalid_input("signal must be an AbortSignal")));
        }
        let timeout_ms = timeout(timeout_ms)?;
        let bodies = Rc::new(HostBodies::default());
        let host_fn = |name: &str| optional_function(&if host.is_object() { get(host, name) } else { JsValue::UNDEFINED }, name);
        Ok(Edge {
            transport: Fetch {
                fetch,
                signal: JsValue::UNDEFINED,
                stop: Rc::new(Cell::new(Stop::Running)),
                timeout_ms,
                pending: RefCell::new(Vec::new()),
                bodies: bodies.clone(),
            },
            files: JsFiles {
                open_file: host_fn("openFile")?,
                compress: host_fn("compress")?,
                compress_sync: host_fn("compressSync")?,
                bodies,
                early: RefCell::default(),
            },
            on_event: optional_function(on_event, "onEvent")?,
            user_signal: signal,
            timeout_ms,
        })
    }

    /// Runs `run` with the IO seams, raced against abort and timeout.
    async fn run(mut self, what: &str, job: Job<'_>) -> Result<Done, Error> {
        if get(&self.user_signal, "aborted").is_truthy() {
            return Err(Error::new(ErrorCode::Aborted, format!("the {what} was aborted before it started")));
        }
        let controller = Reflect::construct(&global("AbortController").unchecked_into::<Function>(), &js_sys::Array::new())
            .map_err(|_| Error::invalid_input("AbortController is not available here"))?;
        self.transport.signal = get(&controller, "signal");
        let stop = self.transport.stop.clone();

        // the stop event: the user's abort or the deadline, whichever comes first
        let mut fire: Option<Function> = None;
        let stopped = JsFuture::from(Promise::new(&mut |resolve, _| fire = Some(resolve)));
        let fire = fire.unwrap_or_else(|| Function::new_no_args(""));
        let trigger = {
            let (stop, controller, fire) = (stop.clone(), controller.clone(), fire.clone());
            move |why: Stop| {
                if stop.get() == Stop::Running {
                    stop.set(why);
                    if let Ok(abort) = get(&controller, "abort").dyn_into::<Function>() {
                        let _ = abort.call0(&controller);
                    }
                    let _ = fire.call0(&JsValue::UNDEFINED);
                }
            }
        };
        let on_abort = Closure::<dyn FnMut()>::new({
            let trigger = trigger.clone();
            move || trigger(Stop::Aborted)
        });
        let on_timeout = Closure::<dyn FnMut()>::new(move || trigger(Stop::TimedOut));
        let listen = |method: &str| {
            if let Ok(f) = get(&self.user_signal, method).dyn_into::<Function>() {
                let _ = f.call2(&self.user_signal, &"abort".into(), on_abort.as_ref());
            }
        };
        listen("addEventListener");
        let timer_id = global("setTimeout")
            .dyn_into::<Function>()
            .ok()
            .and_then(|set| set.call2(&JsValue::UNDEFINED, on_timeout.as_ref(), &JsValue::from_f64(self.timeout_ms as f64)).ok());

        let progress = Cell::new(Progress::default());
        let clock = JsClock::default();
        let on_event = |e: &Event| {
            if let (Some(f), Ok(v)) = (&self.on_event, to_js(e)) {
                let _ = f.call1(&JsValue::UNDEFINED, &v);
            }
        };
        let is_aborted = || stop.get() == Stop::Aborted;
        let env = Env {
            transport: &self.transport,
            clock: &clock,
            files: &self.files,
            is_aborted: &is_aborted,
            on_event: &on_event,
            progress: &progress,
            retry: RetryPolicy::default(),
            jitter_seed: (js_sys::Math::random() * 2f64.powi(53)) as u64 ^ js_sys::Date::now() as u64,
        };
        let work = async move {
            match job {
                Job::Durations(o) => exchange::fetch_durations(env, o).await.map(Done::Report),
                Job::Upload(o) => exchange::upload_report(env, o).await.map(Done::Upload),
            }
        };
        let outcome = match select(pin!(work), stopped).await {
            Either::Left((result, _)) => result,
            Either::Right(_) => {
                let err = match stop.get() {
                    Stop::TimedOut => Error::new(
                        ErrorCode::Timeout,
                        format!("the {what} did not finish within timeoutMs={}", self.timeout_ms),
                    ),
                    _ => Error::new(ErrorCode::Aborted, format!("the {what} was aborted")),
                };
                // name the call that was cut short, as the core does for its own checks
                let p = progress.get();
                let mut err = err;
                err.step = p.step;
                err.attempts = (p.attempts > 0).then_some(p.attempts);
                err.status = p.status;
                Err(err)
            }
        };
        clock.clear_timers();
        // clean up: no listener, no timer, no request left behind
        listen("removeEventListener");
        if let (Some(id), Ok(clear)) = (timer_id, global("clearTimeout").dyn_into::<Function>()) {
            let _ = clear.call1(&JsValue::UNDEFINED, &id);
        }
        if let Ok(abort) = get(&controller, "abort").dyn_into::<Function>() {
            let _ = abort.call0(&controller);
        }
        // an exchange that ended early may have left requests in flight (the tries of other
        // attachments): aborted just now, they settle before the caller hears of the outcome
        self.transport.drain().await;
        outcome
    }
}

/// What [`Edge::run`] runs: the closure-free form keeps the borrow of the IO seams local.
enum Job<'o> {
    Durations(&'o DurationsOptions),
    Upload(&'o UploadOptions),
}

enum Done {
    Report(crate::exchange::ReportDocument),
    Upload(crate::exchange::UploadResult),
}

/// `uploadReport`'s report option: as [`report_from_js`], except bytes stay where the caller
/// has them, read in steps for the check and sent from there (never copied in whole).
fn held_report_from_js(v: &JsValue, bodies: &HostBodies) -> JsResult<ReportInput> {
    report_input(v, |view| {
        let body = bodies.hold_view(&view);
        ReportInput::Held(HeldReport { bytes: Rc::new(JsBytes(view)), body })
    })
}

/// A caller's bytes, read where they are.
struct JsBytes(Uint8Array);

impl HeldBytes for JsBytes {
    fn len(&self) -> usize {
        self.0.length() as usize
    }
    fn copy_to(&self, offset: usize, buf: &mut [u8]) {
        self.0.subarray(offset as u32, (offset + buf.len()) as u32).copy_to(buf);
    }
}

/// A report option: a document object, or encoded bytes (Brotli or JSON), copied here.
fn report_from_js(v: &JsValue) -> JsResult<ReportInput> {
    report_input(v, |view| ReportInput::Bytes(view.to_vec()))
}

/// A report option: bytes (a `Uint8Array`, `ArrayBuffer` or other view) as `bytes` takes them,
/// else a document object.
fn report_input(v: &JsValue, bytes: impl FnOnce(Uint8Array) -> ReportInput) -> JsResult<ReportInput> {
    if v.is_undefined() || v.is_null() {
        return Err(js_error(Error::invalid_input("report is required")));
    }
    if let Some(view) = super::u8_view(v) {
        return Ok(bytes(view));
    }
    // JSON text is the fast way across for a large report (as the report bindings do)
    Ok(ReportInput::Document(stringify(v, "report")?))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct DurationsOpts {
    base_url: String,
    access_token: String,
    commit_id: String,
    shard_group_key: String,
    org_slug: Option<String>,
    project_slug: Option<String>,
    #[serde(with = "serde_wasm_bindgen::preserve", default)]
    report: JsValue,
    timeout_ms: Option<f64>,
    #[serde(with = "serde_wasm_bindgen::preserve", default)]
    signal: JsValue,
    #[serde(with = "serde_wasm_bindgen::preserve", default)]
    fetch: JsValue,
    #[serde(with = "serde_wasm_bindgen::preserve", default)]
    on_event: JsValue,
}

/// Runs the durations exchange (create -> PUT test list -> submit -> poll) and resolves with
/// the annotated report.
///
/// Both exchanges are exported as functions returning the promise of one shared async function
/// ([`exchange`]): each `async` export would compile its own promise adapter into the .wasm.
#[wasm_bindgen(js_name = "fetchDurations")]
pub fn fetch_durations(opts: JsValue) -> Promise {
    wasm_bindgen_futures::future_to_promise(exchange(false, opts))
}

/// Runs the upload exchange (start -> PUT report -> attachments -> finish) and resolves with
/// `{webUrl, reportUrl, attachments, bytes}`.
#[wasm_bindgen(js_name = "uploadReport")]
pub fn upload_report(opts: JsValue) -> Promise {
    wasm_bindgen_futures::future_to_promise(exchange(true, opts))
}

/// The body of `uploadReport` (`upload`) or `fetchDurations`.
async fn exchange(upload: bool, opts: JsValue) -> JsResult<JsValue> {
    if upload {
        upload_exchange(opts).await
    } else {
        durations_exchange(opts).await
    }
}

async fn durations_exchange(opts: JsValue) -> JsResult<JsValue> {
    let o: DurationsOpts = from_js_required(opts, "fetchDurations options")?;
    let edge = Edge::new(&o.fetch, o.signal.clone(), &o.on_event, &JsValue::UNDEFINED, o.timeout_ms)?;
    let opts = DurationsOptions {
        base_url: o.base_url,
        access_token: o.access_token,
        commit_id: o.commit_id,
        shard_group_key: o.shard_group_key,
        org_slug: o.org_slug,
        project_slug: o.project_slug,
        report: report_from_js(&o.report)?,
        timeout_ms: edge.timeout_ms,
    };
    match edge.run("durations exchange", Job::Durations(&opts)).await? {
        Done::Report(report) => parse(&report.to_string()),
        Done::Upload(_) => Err(Error::invalid_input("internal: the durations exchange gave no report").into()),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AttachmentOpts {
    id: String,
    content_type: String,
    #[serde(with = "serde_wasm_bindgen::preserve", default)]
    data: JsValue,
    path: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct UploadOpts {
    base_url: String,
    access_token: String,
    #[serde(with = "serde_wasm_bindgen::preserve", default)]
    report: JsValue,
    #[serde(default)]
    attachments: Vec<AttachmentOpts>,
    concurrency: Option<f64>,
    timeout_ms: Option<f64>,
    #[serde(with = "serde_wasm_bindgen::preserve", default)]
    signal: JsValue,
    #[serde(with = "serde_wasm_bindgen::preserve", default)]
    fetch: JsValue,
    #[serde(with = "serde_wasm_bindgen::preserve", default)]
    on_event: JsValue,
    /// Set by the package's Node entry: `{openFile, compress}` (see [`JsFiles`]).
    #[serde(rename = "__host", with = "serde_wasm_bindgen::preserve", default)]
    host: JsValue,
}

async fn upload_exchange(opts: JsValue) -> JsResult<JsValue> {
    let o: UploadOpts = from_js_required(opts, "uploadReport options")?;
    let edge = Edge::new(&o.fetch, o.signal.clone(), &o.on_event, &o.host, o.timeout_ms)?;
    // absent: adaptive (limits.rs)
    let concurrency = match o.concurrency {
        None => None,
        c => Some(super::check_u32(c, "concurrency", limits::DEFAULT_ATTACHMENT_CONCURRENCY as u32, 1, 1024)? as usize),
    };
    let mut attachments = Vec::with_capacity(o.attachments.len());
    for (i, a) in o.attachments.into_iter().enumerate() {
        let data = match (a.data.is_undefined() || a.data.is_null(), a.path) {
            // the caller's bytes stay where they are: `fetch` sends them from there
            (false, None) => match super::u8_view(&a.data) {
                Some(view) => AttachmentData::Host(edge.files.bodies.hold_view(&view)),
                None => {
                    return Err(js_error(Error::invalid_input(format!(
                        "attachments[{i}].data must be bytes (a Uint8Array, ArrayBuffer or typed array)"
                    ))))
                }
            },
            (true, Some(p)) => AttachmentData::Path(p),
            _ => {
                return Err(js_error(Error::invalid_input(format!(
                    "attachments[{i}] needs exactly one of `data` (Uint8Array) or `path` (Node only)"
                ))))
            }
        };
        attachments.push(Attachment { id: a.id, content_type: a.content_type, data });
    }
    edge.files.start_compressions(&attachments);
    let opts = UploadOptions {
        base_url: o.base_url,
        access_token: o.access_token,
        report: held_report_from_js(&o.report, &edge.files.bodies)?,
        attachments,
        concurrency,
        timeout_ms: edge.timeout_ms,
    };
    match edge.run("upload exchange", Job::Upload(&opts)).await? {
        Done::Upload(result) => to_js(&result),
        Done::Report(_) => Err(Error::invalid_input("internal: the upload exchange gave no result").into()),
    }
}

/// A valid `shardGroupKey` equal on every shard of one CI run, from `{commitId, runId?,
/// testRunner?, config?}`. Reads no environment: the package glue fills `runId` from CI
/// variables when it is absent.
#[wasm_bindgen(js_name = "shardGroupKeyFor")]
pub fn shard_group_key_for(input: JsValue) -> JsResult<String> {
    let input: ShardGroupKeyInput = from_js_required(input, "shardGroupKeyFor input")?;
    Ok(exchange::shard_group_key_for(&input)?)
}
