use proptest::prelude::*;
use serde_json::json;

use super::*;

const SHA: &str = "0123456789abcdef0123456789abcdef01234567";

fn builder() -> ReportBuilder {
    ReportBuilder::new(ReportInit { category: "playwright".into(), commit_id: SHA.into(), ..Default::default() }).unwrap()
}

fn test_input(path: &[&str], file: &str) -> TestInput {
    TestInput { title_path: path.iter().map(|s| s.to_string()).collect(), file: Some(file.into()), line: Some(3), ..Default::default() }
}

fn attempt(env: u32, duration: u64) -> RunAttempt {
    RunAttempt { environment_idx: Some(env), start_timestamp: 1_700_000_000_000, duration: Some(duration), ..Default::default() }
}

fn paths(doc: serde_json::Value) -> Vec<String> {
    validate_json(&doc).into_iter().map(|i| i.path).collect()
}

/// A change to a document, for the rule tables.
type Mutation = fn(&mut serde_json::Value);

fn base() -> serde_json::Value {
    json!({"category": "jest", "commitId": SHA, "environments": [{"name": "a"}, {"name": "b"}],
           "startTimestamp": 1, "duration": 2,
           "suites": [{"type": "file", "title": "a.test.js", "tests": [
               {"title": "t", "attempts": [{"startTimestamp": 1, "environmentIdx": 1}]}]}]})
}

#[test]
fn builder_collapses_environments_tests_and_attachments() {
    let mut b = builder();
    let chromium = Environment { name: "chromium".into(), ..Default::default() };
    assert_eq!(b.add_environment(chromium.clone()).unwrap(), 0);
    assert_eq!(b.add_environment(Environment { name: "firefox".into(), ..Default::default() }).unwrap(), 1);
    assert_eq!(b.add_environment(chromium).unwrap(), 0);
    let h = b.add_test(test_input(&["login", "works"], "tests/login.spec.ts")).unwrap();
    assert_eq!(b.add_test(test_input(&["login", "works"], "tests/login.spec.ts")).unwrap(), h);
    assert_ne!(b.add_test(test_input(&["login", "works"], "tests/other.spec.ts")).unwrap(), h);
    b.add_attempt(h, attempt(1, 30)).unwrap();
    b.add_attempt(h, attempt(0, 20)).unwrap();
    assert_eq!(b.add_attempt(h, attempt(2, 1)).unwrap_err().code, crate::ErrorCode::InvalidInput);
    let a1 = b.add_attachment(AttachmentInput { name: "s.png".into(), content_type: "image/png".into(), data: b"abc".to_vec() }).unwrap();
    let a2 = b.add_attachment(AttachmentInput { name: "t.png".into(), content_type: "image/png".into(), data: b"abc".to_vec() }).unwrap();
    assert_eq!(a1.id, "a9993e364706816aba3e25717850c26c9cd0d89d");
    assert_eq!(a1.id, a2.id);
    assert_eq!(b.attachments().count(), 1);

    let r = b.build();
    assert!(validate(&r).is_empty(), "{:?}", validate(&r));
    let files = r.suites.as_ref().unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(files[0].kind, SuiteType::File);
    let login = &files[0].suites.as_ref().unwrap()[0];
    assert_eq!((login.kind, login.title.as_str()), (SuiteType::Suite, "login"));
    assert_eq!(login.tests.as_ref().unwrap()[0].attempts.len(), 2);
    assert_eq!(decode_report(&b.encode()).unwrap(), r);
}

#[test]
fn builder_is_linear_for_many_tests() {
    let mut b = builder();
    b.add_environment(Environment { name: "node".into(), ..Default::default() }).unwrap();
    for i in 0..100_000 {
        let h = b.add_test(test_input(&[&format!("suite {}", i % 100), &format!("test {i}")], &format!("f{}.js", i % 50))).unwrap();
        b.add_attempt(h, attempt(0, i)).unwrap();
    }
    let r = b.build();
    assert_eq!(r.tests_with_paths().len(), 100_000);
    assert_eq!(r.suites.as_ref().unwrap().len(), 50, "one file suite per file, in first-seen order");
    assert_eq!(r.suites.as_ref().unwrap()[0].title, "f0.js");
    // Streaming the JSON into the encoder gives the bytes of compressing the whole text at once,
    // and encoding leaves the builder as it was.
    let encoded = b.encode();
    assert_eq!(encoded, crate::codec::compress(&to_json(&r), Default::default()).unwrap());
    assert_eq!(b.build(), r);
    // A test added after encoding lands in its existing suite.
    let h = b.add_test(test_input(&["suite 0", "test 0"], "f0.js")).unwrap();
    b.add_attempt(h, attempt(0, 1)).unwrap();
    assert_eq!(attempt_count(&b.build()), 100_001);
    assert_eq!(b.build().tests_with_paths().len(), 100_000);
}

#[test]
fn builder_rejects_bad_init_and_paths() {
    assert!(ReportBuilder::new(ReportInit { category: "x".into(), commit_id: "abc".into(), ..Default::default() }).is_err());
    let mut b = builder();
    assert!(b.add_test(test_input(&["t"], "/abs/path.js")).is_err());
    assert!(b.add_test(TestInput::default()).is_err());
}

#[test]
fn each_stricter_rule_is_reported_at_its_path() {
    assert!(paths(base()).is_empty(), "{:?}", validate_json(&base()));
    let cases: Vec<(Mutation, &str)> = vec![
        (|d| d["commitId"] = json!("ABC"), "commitId"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["environmentIdx"] = json!(3), "suites[0].tests[0].attempts[0].environmentIdx"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["environmentIdx"] = json!(0.5), "suites[0].tests[0].attempts[0].environmentIdx"),
        (|d| d["startTimestamp"] = json!(-1), "startTimestamp"),
        (|d| d["duration"] = json!(1.5), "duration"),
        (|d| d["suites"][0]["tests"][0]["location"] = json!({"file": "/abs.js", "line": 1, "column": 1}), "suites[0].tests[0].location.file"),
        (|d| d["suites"][0]["tests"][0]["location"] = json!({"file": "a\\b.js", "line": 1, "column": 1}), "suites[0].tests[0].location.file"),
        (|d| d["suites"][0]["tests"][0]["location"] = json!({"file": "../a.js", "line": 1, "column": 1}), "suites[0].tests[0].location.file"),
        (|d| d["suites"][0]["tests"][0]["location"] = json!({"file": "a.js", "line": 0, "column": 1}), "suites[0].tests[0].location.line"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["stdio"] = json!([{"text": "a", "buffer": "YQ=="}]), "suites[0].tests[0].attempts[0].stdio[0]"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["stdio"] = json!([{"buffer": "not base64!"}]), "suites[0].tests[0].attempts[0].stdio[0].buffer"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["attachments"] = json!([{"name": "a", "contentType": "text/plain", "id": "x".repeat(300)}]), "suites[0].tests[0].attempts[0].attachments[0].id"),
        (|d| d["suites"][0]["tests"][0]["extra"] = json!(1), "suites[0].tests[0].extra"),
        (|d| d["version"] = json!(1), "version"),
        (|d| d["suites"][0]["type"] = json!("folder"), "suites[0].type"),
        (|d| d["environments"][0]["name"] = json!(""), "environments[0].name"),
        (|d| d["environments"][0]["metadata"] = json!({"shards": [1, 2]}), "environments[0].metadata.shards"),
        (|d| d["suites"][0]["tests"][0]["location"] = json!({"file": "a.js", "line": 1, "column": 0}), "suites[0].tests[0].location.column"),
        (|d| d["suites"][0]["tests"][0]["location"] = json!({"file": "a.js", "line": 1u64 << 32, "column": 1}), "suites[0].tests[0].location.line"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["stdio"] = json!([{"stream": 2}]), "suites[0].tests[0].attempts[0].stdio[0]"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["stdout"] = json!([{"buffer": "%"}]), "suites[0].tests[0].attempts[0].stdout[0].buffer"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["stdio"] = json!([{"text": "a", "colour": 1}]), "suites[0].tests[0].attempts[0].stdio[0].colour"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["stauts"] = json!("passed"), "suites[0].tests[0].attempts[0].stauts"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["steps"] = json!([{"title": "s", "time": 1}]), "suites[0].tests[0].attempts[0].steps[0].time"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["errors"] = json!([{"message": "m", "location": {"file": "/abs.js", "line": 1, "column": 1}}]), "suites[0].tests[0].attempts[0].errors[0].location.file"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["duration"] = json!(1u64 << 53), "suites[0].tests[0].attempts[0].duration"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["attachments"] = json!([{"name": "a", "contentType": "text/plain", "id": "ABC"}]), "suites[0].tests[0].attempts[0].attachments[0].id"),
        (|d| d["relatedCommitIds"] = json!([SHA.to_uppercase()]), "relatedCommitIds[0]"),
        (|d| d["configPath"] = json!("../playwright.config.ts"), "configPath"),
        (|d| d["sources"] = json!([{"filePath": "C:/a.js", "text": ""}]), "sources[0].filePath"),
        (|d| d["testRunner"] = json!({"name": "", "version": "1"}), "testRunner.name"),
        (|d| d["cpuAvg"] = json!([[-1, 5]]), "cpuAvg[0]"),
        (|d| d["ram"] = json!([[0, 101]]), "ram[0]"),
        (|d| d["systemUtilization"] = json!({"totalMemoryBytes": 1, "startTimestamp": 1}), "systemUtilization.samples"),
        (|d| d["systemUtilization"] = json!({"totalMemoryBytes": 1, "startTimestamp": 1, "samples": [{"dts": 1, "cpuUtilization": 120, "memoryUtilization": 5}]}), "systemUtilization.samples[0].cpuUtilization"),
    ];
    for (mutate, path) in cases {
        let mut d = base();
        mutate(&mut d);
        let got = paths(d);
        assert!(got.contains(&path.to_string()), "expected an issue at {path}, got {got:?}");
    }
    let mut d = base();
    d["suites"][0]["tests"][0]["attempts"][0]["environmentIdx"] = json!(3);
    assert_eq!(validate_json(&d)[0].message, "3 is out of range (2 environments)");
}

#[test]
fn the_schema_rules_accept_what_the_published_schema_accepts() {
    // what the stricter rules refuse but Schema.Report accepts: a reader takes it
    let lenient: Vec<Mutation> = vec![
        |d| d["suites"][0]["location"] = json!({"file": "a.test.js", "line": 0, "column": 0}),
        |d| d["suites"][0]["tests"][0]["attempts"][0]["environmentIdx"] = json!(7),
        |d| d["suites"][0]["tests"][0]["attempts"][0]["duration"] = json!(1.5),
        |d| d["suites"][0]["tests"][0]["attempts"][0]["stdio"] = json!([{"text": "a", "buffer": "not base64"}]),
        |d| d["suites"][0]["tests"][0]["extra"] = json!(1),
        |d| d["commitId"] = json!("X".repeat(40)),
        |d| d["environments"][0]["metadata"] = json!({"list": [1]}),
        |d| d["suites"][0]["tests"][0]["attempts"][0]["attachments"] = json!([{"name": "a", "contentType": "", "id": "Z".repeat(1000)}]),
    ];
    for mutate in lenient {
        let mut d = base();
        mutate(&mut d);
        assert_eq!(issues(&d, Rules::Schema), vec![], "{d}");
        assert!(!validate_json(&d).is_empty(), "{d}");
    }
    // what Schema.Report refuses
    let refused: Vec<(Mutation, &str)> = vec![
        (|d| d["category"] = json!(""), "category"),
        (|d| d["commitId"] = json!("abc"), "commitId"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["stdio"] = json!([{"stream": 1}]), "suites[0].tests[0].attempts[0].stdio[0]"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["stdio"] = json!([{"text": "a", "stream": 7}]), "suites[0].tests[0].attempts[0].stdio[0].stream"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["duration"] = json!(-1), "suites[0].tests[0].attempts[0].duration"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0].as_object_mut().unwrap().remove("startTimestamp").map(drop).unwrap_or(()), "suites[0].tests[0].attempts[0].startTimestamp"),
        (|d| d["suites"][0]["tests"][0].as_object_mut().unwrap().remove("attempts").map(drop).unwrap_or(()), "suites[0].tests[0].attempts"),
        (|d| d["runtime"] = json!({"name": "node", "version": ""}), "runtime.version"),
        (|d| d["cpuMax"] = json!([[1, 100.5]]), "cpuMax[0]"),
        (|d| d["suites"][0]["tests"][0]["attempts"][0]["attachments"] = json!([{"name": "a", "contentType": "x", "id": ""}]), "suites[0].tests[0].attempts[0].attachments[0].id"),
    ];
    for (mutate, path) in refused {
        let mut d = base();
        mutate(&mut d);
        let got: Vec<String> = issues(&d, Rules::Schema).into_iter().map(|i| i.path).collect();
        assert!(got.contains(&path.to_string()), "expected an issue at {path}, got {got:?}");
    }
}

#[test]
fn decode_keeps_the_document_as_stored_and_checks_the_schema_rules() {
    let mut d = base();
    d["suites"][0]["location"] = json!({"file": "a.test.js", "line": 0, "column": 0});
    d["suites"][0]["tests"][0]["attempts"][0]["stdout"] = json!([{"text": "hi\n"}]);
    d["systemUtilization"] = json!({"totalMemoryBytes": 8, "startTimestamp": 1, "samples": [{"dts": 5, "cpuUtilization": 12.5, "memoryUtilization": 40}]});
    d["futureField"] = json!({"kept": true});
    let bytes = encode_json(d.to_string().as_bytes());
    let back: serde_json::Value = serde_json::from_slice(&decode_json(&bytes).unwrap()).unwrap();
    assert_eq!(back, d);
    // a UTF-8 byte order mark before plain JSON is not part of the document
    let with_bom = [&[0xEF, 0xBB, 0xBF][..], d.to_string().as_bytes()].concat();
    assert_eq!(serde_json::from_slice::<serde_json::Value>(&decode_json(&with_bom).unwrap()).unwrap(), d);

    d["suites"][0]["tests"][0]["attempts"][0]["stdio"] = json!([{}]);
    let e = decode_json(&encode_json(d.to_string().as_bytes())).unwrap_err();
    assert_eq!(e.code, crate::ErrorCode::InvalidInput);
    assert!(e.message.starts_with("the report is not valid: suites[0].tests[0].attempts[0].stdio[0]: "), "{}", e.message);
}

#[test]
fn typed_report_keeps_stdout_stderr_and_system_utilization() {
    let mut d = base();
    d["suites"][0]["tests"][0]["attempts"][0]["stdout"] = json!([{"text": "hi"}, {"buffer": "AAE="}]);
    d["suites"][0]["tests"][0]["attempts"][0]["stderr"] = json!([{"text": "oops"}]);
    d["systemUtilization"] = json!({"totalMemoryBytes": 8, "startTimestamp": 1, "samples": [{"dts": 5, "cpuUtilization": 12.5, "memoryUtilization": 40.0}]});
    d["flakinessProject"] = json!("acme/web");
    let r = decode_report(d.to_string().as_bytes()).unwrap();
    assert_eq!(serde_json::to_value(&r).unwrap(), d);
    assert_eq!(serde_json::to_value(normalize(r)).unwrap()["systemUtilization"], d["systemUtilization"]);
}

#[test]
fn builder_checks_each_attempt_environment_and_init_as_the_report_rules_do() {
    let mut b = builder();
    let h = b.add_test(test_input(&["t"], "a.js")).unwrap();
    // no environment yet: an attempt has none to run in
    let e = b.add_attempt(h, RunAttempt::default()).unwrap_err();
    assert!(e.message.contains("attempt.environmentIdx: defaults to 0, but the report has no environments; add the environments first"), "{}", e.message);
    b.add_environment(Environment { name: "node".into(), ..Default::default() }).unwrap();
    let bad_json = [
        ("{\"stauts\": \"passed\"}", "attempt.stauts: is not a field of this object (unknown key)"),
        ("{\"stdio\": [{\"stream\": 1}]}", "attempt.stdio[0]: must have one of `text` or `buffer`"),
        ("{\"stdio\": [{\"text\": \"a\", \"buffer\": \"YQ==\"}]}", "attempt.stdio[0]: must have exactly one"),
        ("{\"attachments\": [{\"name\": \"a\", \"contentType\": \"text/plain\", \"id\": \"not-hex\"}]}", "attempt.attachments[0].id: must be a lowercase hex content hash"),
        ("{\"errors\": [{\"location\": {\"file\": \"/abs.js\", \"line\": 0, \"column\": 1}}]}", "attempt.errors[0].location.file: \"/abs.js\" must be relative"),
        ("{\"environmentIdx\": 1}", "attempt.environmentIdx: 1 is out of range (1 environments)"),
        ("{\"duration\": 9007199254740992}", "attempt.duration: must be at most 9007199254740991"),
    ];
    // an attempt without a start is stored with 0 (the report schema wants it said)
    // and a null field is an absent one, as in JSON.stringify's undefined
    b.add_attempt_json(h, "{\"status\": \"failed\", \"timeout\": null, \"errors\": [{\"message\": \"m\", \"stack\": null}]}").unwrap();
    let stored = b.build().tests_with_paths()[0].test.attempts.clone();
    assert_eq!((stored[0].start_timestamp, stored[0].status, stored[0].timeout), (0, Some(TestStatus::Failed), None));
    assert_eq!(stored[0].errors, Some(vec![ReportError { message: Some("m".into()), ..Default::default() }]));
    let before = b.build();
    for (json, message) in bad_json {
        let e = b.add_attempt_json(h, json).unwrap_err();
        assert_eq!(e.code, crate::ErrorCode::InvalidInput);
        assert!(e.message.starts_with("attempt is not valid: ") && e.message.contains(message), "{json}: {}", e.message);
    }
    // the typed entry point answers the same
    let typed = RunAttempt { stdio: Some(vec![TimedStdioEntry { stream: Some(1), ..Default::default() }]), ..Default::default() };
    assert!(b.add_attempt(h, typed).unwrap_err().message.contains("attempt.stdio[0]: must have one of `text` or `buffer`"));
    let typed = RunAttempt { timeout: Some(u64::MAX), ..Default::default() };
    assert!(b.add_attempt(h, typed).unwrap_err().message.contains("attempt.timeout: must be at most"));
    assert_eq!(b.build(), before, "a rejected attempt leaves the report as it was");

    let e = b.add_environment(Environment { name: "x".into(), metadata: Some([("list".to_string(), json!([1]))].into()), ..Default::default() }).unwrap_err();
    assert!(e.message.contains("environment.metadata.list: must be a string, number or boolean"), "{}", e.message);

    let init = |f: fn(&mut ReportInit)| {
        let mut i = ReportInit { category: "jest".into(), commit_id: SHA.into(), ..Default::default() };
        f(&mut i);
        ReportBuilder::new(i).err().map(|e| e.message)
    };
    assert_eq!(init(|_| {}), None);
    for (f, message) in [
        (init(|i| i.commit_id = "abc".into()), "commitId: must be a git SHA-1"),
        (init(|i| i.category = String::new()), "category: must be 1 to 100 characters"),
        (init(|i| i.test_runner = Some(NameVersion { name: "jest".into(), version: String::new() })), "testRunner.version: must be 1 to"),
        (init(|i| i.config_path = Some("/ci/jest.config.js".into())), "configPath: \"/ci/jest.config.js\" must be relative"),
        (init(|i| i.related_commit_ids = Some(vec!["abc".into()])), "relatedCommitIds[0]: must be a git SHA-1"),
    ] {
        let m = f.unwrap_or_default();
        assert!(m.starts_with("ReportBuilder init is not valid: ") && m.contains(message), "{message}: {m}");
    }
}

#[test]
fn normalize_drops_empty_and_default_fields_everywhere() {
    let doc = json!({"category": "jest", "commitId": SHA, "startTimestamp": 0, "duration": 0, "cpuAvg": [], "ram": [],
        "environments": [{"name": "a", "systemData": {}, "metadata": {}}, {"name": "a"}],
        "tests": [{"title": "t", "tags": [], "attempts": [{"startTimestamp": 1, "environmentIdx": 1, "stdout": [], "stderr": [],
            "stdio": [{"text": "x", "stream": 1}],
            "steps": [{"title": "s", "attachments": [], "steps": [{"title": "inner", "steps": []}]}]}]}]});
    let n = normalize(serde_json::from_value(doc).unwrap());
    assert_eq!(serde_json::to_value(&n).unwrap(), json!({"category": "jest", "commitId": SHA, "startTimestamp": 0, "duration": 0,
        "environments": [{"name": "a"}],
        "tests": [{"title": "t", "attempts": [{"startTimestamp": 1, "stdio": [{"text": "x"}],
            "steps": [{"title": "s", "steps": [{"title": "inner"}]}]}]}]}));
}

#[test]
fn decode_accepts_brotli_and_json_and_rejects_the_rest() {
    let r = builder().build();
    assert_eq!(decode_report(&encode_report(&r)).unwrap(), r);
    assert_eq!(decode_report(&to_json(&r)).unwrap(), r);
    assert!(decode_report(b"garbage that is not a report").is_err());
    assert!(decode_report(b"{\"category\": 1}").is_err());
}

#[test]
fn normalize_merges_environments_and_tests() {
    let doc = json!({"category": "jest", "commitId": SHA, "startTimestamp": 0, "duration": 0,
        "environments": [{"name": "a"}, {"name": "b"}, {"name": "a"}],
        "suites": [{"type": "file", "title": "x.js", "tests": [
            {"title": "t", "attempts": [{"startTimestamp": 1, "environmentIdx": 2, "status": "passed", "duration": 0}]}]},
            {"type": "file", "title": "x.js", "tests": [
            {"title": "t", "attempts": [{"startTimestamp": 2, "environmentIdx": 1}]}]}]});
    let r: Report = serde_json::from_value(doc).unwrap();
    let n = normalize(r);
    assert_eq!(n.environments.len(), 2);
    let suites = n.suites.as_ref().unwrap();
    assert_eq!(suites.len(), 1);
    let t = &suites[0].tests.as_ref().unwrap()[0];
    assert_eq!(t.attempts.len(), 2);
    assert_eq!(t.attempts[0].environment_idx, None);
    assert_eq!(t.attempts[0].status, None);
    assert_eq!(t.attempts[1].environment_idx, Some(1));
    assert!(validate(&n).is_empty());
    assert_eq!(normalize(n.clone()), n);
}

fn arb_location() -> impl Strategy<Value = Location> {
    (prop::sample::select(vec!["a.test.js", "dir/b.spec.ts"]), 1u32..500, 1u32..80)
        .prop_map(|(f, line, column)| Location { file: f.into(), line, column })
}

fn arb_error() -> impl Strategy<Value = ReportError> {
    (prop::option::of(arb_location()), prop::option::of("[a-z \"\\\\é\n]{0,12}"), any::<bool>()).prop_map(|(location, message, stack)| {
        ReportError { location, message, stack: stack.then(|| "Error: x\n    at y".into()), ..Default::default() }
    })
}

fn arb_attachment() -> impl Strategy<Value = Attachment> {
    (prop::sample::select(vec!["trace.zip", "screenshot.png"]), "[0-9a-f]{40}")
        .prop_map(|(name, id)| Attachment { name: name.into(), content_type: "application/octet-stream".into(), id })
}

fn arb_steps() -> impl Strategy<Value = Vec<TestStep>> {
    let leaf = (prop::sample::select(vec!["goto", "click", "expect"]), prop::option::of(0u64..500), prop::option::of(arb_location()))
        .prop_map(|(title, duration, location)| TestStep { title: title.into(), duration, location, snippet: None, error: None, attachments: None, steps: None });
    let step = leaf.prop_recursive(3, 12, 3, |inner| {
        (inner.clone(), prop::option::of(prop::collection::vec(inner, 0..3)), prop::option::of(arb_error()), prop::option::of(prop::collection::vec(arb_attachment(), 0..2)))
            .prop_map(|(s, steps, error, attachments)| TestStep { steps, error, attachments, ..s })
    });
    prop::collection::vec(step, 0..3)
}

fn arb_attempt() -> impl Strategy<Value = RunAttempt> {
    let statuses = || prop::option::of(prop::sample::select(TestStatus::ALL.to_vec()));
    let plain = (0u32..3, statuses(), statuses(), 0u64..2_000_000_000_000, prop::option::of(0u64..5000), prop::option::of(0u64..60_000), prop::option::of(0u32..8));
    let stdio = (prop::option::of(1u8..=2), prop::option::of(0u64..100), any::<bool>(), "[a-z\n]{0,8}").prop_map(|(stream, dts, binary, text)| {
        let (text, buffer) = if binary { (None, Some("AP8K".to_string())) } else { (Some(text), None) };
        TimedStdioEntry { stream, dts, text, buffer }
    });
    let output = prop::option::of(prop::collection::vec(
        prop::sample::select(vec![
            TimedStdioEntry { text: Some("out\n".into()), ..Default::default() },
            TimedStdioEntry { buffer: Some("AAE=".into()), ..Default::default() },
        ]),
        0..2,
    ));
    let annotation = (prop::sample::select(vec!["skip", "owner", "issue"]), prop::option::of("[a-z ]{0,8}"), prop::option::of(arb_location()))
        .prop_map(|(kind, description, location)| Annotation { kind: kind.into(), description, location });
    let details = (
        prop::option::of(prop::collection::vec(annotation, 0..2)),
        prop::option::of(prop::collection::vec(arb_error(), 0..2)),
        prop::option::of(arb_steps()),
        prop::option::of(prop::collection::vec(stdio, 0..3)),
        output.clone(),
        output,
        prop::option::of(prop::collection::vec(arb_attachment(), 0..2)),
    );
    (plain, details).prop_map(|((env, status, expected_status, start, duration, timeout, parallel_index), (annotations, errors, steps, stdio, stdout, stderr, attachments))| RunAttempt {
        environment_idx: Some(env),
        status,
        expected_status,
        start_timestamp: start,
        duration,
        timeout,
        parallel_index,
        annotations,
        errors,
        steps,
        stdio,
        stdout,
        stderr,
        attachments,
    })
}

fn arb_test() -> impl Strategy<Value = Test> {
    (prop::sample::select(vec!["a", "b", "c"]), prop::option::of(arb_location()), prop::option::of(prop::collection::vec(prop::sample::select(vec!["@slow", "@smoke"]).prop_map(String::from), 0..2)), prop::collection::vec(arb_attempt(), 0..3))
        .prop_map(|(t, location, tags, attempts)| Test { title: t.into(), location, tags, attempts })
}

/// Reports with every part of the model: nested suites of all three types, top-level tests,
/// attempts with steps, output (text and binary), errors, annotations and attachments,
/// environments with system data and metadata, telemetry of arbitrary percentages.
fn arb_report() -> impl Strategy<Value = Report> {
    let kinds = prop::sample::select(vec![(SuiteType::File, "f1.js"), (SuiteType::File, "dir/f2.js"), (SuiteType::Suite, "login"), (SuiteType::AnonymousSuite, "")]);
    let leaf = (kinds, prop::option::of(prop::collection::vec(arb_test(), 0..3))).prop_map(|((kind, title), tests)| Suite { kind, title: title.into(), location: None, suites: None, tests });
    let suite = leaf.prop_recursive(3, 12, 3, |inner| {
        (inner.clone(), prop::option::of(prop::collection::vec(inner, 0..3))).prop_map(|(s, suites)| Suite { suites, ..s })
    });
    let environment = (prop::sample::select(vec!["x", "y"]), any::<bool>(), any::<bool>()).prop_map(|(name, system, meta)| Environment {
        name: name.into(),
        system_data: system.then(|| SystemData { os_name: Some("linux".into()), os_version: None, os_arch: Some("x64".into()) }),
        metadata: meta.then(|| [("workers".to_string(), json!(2)), ("headless".to_string(), json!(true))].into_iter().collect()),
        user_supplied_data: None,
    });
    let telemetry = prop::option::of(prop::collection::vec((0.0f64..1e9, 0.0f64..=100.0), 0..4));
    let utilization = prop::option::of((0u64..1 << 40, prop::collection::vec((0u64..5000, 0.0f64..=100.0, 0.0f64..=100.0), 0..3)).prop_map(|(total, samples)| SystemUtilization {
        total_memory_bytes: total,
        start_timestamp: 1_700_000_000_000,
        samples: samples.into_iter().map(|(dts, cpu, memory)| UtilizationSample { dts, cpu_utilization: cpu, memory_utilization: memory }).collect(),
    }));
    (
        prop::option::of(prop::collection::vec(suite, 0..4)),
        prop::option::of(prop::collection::vec(arb_test(), 0..3)),
        prop::collection::vec(environment, 3),
        (telemetry.clone(), telemetry, utilization),
        prop::option::of(prop::collection::vec(arb_error(), 0..2)),
    )
        .prop_map(|(suites, tests, environments, (cpu_avg, ram, system_utilization), unattributed_errors)| Report {
            category: "jest".into(),
            commit_id: SHA.into(),
            environments,
            start_timestamp: 1_700_000_000_000,
            duration: 5000,
            flakiness_project: Some("org/project".into()),
            suites,
            tests,
            unattributed_errors,
            cpu_avg,
            ram,
            system_utilization,
            ..Default::default()
        })
}

fn attempt_count(r: &Report) -> usize {
    r.tests_with_paths().iter().map(|t| t.test.attempts.len()).sum()
}

/// `v` without empty arrays and objects and without `"stream": 1` (an output entry's default),
/// at any depth: the fields whose absence says the same.
fn without_defaults(v: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    let empty = |v: &Value| v.as_array().is_some_and(Vec::is_empty) || v.as_object().is_some_and(|o| o.is_empty());
    match v {
        Value::Array(a) => Value::Array(a.into_iter().map(without_defaults).collect()),
        Value::Object(o) => Value::Object(
            o.into_iter()
                .map(|(k, v)| (k, without_defaults(v)))
                .filter(|(k, v)| !(empty(v) || k == "stream" && *v == json!(1)))
                .collect(),
        ),
        v => v,
    }
}

/// Every attempt of a report as what normalizing must keep: its test (suite path, title, file),
/// its environment's content, and its fields with defaults filled in; sorted.
fn attempts_kept(r: &Report) -> Vec<String> {
    let mut out: Vec<String> = r
        .tests_with_paths()
        .iter()
        .flat_map(|t| {
            t.test.attempts.iter().map(move |a| {
                let env = serde_json::to_string(&r.environments[a.env()]).unwrap();
                let filled = RunAttempt {
                    environment_idx: None,
                    status: Some(a.status.unwrap_or(TestStatus::Passed)),
                    expected_status: Some(a.expected_status.unwrap_or(TestStatus::Passed)),
                    duration: Some(a.duration.unwrap_or(0)),
                    ..a.clone()
                };
                format!("{:?} {} {:?} {env} {}", t.suites, t.test.title, t.file, without_defaults(serde_json::to_value(&filled).unwrap()))
            })
        })
        .collect();
    out.sort();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// encode_json compresses in the smallest window that holds the text: it reads back the same
    /// (as a report, through the schema's check), within 1% of the default window's size, and a
    /// text of more than that window is encoded as `compress` with the defaults encodes it.
    #[test]
    fn encode_json_in_a_window_fitted_to_its_text(tests in 0usize..3200) {
        let json = super::read_json_tests::report_json(tests); // about 190 bytes a test: 0-600 KB
        let ours = encode_json(&json);
        prop_assert_eq!(crate::codec::decompress(&ours, Default::default()).unwrap(), json.clone());
        prop_assert!(read_json_text(&ours, Default::default()).unwrap().1, "read as a Brotli stream");
        prop_assert_eq!(decode_json(&ours).unwrap(), json.clone());
        let wide = crate::codec::compress(&json, Default::default()).unwrap();
        prop_assert!(ours.len() as f64 <= wide.len() as f64 * 1.01 + 16.0, "{} against {}", ours.len(), wide.len());
    }
}

#[test]
fn encode_json_of_a_text_beyond_the_default_window_is_the_default_encoding() {
    let json = super::read_json_tests::report_json(23_000); // 4.3 MB: beyond lgwin 22's window
    assert!(json.len() > (1 << 22), "{} bytes", json.len());
    assert_eq!(encode_json(&json), crate::codec::compress(&json, Default::default()).unwrap());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn decode_of_encode_is_identity(r in arb_report()) {
        prop_assert_eq!(decode_report(&encode_report(&r)).unwrap(), r);
    }

    #[test]
    fn normalize_is_idempotent_keeps_attempts_and_validates(r in arb_report()) {
        let n = normalize(r.clone());
        prop_assert_eq!(attempt_count(&n), attempt_count(&r));
        prop_assert_eq!(attempts_kept(&n), attempts_kept(&r));
        prop_assert!(validate(&n).is_empty(), "{:?}", validate(&n));
        prop_assert_eq!(normalize(n.clone()), n);
    }
}


/// What the builder should produce, built the obvious (quadratic) way from the same calls:
/// a `file` suite per file, a `suite` per title level, all in first-seen order.
fn reference_report(b: &ReportBuilder, calls: &[(TestInput, Vec<RunAttempt>)]) -> Report {
    fn find<'a>(list: &'a mut Vec<Suite>, kind: SuiteType, title: &str) -> &'a mut Suite {
        match list.iter().position(|s| s.kind == kind && s.title == title) {
            Some(i) => &mut list[i],
            None => {
                list.push(Suite { kind, title: title.into(), location: None, suites: None, tests: None });
                list.last_mut().unwrap()
            }
        }
    }
    let mut report = b.build();
    let (mut suites, mut top) = (Vec::new(), Vec::new());
    for (input, attempts) in calls {
        let (title, path) = input.title_path.split_last().unwrap();
        let mut levels: Vec<(SuiteType, &str)> = input.file.iter().map(|f| (SuiteType::File, f.as_str())).collect();
        levels.extend(path.iter().map(|s| (SuiteType::Suite, s.as_str())));
        let tests: &mut Vec<Test> = match levels.split_first() {
            None => &mut top,
            Some((first, rest)) => {
                let mut s = find(&mut suites, first.0, first.1);
                for l in rest {
                    s = find(s.suites.get_or_insert_with(Vec::new), l.0, l.1);
                }
                s.tests.get_or_insert_with(Vec::new)
            }
        };
        let i = match tests.iter().position(|t| &t.title == title) {
            Some(i) => i,
            None => {
                let location = match (&input.file, input.line) {
                    (Some(f), Some(l)) if l >= 1 => Some(Location { file: f.clone(), line: l, column: input.column.unwrap_or(1).max(1) }),
                    _ => None,
                };
                tests.push(Test { title: title.clone(), location, tags: input.tags.clone().filter(|t| !t.is_empty()), attempts: vec![] });
                tests.len() - 1
            }
        };
        tests[i].attempts.extend(attempts.iter().cloned());
    }
    report.suites = (!suites.is_empty()).then_some(suites);
    report.tests = (!top.is_empty()).then_some(top);
    report
}

fn arb_calls() -> impl Strategy<Value = Vec<(TestInput, Vec<RunAttempt>)>> {
    let attempt = (0u32..2, 0u64..5000, prop::option::of(prop::sample::select(vec![TestStatus::Passed, TestStatus::Failed])), any::<bool>())
        .prop_map(|(env, d, status, err)| RunAttempt {
            environment_idx: Some(env),
            duration: Some(d),
            status,
            start_timestamp: 1_700_000_000_000 + d,
            errors: err.then(|| vec![ReportError { message: Some("boom \"quoted\" \\ é\n".into()), ..Default::default() }]),
            ..Default::default()
        });
    let input = (
        prop::collection::vec(prop::sample::select(vec!["a", "b", "c d", "\"q\"", "é"]), 1..4),
        prop::option::of(prop::sample::select(vec!["f1.js", "dir/f2.js"])),
        prop::option::of(0u32..4),
        prop::option::of(0u32..3),
        prop::option::of(prop::collection::vec(prop::sample::select(vec!["@slow", "@x"]), 0..2)),
    )
        .prop_map(|(path, file, line, column, tags)| TestInput {
            title_path: path.into_iter().map(String::from).collect(),
            file: file.map(String::from),
            line,
            column,
            tags: tags.map(|t| t.into_iter().map(String::from).collect()),
        });
    prop::collection::vec((input, prop::collection::vec(attempt, 0..3)), 0..25)
}

fn run_calls(calls: &[(TestInput, Vec<RunAttempt>)], cpu_count: Option<u64>) -> ReportBuilder {
    let mut b = ReportBuilder::new(ReportInit { category: "jest".into(), commit_id: SHA.into(), cpu_count, ..Default::default() }).unwrap();
    b.add_environment(Environment { name: "a".into(), ..Default::default() }).unwrap();
    b.add_environment(Environment { name: "b".into(), ..Default::default() }).unwrap();
    let handles: Vec<usize> = calls.iter().map(|(input, _)| b.add_test(input.clone()).unwrap()).collect();
    // Attempts arrive after all the tests (and alternately through the JSON entry point), so
    // each test's attempts are spread over the storage.
    for (k, ((_, attempts), h)) in calls.iter().zip(&handles).enumerate() {
        for a in attempts {
            if k % 2 == 0 {
                b.add_attempt(*h, a.clone()).unwrap();
            } else {
                b.add_attempt_json(*h, &serde_json::to_string(a).unwrap()).unwrap();
            }
        }
    }
    b
}

/// The handle `run_calls` gave `input`: tests are numbered in first-seen order of their key.
fn run_calls_handle(calls: &[(TestInput, Vec<RunAttempt>)], input: &TestInput) -> usize {
    let key = |t: &TestInput| (t.file.clone(), t.title_path.clone());
    let mut seen: Vec<(Option<String>, Vec<String>)> = Vec::new();
    for (t, _) in calls {
        if !seen.contains(&key(t)) {
            seen.push(key(t));
        }
    }
    seen.iter().position(|k| *k == key(input)).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    /// The compact storage gives the typed report of the obvious construction, its JSON is the
    /// JSON of that report, and `encode` is `compress` of that JSON.
    #[test]
    fn builder_storage_matches_the_typed_report(calls in arb_calls(), more in arb_calls(), cpu in prop::option::of(1u64..64)) {
        let mut b = run_calls(&calls, cpu);
        let r = b.build();
        prop_assert_eq!(&r, &reference_report(&b, &calls));
        prop_assert_eq!(String::from_utf8(b.to_json()).unwrap(), String::from_utf8(to_json(&r)).unwrap());
        prop_assert_eq!(b.encode(), crate::codec::compress(&to_json(&r), Default::default()).unwrap());
        prop_assert_eq!(decode_report(&b.encode()).unwrap(), r);
        // After encode (which drops the lookup indexes), the same tests are found again and new
        // ones land where they belong.
        let all: Vec<_> = calls.iter().chain(&more).cloned().collect();
        let handles: Vec<usize> = all.iter().map(|(input, _)| b.add_test(input.clone()).unwrap()).collect();
        let firsts: Vec<usize> = calls.iter().map(|(input, _)| run_calls_handle(&calls, input)).collect();
        prop_assert_eq!(&handles[..calls.len()], &firsts[..]);
        for ((_, attempts), h) in more.iter().zip(&handles[calls.len()..]) {
            for a in attempts {
                b.add_attempt(*h, a.clone()).unwrap();
            }
        }
        let r = b.build();
        prop_assert_eq!(&r, &reference_report(&b, &all));
        prop_assert_eq!(b.encode(), crate::codec::compress(&to_json(&r), Default::default()).unwrap());
    }
}

#[test]
fn builder_handles_deep_title_paths_and_rejects_too_deep_attempts() {
    let mut b = builder();
    b.add_environment(Environment { name: "node".into(), ..Default::default() }).unwrap();
    let path: Vec<String> = (0..1000).map(|i| format!("level {i}")).collect();
    let h = b.add_test(TestInput { title_path: path.clone(), file: Some("deep.js".into()), line: Some(1), ..Default::default() }).unwrap();
    b.add_attempt(h, attempt(0, 1)).unwrap();
    assert_eq!(b.add_test(TestInput { title_path: path, file: Some("deep.js".into()), line: Some(1), ..Default::default() }).unwrap(), h);
    let r = b.build();
    assert_eq!(b.to_json(), to_json(&r));
    // kept readable: 23 suites, then the other 976 joined into a 24th
    assert_eq!(r.tests_with_paths()[0].suites.len(), 24);
    assert!(decode_report(&b.encode()).is_ok());

    let mut step = TestStep { title: "s".into(), duration: None, location: None, snippet: None, error: None, attachments: None, steps: None };
    for _ in 0..100 {
        step = TestStep { steps: Some(vec![step.clone()]), ..step };
    }
    let deep = RunAttempt { steps: Some(vec![step]), ..attempt(0, 1) };
    assert_eq!(b.add_attempt(h, deep).unwrap_err().code, crate::ErrorCode::InvalidInput);
    assert_eq!(b.build(), r, "a rejected attempt leaves the report as it was");
    assert!(b.add_attempt_json(h, "{\"status\": \"unknown\"}").is_err());
    assert!(b.add_attempt_json(99, "{}").is_err());
}

#[test]
fn a_mended_attempt_keeps_everything_but_what_the_rules_refuse() {
    let mut b = builder();
    b.add_environment(Environment { name: "chromium".into(), ..Default::default() }).unwrap();
    let h = b.add_test(test_input(&["t"], "a.spec.ts")).unwrap();
    // what Playwright gives: a declared skip never ran on a worker (parallelIndex -1), an
    // annotation located at (0, 0); and an unknown key, a stdio entry with both forms
    let attempt = json!({
        "environmentIdx": 0, "status": "failed", "expectedStatus": "passed", "startTimestamp": 5, "duration": 7,
        "parallelIndex": -1,
        "annotations": [{"type": "skip", "location": {"file": "a.spec.ts", "line": 0, "column": 0}}, {"type": "issue", "description": "x"}],
        "errors": [{"message": "boom", "stack": "at a.spec.ts:3", "location": {"file": "a.spec.ts", "line": 3, "column": 1}}],
        "steps": [{"title": "s", "duration": -3, "steps": [{"title": "inner", "location": {"file": "/abs.ts", "line": 1, "column": 1}}]}],
        "stdio": [{"text": "a", "buffer": "AA=="}, {"stream": 2, "text": "kept"}],
        "attachments": [{"name": "shot", "contentType": "image/png", "id": "a9993e364706816aba3e25717850c26c9cd0d89d"}],
        "retry": 1,
    });
    assert!(b.add_attempt_json(h, &attempt.to_string()).is_err(), "the strict path refuses it");
    let mended = b.add_attempt_mended(h, &attempt.to_string()).unwrap();
    let paths: Vec<&str> = mended.iter().map(|i| i.path.as_str()).collect();
    for p in ["attempt.parallelIndex", "attempt.annotations[0].location.line", "attempt.annotations[0].location.column",
              "attempt.steps[0].duration", "attempt.steps[0].steps[0].location.file", "attempt.stdio[0]", "attempt.retry"] {
        assert!(paths.contains(&p), "{p} not in {paths:?}");
    }
    let r = b.build();
    assert!(validate(&r).is_empty(), "{:?}", validate(&r));
    let stored = serde_json::to_value(&r.suites.as_ref().unwrap()[0].tests.as_ref().unwrap()[0].attempts[0]).unwrap();
    assert_eq!(stored, json!({
        "environmentIdx": 0, "status": "failed", "expectedStatus": "passed", "startTimestamp": 5, "duration": 7,
        "annotations": [{"type": "skip"}, {"type": "issue", "description": "x"}],
        "errors": [{"message": "boom", "stack": "at a.spec.ts:3", "location": {"file": "a.spec.ts", "line": 3, "column": 1}}],
        "steps": [{"title": "s", "steps": [{"title": "inner"}]}],
        "stdio": [{"stream": 2, "text": "kept"}],
        "attachments": [{"name": "shot", "contentType": "image/png", "id": "a9993e364706816aba3e25717850c26c9cd0d89d"}],
    }));
    // a valid attempt is stored as it is, with nothing to say
    assert!(b.add_attempt_mended(h, &json!({"status": "passed", "duration": 1}).to_string()).unwrap().is_empty());
}

#[test]
fn an_attempt_that_nothing_can_mend_is_refused_and_nothing_is_added() {
    let mut b = builder();
    let h = b.add_test(test_input(&["t"], "a.spec.ts")).unwrap();
    // no environments: environmentIdx 0 names none
    assert!(b.add_attempt_mended(h, "{\"status\": \"passed\"}").is_err());
    b.add_environment(Environment { name: "e".into(), ..Default::default() }).unwrap();
    for bad in ["[]", "3", "null", "{\"status\": \"exploded\"}", "{\"status\": 1}", "not json"] {
        let e = b.add_attempt_mended(h, bad).unwrap_err();
        assert_eq!(e.code, crate::ErrorCode::InvalidInput, "{bad}");
    }
    assert_eq!(b.build().suites.unwrap()[0].tests.as_ref().unwrap()[0].attempts.len(), 0);
    // an environmentIdx out of range is left out: the attempt is the first environment's
    assert_eq!(b.add_attempt_mended(h, "{\"environmentIdx\": 4}").unwrap()[0].path, "attempt.environmentIdx");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any JSON value put anywhere in an attempt: mended into a valid attempt (or refused, with
    /// nothing added), and the report stays valid.
    #[test]
    fn any_value_anywhere_in_an_attempt_leaves_a_valid_report(
        field in prop::sample::select(vec!["environmentIdx", "status", "expectedStatus", "startTimestamp", "duration",
            "timeout", "parallelIndex", "annotations", "errors", "steps", "stdio", "attachments", "stdout", "other"]),
        inner in prop::sample::select(vec!["", "0", "0.location", "0.location.line", "0.title", "0.text", "0.steps", "0.type", "0.id"]),
        value in prop_oneof![
            Just(json!(null)), Just(json!(-1)), Just(json!(0)), Just(json!(1.5)), Just(json!(1e300)), Just(json!(-1e300)),
            Just(json!(9007199254740993u64)), Just(json!("")), Just(json!("x")), Just(json!(true)), Just(json!([])),
            Just(json!({})), Just(json!([null])), Just(json!({"file": "../x", "line": 0, "column": -1})),
        ],
    ) {
        let mut b = builder();
        b.add_environment(Environment { name: "e".into(), ..Default::default() }).unwrap();
        let h = b.add_test(test_input(&["t"], "a.spec.ts")).unwrap();
        let mut attempt = json!({"status": "failed", "startTimestamp": 1, "duration": 2,
            "annotations": [{"type": "a", "location": {"file": "a.ts", "line": 1, "column": 1}}],
            "errors": [{"message": "m", "location": {"file": "a.ts", "line": 1, "column": 1}}],
            "steps": [{"title": "s", "steps": [{"title": "t"}]}], "stdio": [{"text": "o"}],
            "attachments": [{"name": "n", "contentType": "text/plain", "id": "ab"}]});
        let mut target = &mut attempt[field];
        for step in inner.split('.').filter(|s| !s.is_empty()) {
            target = match step.parse::<usize>() {
                Ok(i) if target.is_array() && target.as_array().unwrap().len() > i => &mut target[i],
                Ok(_) => break,
                Err(_) if target.is_object() => &mut target[step],
                Err(_) => break,
            };
        }
        *target = value;
        let before = b.build().suites.unwrap()[0].tests.as_ref().unwrap()[0].attempts.len();
        let added = b.add_attempt_mended(h, &attempt.to_string()).is_ok();
        let r = b.build();
        prop_assert!(validate(&r).is_empty(), "{:?}", validate(&r));
        let after = r.suites.unwrap()[0].tests.as_ref().unwrap()[0].attempts.len();
        prop_assert_eq!(after, before + added as usize);
        let why = if added { String::new() } else { b.add_attempt_mended(h, &attempt.to_string()).unwrap_err().message };
        prop_assert!(added || field == "status", "refused {}: {}", attempt, why);
    }
}

#[test]
fn a_report_stays_readable_however_deep_its_tests_and_attempts_and_however_long_an_attempt() {
    // 61 nested describes made encodeReport and validateReport refuse the whole report
    let mut b = builder();
    b.add_environment(Environment { name: "e".into(), ..Default::default() }).unwrap();
    let deep: Vec<String> = (0..80).map(|i| format!("d{i}")).chain(["t".to_string()]).collect();
    let h = b.add_test(TestInput { title_path: deep.clone(), file: Some("a.spec.ts".into()), ..Default::default() }).unwrap();
    assert_eq!(b.add_test(TestInput { title_path: deep, file: Some("a.spec.ts".into()), ..Default::default() }).unwrap(), h);
    // the deepest attempt the builder takes, under the deepest test
    let mut steps = json!([{"title": "leaf", "error": {"message": "m", "location": {"file": "a.spec.ts", "line": 1, "column": 1}}}]);
    for i in 0..34 {
        steps = json!([{"title": format!("s{i}"), "steps": steps}]);
    }
    let attempt = json!({"startTimestamp": 1_000, "duration": 9_007_199_254_740_991u64, "steps": steps});
    b.add_attempt_json(h, &attempt.to_string()).unwrap();
    b.add_attempt(h, RunAttempt { start_timestamp: 5_000, duration: Some(9_007_199_254_740_991), ..Default::default() }).unwrap();
    // deeper is refused, with nothing added
    let too_deep = json!({"startTimestamp": 1, "steps": [{"title": "x", "steps": steps}]});
    assert!(b.add_attempt_json(h, &too_deep.to_string()).unwrap_err().message.contains("levels deep"));
    let bytes = b.encode();
    let back = decode_report(&bytes).unwrap();
    assert!(validate(&back).is_empty(), "{:?}", validate(&back));
    assert_eq!(back.duration, crate::limits::MAX_SAFE_INTEGER);
    // 23 suites as given, then the rest joined into the 24th
    let mut suite = &back.suites.as_ref().unwrap()[0];
    let mut titles = Vec::new();
    while let Some(s) = suite.suites.as_ref().and_then(|s| s.first()) {
        titles.push(s.title.clone());
        suite = s;
    }
    assert_eq!(titles.len(), 24);
    assert_eq!(titles[22], "d22");
    assert!(titles[23].starts_with("d23 \u{203a} d24") && titles[23].ends_with("d79"), "{}", titles[23]);
    assert_eq!(suite.tests.as_ref().unwrap()[0].attempts.len(), 2);
    assert_eq!(crate::exchange::encode_upload_body(&crate::exchange::ReportInput::Bytes(bytes)).map(|_| ()), Ok(()));
}

/// Every place in a document, as JSON pointers (the root excluded).
fn pointers(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(o) => {
            for (k, x) in o {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                pointers(x, p, out);
            }
        }
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                pointers(x, p, out);
            }
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    /// The piecewise check of a report's text (what uploadReport and decodeReport use, so a large
    /// report is never one document in memory) finds exactly the problems the whole-document
    /// check finds, on valid reports and on reports with one place broken (any value replaced
    /// by a wrong kind, a key removed), under both rule sets; and text that is not an object is
    /// refused alike.
    #[test]
    fn piecewise_check_finds_what_the_whole_document_check_finds(r in arb_report(), pick in any::<prop::sample::Index>(), kind in 0usize..7) {
        let mut doc: serde_json::Value = serde_json::from_slice(&to_json(&r)).unwrap();
        let mut places = Vec::new();
        pointers(&doc, String::new(), &mut places);
        if !places.is_empty() {
            let at = pick.get(&places).clone();
            let wrong = [json!(null), json!(1.5), json!("x"), json!([]), json!({}), json!(-1)];
            if kind == 6 {
                let (parent, key) = at.rsplit_once('/').unwrap();
                if let Some(o) = doc.pointer_mut(parent).and_then(|p| p.as_object_mut()) {
                    o.remove(&key.replace("~1", "/").replace("~0", "~"));
                }
            } else {
                *doc.pointer_mut(&at).unwrap() = wrong[kind].clone();
            }
        }
        let text = serde_json::to_vec(&doc).unwrap();
        for rules in [Rules::Strict, Rules::Schema] {
            let sorted = |list: Vec<Issue>| {
                let mut s: Vec<String> = list.into_iter().map(|i| format!("{}: {}", i.path, i.message)).collect();
                s.sort();
                s
            };
            prop_assert_eq!(sorted(validate::report_issues_json(&text, rules).unwrap()), sorted(issues(&doc, rules)));
        }
    }
}

/// The split check of a text fed in chunks of `size` bytes.
fn split_in_chunks(text: &[u8], size: usize, rules: Rules) -> Option<Vec<Issue>> {
    validate::report_issues_split(|f| text.chunks(size).all(f), rules)
}

/// What the whole-document check says of `text`: its problems, or `None` when it is not a
/// JSON object.
fn whole_check(text: &[u8], rules: Rules) -> Option<Vec<Issue>> {
    serde_json::from_slice::<serde_json::Value>(text).ok().filter(|d| d.is_object()).map(|d| issues(&d, rules))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// The split that reads a report as it is decoded: any report text, compact or with
    /// whitespace everywhere, fed in chunks of any size (so strings, escapes, keys and elements
    /// straddle them), is split and gets the whole-document check's problems, in order; a text
    /// with one byte added, removed or changed is either not split (the caller then reads it
    /// whole) or, when it is still a JSON object, gets that object's problems.
    #[test]
    fn the_split_check_in_chunks_of_any_size_is_the_whole_document_check(
        r in arb_report(),
        pretty in any::<bool>(),
        size in prop_oneof![1usize..8, 8usize..400],
        edit in 0u8..4,
        at in any::<prop::sample::Index>(),
        byte in prop::sample::select(b"{}[],:\"\\ \n0a".to_vec()),
    ) {
        let mut text = if pretty { serde_json::to_vec_pretty(&r).unwrap() } else { to_json(&r) };
        let i = at.index(text.len());
        match edit {
            1 => text.insert(i, byte),
            2 => { text.remove(i); }
            3 => text[i] = byte,
            _ => {}
        }
        for rules in [Rules::Strict, Rules::Schema] {
            let split = split_in_chunks(&text, size, rules);
            let whole = whole_check(&text, rules);
            if edit == 0 {
                prop_assert!(split.is_some(), "a valid report was not split");
            }
            if let Some(split) = split {
                prop_assert_eq!(Some(split), whole);
            }
        }
    }
}

/// Texts whose strings and keys look like the structure the split follows.
#[test]
fn the_split_check_follows_strings_escapes_and_keys() {
    let head = r#""category":"x","commitId":"0123456789abcdef0123456789abcdef01234567","environments":[{"name":"a"}],"startTimestamp":1,"duration":1"#;
    let texts = [
        // brackets, commas, quotes and backslashes inside titles
        format!(r#"{{{head},"tests":[{{"title":"a [b] {{c}}, \"d\" \\","attempts":[]}},{{"title":"\\\\","attempts":[{{"environmentIdx":3}}]}}]}}"#),
        // a key written with escapes, and a key that only looks like the list's in a string
        format!(r#"{{{head},"sui\u0074es":[{{"type":"file","title":"f","tests":[{{"title":"t","attempts":[{{"environmentIdx":2}}]}}]}}],"title":"\"suites\":[1]"}}"#),
        // the same list twice (the last one is the document's), whitespace everywhere
        format!("{{ {head} ,\n \"tests\" : [ {{\"title\":\"a\",\"attempts\":[]}} , 7 ] ,\r\n\t\"tests\":[ ] }} \n"),
        // lists that are not arrays, and scalar elements
        format!(r#"{{{head},"suites":"no","tests":[1,"x",null,true,[],{{}}]}}"#),
    ];
    for text in &texts {
        for size in [1, 2, 3, 7, 64, text.len()] {
            for rules in [Rules::Strict, Rules::Schema] {
                let whole = whole_check(text.as_bytes(), rules);
                assert!(whole.is_some(), "{text}");
                assert_eq!(split_in_chunks(text.as_bytes(), size, rules), whole, "{text} in chunks of {size}");
            }
        }
    }
    // found problems where they are: environmentIdx 3 of 1 environment, in the second test
    let found = split_in_chunks(texts[0].as_bytes(), 5, Rules::Strict).unwrap();
    assert!(found.iter().any(|i| i.path == "tests[1].attempts[0].environmentIdx"), "{found:?}");
    // not split: not an object, brackets that do not match, cut short, a byte order mark not whole
    for text in ["[1]", "{\"tests\":[}]}", "{\"tests\":[1,", "\u{feff}x{}"] {
        assert_eq!(split_in_chunks(text.as_bytes(), 2, Rules::Strict), None, "{text}");
    }
}

#[test]
fn piecewise_check_of_what_is_not_a_report_object() {
    for (text, why) in [("[1]", "a JSON object"), ("12", "a JSON object"), ("{\"a\":", "not valid JSON"), ("", "not valid JSON")] {
        let e = validate::report_issues_json(text.as_bytes(), Rules::Strict).unwrap_err();
        assert!(e.message.contains(why), "{text}: {}", e.message);
    }
    // suites or tests that are not arrays are problems of the report, as in the whole check
    let text = br#"{"category":"x","commitId":"0123456789abcdef0123456789abcdef01234567","environments":[],"startTimestamp":1,"duration":1,"suites":{},"tests":3}"#;
    let doc: serde_json::Value = serde_json::from_slice(text).unwrap();
    assert_eq!(validate::report_issues_json(text, Rules::Strict).unwrap(), issues(&doc, Rules::Strict));
    assert_eq!(validate::report_issues_json(text, Rules::Strict).unwrap().len(), 2);
}
