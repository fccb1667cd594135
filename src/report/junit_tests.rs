//! JUnit XML import ([`super::junit`]): each dialect from a file its real tool wrote
//! (tests/fixtures/junit/, see its README for the commands and versions), malformed and
//! truncated XML, random nested suites through a writer and back, and thousands of tests.

use proptest::prelude::*;

use super::junit::*;

fn import(xml: &str) -> JunitImport {
    import_junit(xml.as_bytes(), "junit.xml", &[]).unwrap()
}

fn import_known(xml: &str, known: &[(&str, Option<&str>)]) -> JunitImport {
    let known: Vec<KnownFile> = known.iter().map(|(p, s)| KnownFile { path: p.to_string(), source: s.map(str::to_string) }).collect();
    import_junit(xml.as_bytes(), "junit.xml", &known).unwrap()
}

fn err(xml: &str) -> String {
    let e = import_junit(xml.as_bytes(), "junit.xml", &[]).unwrap_err();
    assert_eq!(e.code, crate::ErrorCode::InvalidInput);
    e.message
}

fn titles(t: &JunitTest) -> Vec<&str> {
    t.title_path.iter().map(String::as_str).collect()
}

fn find<'a>(i: &'a JunitImport, title: &str) -> &'a JunitTest {
    i.tests.iter().find(|t| t.title_path.last().map(String::as_str) == Some(title)).unwrap_or_else(|| panic!("no test {title:?} in {:#?}", i.tests))
}

// ----- the XML reader -----

#[test]
fn entities_character_references_cdata_comments_and_doctype() {
    let xml = "\u{feff}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE testsuites [ <!ENTITY x \"y\"> ]>\n<!-- a comment with <tags> -->\n\
        <testsuites><testsuite name=\"a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;\">\
        <testcase name=\"&#233;t&#xE9; &#x1F600;\" time=\"0.5\"><failure message=\"m\"><![CDATA[x < y & <z>]]> and &lt;w&gt;</failure></testcase>\
        </testsuite></testsuites>";
    let i = import(xml);
    assert_eq!(i.tests.len(), 1);
    let t = &i.tests[0];
    assert_eq!(titles(t), ["a & b <c> \"d\" 'e'", "été 😀"]);
    assert_eq!(t.status, JunitStatus::Failed);
    assert_eq!(t.duration_ms, Some(500));
    assert_eq!(t.errors[0].body.as_deref(), Some("x < y & <z> and <w>"));
}

#[test]
fn a_literal_line_break_in_an_attribute_is_a_space_and_a_reference_stays_one() {
    let i = import("<testsuite name=\"s\"><testcase name=\"a\nb&#10;c\tz\"/></testsuite>");
    assert_eq!(titles(&i.tests[0]), ["s", "a b\nc z"]);
}

#[test]
fn times_in_seconds_with_decimals_and_the_locales_commas() {
    assert_eq!(seconds_to_ms("0.001234"), Some(1));
    assert_eq!(seconds_to_ms("1.5"), Some(1500));
    assert_eq!(seconds_to_ms("12"), Some(12000));
    assert_eq!(seconds_to_ms(" 0.0005 "), Some(1));
    assert_eq!(seconds_to_ms("1,234.5"), Some(1_234_500));
    assert_eq!(seconds_to_ms("1,234,567"), Some(1_234_567_000));
    assert_eq!(seconds_to_ms("0,25"), Some(250));
    assert_eq!(seconds_to_ms("1e-3"), Some(1));
    assert_eq!(seconds_to_ms(""), None);
    assert_eq!(seconds_to_ms("-1"), None);
    assert_eq!(seconds_to_ms("NaN"), None);
    assert_eq!(seconds_to_ms("fast"), None);
}

// ----- malformed and truncated -----

#[test]
fn truncated_files_name_the_line_column_and_the_open_element() {
    let xml = "<?xml version=\"1.0\"?>\n<testsuites>\n  <testsuite name=\"s\">\n    <testcase name=\"t\" time=\"1\">\n      <system-out>hello";
    assert_eq!(
        err(xml),
        "junit.xml line 5, column 24: the file ends inside <system-out> (opened at line 5, column 7): expected </system-out>"
    );
    let cut = "<testsuites>\n<testsuite name=\"s\">\n<testcase name=\"t\"/>\n";
    assert_eq!(err(cut), "junit.xml line 4, column 1: the file ends inside <testsuite> (opened at line 2, column 1): expected </testsuite>");
    assert!(err("<testsuites><testsuite name=\"s").contains("the file ends inside the value of the attribute name of <testsuite>"));
    assert!(err("<testsuites><testsuite name=\"s\"").contains("the file ends inside the start tag <testsuite: expected > or />"));
    assert!(err("<testsuites><testsuite><![CDATA[abc").contains("the file ends inside a CDATA section"));
    assert!(err("<testsuites><!-- abc").contains("the file ends inside a comment"));
    assert!(err("<testsuites></testsuites").contains("the file ends inside the end tag </testsuites: expected >"));
    assert!(err("<testsuites><").contains("the file ends after <"));
}

#[test]
fn malformed_files_say_what_was_expected() {
    assert_eq!(err(""), "junit.xml line 1, column 1: the file is empty: expected JUnit XML (<testsuites> or <testsuite>)");
    assert_eq!(err("<testsuites>\n  <testsuite>\n  </testcase>\n</testsuites>"),
        "junit.xml line 3, column 3: expected </testsuite> to close <testsuite> (opened at line 2, column 3), found </testcase>");
    assert!(err("<html><body/></html>").contains("the root element is <html>, expected <testsuites> or <testsuite>: not a JUnit XML report"));
    assert!(err("{\"tests\": []}").contains("line 1, column 1: text before the root element: not XML"));
    assert!(err("<testsuites/>\n<testsuites/>").contains("line 2, column 1: a second root element <testsuites>"));
    assert!(err("<testsuites/> trailing").contains("line 1, column 15: text after the end of the root element"));
    assert!(err("<testsuites><testsuite name=\"a & b\"/></testsuites>").contains("line 1, column 32: a & that begins no entity"));
    assert!(err("<testsuites><testsuite name=\"&nbsp;\"/></testsuites>").contains("unknown entity &nbsp;"));
    assert!(err("<testsuites><testsuite name=\"&#0;\"/></testsuites>").contains("&#0; is not a character"));
    assert!(err("<testsuites><testsuite name=\"a<b\"/></testsuites>").contains("a < in the value of the attribute name"));
    assert!(err("<testsuites><testsuite name=s/></testsuites>").contains("expected a quoted value for the attribute name of <testsuite>"));
    assert!(err("<testsuites><testsuite name=\"a\" name=\"b\"/></testsuites>").contains("the attribute name appears twice"));
    assert!(err("<testsuites><testsuite name=\"a\"time=\"1\"/></testsuites>").contains("expected a space, > or />"));
    assert!(err("<testsuites>a < b</testsuites>").contains("expected an element name after <"));
    assert!(err("</testsuites>").contains("</testsuites> closes no open element"));
    let deep = format!("<testsuites>{}", "<testsuite>".repeat(crate::limits::JUNIT_MAX_DEPTH + 1));
    assert!(err(&deep).contains("nested deeper than 1000"));
    let e = import_junit(b"<testsuites>\n<testsuite name=\"\xff\"/></testsuites>", "r.xml", &[]).unwrap_err();
    assert_eq!(e.message, "r.xml line 2, column 18: a byte that is not UTF-8 (JUnit XML is read as UTF-8)");
}

// ----- the dialects -----

/// node:test's `--test-reporter=junit` (Node 20.20.2), tests/fixtures/junit/node-test.xml.
#[test]
fn node_test_dialect() {
    let xml = include_str!("../../tests/fixtures/junit/node-test.xml");
    let a = "import { describe, it, test } from 'node:test';\ndescribe('math', () => { describe('nested', () => { it('adds', () => {}); }); it('fails with a diff', () => {}); });\ntest('top level', async (t) => { await t.test('subtest one'); });\n";
    let b = "import { test } from 'node:test';\ntest('skipped test', { skip: 'not today' }, () => {});\ntest('todo test', { todo: true }, () => {});\ntest('errors', () => {});\n";
    let i = import_known(xml, &[("test/a.test.mjs", Some(a)), ("test/b.test.mjs", Some(b))]);
    let adds = find(&i, "adds");
    assert_eq!(titles(adds), ["math", "nested", "adds"]);
    assert_eq!(adds.status, JunitStatus::Passed);
    assert_eq!(adds.file.as_deref(), Some("test/a.test.mjs"), "node:test writes no file: the source that declares it");
    assert!(adds.duration_ms.is_some());
    let diff = find(&i, "fails with a diff");
    assert_eq!(diff.status, JunitStatus::Failed);
    assert_eq!(diff.errors[0].kind, "failure");
    assert_eq!(diff.errors[0].kind_type.as_deref(), Some("testCodeFailure"));
    assert!(diff.errors[0].body.as_deref().unwrap().contains("+ actual - expected"), "{:?}", diff.errors[0].body);
    let sub = find(&i, "subtest one");
    assert_eq!(titles(sub), ["top level", "subtest one"]);
    assert_eq!(sub.file.as_deref(), Some("test/a.test.mjs"), "a subtest: the file that declares its parent");
    let skipped = find(&i, "skipped test");
    assert_eq!((skipped.status, skipped.skip_type.as_deref(), skipped.skip_message.as_deref()), (JunitStatus::Skipped, Some("skipped"), Some("not today")));
    assert_eq!(skipped.file.as_deref(), Some("test/b.test.mjs"));
    let todo = find(&i, "todo test");
    assert_eq!((todo.status, todo.skip_type.as_deref()), (JunitStatus::Skipped, Some("todo")));
    assert_eq!(find(&i, "errors").status, JunitStatus::Failed);
    assert_eq!(i.tests.len(), 7);
    // without the sources, no file
    assert!(import(xml).tests.iter().all(|t| t.file.is_none()));
}

/// Mocha 11 with mocha-junit-reporter 2, tests/fixtures/junit/mocha.xml.
#[test]
fn mocha_dialect() {
    let i = import(include_str!("../../tests/fixtures/junit/mocha.xml"));
    let nested = find(&i, "adds in a nested suite");
    assert_eq!(titles(nested), ["math nested", "adds in a nested suite"]);
    assert!(nested.file.as_deref().unwrap().ends_with("test/a.spec.js"), "{:?}", nested.file);
    let fails = find(&i, "fails with a diff");
    assert_eq!(titles(fails), ["math", "fails with a diff"]);
    assert_eq!(fails.status, JunitStatus::Failed);
    assert_eq!(fails.errors[0].kind_type.as_deref(), Some("AssertionError"));
    assert!(fails.errors[0].message.as_deref().unwrap().contains("Expected values to be strictly equal"));
    assert!(fails.errors[0].body.as_deref().unwrap().contains("at Context"), "{:?}", fails.errors[0].body);
    let pending = find(&i, "is pending");
    assert_eq!(pending.status, JunitStatus::Skipped);
    let root = find(&i, "a root test");
    assert_eq!(titles(root), ["a root test"]);
    assert_eq!(root.file, None, "Mocha's Root Suite has no file");
    let known = import_known(include_str!("../../tests/fixtures/junit/mocha.xml"), &[("test/a.spec.js", None), ("test/b.spec.js", Some("it('a root test', function () {});"))]);
    assert_eq!(find(&known, "a root test").file.as_deref(), Some("test/b.spec.js"), "the file that declares it");
    assert_eq!(find(&i, "takes a while").duration_ms.map(|ms| ms >= 20), Some(true));
    assert_eq!(find(&i, "is pending").skip_message, None);
}

/// WebdriverIO's @wdio/junit-reporter in its documented shape, tests/fixtures/junit/wdio.xml.
#[test]
fn webdriverio_dialect() {
    let i = import(include_str!("../../tests/fixtures/junit/wdio.xml"));
    let t = find(&i, "should have the right title");
    assert_eq!(titles(t), ["the home page", "should have the right title"]);
    assert_eq!(t.file.as_deref(), Some("test/specs/home.e2e.js"), "the suite's <property name=\"file\">");
    assert_eq!(t.duration_ms, Some(1234));
    assert_eq!(t.stdout.len(), 1);
    let f = find(&i, "should log in");
    assert_eq!(f.status, JunitStatus::Failed);
    assert_eq!(f.errors[0].kind, "error");
    assert_eq!(f.errors[0].kind_type.as_deref(), Some("Error"));
    assert_eq!(find(&i, "is skipped").status, JunitStatus::Skipped);
    assert_eq!(find(&i, "is skipped").file.as_deref(), Some("test/specs/login.e2e.js"));
}

/// Jest 30 with jest-junit 16 (defaults, and with addFileAttribute), tests/fixtures/junit/jest-junit*.xml.
#[test]
fn jest_junit_dialect() {
    let i = import(include_str!("../../tests/fixtures/junit/jest-junit.xml"));
    let t = find(&i, "nested adds");
    assert_eq!(titles(t), ["math", "nested adds"]);
    assert_eq!(t.file, None, "jest-junit writes no file by default");
    let fails = find(&i, "fails with a diff");
    assert_eq!(fails.status, JunitStatus::Failed);
    assert!(fails.errors[0].body.as_deref().unwrap().contains("Expected: 2"));
    assert_eq!(find(&i, "is skipped").status, JunitStatus::Skipped);
    assert_eq!(find(&i, "is a todo").status, JunitStatus::Passed, "jest-junit writes a todo as a test that passed");
    let top = find(&i, "top level works");
    assert_eq!(titles(top), ["top level works"], "no suite \"undefined\", no leading space");
    let with_file = import(include_str!("../../tests/fixtures/junit/jest-junit-file.xml"));
    assert!(with_file.tests.iter().all(|t| t.file.as_deref().is_some_and(|f| f.ends_with(".test.js"))), "{:#?}", with_file.tests);
    // by the known files' sources when the file is not written
    let src = "describe('math', () => { describe('nested', () => { test('adds', () => {}); }); });";
    let known = import_known(include_str!("../../tests/fixtures/junit/jest-junit.xml"), &[("test/math.test.js", Some(src)), ("test/other.test.js", Some("test('x', () => {})"))]);
    assert_eq!(find(&known, "nested adds").file.as_deref(), Some("test/math.test.js"));
}

/// pytest 9 `--junitxml` (xunit2, the default), tests/fixtures/junit/pytest.xml.
#[test]
fn pytest_dialect() {
    let xml = include_str!("../../tests/fixtures/junit/pytest.xml");
    let i = import_known(xml, &[("tests/test_math.py", None), ("tests/test_io.py", None)]);
    let t = find(&i, "test_adds");
    assert_eq!(titles(t), ["test_adds"]);
    assert_eq!(t.file.as_deref(), Some("tests/test_math.py"), "from the classname tests.test_math");
    let m = find(&i, "test_method");
    assert_eq!(titles(m), ["TestGroup", "test_method"]);
    assert_eq!(m.file.as_deref(), Some("tests/test_math.py"));
    let fails = find(&i, "test_fails");
    assert_eq!(fails.status, JunitStatus::Failed);
    assert!(fails.errors[0].body.as_deref().unwrap().contains("assert 1 == 2"));
    assert_eq!(find(&i, "test_skipped").status, JunitStatus::Skipped);
    assert_eq!(find(&i, "test_skipped").skip_message.as_deref(), Some("not today"));
    let errored = find(&i, "test_errors_in_fixture");
    assert_eq!((errored.status, errored.errors[0].kind.as_str()), (JunitStatus::Failed, "error"));
    let out = find(&i, "test_prints");
    assert!(out.stdout[0].contains("hello from pytest"), "{:?}", out.stdout);
    let props = find(&i, "test_with_property");
    assert_eq!(props.properties, [("ticket".to_string(), "JIRA-1".to_string())]);
    assert_eq!(find(&i, "test_io_reads").file.as_deref(), Some("tests/test_io.py"));
    // without known files: no file, the classname is not a title
    assert!(import(xml).tests.iter().all(|t| t.file.is_none()));
}

#[test]
fn surefire_style_suites_and_suite_output_go_to_the_first_test() {
    let xml = r#"<testsuite name="com.acme.FooTest" time="1,234.5" tests="2">
      <properties><property name="java.version" value="21"/></properties>
      <testcase name="testA" classname="com.acme.FooTest" time="1,200.25"/>
      <testcase name="testB" classname="com.acme.FooTest" time="34.25" line="12"><error type="java.lang.NullPointerException">at Foo.java:12</error></testcase>
      <system-out>suite output</system-out>
    </testsuite>"#;
    let i = import(xml);
    assert_eq!(titles(&i.tests[0]), ["com.acme.FooTest", "testA"]);
    assert_eq!(i.tests[0].duration_ms, Some(1_200_250));
    assert_eq!(i.tests[0].stdout, ["suite output"]);
    assert_eq!(i.tests[1].line, Some(12));
    assert_eq!(i.tests[1].errors[0].kind_type.as_deref(), Some("java.lang.NullPointerException"));
    assert_eq!(i.suites, 1);
}

#[test]
fn a_suite_named_by_a_known_file_gives_the_file_and_no_title() {
    let xml = r#"<testsuites><testsuite name="test/a.test.js"><testcase name="works" classname="works"/></testsuite></testsuites>"#;
    let i = import_known(xml, &[("test/a.test.js", None)]);
    assert_eq!(titles(&i.tests[0]), ["works"]);
    assert_eq!(i.tests[0].file.as_deref(), Some("test/a.test.js"));
}

#[test]
fn titles_two_files_declare_give_no_file() {
    let xml = r#"<testsuites><testcase name="same"/></testsuites>"#;
    let src = "test('same', () => {})";
    let i = import_known(xml, &[("a.test.js", Some(src)), ("b.test.js", Some(src))]);
    assert_eq!(i.tests[0].file, None);
}

// ----- random suites, written and read back -----

#[derive(Debug, Clone)]
struct GenTest {
    name: String,
    ms: u32,
    outcome: u8,
    message: String,
}

#[derive(Debug, Clone)]
struct GenSuite {
    name: String,
    tests: Vec<GenTest>,
    suites: Vec<GenSuite>,
}

fn esc(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '&' => "&amp;".into(),
            '<' => "&lt;".into(),
            '>' => "&gt;".into(),
            '"' => "&quot;".into(),
            '\'' => "&apos;".into(),
            '\t' | '\n' | '\r' => format!("&#{};", c as u32),
            c => c.to_string(),
        })
        .collect()
}

fn write_suite(s: &GenSuite, file: Option<&str>, out: &mut String) {
    out.push_str(&format!("<testsuite name=\"{}\"{}>\n", esc(&s.name), file.map(|f| format!(" file=\"{}\"", esc(f))).unwrap_or_default()));
    for t in &s.tests {
        out.push_str(&format!("  <testcase name=\"{}\" classname=\"x.y\" time=\"{}.{:03}\"", esc(&t.name), t.ms / 1000, t.ms % 1000));
        match t.outcome {
            0 => out.push_str("/>\n"),
            1 => out.push_str(&format!("><failure message=\"{}\" type=\"E\"><![CDATA[at {}]]></failure></testcase>\n", esc(&t.message), t.message.replace("]]>", "]]]]><![CDATA[>"))),
            2 => out.push_str(&format!("><error message=\"{}\">at {}</error><system-out>{}</system-out></testcase>\n", esc(&t.message), esc(&t.message), esc(&t.message))),
            _ => out.push_str(&format!("><skipped message=\"{}\"/><!-- skipped --></testcase>\n", esc(&t.message))),
        }
    }
    for c in &s.suites {
        write_suite(c, None, out);
    }
    out.push_str("</testsuite>\n");
}

fn expected(s: &GenSuite, file: &str, path: &mut Vec<String>, out: &mut Vec<(String, Vec<String>, JunitStatus, u64, Option<String>)>) {
    path.push(s.name.clone());
    for t in &s.tests {
        let mut tp = path.clone();
        tp.push(t.name.clone());
        let status = match t.outcome {
            0 => JunitStatus::Passed,
            1 | 2 => JunitStatus::Failed,
            _ => JunitStatus::Skipped,
        };
        out.push((file.to_string(), tp, status, t.ms as u64, (t.outcome != 0).then(|| t.message.clone())));
    }
    for c in &s.suites {
        expected(c, file, path, out);
    }
    path.pop();
}

fn name() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 <>&\"'\t\né中😀]{1,10}".prop_filter("a title", |s| !s.contains('.') && !["Root Suite", "pytest", "Mocha Tests"].contains(&s.as_str()))
}

fn gen_test() -> impl Strategy<Value = GenTest> {
    (name(), 0u32..10_000_000, 0u8..4, "[a-z <>&\\]\"]{1,20}").prop_map(|(name, ms, outcome, message)| GenTest { name, ms, outcome, message: format!("m {message}") })
}

fn gen_suite() -> impl Strategy<Value = GenSuite> {
    let leaf = (name(), prop::collection::vec(gen_test(), 0..6)).prop_map(|(name, tests)| GenSuite { name, tests, suites: vec![] });
    leaf.prop_recursive(3, 40, 4, |inner| {
        (name(), prop::collection::vec(gen_test(), 0..6), prop::collection::vec(inner, 0..4)).prop_map(|(name, tests, suites)| GenSuite { name, tests, suites })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_nested_suites_read_back_as_written(suites in prop::collection::vec(gen_suite(), 0..5)) {
        let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"all\">\n");
        let mut want = Vec::new();
        for (i, s) in suites.iter().enumerate() {
            let file = format!("test/f{i} & <x>.js");
            write_suite(s, Some(&file), &mut xml);
            expected(s, &file, &mut Vec::new(), &mut want);
        }
        xml.push_str("</testsuites>\n");
        let got = import(&xml);
        prop_assert_eq!(got.tests.len(), want.len());
        for (t, (file, tp, status, ms, message)) in got.tests.iter().zip(&want) {
            prop_assert_eq!(t.file.as_deref(), Some(file.as_str()));
            prop_assert_eq!(&t.title_path, tp);
            prop_assert_eq!(t.status, *status);
            prop_assert_eq!(t.duration_ms, Some(*ms));
            match status {
                JunitStatus::Skipped => prop_assert_eq!(&t.skip_message, message),
                JunitStatus::Failed => {
                    prop_assert_eq!(&t.errors[0].message, message);
                    prop_assert_eq!(t.errors[0].body.clone(), message.as_ref().map(|m| format!("at {m}")));
                }
                JunitStatus::Passed => prop_assert!(t.errors.is_empty()),
            }
        }
        // every cut of the text is an error naming a place in it, never a panic
        for cut in [xml.len() / 3, xml.len() / 2, xml.len() - 20] {
            let mut at = cut.min(xml.len());
            while !xml.is_char_boundary(at) { at -= 1; }
            let e = import_junit(xml[..at].as_bytes(), "junit.xml", &[]).unwrap_err();
            prop_assert!(e.message.starts_with("junit.xml line "), "{}", e.message);
        }
    }
}

#[test]
fn thousands_of_tests_in_megabytes() {
    let mut xml = String::from("<?xml version=\"1.0\"?>\n<testsuites>\n");
    for f in 0..200 {
        xml.push_str(&format!("<testsuite name=\"suite {f}\" file=\"test/f{f}.test.js\" timestamp=\"2026-01-01T00:00:00\">\n"));
        for t in 0..50 {
            xml.push_str(&format!("<testcase name=\"suite {f} test {t}\" classname=\"test {t}\" time=\"{}.{:03}\">", t, f));
            if t % 10 == 3 {
                xml.push_str(&format!("<failure message=\"boom {t}\" type=\"AssertionError\"><![CDATA[{}]]></failure>", "    at stack frame (file.js:1:1)\n".repeat(80)));
            }
            xml.push_str("</testcase>\n");
        }
        xml.push_str("</testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    assert!(xml.len() > 3_000_000, "{}", xml.len());
    let i = import(&xml);
    assert_eq!(i.tests.len(), 10_000);
    assert_eq!(i.suites, 200);
    assert_eq!(i.tests.iter().filter(|t| t.status == JunitStatus::Failed).count(), 1000);
    let last = i.tests.last().unwrap();
    assert_eq!(titles(last), ["suite 199", "test 49"]);
    assert_eq!(last.file.as_deref(), Some("test/f199.test.js"));
    assert_eq!(last.duration_ms, Some(49_199));
    // cut in its last line: the error names that line
    let cut = &xml[..xml.len() - 30];
    let e = import_junit(cut.as_bytes(), "big.xml", &[]).unwrap_err();
    assert!(e.message.starts_with(&format!("big.xml line {}, ", cut.lines().count())), "{}", e.message);
}

#[test]
fn thousands_of_tests_without_a_file_found_in_hundreds_of_sources() {
    // node:test's JUnit XML names no file: each test's is the one source that declares it
    let (files, per) = (500, 20);
    let mut xml = String::from("<testsuites>\n");
    let mut known = Vec::new();
    for f in 0..files {
        let mut src = format!("import {{ describe, it }} from 'node:test';\ndescribe('area {f}', () => {{\n");
        xml.push_str(&format!("<testsuite name=\"area {f}\">\n"));
        for t in 0..per {
            src.push_str(&format!("  it('does thing {t}', () => {{}});\n"));
            xml.push_str(&format!("<testcase name=\"does thing {t}\" time=\"0.001\" classname=\"test\"/>\n"));
        }
        src.push_str("});\n");
        xml.push_str("</testsuite>\n");
        known.push(KnownFile { path: format!("test/area-{f}.test.mjs"), source: Some(src) });
    }
    xml.push_str("</testsuites>\n");
    let i = import_junit(xml.as_bytes(), "junit.xml", &known).unwrap();
    assert_eq!(i.tests.len(), files * per);
    for (n, t) in i.tests.iter().enumerate() {
        assert_eq!(t.file.as_deref(), Some(format!("test/area-{}.test.mjs", n / per).as_str()));
    }
}
