//! The exchanges against a scripted fake service and a virtual clock: exact requests, retry
//! and poll schedules, failures. No test sleeps.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use serde_json::{json, Value};

use super::*;
use crate::codec::{self, CompressOptions, DecompressOptions};
use crate::error::{ErrorCode, Step};

const AT: &str = "AT-secret-access";
const DT: &str = "DT-secret-durations";
const UT: &str = "UT-secret-upload";
const COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";

/// Runs a future whose fakes are always ready (or yield a bounded number of times).
fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..10_000_000 {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
    panic!("future never completed")
}

/// Pending once, then ready: lets concurrent requests overlap in the fake.
struct YieldOnce(bool);
impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

#[derive(Default)]
struct FakeClock {
    now: Cell<u64>,
    sleeps: RefCell<Vec<u64>>,
}

impl Clock for FakeClock {
    fn now_ms(&self) -> u64 {
        self.now.get()
    }
    async fn sleep(&self, ms: u64) {
        self.sleeps.borrow_mut().push(ms);
        self.now.set(self.now.get() + ms);
    }
}

type Script = Box<dyn Fn(&Request, usize) -> Option<Result<Response, Error>>>;

/// The fake service and storage: a happy default per route, overridden by `script`, which
/// sees each request and how many earlier requests went to the same URL path.
struct FakeNet {
    log: RefCell<Vec<Request>>,
    script: Script,
    annotated: Value,
    in_flight: Cell<usize>,
    max_in_flight: Cell<usize>,
    overlap: bool,
    host: std::rc::Rc<HostTable>,
}

fn ok_json(v: Value) -> Result<Response, Error> {
    Ok(Response { status: 200, headers: vec![], body: serde_json::to_vec(&v).unwrap() })
}
fn status(s: u16) -> Result<Response, Error> {
    Ok(Response { status: s, headers: vec![], body: vec![] })
}
fn status_with(s: u16, name: &str, value: &str) -> Result<Response, Error> {
    Ok(Response { status: s, headers: vec![(name.into(), value.into())], body: vec![] })
}
fn path(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |x| x.1);
    let p = &rest[rest.find('/').unwrap_or(rest.len())..];
    p.split('?').next().unwrap()
}

impl FakeNet {
    fn new(script: impl Fn(&Request, usize) -> Option<Result<Response, Error>> + 'static) -> Self {
        FakeNet {
            log: RefCell::new(vec![]),
            script: Box::new(script),
            annotated: json!({"tests": [{"title": "a", "attempts": [{"duration": 1200}]}, {"title": "b", "attempts": []}]}),
            in_flight: Cell::new(0),
            max_in_flight: Cell::new(0),
            overlap: false,
            host: Default::default(),
        }
    }
    fn happy() -> Self {
        Self::new(|_, _| None)
    }
    fn default_response(&self, req: &Request) -> Result<Response, Error> {
        let p = path(&req.url);
        if p.ends_with("/api/testDurations/create") {
            ok_json(json!({"testDurationsToken": DT, "uploadUrl": "https://store.test/list?sig=SIG-LIST-5f2a9c1e7b3d4a60"}))
        } else if p.ends_with("/api/testDurations/submit") {
            ok_json(json!({"downloadUrl": "https://store.test/result?sig=SIG-RESULT-5f2a9c1e7b3d4a60"}))
        } else if p == "/result" {
            let body = codec::compress(&serde_json::to_vec(&self.annotated).unwrap(), CompressOptions::default()).unwrap();
            Ok(Response { status: 200, headers: vec![("Content-Encoding".into(), "br".into())], body })
        } else if p.ends_with("/api/upload/start") {
            ok_json(json!({"uploadToken": UT, "webUrl": "/runs/7", "presignedReportUrl": "https://store.test/report?sig=SIG-REPORT-5f2a9c1e7b3d4a60"}))
        } else if p.ends_with("/api/upload/attachments") {
            let body: Value = serde_json::from_slice(req.body.bytes()).unwrap();
            let entries: Vec<Value> = body["attachmentIds"]
                .as_array()
                .unwrap()
                .iter()
                .map(|id| json!({"attachmentId": id, "presignedUrl": format!("https://store.test/att/{}?sig=SIG-ATT-5f2a9c1e7b3d4a60", id.as_str().unwrap())}))
                .collect();
            ok_json(Value::Array(entries))
        } else {
            status(200)
        }
    }
    fn requests(&self) -> Vec<(String, String)> {
        self.log.borrow().iter().map(|r| (r.method.as_str().to_string(), r.url.clone())).collect()
    }
    fn count(&self, p: &str) -> usize {
        self.log.borrow().iter().filter(|r| path(&r.url).ends_with(p)).count()
    }
}

impl Transport for FakeNet {
    async fn send(&self, req: &Request) -> Result<Response, Error> {
        let n = self.log.borrow().iter().filter(|r| path(&r.url) == path(&req.url)).count();
        // a host body is read as it is sent (logged as the bytes that went)
        let mut sent = req.clone();
        if let Body::Host(h) = &req.body {
            self.host.sent.borrow_mut().push(h.handle);
            let bytes = self.host.get(*h);
            if let Ok(b) = &bytes {
                assert_eq!(b.len() as u64, h.len);
                sent.body = Body::Bytes(b.clone());
            }
            self.log.borrow_mut().push(sent);
            bytes?;
        } else {
            self.log.borrow_mut().push(sent);
        }
        if self.overlap {
            self.in_flight.set(self.in_flight.get() + 1);
            self.max_in_flight.set(self.max_in_flight.get().max(self.in_flight.get()));
            YieldOnce(false).await;
            self.in_flight.set(self.in_flight.get() - 1);
        }
        (self.script)(req, n).unwrap_or_else(|| self.default_response(req))
    }
}

/// The host's bodies (what the bindings keep in JS: the caller's bytes, opened files, the
/// host compressor's output); the fake transport reads them as it sends, as `fetch` does.
#[derive(Default)]
struct HostTable {
    bodies: RefCell<Vec<Option<Vec<u8>>>>,
    /// Whether the host has a compressor (Node) or not (browsers: the wasm encoder is used).
    compressor: Cell<bool>,
    released: RefCell<Vec<u32>>,
    /// Handles sent, in order (a retry sends the same one again).
    sent: RefCell<Vec<u32>>,
}

impl HostTable {
    fn hold(&self, bytes: Vec<u8>) -> HostBody {
        let mut bodies = self.bodies.borrow_mut();
        bodies.push(Some(bytes));
        HostBody { handle: bodies.len() as u32 - 1, len: bodies.last().unwrap().as_ref().unwrap().len() as u64 }
    }
    fn get(&self, h: HostBody) -> Result<Vec<u8>, Error> {
        self.bodies.borrow().get(h.handle as usize).cloned().flatten().ok_or_else(|| {
            Error::invalid_input("the body could not be read (the file was changed or deleted during the upload)")
        })
    }
}

struct FakeFiles {
    host: std::rc::Rc<HostTable>,
}

impl Files for FakeFiles {
    async fn open(&self, path: &str) -> Result<HostBody, Error> {
        match path {
            "/tmp/log.txt" => Ok(self.host.hold(b"log line\n".repeat(100))),
            // opened, then gone before it is sent
            "/tmp/vanishing.webm" => {
                let h = self.host.hold(vec![7; 5000]);
                self.host.bodies.borrow_mut()[h.handle as usize] = None;
                Ok(h)
            }
            _ => Err(Error::invalid_input(format!("cannot read {path:?}: no such file"))),
        }
    }
    async fn head(&self, body: HostBody, n: usize) -> Result<Vec<u8>, Error> {
        let mut b = self.host.get(body)?;
        b.truncate(n);
        Ok(b)
    }
    async fn read(&self, body: HostBody) -> Result<Vec<u8>, Error> {
        self.host.get(body)
    }
    async fn compress(&self, body: HostBody, quality: u32) -> Result<Option<HostBody>, Error> {
        if !self.host.compressor.get() {
            return Ok(None);
        }
        let br = codec::compress(&self.host.get(body)?, CompressOptions { quality, ..CompressOptions::default() })?;
        Ok(Some(self.host.hold(br)))
    }
    fn compress_now(&self, bytes: &[u8], quality: u32) -> Result<Option<HostBody>, Error> {
        if !self.host.compressor.get() {
            return Ok(None);
        }
        Ok(Some(self.host.hold(codec::compress(bytes, CompressOptions { quality, ..CompressOptions::default() })?)))
    }
    fn release(&self, body: HostBody) {
        self.host.released.borrow_mut().push(body.handle);
        self.host.bodies.borrow_mut()[body.handle as usize] = None;
    }
}

struct Harness {
    net: FakeNet,
    files: FakeFiles,
    clock: FakeClock,
    aborted: Box<dyn Fn(&FakeNet) -> bool>,
    events: RefCell<Vec<Event>>,
    progress: Cell<Progress>,
}

impl Harness {
    fn new(net: FakeNet) -> Self {
        let clock = FakeClock::default();
        clock.now.set(1_700_000_000_000);
        let files = FakeFiles { host: net.host.clone() };
        Harness { net, files, clock, aborted: Box::new(|_| false), events: RefCell::new(vec![]), progress: Cell::new(Progress::default()) }
    }
    fn durations(&self, opts: &DurationsOptions) -> Result<ReportDocument, Error> {
        let aborted = || (self.aborted)(&self.net);
        let on_event = |e: &Event| self.events.borrow_mut().push(e.clone());
        block_on(fetch_durations(self.env(&aborted, &on_event), opts))
    }
    fn upload(&self, opts: &UploadOptions) -> Result<UploadResult, Error> {
        let aborted = || (self.aborted)(&self.net);
        let on_event = |e: &Event| self.events.borrow_mut().push(e.clone());
        block_on(upload_report(self.env(&aborted, &on_event), opts))
    }
    fn env<'a>(&'a self, aborted: &'a dyn Fn() -> bool, on_event: &'a dyn Fn(&Event)) -> Env<'a, FakeNet, FakeClock, FakeFiles> {
        Env {
            transport: &self.net,
            clock: &self.clock,
            files: &self.files,
            is_aborted: aborted,
            on_event,
            progress: &self.progress,
            retry: RetryPolicy::default(),
            jitter_seed: 42,
        }
    }
}

/// A valid report around `tests`.
fn report_with(tests: Value) -> Value {
    json!({"category": "playwright", "commitId": COMMIT, "environments": [{"name": "chromium"}], "startTimestamp": 1, "duration": 2, "tests": tests})
}

fn test_list() -> Value {
    report_with(json!([{"title": "a", "attempts": []}, {"title": "b", "attempts": []}]))
}

fn durations_opts() -> DurationsOptions {
    DurationsOptions {
        base_url: "http://svc.test".into(),
        access_token: AT.into(),
        commit_id: COMMIT.into(),
        shard_group_key: "run-42".into(),
        org_slug: None,
        project_slug: None,
        report: ReportInput::Document(test_list().to_string()),
        timeout_ms: limits::DEFAULT_EXCHANGE_TIMEOUT_MS,
    }
}

fn attachment(id: &str, content_type: &str, data: &[u8]) -> Attachment {
    Attachment { id: id.into(), content_type: content_type.into(), data: AttachmentData::Bytes(data.to_vec()) }
}

fn upload_opts(attachments: Vec<Attachment>) -> UploadOptions {
    UploadOptions {
        base_url: "http://svc.test".into(),
        access_token: AT.into(),
        report: ReportInput::Document(report_with(json!([{"title": "a", "attempts": [{"startTimestamp": 3, "duration": 5}]}])).to_string()),
        attachments,
        concurrency: None,
        timeout_ms: limits::DEFAULT_EXCHANGE_TIMEOUT_MS,
    }
}

fn unbr(body: &[u8]) -> Vec<u8> {
    codec::decompress(body, DecompressOptions::default()).unwrap()
}

use crate::limits;

#[test]
fn durations_sends_exactly_the_spec_requests() {
    let h = Harness::new(FakeNet::happy());
    let mut opts = durations_opts();
    opts.org_slug = Some("acme".into());
    let report = h.durations(&opts).unwrap();
    assert_eq!(report, h.net.annotated);
    assert_eq!(
        h.net.requests(),
        [
            ("POST", "http://svc.test/api/testDurations/create"),
            ("PUT", "https://store.test/list?sig=SIG-LIST-5f2a9c1e7b3d4a60"),
            ("POST", "http://svc.test/api/testDurations/submit"),
            ("GET", "https://store.test/result?sig=SIG-RESULT-5f2a9c1e7b3d4a60"),
        ]
        .map(|(m, u)| (m.to_string(), u.to_string()))
    );
    let log = h.net.log.borrow();
    assert_eq!(log[0].header("authorization"), Some(&*format!("Bearer {AT}")));
    assert_eq!(log[0].header("content-type"), Some("application/json"));
    let create: Value = serde_json::from_slice(log[0].body.bytes()).unwrap();
    assert_eq!(create, json!({"commitId": COMMIT, "shardGroupKey": "run-42", "orgSlug": "acme"}));
    assert_eq!(log[1].header("authorization"), None);
    assert_eq!(log[1].header("content-type"), Some("application/json"));
    assert_eq!(log[1].header("content-encoding"), Some("br"));
    assert_eq!(serde_json::from_slice::<Value>(&unbr(log[1].body.bytes())).unwrap(), test_list());
    assert_eq!(log[2].header("authorization"), Some(&*format!("Bearer {DT}")));
    assert!(log[2].body.is_empty());
    assert_eq!(log[3].header("authorization"), None);
    assert!(log[3].headers.is_empty());
    let steps: Vec<_> = h.events.borrow().iter().map(|e| (e.step, e.attempt, e.status)).collect();
    assert_eq!(
        steps,
        [("create", 1, Some(200)), ("upload-test-list", 1, Some(200)), ("submit", 1, Some(200)), ("poll", 1, Some(200))]
    );
    assert!(h.clock.sleeps.borrow().is_empty());
}

#[test]
fn upload_sends_exactly_the_spec_requests() {
    let h = Harness::new(FakeNet::happy());
    let png = [0x89, b'P', b'N', b'G', 0, 1, 2, 3];
    let mut opts = upload_opts(vec![attachment("shot", "image/png", &png), attachment("log", "text/plain", b"hello hello hello")]);
    opts.attachments.push(Attachment { id: "file".into(), content_type: "text/plain".into(), data: AttachmentData::Path("/tmp/log.txt".into()) });
    opts.concurrency = Some(1);
    let result = h.upload(&opts).unwrap();
    let log = h.net.log.borrow();
    let urls: Vec<_> = log.iter().map(|r| format!("{} {}", r.method.as_str(), r.url)).collect();
    assert_eq!(
        urls,
        [
            "POST http://svc.test/api/upload/start",
            "PUT https://store.test/report?sig=SIG-REPORT-5f2a9c1e7b3d4a60",
            "POST http://svc.test/api/upload/attachments",
            "PUT https://store.test/att/shot?sig=SIG-ATT-5f2a9c1e7b3d4a60",
            "PUT https://store.test/att/log?sig=SIG-ATT-5f2a9c1e7b3d4a60",
            "PUT https://store.test/att/file?sig=SIG-ATT-5f2a9c1e7b3d4a60",
            "POST http://svc.test/api/upload/finish",
        ]
    );
    // start: Bearer access token and the Content-Type of docs/service-contract.md §5.1, no body
    assert_eq!(
        log[0].headers,
        vec![("Authorization".to_string(), format!("Bearer {AT}")), ("Content-Type".to_string(), "application/json".to_string())]
    );
    assert!(log[0].body.is_empty());
    assert_eq!(log[1].header("content-type"), Some("application/json"));
    assert_eq!(log[1].header("content-encoding"), Some("br"));
    assert_eq!(serde_json::from_slice::<Value>(&unbr(log[1].body.bytes())).unwrap(), match &opts.report { ReportInput::Document(d) => serde_json::from_str::<Value>(d).unwrap(), _ => unreachable!() });
    assert_eq!(log[2].header("authorization"), Some(&*format!("Bearer {UT}")));
    assert_eq!(serde_json::from_slice::<Value>(log[2].body.bytes()).unwrap(), json!({"attachmentIds": ["shot", "log", "file"]}));
    // presigned URLs: never an Authorization header
    for r in log.iter().filter(|r| r.url.starts_with("https://store.test")) {
        assert_eq!(r.header("authorization"), None, "{}", r.url);
    }
    // images as they are, text Brotli-compressed
    assert_eq!(log[3].body.bytes(), png);
    assert_eq!(log[3].header("content-encoding"), None);
    assert_eq!(log[4].header("content-encoding"), Some("br"));
    assert_eq!(unbr(log[4].body.bytes()), b"hello hello hello");
    assert_eq!(unbr(log[5].body.bytes()), b"log line\n".repeat(100));
    assert_eq!(log[6].header("authorization"), Some(&*format!("Bearer {UT}")));
    let sent: u64 = [1, 3, 4, 5].iter().map(|&i| log[i].body.len()).sum();
    assert_eq!(
        result,
        UploadResult { web_url: "/runs/7".into(), report_url: "http://svc.test/runs/7".into(), attachments: 3, bytes: sent }
    );
}

#[test]
fn path_prefix_base_url_is_kept() {
    for base in ["http://svc.test/prefix", "http://svc.test/prefix/"] {
        let h = Harness::new(FakeNet::happy());
        let mut opts = upload_opts(vec![]);
        opts.base_url = base.into();
        let result = h.upload(&opts).unwrap();
        assert_eq!(h.net.log.borrow()[0].url, "http://svc.test/prefix/api/upload/start");
        assert_eq!(h.net.log.borrow()[2].url, "http://svc.test/prefix/api/upload/finish");
        assert_eq!(h.net.log.borrow().len(), 3, "no attachments request without attachments");
        assert_eq!(result.report_url, "http://svc.test/runs/7");
        let h = Harness::new(FakeNet::happy());
        let mut opts = durations_opts();
        opts.base_url = base.into();
        h.durations(&opts).unwrap();
        assert_eq!(h.net.log.borrow()[0].url, "http://svc.test/prefix/api/testDurations/create");
        assert_eq!(h.net.log.borrow()[2].url, "http://svc.test/prefix/api/testDurations/submit");
    }
}

#[test]
fn server_errors_are_retried_with_backoff() {
    let h = Harness::new(FakeNet::new(|r, n| (path(&r.url).ends_with("/submit") && n < 2).then(|| status(503))));
    h.durations(&durations_opts()).unwrap();
    assert_eq!(h.net.count("/submit"), 3);
    let sleeps = h.clock.sleeps.borrow().clone();
    assert_eq!(sleeps.len(), 2);
    assert!((250..=500).contains(&sleeps[0]) && (500..=1000).contains(&sleeps[1]), "{sleeps:?}");
    let submit: Vec<_> = h.events.borrow().iter().filter(|e| e.step == "submit").map(|e| (e.attempt, e.status)).collect();
    assert_eq!(submit, [(1, Some(503)), (2, Some(503)), (3, Some(200))]);
}

#[test]
fn retries_are_bounded() {
    let h = Harness::new(FakeNet::new(|r, _| path(&r.url).ends_with("/finish").then(|| status(502))));
    let e = h.upload(&upload_opts(vec![])).unwrap_err();
    assert_eq!((e.code, e.step, e.status, e.attempts), (ErrorCode::HttpStatus, Some(Step::Finish), Some(502), Some(5)));
    let h = Harness::new(FakeNet::new(|r, _| {
        path(&r.url).ends_with("/start").then(|| Err(Error::new(ErrorCode::Network, "connect ECONNREFUSED")))
    }));
    let e = h.upload(&upload_opts(vec![])).unwrap_err();
    assert_eq!((e.code, e.step, e.status, e.attempts), (ErrorCode::Network, Some(Step::Start), None, Some(5)));
    assert!(e.message.contains("ECONNREFUSED"), "{}", e.message);
}

#[test]
fn client_errors_fail_at_once() {
    let h = Harness::new(FakeNet::new(|r, _| path(&r.url).ends_with("/start").then(|| status(401))));
    let e = h.upload(&upload_opts(vec![])).unwrap_err();
    assert_eq!((e.code, e.step, e.status, e.attempts), (ErrorCode::HttpStatus, Some(Step::Start), Some(401), Some(1)));
    assert_eq!(h.net.log.borrow().len(), 1);
    assert!(e.message.contains("token"), "{}", e.message);
}

#[test]
fn retry_after_is_honoured() {
    let h = Harness::new(FakeNet::new(|r, n| {
        (path(&r.url).ends_with("/create") && n == 0).then(|| status_with(429, "Retry-After", "7"))
    }));
    h.durations(&durations_opts()).unwrap();
    assert_eq!(*h.clock.sleeps.borrow(), [7000]);

    // as an HTTP date, 3 s after the fake clock's start (1_700_000_000_000 ms)
    let h = Harness::new(FakeNet::new(|r, n| {
        (path(&r.url).ends_with("/start") && n == 0).then(|| status_with(503, "retry-after", "Tue, 14 Nov 2023 22:13:23 GMT"))
    }));
    h.upload(&upload_opts(vec![])).unwrap();
    assert_eq!(*h.clock.sleeps.borrow(), [3000]);
}

#[test]
fn polls_until_ready_with_growing_interval() {
    let h = Harness::new(FakeNet::new(|r, n| (path(&r.url) == "/result" && n < 4).then(|| status(404))));
    let report = h.durations(&durations_opts()).unwrap();
    assert_eq!(report, h.net.annotated);
    assert_eq!(*h.clock.sleeps.borrow(), [500, 750, 1125, 1687]);
    assert_eq!(h.net.count("/result"), 5);
}

#[test]
fn a_poll_in_flight_at_the_deadline_says_the_status_the_polls_before_it_got() {
    // the host's transport gives up a request at the deadline with TIMEOUT and no status: the
    // error still says the download URL answered 404 (not ready) until then (CI's fault test saw
    // `[TIMEOUT, poll, undefined]` where the deadline fell during a poll)
    let h = Harness::new(FakeNet::new(|r, n| {
        (path(&r.url) == "/result").then(|| if n < 2 { status(404) } else { Err(Error::new(ErrorCode::Timeout, "the request did not finish in time")) })
    }));
    let e = h.durations(&durations_opts()).unwrap_err();
    assert_eq!((e.code, e.step, e.status, e.attempts), (ErrorCode::Timeout, Some(Step::Poll), Some(404), Some(3)));
    // the first poll failing so has no earlier status to give
    let h = Harness::new(FakeNet::new(|r, _| (path(&r.url) == "/result").then(|| Err(Error::new(ErrorCode::Timeout, "the request did not finish in time")))));
    let e = h.durations(&durations_opts()).unwrap_err();
    assert_eq!((e.code, e.step, e.status), (ErrorCode::Timeout, Some(Step::Poll), None));
}

#[test]
fn polling_stops_at_the_timeout() {
    let h = Harness::new(FakeNet::new(|r, _| (path(&r.url) == "/result").then(|| status(404))));
    let start = h.clock.now_ms();
    let mut opts = durations_opts();
    opts.timeout_ms = 20_000;
    let e = h.durations(&opts).unwrap_err();
    assert_eq!((e.code, e.step, e.status), (ErrorCode::Timeout, Some(Step::Poll), Some(404)));
    assert_eq!(e.attempts, Some(h.net.count("/result") as u32));
    assert!(h.clock.now_ms() - start <= 20_000, "never sleeps past the deadline");
    assert!(e.message.contains("timeoutMs=20000"), "{}", e.message);
    assert!(h.clock.sleeps.borrow().iter().all(|&s| s <= 5000));
}

#[test]
fn retry_after_past_the_deadline_is_a_timeout() {
    let h = Harness::new(FakeNet::new(|r, _| path(&r.url).ends_with("/create").then(|| status_with(503, "Retry-After", "600"))));
    let e = h.durations(&durations_opts()).unwrap_err();
    assert_eq!((e.code, e.step, e.status, e.attempts), (ErrorCode::Timeout, Some(Step::Create), Some(503), Some(1)));
    assert!(h.clock.sleeps.borrow().is_empty());
}

#[test]
fn malformed_responses_are_invalid_response() {
    let h = Harness::new(FakeNet::new(|r, _| {
        path(&r.url).ends_with("/create").then(|| Ok(Response { status: 200, headers: vec![], body: b"{\"testDurationsToken\": ".to_vec() }))
    }));
    let e = h.durations(&durations_opts()).unwrap_err();
    assert_eq!((e.code, e.step, e.status, e.attempts), (ErrorCode::InvalidResponse, Some(Step::Create), Some(200), Some(1)));
    assert_eq!(h.net.log.borrow().len(), 1);

    let h = Harness::new(FakeNet::new(|r, _| path(&r.url).ends_with("/submit").then(|| ok_json(json!({"downloadUrl": ""})))));
    assert_eq!(h.durations(&durations_opts()).unwrap_err().code, ErrorCode::InvalidResponse);

    let h = Harness::new(FakeNet::new(|r, _| path(&r.url).ends_with("/attachments").then(|| ok_json(json!([])))));
    let e = h.upload(&upload_opts(vec![attachment("a", "image/png", b"x")])).unwrap_err();
    assert_eq!((e.code, e.step), (ErrorCode::InvalidResponse, Some(Step::Attachments)));
    assert!(e.message.contains("\"a\""), "{}", e.message);
    assert_eq!(h.net.count("/finish"), 0);
}

#[test]
fn truncated_brotli_download_is_brotli_corrupt() {
    let net = FakeNet::new(|_, _| None);
    let full = codec::compress(&serde_json::to_vec(&net.annotated).unwrap(), CompressOptions::default()).unwrap();
    let cut = full[..full.len() - 3].to_vec();
    let h = Harness::new(FakeNet::new(move |r, _| {
        (path(&r.url) == "/result").then(|| Ok(Response { status: 200, headers: vec![], body: cut.clone() }))
    }));
    let e = h.durations(&durations_opts()).unwrap_err();
    assert_eq!((e.code, e.step, e.status), (ErrorCode::BrotliCorrupt, Some(Step::Poll), Some(200)));
    assert_eq!(h.net.count("/result"), 1, "a body that arrived whole is not fetched again");

    // Node's fetch decodes Content-Encoding: br itself and hands over the prefix a truncated
    // stream decodes to: JSON that ends early under Content-Encoding: br is truncated Brotli
    let h = Harness::new(FakeNet::new(|r, _| {
        (path(&r.url) == "/result").then(|| {
            Ok(Response { status: 200, headers: vec![("content-encoding".into(), "br".into())], body: b"{\"tests\": [{\"ti".to_vec() })
        })
    }));
    let e = h.durations(&durations_opts()).unwrap_err();
    assert_eq!((e.code, e.step, e.status, e.attempts), (ErrorCode::BrotliCorrupt, Some(Step::Poll), Some(200), Some(1)));
}

#[test]
fn plain_json_download_is_accepted() {
    let h = Harness::new(FakeNet::new(|r, _| (path(&r.url) == "/result").then(|| ok_json(json!({"tests": []})))));
    assert_eq!(h.durations(&durations_opts()).unwrap(), json!({"tests": []}));
}

#[test]
fn attachment_ids_go_in_batches_of_1000() {
    let h = Harness::new(FakeNet::happy());
    let atts: Vec<_> = (0..1500).map(|i| attachment(&format!("{i:040x}"), "image/png", &[i as u8])).collect();
    let result = h.upload(&upload_opts(atts)).unwrap();
    assert_eq!(result.attachments, 1500);
    let log = h.net.log.borrow();
    let batches: Vec<usize> = log
        .iter()
        .filter(|r| path(&r.url).ends_with("/attachments"))
        .map(|r| serde_json::from_slice::<Value>(r.body.bytes()).unwrap()["attachmentIds"].as_array().unwrap().len())
        .collect();
    assert_eq!(batches, [1000, 500]);
    assert_eq!(log.iter().filter(|r| r.url.starts_with("https://store.test/att/")).count(), 1500);
    assert!(path(&log.last().unwrap().url).ends_with("/finish"));
    // the second batch is requested after the first is stored
    let second = log.iter().rposition(|r| path(&r.url).ends_with("/attachments")).unwrap();
    assert_eq!(log[..second].iter().filter(|r| r.url.contains("/att/")).count(), 1000);
}

#[test]
fn attachment_uploads_run_with_bounded_concurrency() {
    let atts: Vec<_> = (0..200).map(|i| attachment(&format!("a{i}"), "image/png", b"x")).collect();
    // adaptive (no option): from 8, one more per attachment stored at the first try, at most 64
    let mut net = FakeNet::happy();
    net.overlap = true;
    let h = Harness::new(net);
    h.upload(&upload_opts(atts.clone())).unwrap();
    assert!((9..=limits::MAX_ADAPTIVE_ATTACHMENT_CONCURRENCY).contains(&h.net.max_in_flight.get()), "{}", h.net.max_in_flight.get());
    // every PUT needing a retry: the window never grows past where it started
    let mut net = FakeNet::new(|r, n| (r.url.contains("/att/") && n == 0).then(|| status(503)));
    net.overlap = true;
    let h = Harness::new(net);
    h.upload(&upload_opts(atts.clone())).unwrap();
    assert_eq!(h.net.max_in_flight.get(), limits::DEFAULT_ATTACHMENT_CONCURRENCY);
    assert_eq!(h.net.count("/finish"), 1);
    // an explicit concurrency is kept as it is
    let mut net = FakeNet::happy();
    net.overlap = true;
    let h = Harness::new(net);
    let mut opts = upload_opts(atts);
    opts.concurrency = Some(3);
    h.upload(&opts).unwrap();
    assert_eq!(h.net.max_in_flight.get(), 3);
}

#[test]
fn a_failed_attachment_fails_the_upload_without_finish() {
    let h = Harness::new(FakeNet::new(|r, _| r.url.contains("/att/bad?").then(|| status(403))));
    let atts = vec![attachment("good", "image/png", b"1"), attachment("bad", "image/png", b"2"), attachment("later", "image/png", b"3")];
    let mut opts = upload_opts(atts);
    opts.concurrency = Some(1);
    let e = h.upload(&opts).unwrap_err();
    assert_eq!((e.code, e.step, e.status, e.attempts), (ErrorCode::HttpStatus, Some(Step::UploadAttachment), Some(403), Some(1)));
    assert!(e.message.contains("\"bad\""), "{}", e.message);
    assert_eq!(h.net.count("/finish"), 0);

    let h = Harness::new(FakeNet::happy());
    let mut opts = upload_opts(vec![]);
    opts.attachments.push(Attachment { id: "f".into(), content_type: "text/plain".into(), data: AttachmentData::Path("/nope".into()) });
    let e = h.upload(&opts).unwrap_err();
    assert_eq!((e.code, e.step), (ErrorCode::InvalidInput, Some(Step::UploadAttachment)));
    assert!(e.message.contains("\"f\"") && e.message.contains("/nope"), "{}", e.message);
    assert_eq!(h.net.count("/finish"), 0);
}

#[test]
fn abort_stops_at_once() {
    let mut h = Harness::new(FakeNet::happy());
    h.aborted = Box::new(|net| net.log.borrow().len() >= 2);
    let e = h.durations(&durations_opts()).unwrap_err();
    assert_eq!((e.code, e.step), (ErrorCode::Aborted, Some(Step::UploadTestList)));
    assert_eq!(h.net.log.borrow().len(), 2);

    let mut h = Harness::new(FakeNet::happy());
    h.aborted = Box::new(|_| true);
    let e = h.upload(&upload_opts(vec![])).unwrap_err();
    assert_eq!((e.code, e.step), (ErrorCode::Aborted, Some(Step::Start)));
    assert!(h.net.log.borrow().is_empty());

    // a transport aborted mid-request is not retried
    let h = Harness::new(FakeNet::new(|r, _| path(&r.url).ends_with("/create").then(|| Err(Error::new(ErrorCode::Aborted, "aborted")))));
    let e = h.durations(&durations_opts()).unwrap_err();
    assert_eq!((e.code, e.attempts), (ErrorCode::Aborted, Some(1)));
}

#[test]
fn bad_input_sends_nothing() {
    let cases: Vec<(&str, Box<dyn Fn(&mut DurationsOptions)>)> = vec![
        ("shardGroupKey", Box::new(|o| o.shard_group_key = "a b".into())),
        ("shardGroupKey", Box::new(|o| o.shard_group_key = String::new())),
        ("shardGroupKey", Box::new(|o| o.shard_group_key = "k".repeat(251))),
        ("commitId", Box::new(|o| o.commit_id = "HEAD".into())),
        ("baseUrl", Box::new(|o| o.base_url = "svc.test".into())),
        ("accessToken", Box::new(|o| o.access_token = String::new())),
        ("accessToken", Box::new(|o| o.access_token = format!("Bearer {AT}"))),
        ("orgSlug", Box::new(|o| o.org_slug = Some(String::new()))),
        ("report", Box::new(|o| o.report = ReportInput::Document(json!([]).to_string()))),
    ];
    for (what, change) in cases {
        let h = Harness::new(FakeNet::happy());
        let mut opts = durations_opts();
        change(&mut opts);
        let e = h.durations(&opts).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidInput, "{what}");
        assert!(e.message.contains(what), "{what}: {}", e.message);
        assert!(!e.message.contains(AT), "{}", e.message);
        assert!(h.net.log.borrow().is_empty(), "{what}");
    }
    let cases: Vec<(&str, Vec<Attachment>)> = vec![
        ("id", vec![attachment(&"x".repeat(257), "image/png", b"")]),
        ("id", vec![attachment("", "image/png", b"")]),
        ("twice", vec![attachment("a", "image/png", b""), attachment("a", "text/plain", b"")]),
        ("contentType", vec![attachment("a", "", b"")]),
    ];
    for (what, atts) in cases {
        let h = Harness::new(FakeNet::happy());
        let e = h.upload(&upload_opts(atts)).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidInput, "{what}");
        assert!(e.message.contains(what), "{what}: {}", e.message);
        assert!(h.net.log.borrow().is_empty(), "{what}");
    }
    // the report is checked with the report module's validation (validateReport)
    let mut bad = upload_opts(vec![]);
    let mut doc = report_with(json!([{"title": "a", "attempts": [{"startTimestamp": 0, "environmentIdx": 1}]}]));
    doc["commitId"] = json!("HEAD");
    bad.report = ReportInput::Document(doc.to_string());
    let h = Harness::new(FakeNet::happy());
    let e = h.upload(&bad).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.message.contains("commitId") && e.message.contains("tests[0].attempts[0].environmentIdx"), "{}", e.message);
    assert!(h.net.log.borrow().is_empty());
    let mut bad = durations_opts();
    bad.report = ReportInput::Bytes(serde_json::to_vec(&doc).unwrap());
    let h = Harness::new(FakeNet::happy());
    assert_eq!(h.durations(&bad).unwrap_err().code, ErrorCode::InvalidInput);
    assert!(h.net.log.borrow().is_empty());

    let h = Harness::new(FakeNet::happy());
    assert!(h.upload(&upload_opts(vec![attachment(&"x".repeat(256), "image/png", b"")])).is_ok());
    let mut opts = upload_opts(vec![]);
    opts.concurrency = Some(0);
    assert_eq!(Harness::new(FakeNet::happy()).upload(&opts).unwrap_err().code, ErrorCode::InvalidInput);
}

#[test]
fn no_secret_reaches_an_error_message() {
    // a server that echoes every credential it sees into its error bodies
    let echo = |code: u16| {
        move |r: &Request, _: usize| -> Option<Result<Response, Error>> {
            let body = format!("bad request {} {:?}", r.url, r.headers);
            Some(Ok(Response { status: code, headers: vec![], body: body.into_bytes() }))
        }
    };
    let secrets = [AT, DT, UT, "SIG-", "sig="];
    let mut errors = vec![];
    for code in [400, 401, 503] {
        for step in ["/create", "/list", "/submit", "/result", "/start", "/report", "/attachments", "/att/", "/finish"] {
            let f = echo(code);
            let h = Harness::new(FakeNet::new(move |r, n| if r.url.contains(step) { f(r, n) } else { None }));
            errors.push(h.durations(&durations_opts()).err());
            errors.push(h.upload(&upload_opts(vec![attachment("a", "text/plain", b"x")])).err());
        }
    }
    // storage that echoes the path and query it got (as S3's SignatureDoesNotMatch does)
    for step in ["/list", "/result", "/report", "/att/"] {
        let h = Harness::new(FakeNet::new(move |r, _| {
            r.url.contains(step).then(|| {
                let path_and_query = &r.url[r.url.find("://").unwrap() + 3..];
                let path_and_query = &path_and_query[path_and_query.find('/').unwrap()..];
                let query = path_and_query.split_once('?').unwrap().1;
                let body = format!("<Error>{path_and_query} <SignatureProvided>{}</SignatureProvided> {query}</Error>", &query[4..]);
                Ok(Response { status: 403, headers: vec![], body: body.into_bytes() })
            })
        }));
        errors.push(h.durations(&durations_opts()).err());
        errors.push(h.upload(&upload_opts(vec![attachment("a", "text/plain", b"x")])).err());
    }
    let h = Harness::new(FakeNet::new(|r, _| {
        r.url.contains("/att/").then(|| Err(Error::new(ErrorCode::Network, format!("socket hang up at {}", r.url))))
    }));
    errors.push(h.upload(&upload_opts(vec![attachment("a", "image/png", b"x")])).err());
    let errors: Vec<_> = errors.into_iter().flatten().collect();
    assert!(errors.len() > 20);
    for e in errors {
        for s in secrets {
            assert!(!e.message.contains(s), "{s} in {e}");
        }
    }
}

#[test]
fn progress_names_the_call_in_flight() {
    // the edge reads it when a timeout or abort cuts a request short
    let h = Harness::new(FakeNet::new(|r, n| (path(&r.url).ends_with("/submit") && n == 0).then(|| status(503))));
    h.durations(&durations_opts()).unwrap();
    assert_eq!(h.progress.get(), Progress { step: Some(Step::Poll), attempts: 1, status: Some(200) });
    // the polls before the one in flight count, as the poll step's own errors count them (a
    // timeout the edge named during the fourth poll said 1 attempt where 4 polls were made)
    let h = Harness::new(FakeNet::new(|r, n| (path(&r.url) == "/result" && n < 3).then(|| status(404))));
    h.durations(&durations_opts()).unwrap();
    assert_eq!(h.progress.get(), Progress { step: Some(Step::Poll), attempts: 4, status: Some(200) });
    let h = Harness::new(FakeNet::new(|r, _| path(&r.url).ends_with("/finish").then(|| status(400))));
    h.upload(&upload_opts(vec![])).unwrap_err();
    assert_eq!(h.progress.get(), Progress { step: Some(Step::Finish), attempts: 1, status: Some(400) });
}

#[test]
fn a_body_that_fails_to_decode_keeps_its_status_and_is_not_retried() {
    // a fetch that undoes Content-Encoding itself reports corrupt Brotli as an error with a status
    let h = Harness::new(FakeNet::new(|r, _| {
        (path(&r.url) == "/result").then(|| Err(Error::new(ErrorCode::BrotliCorrupt, "Decompression failed").with_status(200)))
    }));
    let e = h.durations(&durations_opts()).unwrap_err();
    assert_eq!((e.code, e.step, e.status, e.attempts), (ErrorCode::BrotliCorrupt, Some(Step::Poll), Some(200), Some(1)));
    assert_eq!(h.net.count("/result"), 1);
}

use crate::codec::tests::noise;

/// Report bytes the caller holds (`uploadReport({report: Uint8Array})` in wasm): checked by
/// reading them where they are, Brotli sent by handle (again on a retry, never released: the
/// caller's), plain JSON encoded here; an invalid one refused before any request.
#[test]
fn a_report_held_by_the_host_is_checked_where_it_is_and_sent_by_handle() {
    use std::rc::Rc;
    let held = |h: &Harness, bytes: Vec<u8>| {
        let body = h.net.host.hold(bytes.clone());
        (ReportInput::Held(HeldReport { bytes: Rc::new(codec::tests::Kept(bytes)), body }), body)
    };
    let json = serde_json::to_vec(&report_with(json!([{"title": "a", "attempts": [{"environmentIdx": 0, "startTimestamp": 3, "duration": 5}]}]))).unwrap();
    let br = codec::compress(&json, CompressOptions::default()).unwrap();

    // Brotli: sent as it is, by handle, twice when the first PUT fails
    let h = Harness::new(FakeNet::new(|r, n| (r.url.contains("store.test/report") && n == 0).then(|| status(503))));
    let (report, body) = held(&h, br.clone());
    let result = h.upload(&UploadOptions { report, ..upload_opts(vec![]) }).unwrap();
    let log = h.net.log.borrow();
    let puts: Vec<_> = log.iter().filter(|r| r.url.contains("store.test/report")).collect();
    assert_eq!(puts.len(), 2);
    assert!(puts.iter().all(|p| p.body.bytes() == br));
    assert_eq!(h.net.host.sent.borrow().iter().filter(|&&s| s == body.handle).count(), 2);
    assert!(!h.net.host.released.borrow().contains(&body.handle));
    assert_eq!(result.bytes, br.len() as u64);
    drop(log);

    // plain JSON: encoded here, the same report arrives
    let h = Harness::new(FakeNet::happy());
    let (report, _) = held(&h, json.clone());
    h.upload(&UploadOptions { report, ..upload_opts(vec![]) }).unwrap();
    let put = h.net.log.borrow().iter().find(|r| r.url.contains("store.test/report")).cloned().unwrap();
    assert_eq!(unbr(put.body.bytes()), json);

    // invalid: refused, nothing sent
    let bad = serde_json::to_vec(&report_with(json!([{"title": "a", "attempts": [{"environmentIdx": 4, "startTimestamp": 3}]}]))).unwrap();
    let h = Harness::new(FakeNet::happy());
    let (report, _) = held(&h, codec::compress(&bad, CompressOptions::default()).unwrap());
    let e = h.upload(&UploadOptions { report, ..upload_opts(vec![]) }).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.message.starts_with("report: ") && e.message.contains("tests[0].attempts[0].environmentIdx"), "{}", e.message);
    assert!(h.net.log.borrow().is_empty());
}

#[test]
fn host_bodies_are_sent_as_they_are_and_again_on_a_retry() {
    for compressor in [true, false] {
        // every first PUT of an attachment fails: each is sent twice
        let h = Harness::new(FakeNet::new(|r, n| (r.url.contains("/att/") && n == 0).then(|| status(503))));
        h.net.host.compressor.set(compressor);
        let video = noise(70_000, 3);
        let log = b"2026-11-25T20:00:00Z [worker 1] clicking button#submit (12ms)\n".repeat(300);
        let held_video = h.net.host.hold(video.clone());
        let held_log = h.net.host.hold(log.clone());
        let mut opts = upload_opts(vec![
            Attachment { id: "video".into(), content_type: "video/webm".into(), data: AttachmentData::Host(held_video) },
            Attachment { id: "log".into(), content_type: "text/plain".into(), data: AttachmentData::Host(held_log) },
            Attachment { id: "file".into(), content_type: "text/plain".into(), data: AttachmentData::Path("/tmp/log.txt".into()) },
        ]);
        opts.concurrency = Some(1);
        let result = h.upload(&opts).unwrap();
        let log_req = h.net.log.borrow();
        let puts = |id: &str| log_req.iter().filter(|r| r.url.contains(&format!("/att/{id}?"))).cloned().collect::<Vec<_>>();
        // the same body both times, byte for byte
        for id in ["video", "log", "file"] {
            let p = puts(id);
            assert_eq!(p.len(), 2, "{id}");
            assert_eq!(p[0].body, p[1].body, "{id}");
            assert_eq!(p[0].headers, p[1].headers, "{id}");
        }
        // the video: the caller's body, sent twice by handle, never compressed
        assert_eq!(puts("video")[0].body.bytes(), video);
        assert_eq!(puts("video")[0].header("content-encoding"), None);
        assert_eq!(h.net.host.sent.borrow().iter().filter(|&&s| s == held_video.handle).count(), 2);
        // text: Brotli, by the host's compressor (a host body, sent by handle) or the wasm encoder
        assert_eq!(puts("log")[0].header("content-encoding"), Some("br"));
        assert_eq!(unbr(puts("log")[0].body.bytes()), log);
        assert_eq!(unbr(puts("file")[0].body.bytes()), b"log line\n".repeat(100));
        // (and the report, encoded by the host's compressor when there is one)
        let by_handle = h.net.host.sent.borrow().len();
        assert_eq!(by_handle, if compressor { 7 } else { 2 }, "compressor {compressor}");
        // what the exchange opened or compressed is released; the caller's bodies are not
        let released = h.net.host.released.borrow().clone();
        assert!(!released.contains(&held_video.handle) && !released.contains(&held_log.handle));
        assert_eq!(released.len(), if compressor { 4 } else { 1 }, "compressor {compressor}");
        let report = log_req.iter().find(|r| r.url.contains("store.test/report")).unwrap();
        let doc: Value = serde_json::from_slice(&unbr(report.body.bytes())).unwrap();
        assert_eq!(doc, match &opts.report { ReportInput::Document(d) => serde_json::from_str::<Value>(d).unwrap(), _ => unreachable!() });
        // bytes: the report and each attachment once, as sent
        let report = log_req.iter().find(|r| r.url.contains("store.test/report")).unwrap().body.len();
        let sent = report + ["video", "log", "file"].iter().map(|id| puts(id)[0].body.len()).sum::<u64>();
        assert_eq!(result.bytes, sent);
        assert_eq!(h.net.count("/finish"), 1);
    }
}

#[test]
fn text_that_does_not_compress_is_sent_as_it_is() {
    let h = Harness::new(FakeNet::happy());
    h.net.host.compressor.set(true);
    let random = noise(40_000, 9);
    let held = h.net.host.hold(random.clone());
    let opts = upload_opts(vec![
        Attachment { id: "b64".into(), content_type: "text/plain".into(), data: AttachmentData::Host(held) },
        attachment("empty", "text/plain", b""),
    ]);
    h.upload(&opts).unwrap();
    let log = h.net.log.borrow();
    let put = log.iter().find(|r| r.url.contains("/att/b64?")).unwrap();
    assert_eq!(put.header("content-encoding"), None);
    assert_eq!(put.body.bytes(), random);
    // the sample decided: the whole was never handed to the compressor (the host's other body
    // is the report's Brotli)
    assert_eq!(h.net.host.bodies.borrow().len(), 2);
    let empty = log.iter().find(|r| r.url.contains("/att/empty?")).unwrap();
    assert_eq!((empty.header("content-encoding"), empty.body.len()), (None, 0));
}

#[test]
fn a_file_that_vanishes_mid_upload_fails_naming_the_attachment() {
    let h = Harness::new(FakeNet::happy());
    let mut opts = upload_opts(vec![attachment("first", "image/png", b"x")]);
    opts.attachments.push(Attachment { id: "trace-7".into(), content_type: "application/zip".into(), data: AttachmentData::Path("/tmp/vanishing.webm".into()) });
    let e = h.upload(&opts).unwrap_err();
    assert_eq!((e.code, e.step, e.attempts), (ErrorCode::InvalidInput, Some(Step::UploadAttachment), Some(1)));
    assert!(e.message.contains("\"trace-7\"") && e.message.contains("deleted"), "{}", e.message);
    for s in [AT, UT, "SIG-", "sig="] {
        assert!(!e.message.contains(s), "{s} in {}", e.message);
    }
    assert_eq!(h.net.count("/finish"), 0);
    // the file opened for it is released
    assert_eq!(h.net.host.released.borrow().len(), 1);
}

#[test]
fn large_attachments_are_bounded_by_bytes_in_flight() {
    // 30 MiB each: two fit in the 64 MiB in flight, the third waits (whatever the window)
    let mut net = FakeNet::happy();
    net.overlap = true;
    let h = Harness::new(net);
    let atts = (0..4)
        .map(|i| Attachment { id: format!("v{i}"), content_type: "video/webm".into(), data: AttachmentData::Host(h.net.host.hold(vec![i as u8; 30 << 20])) })
        .collect();
    let result = h.upload(&upload_opts(atts)).unwrap();
    assert_eq!(result.attachments, 4);
    assert_eq!(h.net.max_in_flight.get(), 2);
    assert_eq!(h.net.count("/finish"), 1);
}
