//! A coverage-free mutation fuzzer on stable Rust: one target per parser of user input, a corpus
//! seeded from the repository's fixtures and from documents built here, and a bounded time.
//!
//! Each target is a plain function of bytes that returns how the input was taken (accepted or
//! refused, with a signature of why) or which invariant it broke; it runs inside
//! `catch_unwind`, so a panic is a finding too. A finding is shrunk, written to
//! `tests/fuzz-regressions/<target>/<sha1>.bin` and fails the test (naming the file and the
//! seed); `fuzz_regressions_stay_fixed` replays every such file on every `cargo test`. A finding
//! left open on purpose is kept as `<sha1>.open`: replayed and reported, not failing, and the
//! fuzzer counts inputs that fail the same way as known rather than new.
//!
//! What a panic cannot report (a stack overflow aborts the process) is caught too: each fuzz
//! test runs its target in a child process (this test binary, the same test), which writes
//! every input to `target/fuzz-last/<target>.bin` before running it; when the child dies, the
//! parent saves that input as the finding.
//!
//! No coverage feedback: an input joins the corpus when its outcome has a signature not seen
//! before (the error's message with the numbers taken out, so each validation path and parser
//! error is a signature; for an accepted JSON input, the shape of the document), and mutations
//! start from the seeds, the accepted inputs and the refused ones, so they stay near inputs that
//! reach deep checks.
//!
//! Environment:
//! - `SHARDWISE_FUZZ_SECONDS`: the budget of all the targets together (default 2, so a plain
//!   `cargo test` stays fast; `scripts/test.sh` gives 60), split evenly between them. The
//!   targets are separate tests, so the test threads run them side by side.
//! - `SHARDWISE_FUZZ_SEED`: the run's seed (decimal or 0x-hex; default: from the clock). Printed
//!   at the start of every target and in every failure.
//! - `SHARDWISE_FUZZ_INPUTS`: run exactly this many inputs per target instead of a time budget
//!   (with the seed, replays a run input for input).
//! - `SHARDWISE_FUZZ_KEEP_GOING=1`: save every distinct finding and fail at the end.
//! - `SHARDWISE_FUZZ_HANG_SECONDS`: an input running longer is saved and the process exits
//!   (default 30).
#![cfg(not(target_arch = "wasm32"))]
#![recursion_limit = "256"]

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, Once, OnceLock};
use std::thread::{self, ThreadId};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Map, Value};
use shardwise::codec::{self, CompressOptions, DecompressOptions, Decompressor};
use shardwise::report::{self, Environment, ReportBuilder, ReportInit, Rules, RunAttempt, SystemData, TestInput};
use shardwise::{discover, exchange, plan, Error, ErrorCode};

// ---------------------------------------------------------------------------------------------
// Targets

/// How an input was taken: accepted or refused, and a signature of the path it took.
#[derive(Debug, Clone)]
struct Outcome {
    ok: bool,
    sig: String,
}

impl Outcome {
    fn ok(sig: impl Into<String>) -> Self {
        Outcome { ok: true, sig: sig.into() }
    }

    fn refused(e: &Error) -> Self {
        Outcome { ok: false, sig: format!("{}:{}", e.code.as_str(), skeleton(&e.message)) }
    }

    fn refused_text(what: &str, why: &str) -> Self {
        Outcome { ok: false, sig: format!("{what}:{}", skeleton(why)) }
    }
}

/// An invariant the input broke: a stable id (the finding's signature) and what was seen.
#[derive(Debug, Clone)]
struct Broken {
    id: &'static str,
    /// What tells apart findings of one invariant (empty for most): part of the signature.
    class: String,
    detail: String,
}

type Checked = Result<Outcome, Broken>;

macro_rules! check {
    ($cond:expr, $id:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(Broken { id: $id, class: String::new(), detail: clip(&format!($($fmt)+)) });
        }
    };
}

/// How a target's inputs are mutated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Brotli streams (and anything else).
    Brotli,
    /// JSON text; `brotli`: also Brotli-compressed JSON.
    Json { brotli: bool },
    /// JavaScript / TypeScript source.
    Js,
}

struct Target {
    name: &'static str,
    kind: Kind,
    run: fn(&[u8]) -> Checked,
    seeds: fn() -> Vec<Vec<u8>>,
    /// Longest a run may take for an input of `len` bytes (checked again twice before it is a
    /// finding), when the target promises bounded time.
    time_bound: Option<fn(usize) -> Duration>,
}

const TARGETS: [Target; 9] = [
    Target { name: "codec_decompress", kind: Kind::Brotli, run: t_codec, seeds: seeds_codec, time_bound: None },
    Target { name: "report_decode", kind: Kind::Json { brotli: true }, run: t_report_decode, seeds: seeds_reports_br, time_bound: None },
    Target { name: "report_issues", kind: Kind::Json { brotli: false }, run: t_report_issues, seeds: seeds_reports, time_bound: None },
    Target { name: "report_normalize", kind: Kind::Json { brotli: false }, run: t_report_normalize, seeds: seeds_reports, time_bound: None },
    Target { name: "plan_json", kind: Kind::Json { brotli: false }, run: t_plan, seeds: seeds_plan, time_bound: Some(plan_time) },
    Target { name: "exchange_decode_report", kind: Kind::Json { brotli: true }, run: t_exchange, seeds: seeds_reports_br, time_bound: None },
    Target { name: "discover_tests", kind: Kind::Js, run: t_discover, seeds: seeds_js, time_bound: Some(discover_time) },
    Target { name: "builder_add_attempt_mended", kind: Kind::Json { brotli: false }, run: t_builder, seeds: seeds_attempts, time_bound: None },
    Target { name: "junit_import", kind: Kind::Js, run: t_junit, seeds: seeds_junit, time_bound: Some(junit_time) },
];

/// The JUnit XML reader is one pass (the file rule by sources aside, not fuzzed here): linear.
fn junit_time(len: usize) -> Duration {
    Duration::from_millis(250) + Duration::from_nanos(2_000 * len as u64)
}

/// The tokenizer is linear: ~100x what it takes, so only a super-linear case trips it.
fn discover_time(len: usize) -> Duration {
    Duration::from_millis(250) + Duration::from_nanos(2_000 * len as u64)
}

/// The planner bounds its improvement pass (`MAX_EVALUATIONS`).
fn plan_time(len: usize) -> Duration {
    Duration::from_secs(5) + Duration::from_nanos(20_000 * len as u64)
}

const CODEC_LIMIT: usize = 1 << 20;

/// Target 1: `codec::decompress` with a 1 MiB limit; `decompress_pieces` and a `Decompressor` fed in
/// chunks of random sizes give the same result; what decodes re-encodes and decodes back.
fn t_codec(input: &[u8]) -> Checked {
    let opts = DecompressOptions { max_output_bytes: CODEC_LIMIT };
    let one = codec::decompress(input, opts);
    if let Ok(out) = &one {
        check!(out.len() <= CODEC_LIMIT, "codec.output-within-limit", "{} bytes", out.len());
    }
    let pieces = codec::decompress_pieces(input, opts).map(|p| p.pieces.concat());
    check!(same_bytes_result(&one, &pieces), "codec.pieces-equal-one-shot", "{} vs {}", show(&one), show(&pieces));
    let mut rng = Rng::new(fnv(input));
    for _ in 0..2 {
        let streamed = decompress_in_chunks(input, opts, &mut rng);
        check!(same_bytes_result(&one, &streamed), "codec.stream-equals-one-shot", "{} vs {}", show(&one), show(&streamed));
    }
    match one {
        Ok(out) => {
            if out.len() <= 64 << 10 {
                let c = CompressOptions { quality: rng.below(12) as u32, lgwin: 10 + rng.below(15) as u32 };
                let packed = codec::compress(&out, c);
                check!(packed.is_ok(), "codec.compress-accepts", "{c:?}: {:?}", packed.err());
                let back = codec::decompress(&packed.unwrap_or_default(), DecompressOptions::default());
                check!(back.as_ref() == Ok(&out), "codec.round-trip", "{c:?}: {}", show(&back));
            }
            Ok(Outcome::ok(format!("ok:{}", size_class(out.len()))))
        }
        Err(e) => Ok(Outcome::refused(&e)),
    }
}

fn decompress_in_chunks(input: &[u8], opts: DecompressOptions, rng: &mut Rng) -> shardwise::Result<Vec<u8>> {
    let mut d = Decompressor::new(opts);
    let mut out = Vec::new();
    let mut rest = input;
    while !rest.is_empty() {
        let n = match rng.below(16) {
            0 => 0,
            1..=4 => 1 + rng.below(4),
            5..=9 => 1 + rng.below(64),
            10..=13 => 1 + rng.below(4096),
            _ => rest.len(),
        }
        .min(rest.len());
        let (now, later) = rest.split_at(n);
        out.extend(d.push(now)?);
        rest = later;
    }
    out.extend(d.finish()?);
    Ok(out)
}

/// Target 2: `report::decode_json` / `decode_report` (Brotli-compressed or plain JSON, through
/// `report::read_json`): what `decode_json` gives reads back the same, plain and compressed;
/// a typed report reads back equal from its JSON; `decode_report` fails where `decode_json` does.
fn t_report_decode(input: &[u8]) -> Checked {
    let json = report::decode_json(input);
    let typed = report::decode_report(input);
    match (&json, &typed) {
        (Err(a), Err(b)) => check!(a == b, "report.decode-report-fails-as-decode-json", "{a:?} vs {b:?}"),
        (Err(a), Ok(_)) => check!(false, "report.decode-report-implies-decode-json", "decode_json: {a:?}"),
        _ => {}
    }
    if let Ok(text) = &json {
        let again = report::decode_json(text);
        check!(again.as_ref() == Ok(text), "report.decoded-json-re-decodes", "{}", show(&again));
        if text.len() <= 1 << 20 {
            let mut rng = Rng::new(fnv(input));
            let c = CompressOptions { quality: rng.below(12) as u32, lgwin: 10 + rng.below(15) as u32 };
            let packed = codec::compress(text, c).unwrap_or_default();
            let again = report::decode_json(&packed);
            check!(again.as_ref() == Ok(text), "report.brotli-json-re-decodes", "{c:?}: {}", show(&again));
        }
    }
    if let Ok(r) = &typed {
        let back = report::decode_report(&report::to_json(r));
        check!(back.as_ref() == Ok(r), "report.typed-report-re-decodes", "{:?}", back.err());
    }
    // the upload's check of report bytes, the stream read as it decodes: what decoding the
    // whole text then checking it finds (serde_json places some errors a line apart when it
    // reads a stream: the messages are compared without their places)
    let opts = DecompressOptions::default();
    let streamed = report::ensure_valid_bytes(codec::Input::Bytes(input), opts).map_err(|e| (e.code, unplaced(&e.message)));
    let whole = report::read_json_text(input, opts)
        .and_then(|(j, c)| report::ensure_valid_json(&j).map(|()| if c { report::ReportBytes::Brotli } else { report::ReportBytes::Json(j.into()) }))
        .map_err(|e| (e.code, unplaced(&e.message)));
    check!(streamed == whole, "report.upload-check-streamed-as-whole", "{streamed:?} vs {whole:?}");
    Ok(match (json, typed) {
        (Ok(_), Ok(r)) => Outcome::ok(format!("typed:{:x}", typed_shape(&r))),
        (Ok(_), Err(e)) => Outcome { ok: true, sig: format!("json-only:{}", skeleton(&e.message)) },
        (Err(e), _) => Outcome::refused(&e),
    })
}

/// `message` with serde_json's places (" at line L column C") taken out.
fn unplaced(message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(at) = rest.find(" at line ") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + " at line ".len()..];
        let tail = tail.trim_start_matches(|c: char| c.is_ascii_digit());
        let tail = tail.strip_prefix(" column ").unwrap_or(tail);
        rest = tail.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

/// Target 3: `report::issues` under both rules, on any JSON value: a strictly valid document is valid
/// under the schema too, is what `ensure_valid` accepts, fits the typed model, stays valid as a
/// typed report, and round-trips through `encode_report` / `decode_report`.
fn t_report_issues(input: &[u8]) -> Checked {
    let doc: Value = match serde_json::from_slice(input) {
        Ok(d) => d,
        Err(e) => return Ok(Outcome::refused_text("json", &e.to_string())),
    };
    let strict = report::issues(&doc, Rules::Strict);
    let schema = report::issues(&doc, Rules::Schema);
    check!(!strict.is_empty() || schema.is_empty(), "issues.strict-valid-is-schema-valid", "schema: {schema:?}");
    let ensured = report::ensure_valid(&doc);
    check!(ensured.is_ok() == (doc.is_object() && strict.is_empty()), "issues.ensure-valid-agrees", "{ensured:?} with {} issues", strict.len());
    if !strict.is_empty() {
        let first: Vec<String> = strict.iter().take(2).map(|i| format!("{}: {}", i.path, i.message)).collect();
        return Ok(Outcome { ok: false, sig: skeleton(&first.join("; ")) });
    }
    let r = match report::decode_report(input) {
        Ok(r) => r,
        Err(e) => {
            // JSON values keep a duplicate key's last value; the model's reader refuses the
            // duplicate, or an earlier value of it, whatever the message says
            let class = if has_duplicate_keys(input) { "duplicate keys".to_string() } else { skeleton(&e.message) };
            return Err(Broken { id: "issues.strict-valid-fits-model", class, detail: clip(&e.message) });
        }
    };
    let again = report::validate(&r);
    check!(again.is_empty(), "issues.typed-report-stays-valid", "{again:?}");
    let back = report::decode_report(&report::encode_report(&r));
    check!(back.as_ref() == Ok(&r), "issues.encode-decode-round-trip", "{:?}", back.err());
    Ok(Outcome::ok(format!("valid:{:x}", shape(&doc))))
}

/// Target 4: `report::normalize` of a typed report: keeps every attempt, keeps a valid report valid, and
/// is idempotent.
fn t_report_normalize(input: &[u8]) -> Checked {
    let r = match report::decode_report(input) {
        Ok(r) => r,
        Err(e) => return Ok(Outcome::refused(&e)),
    };
    let issues = report::validate(&r);
    let n = report::normalize(r.clone());
    check!(attempts(&n) == attempts(&r), "normalize.keeps-every-attempt", "{} -> {}", attempts(&r), attempts(&n));
    if issues.is_empty() {
        let after = report::validate(&n);
        check!(after.is_empty(), "normalize.stays-valid", "{after:?}");
    }
    let nn = report::normalize(n.clone());
    check!(nn == n, "normalize.idempotent", "{}", first_difference(&report::to_json(&n), &report::to_json(&nn)));
    Ok(Outcome::ok(format!("{}:{:x}", if issues.is_empty() { "valid" } else { "schema-only" }, typed_shape(&r))))
}

/// True when some object in the JSON text `input` has a key twice.
fn has_duplicate_keys(input: &[u8]) -> bool {
    use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
    struct Unique;
    impl<'de> serde::Deserialize<'de> for Unique {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(Unique)
        }
    }
    impl<'de> Visitor<'de> for Unique {
        type Value = Unique;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("JSON")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Unique, A::Error> {
            let mut keys = HashSet::new();
            while let Some(k) = map.next_key::<String>()? {
                if !keys.insert(k) {
                    return Err(de::Error::custom("duplicate key"));
                }
                map.next_value::<Unique>()?;
            }
            Ok(Unique)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Unique, A::Error> {
            while seq.next_element::<Unique>()?.is_some() {}
            Ok(Unique)
        }
        fn visit_bool<E>(self, _: bool) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_str<E>(self, _: &str) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_unit<E>(self) -> Result<Unique, E> {
            Ok(Unique)
        }
    }
    serde_json::from_slice::<Unique>(input).is_err_and(|e| e.to_string().starts_with("duplicate key"))
}

fn attempts(r: &report::Report) -> usize {
    r.tests_with_paths().iter().map(|t| t.test.attempts.len()).sum()
}

/// Target 5: `plan::PlanInput::from_json` then `plan::plan_shards` (`planShards`' JSON path): an Ok plan
/// has `shardCount` shards numbered from 1, puts every given unit in exactly one shard, lists
/// sorted ids and files, has a makespan that is its slowest shard and no less than its lower
/// bound; the same input, and the same units in another order, give the same plan.
fn t_plan(input: &[u8]) -> Checked {
    let text = String::from_utf8_lossy(input);
    let opts = match plan::PlanInput::from_json(&text) {
        Ok(o) => o,
        Err(e) => return Ok(Outcome::refused(&e)),
    };
    let ids: Option<Vec<String>> = opts.units.as_ref().map(|u| u.iter().map(|u| u.id.to_string()).collect());
    let shard_count = opts.shard_count;
    let mut shuffled = opts.clone();
    let p = match plan::plan_shards(opts) {
        Ok(p) => p,
        Err(e) => return Ok(Outcome::refused(&e)),
    };
    check!(Some(p.shards.len() as f64) == shard_count, "plan.shard-count", "{} shards for {shard_count:?}", p.shards.len());
    for (i, s) in p.shards.iter().enumerate() {
        check!(s.index as usize == i + 1, "plan.shard-index", "shard {i} has index {}", s.index);
        check!(s.units.windows(2).all(|w| w[0] < w[1]), "plan.units-sorted", "shard {}: {:?}", s.index, s.units);
        check!(s.files.windows(2).all(|w| w[0] < w[1]), "plan.files-sorted", "shard {}: {:?}", s.index, s.files);
    }
    let slowest = p.shards.iter().map(|s| s.predicted_ms).max().unwrap_or(0);
    check!(p.makespan_ms == slowest, "plan.makespan-is-slowest-shard", "makespan {} vs {slowest}", p.makespan_ms);
    check!(p.lower_bound_ms <= p.makespan_ms, "plan.lower-bound", "lower bound {} > makespan {}", p.lower_bound_ms, p.makespan_ms);
    if let Some(mut ids) = ids {
        let mut planned: Vec<&str> = p.shards.iter().flat_map(|s| s.units.iter().map(String::as_str)).collect();
        planned.sort_unstable();
        ids.sort_unstable();
        check!(planned == ids, "plan.every-unit-once", "planned {} units for {} given", planned.len(), ids.len());
    }
    let again = plan::PlanInput::from_json(&text).and_then(plan::plan_shards);
    check!(again.as_ref() == Ok(&p), "plan.same-input-same-plan", "fingerprints {} vs {:?}", p.fingerprint, again.map(|a| a.fingerprint));
    if let Some(units) = shuffled.units.as_mut().filter(|u| u.len() > 1) {
        let mut rng = Rng::new(fnv(input));
        for i in (1..units.len()).rev() {
            units.swap(i, rng.below(i + 1));
        }
        let other = plan::plan_shards(shuffled);
        check!(other.as_ref() == Ok(&p), "plan.order-independent", "fingerprints {} vs {:?}", p.fingerprint, other.map(|a| a.fingerprint));
    }
    let options = serde_json::from_slice::<Value>(input).map_or(0, |v| shape(&v));
    Ok(Outcome::ok(format!("shards:{} units:{} {options:x}", size_class(p.shards.len()), size_class(p.shards.iter().map(|s| s.units.len()).sum()))))
}

/// Target 6: `exchange::decode_download_body` of a durations response, without and with `Content-Encoding: br`:
/// an Ok document is an object, the header does not change what decodes (only how a failure
/// reads), the header is read case- and space-insensitively, and the error codes are the
/// documented ones.
fn t_exchange(input: &[u8]) -> Checked {
    let plain = exchange::decode_download_body(input, None);
    let br = exchange::decode_download_body(input, Some("br"));
    let spaced = exchange::decode_download_body(input, Some(" Br "));
    check!(br == spaced, "exchange.header-case-and-space", "{:?} vs {:?}", br.as_ref().err(), spaced.as_ref().err());
    for r in [&plain, &br] {
        match r {
            Ok(doc) => check!(doc.is_object(), "exchange.object", "{}", kind_of(doc)),
            Err(e) => check!(
                matches!(e.code, ErrorCode::BrotliCorrupt | ErrorCode::LimitExceeded | ErrorCode::InvalidResponse),
                "exchange.error-codes",
                "{:?}: {}",
                e.code,
                e.message
            ),
        }
    }
    match (&plain, &br) {
        (Ok(a), Ok(b)) => check!(a == b, "exchange.same-document", "documents differ"),
        (Ok(_), Err(e)) | (Err(e), Ok(_)) => check!(false, "exchange.header-changes-only-failures", "{:?}: {}", e.code, e.message),
        _ => {}
    }
    Ok(match (plain, br) {
        (Ok(doc), _) => Outcome::ok(format!("object:{:x}", shape(&doc))),
        (Err(a), Err(b)) => Outcome { ok: false, sig: format!("{}|{}", Outcome::refused(&a).sig, b.code.as_str()) },
        (Err(a), _) => Outcome::refused(&a),
    })
}

/// Target 7: `discover::discover_tests`: never panics, in time linear in the source (`discover_time`),
/// deterministic, and every listed test has a title.
fn t_discover(input: &[u8]) -> Checked {
    let src = String::from_utf8_lossy(input);
    let d = discover::discover_tests(&src);
    check!(d.tests.iter().all(|p| !p.is_empty()), "discover.paths-not-empty", "{:?}", d.tests);
    let again = discover::discover_tests(&src);
    check!(again == d, "discover.deterministic", "{:?} vs {:?}", d, again);
    let depth = d.tests.iter().map(Vec::len).max().unwrap_or(0);
    Ok(Outcome::ok(format!("tests:{} unnamed:{} depth:{}", size_class(d.tests.len()), size_class(d.unnamed as usize), depth.min(6))))
}

/// Target 9: `report::junit::import_junit`: never panics, in time linear in the text, the same
/// twice; a refusal is INVALID_INPUT naming a line and column of the file; an import's tests
/// each have a title path ending in their name.
fn t_junit(input: &[u8]) -> Checked {
    let known = [report::junit::KnownFile { path: "test/a.test.js".into(), source: None }];
    let r = report::junit::import_junit(input, "junit.xml", &known);
    let again = report::junit::import_junit(input, "junit.xml", &known);
    check!(r == again, "junit.deterministic", "{:?} vs {:?}", r, again);
    match r {
        Ok(i) => {
            check!(i.tests.iter().all(|t| !t.title_path.is_empty()), "junit.titles", "{:?}", i.tests);
            Ok(Outcome::ok(format!("tests:{} suites:{}", size_class(i.tests.len()), size_class(i.suites))))
        }
        Err(e) => {
            check!(e.code == ErrorCode::InvalidInput && e.message.starts_with("junit.xml line "), "junit.error-names-a-place", "{:?}", e);
            Ok(Outcome::refused(&e))
        }
    }
}

fn seeds_junit() -> Vec<Vec<u8>> {
    files_under("tests/fixtures/junit", &[".xml"])
}

const SHA: &str = "0123456789abcdef0123456789abcdef01234567";

/// A builder with `envs` environments, one test (handle 0) and, when it has an environment, one
/// attempt already.
fn builder_with(envs: usize) -> ReportBuilder {
    let init = ReportInit { category: "jest".into(), commit_id: SHA.into(), ..Default::default() };
    let mut b = ReportBuilder::new(init).expect("a valid init");
    for i in 0..envs {
        let system_data = (i == 1).then(|| SystemData { os_name: Some("linux".into()), os_version: None, os_arch: Some("x64".into()) });
        b.add_environment(Environment { name: format!("env {i}"), system_data, ..Default::default() }).expect("an environment");
    }
    let test = TestInput {
        title_path: vec!["suite".into(), "test".into()],
        file: Some("tests/a.spec.ts".into()),
        line: Some(3),
        column: Some(5),
        tags: Some(vec!["@tag".into()]),
    };
    let h = b.add_test(test).expect("a test");
    if envs > 0 {
        let a = RunAttempt { start_timestamp: 1000, duration: Some(5), ..Default::default() };
        b.add_attempt(h, a).expect("an attempt");
    }
    b
}

/// Target 8: `ReportBuilder::add_attempt_mended`, in reports of 0, 1 and 2 environments: an error adds
/// nothing; an Ok leaves a valid report (whose JSON the builder writes as `build` reads it) with
/// one more attempt; it agrees with `add_attempt_json` on what needed no mending.
fn t_builder(input: &[u8]) -> Checked {
    let json = String::from_utf8_lossy(input);
    let mut sig = String::new();
    let mut any_ok = false;
    for envs in 0..3 {
        let mut b = builder_with(envs);
        let before = b.to_json();
        let count = attempts(&b.build());
        let strict = builder_with(envs).add_attempt_json(0, &json);
        match b.add_attempt_mended(0, &json) {
            Err(e) => {
                check!(b.to_json() == before, "builder.error-adds-nothing", "{envs} environments: {}", e.message);
                check!(
                    strict.is_err(),
                    "builder.mended-agrees-with-add-attempt-json",
                    "{envs} environments: mended refused ({}), add_attempt_json accepted",
                    e.message
                );
                sig.push_str(&format!("{envs}:{} ", skeleton(&e.message)));
            }
            Ok(mended) => {
                any_ok = true;
                let r = b.build();
                let issues = report::validate(&r);
                if let Some(first) = issues.first() {
                    // the first issue names the finding: another rule broken is another finding
                    return Err(Broken {
                        id: "builder.mended-report-valid",
                        class: skeleton(&format!("{}: {}", first.path, first.message)),
                        detail: clip(&format!("{envs} environments, left out {:?}: {issues:?}", paths_of(&mended))),
                    });
                }
                check!(attempts(&r) == count + 1, "builder.one-more-attempt", "{envs} environments: {} -> {}", count, attempts(&r));
                let (written, built) = (b.to_json(), report::to_json(&r));
                check!(written == built, "builder.to-json-equals-build", "{}", first_difference(&written, &built));
                check!(
                    strict.is_ok() == mended.is_empty(),
                    "builder.mended-agrees-with-add-attempt-json",
                    "{envs} environments: left out {:?}, add_attempt_json: {:?}",
                    paths_of(&mended),
                    strict.err().map(|e| e.message)
                );
                let left: Vec<String> = mended.iter().take(2).map(|i| format!("{}: {}", i.path, i.message)).collect();
                sig.push_str(&format!("{envs}:ok {} ", skeleton(&left.join("; "))));
            }
        }
    }
    Ok(Outcome { ok: any_ok, sig })
}

fn paths_of(issues: &[report::Issue]) -> Vec<&str> {
    issues.iter().map(|i| i.path.as_str()).collect()
}

// ---------------------------------------------------------------------------------------------
// Helpers of the targets

/// The same bytes, or the same failure. One pair of failures counts as the same: a stream cut
/// short whose decodable start is about the output limit. Brotli's decoder holds decoded bytes in
/// its window until the window fills or the block ends, and how much of a cut stream's last
/// window it lets out before asking for more input depends on the room it was given (found by
/// this fuzzer, tests/fuzz-regressions/codec_decompress/0164…: 1,048,576 bytes out into one
/// buffer, 1,051,050 into growing pieces, about a 1 MiB limit). Either way the input fails, as
/// truncated or as over the limit, both true of it; a whole stream gives every byte, whatever the
/// room.
fn same_bytes_result(a: &shardwise::Result<Vec<u8>>, b: &shardwise::Result<Vec<u8>>) -> bool {
    use shardwise::ErrorCode::{BrotliCorrupt, LimitExceeded};
    let cut = |e: &shardwise::Error| e.code == BrotliCorrupt && e.message.contains("truncated");
    match (a, b) {
        (Ok(x), Ok(y)) => x == y,
        (Err(x), Err(y)) if x.code == y.code => true,
        (Err(x), Err(y)) => (cut(x) && y.code == LimitExceeded) || (cut(y) && x.code == LimitExceeded),
        _ => false,
    }
}

fn show(r: &shardwise::Result<Vec<u8>>) -> String {
    match r {
        Ok(v) => format!("Ok({} bytes)", v.len()),
        Err(e) => format!("Err({:?}: {})", e.code, e.message),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Where two texts first differ, with some context.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let at = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let from = at.saturating_sub(40);
    let part = |s: &[u8]| String::from_utf8_lossy(&s[from.min(s.len())..(at + 60).min(s.len())]).into_owned();
    format!("at byte {at}: {:?} vs {:?}", part(a), part(b))
}

/// A message without its numbers and quoted values (what varies between inputs that took the
/// same path), short.
fn skeleton(msg: &str) -> String {
    let mut s = String::new();
    let mut in_quote = false;
    let mut last = ' ';
    for c in msg.chars() {
        if c == '"' || c == '`' {
            in_quote = !in_quote;
            s.push('"');
            last = '"';
            continue;
        }
        if in_quote {
            continue;
        }
        let c = if c.is_ascii_digit() { '#' } else { c };
        if !(c == '#' && last == '#') {
            s.push(c);
        }
        last = c;
        if s.len() >= 120 {
            break;
        }
    }
    s
}

fn size_class(n: usize) -> u32 {
    usize::BITS - n.leading_zeros()
}

fn clip(s: &str) -> String {
    if s.len() <= 600 {
        return s.to_string();
    }
    let mut end = 600;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &s[..end], s.len())
}

// ---------------------------------------------------------------------------------------------
// Seeds

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Files under `dir` (relative to the repository), recursively, whose name ends with one of
/// `exts`, in name order; `node_modules` is skipped.
fn files_under(dir: &str, exts: &[&str]) -> Vec<Vec<u8>> {
    fn walk(p: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(p) else { return };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "node_modules") {
                    walk(&path, exts, out);
                }
            } else if exts.iter().any(|x| path.to_string_lossy().ends_with(x)) {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    walk(&repo().join(dir), exts, &mut paths);
    paths.sort();
    paths.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

const FULL_ATTEMPT: &str = r#"{"environmentIdx": 0, "expectedStatus": "passed", "status": "failed",
  "startTimestamp": 1700000000500, "duration": 1234, "timeout": 30000, "parallelIndex": 2,
  "annotations": [{"type": "issue", "description": "https://example.com/1",
                   "location": {"file": "tests/login.spec.ts", "line": 11, "column": 5}}, {"type": "slow"}],
  "errors": [{"location": {"file": "tests/login.spec.ts", "line": 12, "column": 7}, "message": "expected 1 to be 2",
              "stack": "Error: expected\n    at tests/login.spec.ts:12:7", "snippet": "> 12 | expect(1).toBe(2)", "value": "2"}],
  "steps": [{"title": "open page", "duration": 100, "location": {"file": "tests/login.spec.ts", "line": 13, "column": 3},
             "snippet": "await page.goto('/')",
             "steps": [{"title": "nested", "duration": 5, "error": {"message": "boom"},
                        "attachments": [{"name": "trace.zip", "contentType": "application/zip", "id": "0a0b0c0d"}]}]}],
  "stdio": [{"stream": 1, "dts": 0, "text": "hello\n"}, {"stream": 2, "dts": 5, "buffer": "aGk="}],
  "stdout": [{"text": "out\n"}], "stderr": [{"buffer": "AAE="}],
  "attachments": [{"name": "screenshot.png", "contentType": "image/png", "id": "a9993e364706816aba3e25717850c26c9cd0d89d"}]}"#;

/// A report with every field the format has, valid under the strict rules.
fn full_report() -> Value {
    let attempt: Value = serde_json::from_str(FULL_ATTEMPT).expect("FULL_ATTEMPT is JSON");
    let loc = |line: u32| json!({"file": "tests/login.spec.ts", "line": line, "column": 1});
    json!({
        "category": "playwright", "commitId": SHA,
        "relatedCommitIds": ["89abcdef0123456789abcdef0123456789abcdef"],
        "environments": [
            {"name": "chromium", "systemData": {"osName": "linux", "osVersion": "6.1", "osArch": "x64"},
             "userSuppliedData": {"browser": "chromium", "headless": true, "workers": 4}, "metadata": {"ci": "github"}},
            {"name": "firefox"}
        ],
        "startTimestamp": 1_700_000_000_000u64, "duration": 12345, "title": "nightly",
        "url": "https://ci.example.com/run/1", "configPath": "playwright.config.ts", "flakinessProject": "org/project",
        "generatedBy": {"name": "shardwise", "version": "0.1.0"}, "testRunner": {"name": "playwright", "version": "1.48.0"},
        "runtime": {"name": "node", "version": "22.0.0"}, "cpuCount": 8, "ramBytes": 17_179_869_184u64,
        "cpuAvg": [[1_700_000_000_000u64, 12.5], [1000, 50]], "cpuMax": [[1_700_000_000_000u64, 80], [1000, 100]],
        "ram": [[1_700_000_000_000u64, 30.25]],
        "systemUtilization": {"totalMemoryBytes": 17_179_869_184u64, "startTimestamp": 1_700_000_000_000u64,
            "samples": [{"dts": 0, "cpuUtilization": 10.5, "memoryUtilization": 20}, {"dts": 1000, "cpuUtilization": 99.9, "memoryUtilization": 21}]},
        "suites": [{"type": "file", "title": "tests/login.spec.ts", "location": loc(1),
            "suites": [{"type": "suite", "title": "login", "location": loc(3),
                "suites": [{"type": "anonymous suite", "title": "",
                    "tests": [{"title": "inner", "attempts": [{"startTimestamp": 1_700_000_000_100u64}]}]}],
                "tests": [{"title": "rejects a bad password", "location": loc(10), "tags": ["@auth", "@slow"],
                    "attempts": [attempt, {"environmentIdx": 1, "startTimestamp": 1_700_000_001_000u64, "duration": 250, "status": "passed"}]}]}],
            "tests": [{"title": "top of file", "location": loc(20), "attempts": [
                {"startTimestamp": 1_700_000_000_000u64, "duration": 10},
                {"startTimestamp": 1_700_000_000_020u64, "environmentIdx": 1, "status": "skipped", "expectedStatus": "skipped"}]}]}],
        "tests": [{"title": "outside any suite", "tags": ["@smoke"], "attempts": []}],
        "unattributedErrors": [{"message": "worker crashed", "stack": "Error: x\n    at y", "value": "1"}],
        "sources": [{"filePath": "tests/login.spec.ts", "text": "test('x', () => {})", "lineOffset": 0, "contentType": "text/typescript"}]
    })
}

/// Strictly valid reports.
fn valid_reports() -> Vec<Value> {
    let mut b = builder_with(2);
    for i in 0..6u64 {
        let h = b
            .add_test(TestInput {
                title_path: vec![format!("suite {}", i % 2), format!("test {i}")],
                file: Some(format!("tests/f{}.spec.ts", i % 3)),
                line: Some(i as u32 + 1),
                ..Default::default()
            })
            .expect("a test");
        let a = RunAttempt { environment_idx: Some((i % 2) as u32), start_timestamp: 1000 + i, duration: Some(i * 7), ..Default::default() };
        b.add_attempt(h, a).expect("an attempt");
    }
    let built: Value = serde_json::from_slice(&b.to_json()).expect("the builder writes JSON");
    vec![
        full_report(),
        json!({"category": "jest", "commitId": SHA, "environments": [], "startTimestamp": 0, "duration": 0}),
        json!({"category": "vitest", "commitId": SHA, "environments": [{"name": "node"}], "startTimestamp": 5, "duration": 6,
               "tests": [{"title": "t", "attempts": [{"startTimestamp": 5}]}]}),
        built,
    ]
}

/// Reports the schema reads and the strict rules refuse, and annotated reports (what the
/// durations exchange returns).
fn other_reports() -> Vec<Value> {
    vec![
        json!({"category": "jest", "commitId": SHA.to_uppercase(), "environments": [{"name": "a", "extra": 1}],
               "startTimestamp": 1.5, "duration": 2, "unknown": true, "configPath": "C:\\x\\y.ts",
               "suites": [{"type": "file", "title": "a.js", "location": {"file": "../a.js", "line": 0, "column": 0},
                   "tests": [{"title": "t", "attempts": [{"startTimestamp": 1, "duration": 12.75, "environmentIdx": 3,
                       "attachments": [{"name": "x", "contentType": "", "id": "ABC"}],
                       "stdio": [{"text": "a", "buffer": "not base64"}]}]}]}]}),
        json!({"environments": [{"name": "chromium"}, {"name": "firefox"}],
               "suites": [{"type": "file", "title": "tests/a.spec.ts", "tests": [
                   {"title": "one", "attempts": [{"duration": 1234.5}, {"environmentIdx": 1, "duration": 99}]},
                   {"title": "two", "location": {"file": "tests/b.spec.ts"}, "attempts": []}]}],
               "tests": [{"title": "loose", "attempts": [{"duration": 5}]}]}),
    ]
}

fn report_texts() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for doc in valid_reports().iter().chain(other_reports().iter()) {
        out.push(serde_json::to_vec(doc).expect("a value serializes"));
        out.push(serde_json::to_vec_pretty(doc).expect("a value serializes"));
    }
    out.push(b"\xEF\xBB\xBF{\"category\":\"x\"}".to_vec());
    out.push(b"[]".to_vec());
    out.push(b"{}".to_vec());
    out.extend(files_under("tests/fixtures", &[".json"]));
    out
}

fn seeds_reports() -> Vec<Vec<u8>> {
    report_texts()
}

fn seeds_reports_br() -> Vec<Vec<u8>> {
    let texts = report_texts();
    let mut out = texts.clone();
    for (i, t) in texts.iter().enumerate() {
        let opts = [(9, 22), (0, 10), (5, 16), (11, 24), (1, 22)][i % 5];
        out.push(codec::compress(t, CompressOptions { quality: opts.0, lgwin: opts.1 }).expect("valid options"));
    }
    out.push(report::encode_json(b"{\"a\":[1,2,3]}"));
    out.push(report::encode_json(b"not json"));
    out.push(Vec::new());
    out
}

fn seeds_codec() -> Vec<Vec<u8>> {
    let mut plain = report_texts();
    plain.extend(files_under("tests/fixtures", &[".sha1"]));
    plain.extend(files_under("js-tests/fixtures", &[".js", ".cjs"]).into_iter().take(4));
    plain.push(Vec::new());
    plain.push(vec![b'a'; 10_000]);
    plain.push(Rng::new(7).bytes(3000));
    let mut out = Vec::new();
    for (i, p) in plain.iter().enumerate() {
        for (q, w) in [(0, 10), (1, 16), (5, 22), (9, 22), (11, 24), (6, 18)].into_iter().skip(i % 3).step_by(2) {
            out.push(codec::compress(p, CompressOptions { quality: q, lgwin: w }).expect("valid options"));
        }
    }
    out.extend(plain.into_iter().take(3));
    out
}

fn seeds_plan() -> Vec<Vec<u8>> {
    let annotated = &other_reports()[1];
    let mut docs = vec![
        json!({"shardCount": 3, "units": [
            {"id": "a", "file": "a.spec.ts", "durationMs": 100}, {"id": "b", "file": "a.spec.ts", "group": "g", "durationMs": 2.5},
            {"id": "c", "group": "g"}, {"id": "d", "durationMs": 0}, {"id": "e › x", "file": "b.spec.ts", "durationMs": 7000}]}),
        json!({"shardCount": 2, "unit": "file", "workers": 2, "perShardOverheadMs": 10, "defaultDurationMs": 500,
               "units": [{"id": "x", "file": "f1"}, {"id": "y", "file": "f1"}, {"id": "z", "file": "f2", "durationMs": 1e9}]}),
        json!({"shardCount": 1, "units": []}),
        json!({"shardCount": 4, "report": annotated}),
        json!({"shardCount": 2, "environment": "firefox", "unit": "file", "report": annotated}),
        json!({"shardCount": 2, "environment": 0, "report": valid_reports()[0]}),
    ];
    for golden in files_under("tests/fixtures", &["plan-golden.json"]) {
        if let Some(input) = serde_json::from_slice::<Value>(&golden).ok().and_then(|v| v.get("input").cloned()) {
            docs.push(input);
        }
    }
    docs.iter().map(|d| serde_json::to_vec(d).expect("a value serializes")).collect()
}

fn seeds_attempts() -> Vec<Vec<u8>> {
    let docs = [
        FULL_ATTEMPT.to_string(),
        r#"{"startTimestamp": 1}"#.into(),
        "{}".into(),
        r#"{"startTimestamp": 1700000000000.4, "duration": 12.6, "timeout": -5}"#.into(),
        r#"{"startTimestamp": null, "duration": null, "status": "failed", "environmentIdx": 1}"#.into(),
        r#"{"startTimestamp": 3, "errors": [{"location": {"file": "a.js", "line": 0, "column": 0}, "message": "m"}]}"#.into(),
        r#"{"startTimestamp": 3, "stdio": [{"text": "a", "buffer": "YQ=="}], "unknown": 1, "status": "timedOut"}"#.into(),
        r#"{"startTimestamp": 9007199254740991, "duration": 9007199254740991, "environmentIdx": 0}"#.into(),
        r#"{"status": "bogus"}"#.into(),
        "[]".into(),
    ];
    docs.iter().map(|d| d.as_bytes().to_vec()).collect()
}

fn seeds_js() -> Vec<Vec<u8>> {
    let mut out = files_under("js-tests/fixtures", &[".js", ".cjs", ".mjs", ".ts"]);
    let snippets = [
        "describe('outer', () => {\n  test('a', async () => {});\n  describe(\"inner\", function () {\n    it(`b`, () => {});\n    it.only('c', () => {});\n  });\n  test.skip('d', () => {});\n});\ntest('top', () => {});\n",
        "test.each([[1, 2]])('adds %i', (a, b) => {});\ndescribe.each`a | b`('table $a', () => { it('x', () => {}); });\ntest(`computed ${name}`, () => {});\ndescribe(title, () => { test('hidden', () => {}); });\n",
        "describe.skipIf(process.env.CI)('skipped', () => { it.runIf(x > 1)('runs', () => {}); });\nsuite('vitest suite', () => { test.concurrent('c', () => {}); test.todo('later'); });\nfit('f', () => {}); xit('x', () => {}); xdescribe('xd', () => {});\n",
        "// test('in a comment')\n/* describe('block', () => { */\nconst re = /test\\('not'\\)[)}\\]]/g; const d = a / b / c;\nconst s = 'describe(\\'no\\')' + \"it(\\\"no\\\")\";\ntest('escapes \\u00e9\\x41\\u{1F600}\\n\\ud83d\\ude00', () => {});\n",
        "import { test, expect } from '@playwright/test';\ntest.describe('pw', () => { test('t', async ({ page }) => { await page.goto(`/${x}`); }); });\nconst f = <T,>(x: T): T => x; test('ts', () => { expect(f<number>(1)).toBe(1); });\n",
        "test('unterminated, () => {\ndescribe(`tpl ${`nested ${deep}`}`, () => { it('x', () => {}) })\nit('a' + 'b', () => {}); it?.('opt', () => {}); obj.test('method', () => {});\n",
    ];
    out.extend(snippets.iter().map(|s| s.as_bytes().to_vec()));
    out
}

// ---------------------------------------------------------------------------------------------
// Randomness

/// xorshift64*: small, fast and deterministic.
#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        // splitmix64 of the seed, so nearby seeds give unrelated streams (and never 0)
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// 0..n (0 when n is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }

    /// A length, most often small.
    fn len(&mut self, max: usize) -> usize {
        let cap = match self.below(4) {
            0 => 4,
            1 => 32,
            2 => 512,
            _ => max,
        };
        1 + self.below(cap.min(max).max(1))
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

// ---------------------------------------------------------------------------------------------
// Mutations

const MAX_INPUT: usize = 512 << 10;

const INTERESTING_BYTES: &[u8] =
    b"\x00\x01\x7f\x80\xff\xfe{}[]\":,\\0123456789-+.eE \n\t/*'`$()ntfu\xc3\xa9\xef\xbb\xbf";

/// Text that matters to JSON readers: numbers at every boundary, NaN-ish words, escapes.
const JSON_TOKENS: &[&str] = &[
    "0", "-1", "-0", "1.5", "2.0", "1e3", "1E+2", "1e300", "1e308", "1e309", "-1e308", "1e-400", "2147483647", "2147483648",
    "4294967295", "4294967296", "9007199254740991", "9007199254740992", "9007199254740993", "18446744073709551615",
    "18446744073709551616", "-9223372036854775809", "NaN", "Infinity", "-Infinity", "null", "true", "false", "\"\"",
    "\"\\ud800\"", "\"\\udc00x\"", "\"\\u0000\"", "\"../x\"", "\"\\\\\"", "{}", "[]", "[[[[[[[[", "]]]]]]]]", "{\"a\":",
    "\"environmentIdx\":", "\"startTimestamp\":", "\"duration\":", "\"suites\":[", "\"tests\":[", "\"attempts\":[",
    "\"status\":\"failed\"", "\"type\":\"file\"", "\"location\":{\"file\":\"a\",\"line\":1,\"column\":1}", ",", ":",
];

/// Text that matters to the JavaScript tokenizer.
const JS_TOKENS: &[&str] = &[
    "describe(", "test(", "it(", "it.each(", "test.each`", "describe.skipIf(", ".runIf(", ".only", ".skip(", ".todo(",
    "suite(", "fit(", "xdescribe(", "'t'", "\"t\"", "`t`", "`${", "${", "}`", "`", "/*", "*/", "//", "/re/g", "/[/]/",
    " / ", "'", "\"", "\\", "\\u{", "\\u{1F600}", "\\ud800", "\\ud83d\\ude00", "\\x4", "\\0", "\\\n", "(", ")", "{", "}",
    "[", "]", ",", ".", "?.", "...", "++", "--", "return /x/", "=> {", "function () {", "é", "😀", "\u{2028}", "\n", "\r\n",
    "123", ".5", "0x1F", "1e5",
];

/// Numbers a JSON-aware mutation puts in place of a value, as raw text.
const NUMBER_TEXTS: &[&str] = &[
    "-1", "0", "-0", "1", "1.5", "0.5", "-0.5", "2.0", "1e3", "1E+2", "1e300", "-1e300", "1e308", "1e309", "1e-300",
    "255", "256", "65535", "2147483647", "2147483648", "4294967295", "4294967296", "9007199254740991", "9007199254740992",
    "9007199254740993", "18446744073709551615", "18446744073709551616", "-9223372036854775808", "0.1", "100", "100.5",
    "101", "NaN", "Infinity", "-Infinity", "01", "1.", ".5", "0x10",
];

/// Strings a JSON-aware mutation puts in place of a value, as raw JSON text (escapes included).
const STRING_TEXTS: &[&str] = &[
    "\"\"", "\"a\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\udc00\"", "\"\\uDBFF\\uDFFF\"", "\"a\\ud800b\"",
    "\"\\u0000\"", "\"\\n\"", "\"../x\"", "\"a/../b\"", "\"..\"", "\"/abs\"", "\"C:/x\"", "\"c:\"", "\"a\\\\b\"",
    "\"é✓😀\"", "\"passed\"", "\"failed\"", "\"timedOut\"", "\"skipped\"", "\"interrupted\"", "\"file\"", "\"suite\"",
    "\"anonymous suite\"", "\"test\"", "\"AAAA\"", "\"AAA=\"", "\"A===\"", "\"====\"", "\"YWJj\"", "\"a b\"",
    "\"0123456789abcdef0123456789abcdef01234567\"", "\"0123456789ABCDEF0123456789abcdef01234567\"",
    "\"0123456789abcdef0123456789abcdef0123456\"", "\" › \"", "\"NaN\"", "\"-1\"", "\"1.5\"", "\"null\"", "\"br\"",
    "\"chromium\"", "\"firefox\"", "\"env 1\"",
];

/// Keys a JSON-aware mutation adds: the report format's, the planner's options', and others.
const KEYS: &[&str] = &[
    "category", "commitId", "environments", "startTimestamp", "duration", "title", "url", "configPath",
    "relatedCommitIds", "flakinessProject", "generatedBy", "testRunner", "runtime", "suites", "tests",
    "unattributedErrors", "sources", "cpuCount", "ramBytes", "cpuAvg", "cpuMax", "ram", "systemUtilization", "name",
    "version", "systemData", "userSuppliedData", "metadata", "osName", "osVersion", "osArch", "type", "location",
    "file", "line", "column", "tags", "attempts", "environmentIdx", "expectedStatus", "status", "timeout",
    "annotations", "errors", "parallelIndex", "steps", "stdio", "stdout", "stderr", "attachments", "description",
    "message", "stack", "snippet", "value", "error", "stream", "dts", "text", "buffer", "contentType", "id",
    "filePath", "lineOffset", "totalMemoryBytes", "samples", "cpuUtilization", "memoryUtilization", "report", "units",
    "shardCount", "environment", "unit", "defaultDurationMs", "perShardOverheadMs", "workers", "group", "durationMs",
    "zz", "__proto__", "",
];

/// One step into a JSON value.
#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    Idx(usize),
}

/// A random node of `v` (each equally likely), as its path.
fn random_path(rng: &mut Rng, v: &Value) -> Vec<Seg> {
    fn walk(v: &Value, cur: &mut Vec<Seg>, best: &mut Vec<Seg>, seen: &mut usize, rng: &mut Rng) {
        *seen += 1;
        if rng.below(*seen) == 0 {
            *best = cur.clone();
        }
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    cur.push(Seg::Key(k.clone()));
                    walk(x, cur, best, seen, rng);
                    cur.pop();
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    cur.push(Seg::Idx(i));
                    walk(x, cur, best, seen, rng);
                    cur.pop();
                }
            }
            _ => {}
        }
    }
    let (mut cur, mut best, mut seen) = (Vec::new(), Vec::new(), 0);
    walk(v, &mut cur, &mut best, &mut seen, rng);
    best
}

fn at_mut<'a>(v: &'a mut Value, path: &[Seg]) -> Option<&'a mut Value> {
    let mut cur = v;
    for s in path {
        cur = match (s, cur) {
            (Seg::Key(k), Value::Object(m)) => m.get_mut(k)?,
            (Seg::Idx(i), Value::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn random_node(rng: &mut Rng, v: &Value) -> Value {
    let path = random_path(rng, v);
    let mut v = v.clone();
    at_mut(&mut v, &path).map(std::mem::take).unwrap_or(Value::Null)
}

/// Mutates JSON documents. Text JSON values cannot hold (a lone surrogate escape, `2.0`, `1e3`,
/// `NaN`, a duplicate key) goes in as a marker string that [`JsonMutator::render`] replaces with
/// the raw text.
struct JsonMutator<'r> {
    rng: &'r mut Rng,
    raw: Vec<String>,
}

impl JsonMutator<'_> {
    fn raw(&mut self, text: impl Into<String>) -> Value {
        self.raw.push(text.into());
        Value::String(format!("\u{E000}{}\u{E000}", self.raw.len() - 1))
    }

    fn raw_key(&mut self, key_text: String) -> String {
        self.raw.push(key_text);
        format!("\u{E000}{}\u{E000}", self.raw.len() - 1)
    }

    fn small(&mut self) -> Value {
        match self.rng.below(9) {
            0 => Value::Null,
            1 => json!([]),
            2 => json!({}),
            3 => Value::Bool(self.rng.chance(1, 2)),
            4 => json!(0),
            5 => json!(""),
            6 => {
                let t = *self.rng.pick(NUMBER_TEXTS);
                self.raw(t)
            }
            7 => {
                let t = *self.rng.pick(STRING_TEXTS);
                self.raw(t)
            }
            _ => json!([{}]),
        }
    }

    fn mutate(&mut self, doc: &mut Value, donor: &Value) {
        let path = random_path(self.rng, doc);
        let r = self.rng.below(20);
        let donated = if r >= 17 { random_node(self.rng, donor) } else { Value::Null };
        let depth = *self.rng.pick(&[2usize, 8, 40, 100, 126, 127, 128, 129, 130, 200]);
        let Some(node) = at_mut(doc, &path) else { return };
        match r {
            0..=3 => *node = { let t = *self.rng.pick(NUMBER_TEXTS); self.raw(t) },
            4..=6 => *node = { let t = *self.rng.pick(STRING_TEXTS); self.raw(t) },
            7..=8 => *node = self.small(),
            9..=13 => match node {
                Value::Object(m) => self.object_op(m),
                Value::Array(a) => self.array_op(a),
                Value::Bool(b) => *b = !*b,
                _ => *node = self.small(),
            },
            14 => {
                // deep nesting of arrays or objects around the value
                let mut v = std::mem::take(node);
                let as_array = self.rng.chance(1, 2);
                for _ in 0..depth {
                    v = if as_array { Value::Array(vec![v]) } else { json!({ "a": v }) };
                }
                *node = v;
            }
            15..=16 => {
                // self-similar nesting: an object holding an array of objects (suites, steps)
                // nested in itself
                if let Value::Object(m) = node {
                    let key = m.iter().find(|(_, x)| x.as_array().is_some_and(|a| a.iter().any(Value::is_object))).map(|(k, _)| k.clone());
                    if let Some(key) = key {
                        let template = Value::Object(m.clone());
                        let mut v = template.clone();
                        for _ in 0..depth.min(140) {
                            let mut outer = template.clone();
                            outer[key.as_str()] = Value::Array(vec![v]);
                            v = outer;
                        }
                        *node = v;
                    }
                }
            }
            _ => *node = donated,
        }
    }

    fn object_op(&mut self, m: &mut Map<String, Value>) {
        let keys: Vec<String> = m.keys().cloned().collect();
        match self.rng.below(6) {
            0 | 1 if !keys.is_empty() => {
                m.remove(self.rng.pick(&keys));
            }
            2 => {
                let k = *self.rng.pick(KEYS);
                let v = self.small();
                m.insert(k.to_string(), v);
            }
            3 if !keys.is_empty() => {
                // a duplicate key: the same name twice
                let k = self.rng.pick(&keys).clone();
                let text = serde_json::to_string(&k).unwrap_or_default();
                let v = if self.rng.chance(1, 2) { m[&k].clone() } else { self.small() };
                let marker = self.raw_key(text);
                m.insert(marker, v);
            }
            4 if !keys.is_empty() => {
                let k = self.rng.pick(&keys).clone();
                let v = m.remove(&k).unwrap_or_default();
                m.insert(self.rng.pick(KEYS).to_string(), v);
            }
            _ => m.clear(),
        }
    }

    fn array_op(&mut self, a: &mut Vec<Value>) {
        let n = a.len();
        match self.rng.below(7) {
            0 | 1 if n > 0 => {
                let i = self.rng.below(n);
                let v = a[i].clone();
                a.insert(self.rng.below(n + 1), v);
            }
            2 if n > 0 => {
                a.remove(self.rng.below(n));
            }
            3 if n > 0 => {
                let v = a[self.rng.below(n)].clone();
                let times = 1 + self.rng.below(64);
                a.extend(std::iter::repeat_n(v, times));
            }
            4 if n > 1 => {
                let (i, j) = (self.rng.below(n), self.rng.below(n));
                a.swap(i, j);
            }
            5 => a.clear(),
            _ => {
                let v = self.small();
                a.push(v);
            }
        }
    }

    /// The document's text with the markers replaced by their raw text.
    fn render(&mut self, doc: &Value) -> Vec<u8> {
        let mut s = if self.rng.chance(1, 5) { serde_json::to_string_pretty(doc) } else { serde_json::to_string(doc) }.unwrap_or_default();
        for (i, raw) in self.raw.iter().enumerate() {
            s = s.replace(&format!("\"\u{E000}{i}\u{E000}\""), raw);
        }
        let mut out = s.into_bytes();
        match self.rng.below(40) {
            0 => out.splice(0..0, *b"\xEF\xBB\xBF").for_each(drop),
            1 => out.splice(0..0, *b" \n\t").for_each(drop),
            2 => out.extend_from_slice(b" x"),
            _ => {}
        }
        out
    }
}

/// JSON text of `bytes`: the bytes, without a byte order mark, or what they decode to.
fn as_json(bytes: &[u8]) -> Option<Value> {
    let plain = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    serde_json::from_slice(plain).ok().or_else(|| {
        let text = codec::decompress(bytes, DecompressOptions { max_output_bytes: 4 << 20 }).ok()?;
        serde_json::from_slice(&text).ok()
    })
}

fn mutate_bytes(rng: &mut Rng, data: &mut Vec<u8>, donor: &[u8], kind: Kind) {
    let n = data.len();
    match rng.below(14) {
        0 | 1 if n > 0 => {
            let i = rng.below(n);
            data[i] ^= 1 << rng.below(8);
        }
        12 if kind != Kind::Brotli => {
            // a token of the language repeated many times (nesting, unclosed calls)
            let token = if kind == Kind::Js { *rng.pick(JS_TOKENS) } else { *rng.pick(JSON_TOKENS) };
            let times = *rng.pick(&[10usize, 100, 1000, 10_000, 50_000]);
            let at = rng.below(n + 1);
            data.splice(at..at, token.repeat(times).bytes().take(MAX_INPUT));
        }
        2 if n > 0 => {
            let i = rng.below(n);
            data[i] = if rng.chance(1, 2) { *rng.pick(INTERESTING_BYTES) } else { rng.next() as u8 };
        }
        3 => {
            let len = rng.len(8);
            let bytes = rng.bytes(len);
            let at = rng.below(n + 1);
            data.splice(at..at, bytes);
        }
        4 if n > 0 => {
            let i = rng.below(n);
            let len = rng.len(n - i);
            data.drain(i..i + len);
        }
        5 if n > 0 => {
            // a chunk copied elsewhere
            let i = rng.below(n);
            let chunk = data[i..i + rng.len(n - i)].to_vec();
            let at = rng.below(n + 1);
            data.splice(at..at, chunk);
        }
        6 if !donor.is_empty() => {
            // the beginning of this one, the end of another
            let i = rng.below(n + 1);
            let j = rng.below(donor.len());
            data.truncate(i);
            data.extend_from_slice(&donor[j..]);
        }
        7 if n > 0 => data.truncate(rng.below(n)),
        8 | 9 => {
            let at = rng.below(n + 1);
            let token: Vec<u8> = match kind {
                Kind::Js => rng.pick(JS_TOKENS).as_bytes().to_vec(),
                Kind::Json { .. } => rng.pick(JSON_TOKENS).as_bytes().to_vec(),
                Kind::Brotli => {
                    let v = *rng.pick(&[0u64, 1, 0x7f, 0x80, 0xff, 0x7fff, 0xffff, 0x7fff_ffff, 0xffff_ffff, u64::MAX, 1 << 53]);
                    v.to_le_bytes()[..*rng.pick(&[1usize, 2, 4, 8])].to_vec()
                }
            };
            if rng.chance(1, 2) || at == n {
                data.splice(at..at, token);
            } else {
                let end = (at + token.len()).min(n);
                data.splice(at..end, token);
            }
        }
        10 if n > 0 => {
            // a short piece repeated many times (deep nesting, long runs)
            let i = rng.below(n);
            let piece = data[i..i + rng.len(16.min(n - i))].to_vec();
            let times = *rng.pick(&[2usize, 10, 100, 1000, 5000, 20_000]);
            let run: Vec<u8> = piece.iter().copied().cycle().take((piece.len() * times).min(MAX_INPUT)).collect();
            data.splice(i..i, run);
        }
        11 if n > 1 => {
            let (i, j) = (rng.below(n), rng.below(n));
            data.swap(i, j);
        }
        _ => {
            let at = rng.below(n + 1);
            let b = *rng.pick(INTERESTING_BYTES);
            data.insert(at, b);
        }
    }
    data.truncate(MAX_INPUT);
}

/// `plain` Brotli-compressed at random settings, the stream itself mutated two times in three.
fn compressed(rng: &mut Rng, plain: &[u8], donor: &[u8]) -> Vec<u8> {
    let quality = if plain.len() > 64 << 10 { rng.below(10) } else { rng.below(12) } as u32;
    let opts = CompressOptions { quality, lgwin: 10 + rng.below(15) as u32 };
    let mut c = codec::compress(plain, opts).expect("valid options");
    if rng.chance(2, 3) {
        for _ in 0..1 + rng.below(3) {
            mutate_bytes(rng, &mut c, donor, Kind::Brotli);
        }
    }
    c
}

/// The next input: a corpus entry (or two) mutated by one to four changes of the target's kind.
fn next_input(rng: &mut Rng, corpus: &Corpus, kind: Kind) -> Vec<u8> {
    let base = corpus.pick(rng);
    let donor = corpus.pick(rng);
    let changes = match rng.below(4) {
        0 | 1 => 1,
        2 => 2,
        _ => 3 + rng.below(2),
    };
    let mut data = base.clone();
    match kind {
        Kind::Json { brotli } if rng.chance(3, 4) => {
            if let (Some(mut doc), donor_doc) = (as_json(base), as_json(donor).unwrap_or(Value::Null)) {
                let mut m = JsonMutator { rng: &mut *rng, raw: Vec::new() };
                for _ in 0..changes {
                    m.mutate(&mut doc, &donor_doc);
                }
                data = m.render(&doc);
                if rng.chance(1, 10) {
                    mutate_bytes(rng, &mut data, donor, kind);
                }
                data.truncate(MAX_INPUT);
                if brotli && rng.chance(1, 3) {
                    data = compressed(rng, &data, donor);
                }
                return data;
            }
            for _ in 0..changes {
                mutate_bytes(rng, &mut data, donor, kind);
            }
        }
        Kind::Brotli if rng.chance(3, 10) => {
            // a valid stream of changed content, often damaged
            let mut plain = codec::decompress(base, DecompressOptions { max_output_bytes: 1 << 20 }).unwrap_or_else(|_| base.clone());
            for _ in 0..changes {
                mutate_bytes(rng, &mut plain, donor, Kind::Json { brotli: false });
            }
            data = compressed(rng, &plain, donor);
        }
        _ => {
            for _ in 0..changes {
                mutate_bytes(rng, &mut data, donor, kind);
            }
        }
    }
    data
}

// ---------------------------------------------------------------------------------------------
// The driver

/// Inputs to mutate: the seeds, and inputs whose outcome had a signature not seen before, kept
/// apart by outcome so that mutations start from accepted inputs as often as from refused ones
/// (without coverage, refused inputs would soon crowd out the valid ones).
struct Corpus {
    seeds: Vec<Vec<u8>>,
    accepted: Vec<Vec<u8>>,
    refused: Vec<Vec<u8>>,
    sigs: HashSet<String>,
}

const MAX_POOL: usize = 1000;
const MAX_SIGS: usize = 100_000;

impl Corpus {
    fn new(seeds: Vec<Vec<u8>>) -> Self {
        let seeds = if seeds.is_empty() { vec![Vec::new()] } else { seeds };
        Corpus { seeds, accepted: Vec::new(), refused: Vec::new(), sigs: HashSet::new() }
    }

    fn len(&self) -> usize {
        self.seeds.len() + self.accepted.len() + self.refused.len()
    }

    /// A base for the next input: a seed, an accepted or a refused input (4:4:2).
    fn pick(&self, rng: &mut Rng) -> &Vec<u8> {
        let pool = match rng.below(10) {
            0..=3 => &self.seeds,
            4..=7 if !self.accepted.is_empty() => &self.accepted,
            8..=9 if !self.refused.is_empty() => &self.refused,
            _ => &self.seeds,
        };
        &pool[rng.below(pool.len())]
    }

    fn note(&mut self, rng: &mut Rng, o: &Outcome, input: &[u8]) {
        if self.sigs.len() >= MAX_SIGS || self.sigs.contains(&o.sig) {
            return;
        }
        self.sigs.insert(o.sig.clone());
        if input.len() > 256 << 10 {
            return;
        }
        let pool = if o.ok { &mut self.accepted } else { &mut self.refused };
        if pool.len() < MAX_POOL {
            pool.push(input.to_vec());
        } else {
            pool[rng.below(MAX_POOL)] = input.to_vec();
        }
    }
}

/// The shape of a JSON value: which keys hold which kinds of values, at which paths (array
/// indices left out), as a number. Accepted inputs of a new shape join the corpus.
fn shape(v: &Value) -> u64 {
    fn walk(v: &Value, path: &mut String, out: &mut std::collections::BTreeSet<String>) {
        out.insert(format!("{path}:{}", kind_of(v)));
        let len = path.len();
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    path.push('.');
                    path.push_str(k);
                    walk(x, path, out);
                    path.truncate(len);
                }
            }
            Value::Array(a) => {
                path.push_str("[]");
                for x in a {
                    walk(x, path, out);
                }
                path.truncate(len);
            }
            _ => {}
        }
    }
    let mut set = std::collections::BTreeSet::new();
    walk(v, &mut String::new(), &mut set);
    set.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, s| fnv(s.as_bytes()) ^ h.rotate_left(5))
}

fn typed_shape(r: &report::Report) -> u64 {
    serde_json::to_value(r).map_or(0, |v| shape(&v))
}

struct Config {
    total: Duration,
    seed: u64,
    inputs: Option<u64>,
    keep_going: bool,
    hang: Duration,
    trace: bool,
}

fn config() -> &'static Config {
    static CONFIG: OnceLock<Config> = OnceLock::new();
    CONFIG.get_or_init(|| {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
        let seconds = |k: &str, default: f64| {
            var(k).map_or(default, |v| v.trim().parse::<f64>().unwrap_or_else(|_| panic!("{k}: not a number of seconds: {v}")))
        };
        let seed = var("SHARDWISE_FUZZ_SEED").map(|v| {
            let v = v.trim();
            match v.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => v.parse(),
            }
            .unwrap_or_else(|_| panic!("SHARDWISE_FUZZ_SEED: not an integer: {v}"))
        });
        Config {
            total: Duration::from_secs_f64(seconds("SHARDWISE_FUZZ_SECONDS", 2.0).max(0.0)),
            seed: seed.unwrap_or_else(|| SystemTime::now().duration_since(UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)),
            inputs: var("SHARDWISE_FUZZ_INPUTS").map(|v| v.trim().parse().expect("SHARDWISE_FUZZ_INPUTS: an integer")),
            keep_going: var("SHARDWISE_FUZZ_KEEP_GOING").is_some_and(|v| v != "0"),
            hang: Duration::from_secs_f64(seconds("SHARDWISE_FUZZ_HANG_SECONDS", 30.0)),
            trace: is_child(),
        }
    })
}

/// Where a child process (see [`guarded`]) writes the input it is about to run.
fn trace_file(name: &str) -> PathBuf {
    let dir = repo().join("target/fuzz-last");
    let _ = std::fs::create_dir_all(&dir);
    dir.join(format!("{name}.bin"))
}

/// Writes `bytes` to `name`'s trace file as one positioned write of a length and the bytes, on a
/// file kept open (creating and truncating a file per input made runs 5x slower).
fn trace(name: &str, bytes: &[u8]) {
    use std::os::unix::fs::FileExt;
    thread_local! {
        static FILE: RefCell<Option<(String, std::fs::File)>> = const { RefCell::new(None) };
    }
    FILE.with(|f| {
        let mut f = f.borrow_mut();
        if f.as_ref().is_none_or(|(n, _)| n != name) {
            let file = std::fs::OpenOptions::new().create(true).write(true).truncate(true).open(trace_file(name));
            *f = file.ok().map(|file| (name.to_string(), file));
        }
        if let Some((_, file)) = f.as_ref() {
            let record = [&(bytes.len() as u64).to_le_bytes()[..], bytes].concat();
            let _ = file.write_all_at(&record, 0);
        }
    });
}

/// What [`trace`] last wrote for `name`.
fn traced(name: &str) -> Vec<u8> {
    let record = std::fs::read(trace_file(name)).unwrap_or_default();
    let len = record.get(..8).map_or(0, |l| u64::from_le_bytes(l.try_into().unwrap_or_default()) as usize);
    record.get(8..8 + len).unwrap_or_default().to_vec()
}

fn is_child() -> bool {
    std::env::var_os("SHARDWISE_FUZZ_CHILD").is_some()
}

/// Runs `body` as this test binary's test `test` in a child process (unless this is that child),
/// so that what kills a process (a stack overflow, an abort) is a finding too: the child writes
/// each input to `trace` before running it, and when it dies the parent saves that input as
/// `target`'s regression file. The child's messages are passed on, and its summary line kept.
fn guarded(test: &str, target: &str, body: impl FnOnce()) {
    if is_child() {
        return body();
    }
    let _ = std::fs::remove_file(trace_file(target));
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env("SHARDWISE_FUZZ_CHILD", "1")
        .env("SHARDWISE_FUZZ_SEED", format!("{:#x}", config().seed))
        .stdin(Stdio::null())
        .output()
        .expect("run the test binary");
    let stderr = String::from_utf8_lossy(&out.stderr);
    for line in stderr.lines() {
        match line.strip_prefix(SUMMARY_PREFIX) {
            Some(summary_line) => summary(summary_line.to_string()),
            None => eprintln!("{line}"),
        }
    }
    if out.status.success() {
        return;
    }
    if out.status.code().is_some() {
        panic!("{test} failed: see its messages above");
    }
    // killed by a signal: the input it was running is the finding
    let input = traced(target);
    if target == "replay" {
        panic!("replaying {} killed the process ({})", String::from_utf8_lossy(&input), out.status);
    }
    let path = save(target, &input, "bin");
    panic!(
        "fuzz {target}: the process died ({}) running an input: saved to {} ({} bytes); seed {:#x}",
        out.status,
        path.strip_prefix(repo()).unwrap_or(&path).display(),
        input.len(),
        config().seed
    );
}

/// How a child process hands its summary line to the parent.
const SUMMARY_PREFIX: &str = "fuzz-summary-line: ";

thread_local! {
    /// True while this thread runs a target: a panic is recorded, not printed.
    static CATCHING: Cell<bool> = const { Cell::new(false) };
    /// The last caught panic: where, and its message.
    static PANIC: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

fn install_panic_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CATCHING.with(Cell::get) {
                return previous(info);
            }
            let at = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column())).unwrap_or_default();
            let payload = info.payload();
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(a panic without a message)".into());
            PANIC.with(|p| *p.borrow_mut() = Some((at, msg)));
        }));
    });
}

/// The input each thread is running, for the watchdog.
struct Running {
    target: &'static str,
    since: Instant,
    input: Vec<u8>,
}

fn running() -> &'static Mutex<HashMap<ThreadId, Running>> {
    static RUNNING: OnceLock<Mutex<HashMap<ThreadId, Running>>> = OnceLock::new();
    RUNNING.get_or_init(|| {
        thread::spawn(|| loop {
            thread::sleep(Duration::from_millis(200));
            let map = running().lock().unwrap_or_else(|e| e.into_inner());
            if let Some(r) = map.values().find(|r| r.since.elapsed() > config().hang) {
                let path = save(r.target, &r.input, "bin");
                eprintln!(
                    "\nfuzz {}: an input has run for over {:?} (a hang): saved to {} ({} bytes); seed {:#x}",
                    r.target,
                    config().hang,
                    path.display(),
                    r.input.len(),
                    config().seed
                );
                std::process::exit(101);
            }
        });
        Mutex::new(HashMap::new())
    })
}

/// What running one input gave.
enum Verdict {
    Fine(Outcome),
    /// A panic (signature: where) or a broken invariant (signature: its id).
    Finding { sig: String, detail: String },
}

fn run_once(t: &Target, input: &[u8]) -> (Verdict, Duration) {
    install_panic_hook();
    if config().trace {
        trace(t.name, input);
    }
    let id = thread::current().id();
    running().lock().unwrap_or_else(|e| e.into_inner()).insert(id, Running { target: t.name, since: Instant::now(), input: input.to_vec() });
    CATCHING.with(|c| c.set(true));
    let start = Instant::now();
    let result = panic::catch_unwind(AssertUnwindSafe(|| (t.run)(input)));
    let took = start.elapsed();
    CATCHING.with(|c| c.set(false));
    running().lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
    let verdict = match result {
        Ok(Ok(o)) => Verdict::Fine(o),
        Ok(Err(b)) if b.class.is_empty() => Verdict::Finding { sig: b.id.to_string(), detail: b.detail },
        Ok(Err(b)) => Verdict::Finding { sig: format!("{} [{}]", b.id, b.class), detail: b.detail },
        Err(_) => {
            let (at, msg) = PANIC.with(|p| p.borrow_mut().take()).unwrap_or_default();
            Verdict::Finding { sig: format!("panic at {at}"), detail: clip(&msg) }
        }
    };
    (verdict, took)
}

/// [`run_once`], with the target's time bound: a run over it is tried twice more, and is a
/// finding when the fastest of the three is over it too.
fn run(t: &Target, input: &[u8]) -> (Verdict, Duration) {
    let (verdict, took) = run_once(t, input);
    let Some(bound) = t.time_bound.map(|f| f(input.len())) else { return (verdict, took) };
    if took <= bound || matches!(verdict, Verdict::Finding { .. }) {
        return (verdict, took);
    }
    let fastest = (0..2).map(|_| run_once(t, input).1).fold(took, Duration::min);
    if fastest > bound {
        let detail = format!("{} bytes took {:?} (bound {:?})", input.len(), fastest, bound);
        return (Verdict::Finding { sig: "slow".into(), detail }, fastest);
    }
    (verdict, took)
}

fn finding_sig(v: &Verdict) -> Option<&str> {
    match v {
        Verdict::Finding { sig, .. } => Some(sig),
        Verdict::Fine(_) => None,
    }
}

/// A smaller input that fails the same way: chunks removed while it still does, for a few
/// seconds at most.
fn shrink(t: &Target, input: &[u8], sig: &str) -> Vec<u8> {
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut best = input.to_vec();
    let mut chunk = best.len() / 2;
    while chunk > 0 && Instant::now() < deadline {
        let mut i = 0;
        let mut progressed = false;
        while i < best.len() && Instant::now() < deadline {
            let end = (i + chunk).min(best.len());
            let candidate = [&best[..i], &best[end..]].concat();
            if finding_sig(&run_once(t, &candidate).0) == Some(sig) {
                best = candidate;
                progressed = true;
            } else {
                i += chunk;
            }
        }
        if !progressed {
            chunk /= 2;
        }
    }
    best
}

fn regressions_dir() -> PathBuf {
    repo().join("tests/fuzz-regressions")
}

/// Writes `input` as `tests/fuzz-regressions/<target>/<sha1>.<ext>`.
fn save(target: &str, input: &[u8], ext: &str) -> PathBuf {
    let dir = regressions_dir().join(target);
    std::fs::create_dir_all(&dir).expect("create the regressions directory");
    let path = dir.join(format!("{}.{ext}", sha1_smol::Sha1::from(input).digest()));
    std::fs::write(&path, input).expect("write the regression file");
    path
}

/// The saved inputs of `target`: (path, bytes, open), `.bin` ones (fixed) and `.open` ones (a
/// finding left open on purpose).
fn saved(target: &str) -> Vec<(PathBuf, Vec<u8>, bool)> {
    let Ok(entries) = std::fs::read_dir(regressions_dir().join(target)) else { return Vec::new() };
    let mut out: Vec<(PathBuf, Vec<u8>, bool)> = entries
        .flatten()
        .map(|e| e.path())
        .filter_map(|p| {
            let open = match p.extension().and_then(|x| x.to_str()) {
                Some("bin") => false,
                Some("open") => true,
                _ => return None,
            };
            let bytes = std::fs::read(&p).ok()?;
            Some((p, bytes, open))
        })
        .collect();
    out.sort();
    out
}

/// The signatures of the findings of `t` left open on purpose (its `.open` files): inputs that
/// fail the same way are known, not new.
fn known_open(t: &Target) -> HashSet<String> {
    saved(t.name).iter().filter(|s| s.2).filter_map(|(_, bytes, _)| finding_sig(&run_once(t, bytes).0).map(str::to_string)).collect()
}

fn target(name: &str) -> &'static Target {
    TARGETS.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no fuzz target {name}"))
}

#[derive(Default)]
struct Stats {
    inputs: u64,
    ok: u64,
    refused: u64,
    known: u64,
    slowest: Duration,
    slowest_len: usize,
}

/// Fuzzes one target for its share of the budget; fails naming every new finding's file.
fn fuzz(name: &str) {
    let t = target(name);
    let cfg = config();
    let seed = cfg.seed ^ fnv(name.as_bytes());
    let budget = cfg.total / TARGETS.len() as u32;
    eprintln!("fuzz {name}: seed {:#x} (SHARDWISE_FUZZ_SEED), {budget:?}", cfg.seed);
    let mut rng = Rng::new(seed);
    let mut corpus = Corpus::new((t.seeds)());
    let mut known = known_open(t);
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    let start = Instant::now();
    // The seeds first, as they are; then mutations.
    let mut queue: Vec<Vec<u8>> = corpus.seeds.iter().rev().cloned().collect();
    loop {
        let done = match cfg.inputs {
            Some(n) => stats.inputs >= n,
            None => start.elapsed() >= budget,
        };
        if done {
            break;
        }
        let input = queue.pop().unwrap_or_else(|| next_input(&mut rng, &corpus, t.kind));
        stats.inputs += 1;
        let (verdict, took) = run(t, &input);
        if took > stats.slowest {
            (stats.slowest, stats.slowest_len) = (took, input.len());
        }
        match verdict {
            Verdict::Fine(o) => {
                if o.ok {
                    stats.ok += 1;
                } else {
                    stats.refused += 1;
                }
                corpus.note(&mut rng, &o, &input);
            }
            Verdict::Finding { sig, .. } if known.contains(&sig) => stats.known += 1,
            Verdict::Finding { sig, detail } => {
                let small = if sig == "slow" { input.clone() } else { shrink(t, &input, &sig) };
                let path = save(name, &small, "bin");
                let failure = format!(
                    "fuzz {name}: {sig}: {detail}\n  input #{} saved to {} ({} bytes, shrunk from {})\n  \
                     replay: cargo test --test fuzz fuzz_regressions_stay_fixed\n  \
                     this run: SHARDWISE_FUZZ_SEED={:#x} SHARDWISE_FUZZ_INPUTS={} cargo test --test fuzz fuzz_{name} -- --nocapture",
                    stats.inputs,
                    path.strip_prefix(repo()).unwrap_or(&path).display(),
                    small.len(),
                    input.len(),
                    cfg.seed,
                    stats.inputs
                );
                eprintln!("{failure}");
                failures.push(failure);
                known.insert(sig);
                if !cfg.keep_going {
                    break;
                }
            }
        }
    }
    let line = format!(
        "{name:<28} {:>9} inputs {:>6.1}/s  ok {:>8}  refused {:>8}  known-open {:>4}  corpus {:>5}  slowest {:>7.1} ms ({} bytes)",
        stats.inputs,
        stats.inputs as f64 / start.elapsed().as_secs_f64().max(1e-9),
        stats.ok,
        stats.refused,
        stats.known,
        corpus.len(),
        stats.slowest.as_secs_f64() * 1e3,
        stats.slowest_len
    );
    if is_child() {
        eprintln!("{SUMMARY_PREFIX}{line}");
    } else {
        summary(line);
    }
    assert!(failures.is_empty(), "{} finding(s):\n{}", failures.len(), failures.join("\n"));
}

/// Prints each target's line, and all of them together once every target has reported.
fn summary(line: String) {
    static LINES: Mutex<Vec<String>> = Mutex::new(Vec::new());
    eprintln!("fuzz {line}");
    let mut lines = LINES.lock().unwrap_or_else(|e| e.into_inner());
    lines.push(line);
    if lines.len() == TARGETS.len() {
        lines.sort();
        eprintln!("\nfuzz summary (seed {:#x}, {:?} in all):\n  {}", config().seed, config().total, lines.join("\n  "));
    }
}

// ---------------------------------------------------------------------------------------------
// Tests

#[test]
fn fuzz_codec_decompress() {
    guarded("fuzz_codec_decompress", "codec_decompress", || fuzz("codec_decompress"));
}

#[test]
fn fuzz_report_decode() {
    guarded("fuzz_report_decode", "report_decode", || fuzz("report_decode"));
}

#[test]
fn fuzz_report_issues() {
    guarded("fuzz_report_issues", "report_issues", || fuzz("report_issues"));
}

#[test]
fn fuzz_report_normalize() {
    guarded("fuzz_report_normalize", "report_normalize", || fuzz("report_normalize"));
}

#[test]
fn fuzz_plan_json() {
    guarded("fuzz_plan_json", "plan_json", || fuzz("plan_json"));
}

#[test]
fn fuzz_exchange_decode_report() {
    guarded("fuzz_exchange_decode_report", "exchange_decode_report", || fuzz("exchange_decode_report"));
}

#[test]
fn fuzz_discover_tests() {
    guarded("fuzz_discover_tests", "discover_tests", || fuzz("discover_tests"));
}

#[test]
fn fuzz_junit_import() {
    guarded("fuzz_junit_import", "junit_import", || fuzz("junit_import"));
}

#[test]
fn fuzz_builder_add_attempt_mended() {
    guarded("fuzz_builder_add_attempt_mended", "builder_add_attempt_mended", || fuzz("builder_add_attempt_mended"));
}

/// Every input a fuzz run saved (`tests/fuzz-regressions/<target>/*.bin`) passes its target now.
/// `.open` files (findings left open on purpose) are run and reported, not failed.
#[test]
fn fuzz_regressions_stay_fixed() {
    guarded("fuzz_regressions_stay_fixed", "replay", replay_regressions);
}

fn replay_regressions() {
    let dirs = std::fs::read_dir(regressions_dir()).expect("tests/fuzz-regressions exists");
    let mut failures = Vec::new();
    let mut replayed = 0;
    for dir in dirs.flatten().filter(|d| d.path().is_dir()) {
        let name = dir.file_name().to_string_lossy().into_owned();
        let t = TARGETS.iter().find(|t| t.name == name);
        assert!(t.is_some(), "tests/fuzz-regressions/{name}: no fuzz target of that name");
        let t = t.expect("checked");
        for (path, bytes, open) in saved(&name) {
            replayed += 1;
            if is_child() {
                // a saved input that kills the process is named by the parent
                trace("replay", path.to_string_lossy().as_bytes());
            }
            let file = path.strip_prefix(repo()).unwrap_or(&path).display().to_string();
            match (run(t, &bytes).0, open) {
                (Verdict::Finding { sig, detail }, false) => failures.push(format!("{file}: {sig}: {detail}")),
                (Verdict::Finding { sig, .. }, true) => eprintln!("fuzz: {file} is still open: {sig}"),
                (Verdict::Fine(_), true) => eprintln!("fuzz: {file} passes now: rename it to .bin"),
                (Verdict::Fine(_), false) => {}
            }
        }
    }
    eprintln!("fuzz: {replayed} saved input(s) replayed");
    assert!(failures.is_empty(), "{} saved fuzz input(s) fail:\n{}", failures.len(), failures.join("\n"));
}

/// The seeds are what they stand for: the valid reports are valid, the plans plan, the base
/// builders build valid reports, and every target takes its own seeds.
#[test]
fn fuzz_seeds_are_what_they_claim() {
    for doc in valid_reports() {
        assert_eq!(report::issues(&doc, Rules::Strict), vec![], "{doc}");
    }
    let schema_only = &other_reports()[0];
    assert_eq!(report::issues(schema_only, Rules::Schema), vec![], "{schema_only}");
    assert_ne!(report::issues(schema_only, Rules::Strict), vec![], "{schema_only}");
    for text in seeds_plan() {
        let text = String::from_utf8(text).expect("UTF-8");
        plan::PlanInput::from_json(&text).and_then(plan::plan_shards).unwrap_or_else(|e| panic!("{e:?}: {text}"));
    }
    for envs in 0..3 {
        assert_eq!(report::validate(&builder_with(envs).build()), vec![]);
        builder_with(envs.max(1)).add_attempt_json(0, FULL_ATTEMPT).expect("FULL_ATTEMPT is a valid attempt");
    }
    for t in &TARGETS {
        let known = known_open(t);
        for seed in (t.seeds)() {
            if let (Verdict::Finding { sig, detail }, _) = run(t, &seed) {
                assert!(known.contains(&sig), "{}: a seed is a new finding: {sig}: {detail}", t.name);
            }
        }
    }
}

/// The JSON mutator's raw text lands in the document as text.
#[test]
fn fuzz_json_mutator_writes_raw_text() {
    let mut rng = Rng::new(1);
    let mut m = JsonMutator { rng: &mut rng, raw: Vec::new() };
    let mut doc = json!({"a": 1});
    let v = m.raw("\"\\ud800\"");
    let k = m.raw_key("\"a\"".into());
    doc["b"] = v;
    doc[k.as_str()] = m.raw("2.0");
    let text = String::from_utf8(m.render(&doc)).expect("UTF-8");
    assert!(text.contains(r#""b":"\ud800""#) || text.contains(r#""b": "\ud800""#), "{text}");
    assert!(text.contains(r#""a":2.0"#) || text.contains(r#""a": 2.0"#), "{text}");
}
