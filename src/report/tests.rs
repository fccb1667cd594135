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
    let cases: Vec<(fn(&mut serde_json::Value), &str)> = vec![
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

fn arb_report() -> impl Strategy<Value = Report> {
    let attempt = (0u32..3, 0u64..5000, prop::option::of(prop::sample::select(vec![TestStatus::Passed, TestStatus::Failed, TestStatus::Skipped])))
        .prop_map(|(env, d, status)| RunAttempt { environment_idx: Some(env), duration: Some(d), status, start_timestamp: 5, ..Default::default() });
    let test = (prop::sample::select(vec!["a", "b", "c"]), prop::collection::vec(attempt, 0..3))
        .prop_map(|(t, attempts)| Test { title: t.into(), attempts, ..Default::default() });
    let suite = (prop::sample::select(vec!["f1.js", "f2.js"]), prop::collection::vec(test, 0..5)).prop_map(|(f, tests)| Suite {
        kind: SuiteType::File,
        title: f.into(),
        location: None,
        suites: None,
        tests: Some(tests),
    });
    (prop::collection::vec(suite, 0..4), prop::collection::vec(prop::sample::select(vec!["x", "y"]), 3)).prop_map(|(suites, envs)| Report {
        category: "jest".into(),
        commit_id: SHA.into(),
        environments: envs.into_iter().map(|n| Environment { name: n.into(), ..Default::default() }).collect(),
        suites: Some(suites),
        ..Default::default()
    })
}

fn attempt_count(r: &Report) -> usize {
    r.tests_with_paths().iter().map(|t| t.test.attempts.len()).sum()
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
    let path: Vec<String> = (0..1000).map(|i| format!("level {i}")).collect();
    let h = b.add_test(TestInput { title_path: path.clone(), file: Some("deep.js".into()), line: Some(1), ..Default::default() }).unwrap();
    b.add_attempt(h, attempt(0, 1)).unwrap();
    assert_eq!(b.add_test(TestInput { title_path: path, file: Some("deep.js".into()), line: Some(1), ..Default::default() }).unwrap(), h);
    let r = b.build();
    assert_eq!(b.to_json(), to_json(&r));
    assert_eq!(r.tests_with_paths()[0].suites.len(), 999);

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
