//! JUnit XML import: the tests a runner's JUnit XML report holds, read by a small XML reader of
//! its own (elements, attributes, text, CDATA, the five entities and numeric character
//! references, comments, `<?xml ?>` and other processing instructions, a DOCTYPE skipped), for
//! `shardwise run` (any runner by file). Pure: no IO; the binding is `__importJunit`.
//!
//! The dialects read (fixtures made by the real tools in tests/fixtures/junit/):
//! - node:test's `--test-reporter=junit`: nested `<testsuite>` per `describe` or test with
//!   subtests, `<testcase classname="test">`, `<skipped type="skipped|todo">`, no file (Node 20);
//! - Mocha's `mocha-junit-reporter`: flat `<testsuite>`s, one per `describe`, with `file` and
//!   `timestamp`, `<testcase name="<full title>" classname="<own title>">`;
//! - WebdriverIO's `@wdio/junit-reporter`: the spec file as `<property name="file">` of its suite;
//! - Jest's `jest-junit`: `<testcase name="<describes> <title>" classname="<same>">`, the file as
//!   `file` with `addFileAttribute`, or as the suite name with `suiteNameTemplate: "{filepath}"`;
//! - pytest's `--junitxml`: `<testsuite name="pytest">`, `classname="tests.test_mod.TestClass"`,
//!   no file (xunit2, the default) or `file` (xunit1).
//!
//! A test's **file** is, first found: its `file` attribute; the nearest enclosing suite's `file`
//! attribute or `<property name="file">`; the known file (the command's files) its `classname`
//! names as a dotted path (`tests.test_mod.TestClass` -> `tests/test_mod.py`; what follows the
//! file are titles); the nearest enclosing suite whose name is a known file's path; the one known
//! file whose source declares the test's titles (its longest leading part, at least its first
//! title: [`crate::discover`]); else none. Files are returned as written (`\` as `/`, without
//! a leading `./`): the caller resolves them against its working directory.
//!
//! A test's **title path** is the names of its enclosing suites that are titles (not the root,
//! not one named by a file or `Root Suite`/`pytest`), then its name; with two dialect rules:
//! a full title (Mocha: the name is the suite titles, a space and the `classname`, in a suite with
//! a `timestamp`) becomes `[the suite titles, classname]`, and a name that repeats the suite's
//! name (jest-junit: `name == classname`, beginning with the suite's name and a space) is not
//! repeated: `[suite, rest of name]`. Times are seconds with decimals (`1.5`, also `1,234.5` and
//! `0,5` as some locales write them), returned as whole milliseconds.

use serde::Serialize;

use crate::error::{Error, Result};
use crate::limits::{JUNIT_MAX_DEPTH, MAX_SAFE_INTEGER};

/// What a test's result was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum JunitStatus {
    Passed,
    Failed,
    Skipped,
}

/// A `<failure>` or `<error>` of a test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JunitError {
    /// `failure` or `error` (an error is a failure too: the status is `failed`).
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none", rename = "type")]
    pub kind_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The element's text: the stack, as the runner wrote it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

/// One test of the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JunitTest {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub title_path: Vec<String>,
    pub status: JunitStatus,
    /// `time` in whole milliseconds; none without a readable `time`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<JunitError>,
    /// The `<skipped>`'s `type` (node:test: `skipped` or `todo`) and message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_message: Option<String>,
    /// Its `<system-out>`, then (for the first test of a suite) the suite's own.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stdout: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stderr: Vec<String>,
    /// Its `<properties>`, `[name, value]` in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub properties: Vec<(String, String)>,
}

/// A file the caller knows (the command's test files): its path as the caller names it, and its
/// source when the caller read it (for the last file rule).
#[derive(Debug, Clone, Default)]
pub struct KnownFile {
    pub path: String,
    pub source: Option<String>,
}

/// The import of one JUnit XML file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JunitImport {
    pub tests: Vec<JunitTest>,
    /// How many `<testsuite>` elements it held.
    pub suites: usize,
    /// Output of suites with no test in them (no test to record it with).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_output: Vec<String>,
}

/// Reads JUnit XML `text` (`name`: the file, as messages name it) with `known` files for the file
/// rule (see the module's doc). Malformed or truncated XML, or XML that is not a JUnit report, is
/// an `INVALID_INPUT` error naming the line and column and what was expected.
pub fn import_junit(bytes: &[u8], name: &str, known: &[KnownFile]) -> Result<JunitImport> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let ok = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
            return Err(at(name, ok, ok.len(), "a byte that is not UTF-8 (JUnit XML is read as UTF-8)"));
        }
    };
    let mut b = Builder::new(known);
    let mut r = Reader { text, pos: 0, name };
    r.read(&mut b)?;
    Ok(b.finish())
}

/// The error at byte `pos` of `text`.
fn at(name: &str, text: &str, pos: usize, what: &str) -> Error {
    let (line, col) = line_col(text, pos);
    Error::invalid_input(format!("{name} line {line}, column {col}: {what}"))
}

/// 1-based line and column (in characters) of byte `pos`.
fn line_col(text: &str, pos: usize) -> (usize, usize) {
    let pos = pos.min(text.len());
    let before = &text.as_bytes()[..pos];
    let line = 1 + before.iter().filter(|&&c| c == b'\n').count();
    let start = before.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
    (line, text[start..pos].chars().count() + 1)
}

// ----- the XML reader -----

struct Reader<'a> {
    text: &'a str,
    pos: usize,
    name: &'a str,
}

/// An open element: its name and where its start tag began.
struct Open {
    name: String,
    at: usize,
}

impl<'a> Reader<'a> {
    fn err(&self, pos: usize, what: impl AsRef<str>) -> Error {
        at(self.name, self.text, pos, what.as_ref())
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn opened(&self, o: &Open) -> String {
        let (l, c) = line_col(self.text, o.at);
        format!("<{}> (opened at line {l}, column {c})", o.name)
    }

    fn read(&mut self, b: &mut Builder<'_>) -> Result<()> {
        let mut open: Vec<Open> = Vec::new();
        let mut root_done = false;
        loop {
            let Some(lt) = self.rest().find('<') else {
                let tail = self.rest();
                if let Some(o) = open.last() {
                    self.text_of(tail, self.pos, b, &open)?;
                    return Err(self.err(self.text.len(), format!("the file ends inside {}: expected </{}>", self.opened(o), o.name)));
                }
                if let Some(i) = tail.find(|c: char| !c.is_whitespace()) {
                    return Err(self.err(self.pos + i, if root_done { "text after the end of the root element" } else { "text before the root element: not XML" }));
                }
                if !root_done {
                    return Err(self.err(self.text.len(), if self.text.trim().is_empty() { "the file is empty: expected JUnit XML (<testsuites> or <testsuite>)" } else { "the file ends before its root element: expected <testsuites> or <testsuite>" }));
                }
                return Ok(());
            };
            let start = self.pos + lt;
            if lt > 0 {
                let chunk = &self.rest()[..lt];
                if open.is_empty() {
                    if let Some(i) = chunk.find(|c: char| !c.is_whitespace()) {
                        return Err(self.err(self.pos + i, if root_done { "text after the end of the root element" } else { "text before the root element: not XML" }));
                    }
                } else {
                    self.text_of(chunk, self.pos, b, &open)?;
                }
            }
            self.pos = start;
            let rest = self.rest();
            if rest.starts_with("<?") {
                self.skip_past(start, "?>", "a processing instruction (<?...?>)", &open)?;
            } else if rest.starts_with("<!--") {
                self.skip_past(start, "-->", "a comment (<!--...-->)", &open)?;
            } else if rest.starts_with("<![CDATA[") {
                if open.is_empty() {
                    return Err(self.err(start, "CDATA outside any element"));
                }
                let body = start + "<![CDATA[".len();
                match self.text[body..].find("]]>") {
                    Some(end) => {
                        b.text(&self.text[body..body + end]);
                        self.pos = body + end + 3;
                    }
                    None => return Err(self.ends_inside(start, "a CDATA section (<![CDATA[...]]>)", &open)),
                }
            } else if rest.starts_with("<!DOCTYPE") || rest.starts_with("<!doctype") {
                self.skip_doctype(start, &open)?;
            } else if rest.starts_with("</") {
                let name_at = start + 2;
                let name = self.name_at(name_at);
                if name.is_empty() {
                    return Err(self.err(name_at, "expected an element name after </"));
                }
                let mut p = name_at + name.len();
                p += ws_len(&self.text[p..]);
                if p >= self.text.len() {
                    return Err(self.err(self.text.len(), format!("the file ends inside the end tag </{name}: expected >")));
                }
                if !self.text[p..].starts_with('>') {
                    return Err(self.err(p, format!("expected > to close </{name}")));
                }
                match open.pop() {
                    None => return Err(self.err(start, format!("</{name}> closes no open element"))),
                    Some(o) if o.name != name => {
                        return Err(self.err(start, format!("expected </{}> to close {}, found </{name}>", o.name, self.opened(&o))))
                    }
                    Some(_) => {}
                }
                b.end(name);
                self.pos = p + 1;
                if open.is_empty() {
                    root_done = true;
                }
            } else if rest.starts_with("<!") {
                return Err(self.err(start, "expected a comment, CDATA or DOCTYPE after <!"));
            } else {
                let name_at = start + 1;
                let name = self.name_at(name_at).to_string();
                if name.is_empty() {
                    return Err(self.err(name_at, if name_at >= self.text.len() { "the file ends after <: expected an element name".to_string() } else { "expected an element name after < (a bare < in text is written &lt;)".to_string() }));
                }
                if root_done {
                    return Err(self.err(start, format!("a second root element <{name}> after the first one ended")));
                }
                let (attrs, empty) = self.attributes(name_at + name.len(), &name)?;
                if open.is_empty() && name != "testsuites" && name != "testsuite" {
                    return Err(self.err(start, format!("the root element is <{name}>, expected <testsuites> or <testsuite>: not a JUnit XML report")));
                }
                if open.len() >= JUNIT_MAX_DEPTH {
                    return Err(self.err(start, format!("elements nested deeper than {JUNIT_MAX_DEPTH} levels")));
                }
                b.start(&name, attrs);
                if empty {
                    b.end(&name);
                    if open.is_empty() {
                        root_done = true;
                    }
                } else {
                    open.push(Open { name, at: start });
                }
            }
        }
    }

    fn ends_inside(&self, start: usize, what: &str, open: &[Open]) -> Error {
        let (l, c) = line_col(self.text, start);
        let inside = open.last().map(|o| format!(" in {}", self.opened(o))).unwrap_or_default();
        self.err(self.text.len(), format!("the file ends inside {what} begun at line {l}, column {c}{inside}"))
    }

    fn skip_past(&mut self, start: usize, end: &str, what: &str, open: &[Open]) -> Result<()> {
        match self.text[start..].find(end) {
            Some(i) => {
                self.pos = start + i + end.len();
                Ok(())
            }
            None => Err(self.ends_inside(start, what, open)),
        }
    }

    /// `<!DOCTYPE ...>`, with an internal subset in brackets: skipped.
    fn skip_doctype(&mut self, start: usize, open: &[Open]) -> Result<()> {
        let mut depth = 0usize;
        let mut quote: Option<char> = None;
        for (i, c) in self.text[start + 2..].char_indices() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '[') => depth += 1,
                (None, ']') => depth = depth.saturating_sub(1),
                (None, '>') if depth == 0 => {
                    self.pos = start + 2 + i + 1;
                    return Ok(());
                }
                _ => {}
            }
        }
        Err(self.ends_inside(start, "a DOCTYPE", open))
    }

    fn name_at(&self, pos: usize) -> &'a str {
        let s = &self.text[pos.min(self.text.len())..];
        let end = s
            .find(|c: char| c.is_whitespace() || matches!(c, '/' | '>' | '<' | '=' | '"' | '\'' | '&'))
            .unwrap_or(s.len());
        &s[..end]
    }

    /// The attributes of a start tag from `p` (after its name) to its `>` or `/>`.
    fn attributes(&mut self, mut p: usize, tag: &str) -> Result<(Vec<(String, String)>, bool)> {
        let mut attrs: Vec<(String, String)> = Vec::new();
        let ends = |r: &Self| r.err(r.text.len(), format!("the file ends inside the start tag <{tag}: expected > or />"));
        loop {
            let ws = ws_len(&self.text[p..]);
            p += ws;
            let rest = &self.text[p..];
            if rest.is_empty() {
                return Err(ends(self));
            }
            if rest.starts_with("/>") {
                self.pos = p + 2;
                return Ok((attrs, true));
            }
            if rest.starts_with('>') {
                self.pos = p + 1;
                return Ok((attrs, false));
            }
            if ws == 0 && !attrs.is_empty() {
                return Err(self.err(p, format!("expected a space, > or /> in the start tag <{tag}")));
            }
            let key = self.name_at(p);
            if key.is_empty() {
                return Err(self.err(p, format!("expected an attribute name, > or /> in the start tag <{tag}")));
            }
            p += key.len();
            p += ws_len(&self.text[p..]);
            if p >= self.text.len() {
                return Err(ends(self));
            }
            if !self.text[p..].starts_with('=') {
                return Err(self.err(p, format!("expected = after the attribute {key} of <{tag}>")));
            }
            p += 1;
            p += ws_len(&self.text[p..]);
            let Some(q) = self.text[p..].chars().next() else { return Err(ends(self)) };
            if q != '"' && q != '\'' {
                return Err(self.err(p, format!("expected a quoted value for the attribute {key} of <{tag}>")));
            }
            let body = p + 1;
            let Some(len) = self.text[body..].find(q) else {
                return Err(self.err(self.text.len(), format!("the file ends inside the value of the attribute {key} of <{tag}>: expected its closing {q}")));
            };
            let raw = &self.text[body..body + len];
            if let Some(i) = raw.find('<') {
                return Err(self.err(body + i, format!("a < in the value of the attribute {key} of <{tag}> (written &lt; in XML)")));
            }
            let mut value = self.unescape(raw, body)?;
            // attribute-value normalization: a literal tab or line break is a space
            if raw.contains(&['\n', '\r', '\t'][..]) {
                value = normalize_literal_ws(raw, &value);
            }
            if attrs.iter().any(|(k, _)| k == key) {
                return Err(self.err(p, format!("the attribute {key} appears twice in <{tag}>")));
            }
            attrs.push((key.to_string(), value));
            p = body + len + 1;
        }
    }

    fn text_of(&self, chunk: &str, at: usize, b: &mut Builder<'_>, _open: &[Open]) -> Result<()> {
        if b.wants_text() {
            let t = self.unescape(chunk, at)?;
            b.text(&t);
        } else if chunk.contains('&') {
            self.unescape(chunk, at)?; // still checked
        }
        Ok(())
    }

    /// Text with its entity and character references replaced.
    fn unescape(&self, raw: &str, at: usize) -> Result<String> {
        if !raw.contains('&') {
            return Ok(raw.to_string());
        }
        let mut out = String::with_capacity(raw.len());
        let mut rest = raw;
        let mut offset = at;
        while let Some(i) = rest.find('&') {
            out.push_str(&rest[..i]);
            let amp = offset + i;
            let after = &rest[i + 1..];
            let Some(semi) = after.find(';').filter(|&s| s <= 12) else {
                return Err(self.err(amp, "a & that begins no entity (a literal & is written &amp;)"));
            };
            let ent = &after[..semi];
            let ch = match ent {
                "lt" => Some('<'),
                "gt" => Some('>'),
                "amp" => Some('&'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ => {
                    let num = if let Some(h) = ent.strip_prefix("#x").or_else(|| ent.strip_prefix("#X")) {
                        u32::from_str_radix(h, 16).ok()
                    } else if let Some(d) = ent.strip_prefix('#') {
                        d.parse::<u32>().ok()
                    } else {
                        return Err(self.err(amp, format!("unknown entity &{ent}; (XML has &lt; &gt; &amp; &quot; &apos; and &#...;)")));
                    };
                    let c = num.and_then(char::from_u32).filter(|&c| c != '\0');
                    if c.is_none() {
                        return Err(self.err(amp, format!("&{ent}; is not a character")));
                    }
                    c
                }
            };
            out.extend(ch);
            rest = &after[semi + 1..];
            offset = amp + 1 + semi + 1;
        }
        out.push_str(rest);
        Ok(out)
    }
}

fn ws_len(s: &str) -> usize {
    s.len() - s.trim_start_matches(&[' ', '\t', '\n', '\r'][..]).len()
}

/// `value` (the unescaped `raw`) with the literal tabs and line breaks of `raw` as spaces (a
/// `&#10;` stays a line break).
fn normalize_literal_ws(raw: &str, _value: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(i) = rest.find('&') {
        out.extend(rest[..i].chars().map(ws_to_space));
        let semi = rest[i..].find(';').map_or(rest.len(), |s| i + s + 1);
        let ent = &rest[i + 1..semi - 1];
        out.push(match ent {
            "lt" => '<',
            "gt" => '>',
            "amp" => '&',
            "quot" => '"',
            "apos" => '\'',
            _ => {
                let n = if let Some(h) = ent.strip_prefix("#x").or_else(|| ent.strip_prefix("#X")) {
                    u32::from_str_radix(h, 16).ok()
                } else {
                    ent.strip_prefix('#').and_then(|d| d.parse().ok())
                };
                n.and_then(char::from_u32).unwrap_or('\u{FFFD}')
            }
        });
        rest = &rest[semi..];
    }
    out.extend(rest.chars().map(ws_to_space));
    out
}

fn ws_to_space(c: char) -> char {
    if matches!(c, '\n' | '\r' | '\t') {
        ' '
    } else {
        c
    }
}

// ----- from elements to tests -----

/// Suite names that are never a title: the roots runners give.
/// (`undefined`: jest-junit's name of a file without a `describe`.)
const ROOT_SUITE_NAMES: [&str; 4] = ["Root Suite", "pytest", "Mocha Tests", "undefined"];

struct SuiteFrame {
    name: String,
    file: Option<String>,
    timestamp: bool,
    first_test: usize,
    stdout: Vec<String>,
    stderr: Vec<String>,
}

struct CaseFrame {
    attrs: Vec<(String, String)>,
    errors: Vec<JunitError>,
    skip: Option<(Option<String>, Option<String>)>,
    stdout: Vec<String>,
    stderr: Vec<String>,
    properties: Vec<(String, String)>,
}

enum Frame {
    Root,
    Suite(SuiteFrame),
    Case(CaseFrame),
    /// `<failure>`, `<error>`, `<skipped>`, `<system-out>`, `<system-err>`, `<property>`: collecting text.
    Text { tag: TextTag, attrs: Vec<(String, String)>, text: String },
    Properties,
    Other,
}

#[derive(Clone, Copy, PartialEq)]
enum TextTag {
    Failure,
    Error,
    Skipped,
    Out,
    Err,
    Property,
}

struct Builder<'k> {
    stack: Vec<Frame>,
    tests: Vec<JunitTest>,
    suites: usize,
    other_output: Vec<String>,
    known: Known<'k>,
}

fn attr<'x>(attrs: &'x [(String, String)], key: &str) -> Option<&'x str> {
    attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

fn some_text(s: Option<&str>) -> Option<String> {
    s.filter(|s| !s.is_empty()).map(str::to_string)
}

impl<'k> Builder<'k> {
    fn new(known: &'k [KnownFile]) -> Self {
        Builder { stack: Vec::new(), tests: Vec::new(), suites: 0, other_output: Vec::new(), known: Known::new(known) }
    }

    fn wants_text(&self) -> bool {
        matches!(self.stack.last(), Some(Frame::Text { .. }))
    }

    fn text(&mut self, t: &str) {
        if let Some(Frame::Text { text, .. }) = self.stack.last_mut() {
            text.push_str(t);
        }
    }

    fn in_case(&self) -> bool {
        matches!(self.stack.last(), Some(Frame::Case(_)))
    }

    fn start(&mut self, name: &str, attrs: Vec<(String, String)>) {
        let frame = match name {
            "testsuites" if self.stack.is_empty() => Frame::Root,
            "testsuite" if !self.in_case() => {
                self.suites += 1;
                Frame::Suite(SuiteFrame {
                    name: attr(&attrs, "name").unwrap_or_default().to_string(),
                    file: some_text(attr(&attrs, "file").or_else(|| attr(&attrs, "filepath"))),
                    timestamp: attr(&attrs, "timestamp").is_some(),
                    first_test: self.tests.len(),
                    stdout: Vec::new(),
                    stderr: Vec::new(),
                })
            }
            "testcase" if !self.in_case() => Frame::Case(CaseFrame {
                attrs,
                errors: Vec::new(),
                skip: None,
                stdout: Vec::new(),
                stderr: Vec::new(),
                properties: Vec::new(),
            }),
            "properties" => Frame::Properties,
            _ => {
                let parent_case = self.in_case();
                let parent_suite = matches!(self.stack.last(), Some(Frame::Suite(_)));
                let parent_props = matches!(self.stack.last(), Some(Frame::Properties));
                let tag = match name {
                    "failure" if parent_case => Some(TextTag::Failure),
                    "error" if parent_case => Some(TextTag::Error),
                    "skipped" if parent_case => Some(TextTag::Skipped),
                    "system-out" if parent_case || parent_suite => Some(TextTag::Out),
                    "system-err" if parent_case || parent_suite => Some(TextTag::Err),
                    "property" if parent_props => Some(TextTag::Property),
                    _ => None,
                };
                match tag {
                    Some(tag) => Frame::Text { tag, attrs, text: String::new() },
                    None => Frame::Other,
                }
            }
        };
        self.stack.push(frame);
    }

    fn end(&mut self, _name: &str) {
        let Some(frame) = self.stack.pop() else { return };
        match frame {
            Frame::Text { tag, attrs, text } => self.end_text(tag, attrs, text),
            Frame::Case(case) => self.end_case(case),
            Frame::Suite(s) => {
                let (out, err) = (s.stdout, s.stderr);
                if out.is_empty() && err.is_empty() {
                    return;
                }
                match self.tests.get_mut(s.first_test) {
                    Some(t) => {
                        t.stdout.extend(out);
                        t.stderr.extend(err);
                    }
                    None => self.other_output.extend(out.into_iter().chain(err)),
                }
            }
            _ => {}
        }
    }

    fn end_text(&mut self, tag: TextTag, attrs: Vec<(String, String)>, text: String) {
        if tag == TextTag::Property {
            let name = attr(&attrs, "name").unwrap_or_default().to_string();
            let value = attr(&attrs, "value").map(str::to_string).unwrap_or(text);
            // the frame above `properties`: a test's are kept, a suite's `file` is its file
            let n = self.stack.len();
            match n.checked_sub(2).and_then(|i| self.stack.get_mut(i)) {
                Some(Frame::Case(c)) => c.properties.push((name, value)),
                Some(Frame::Suite(s)) if name == "file" && s.file.is_none() && !value.is_empty() => s.file = Some(value),
                _ => {}
            }
            return;
        }
        match (tag, self.stack.last_mut()) {
            (TextTag::Failure | TextTag::Error, Some(Frame::Case(c))) => {
                let body = text.trim_matches(&['\n', '\r'][..]);
                c.errors.push(JunitError {
                    kind: if tag == TextTag::Failure { "failure" } else { "error" }.into(),
                    kind_type: some_text(attr(&attrs, "type")),
                    message: some_text(attr(&attrs, "message")),
                    body: (!body.trim().is_empty()).then(|| body.to_string()),
                })
            }
            (TextTag::Skipped, Some(Frame::Case(c))) => {
                // node:test writes a skip or todo without a reason as message="true"
                let message = some_text(attr(&attrs, "message")).filter(|m| m != "true").or_else(|| some_text(Some(text.trim())));
                c.skip = Some((some_text(attr(&attrs, "type")), message));
            }
            (TextTag::Out | TextTag::Err, Some(Frame::Case(c))) if !text.trim().is_empty() => {
                if tag == TextTag::Out { c.stdout.push(text) } else { c.stderr.push(text) }
            }
            (TextTag::Out | TextTag::Err, Some(Frame::Suite(s))) if !text.trim().is_empty() => {
                if tag == TextTag::Out { s.stdout.push(text) } else { s.stderr.push(text) }
            }
            _ => {}
        }
    }

    fn suites(&self) -> impl DoubleEndedIterator<Item = &SuiteFrame> {
        self.stack.iter().filter_map(|f| if let Frame::Suite(s) = f { Some(s) } else { None })
    }

    fn end_case(&mut self, c: CaseFrame) {
        let name = attr(&c.attrs, "name").unwrap_or_default().to_string();
        let classname = attr(&c.attrs, "classname").unwrap_or_default().to_string();
        let suites: Vec<&SuiteFrame> = self.suites().collect();
        // the file: own, an enclosing suite's, the classname's, a suite named by a known file
        let mut file = some_text(attr(&c.attrs, "file").or_else(|| attr(&c.attrs, "filepath"))).map(|f| clean(&f));
        if file.is_none() {
            file = suites.iter().rev().find_map(|s| s.file.as_deref()).map(clean);
        }
        let mut class_titles: Vec<String> = Vec::new();
        if file.is_none() && !classname.is_empty() {
            if let Some((f, rest)) = self.known.by_dotted(&classname) {
                file = Some(f.to_string());
                class_titles = rest;
            }
        }
        if file.is_none() {
            file = suites.iter().rev().find_map(|s| self.known.by_path(&s.name)).map(str::to_string);
        }
        // the titles
        let is_title = |s: &SuiteFrame| {
            !s.name.is_empty()
                && !ROOT_SUITE_NAMES.contains(&s.name.as_str())
                && s.file.as_deref().map(clean).as_deref() != Some(clean(&s.name).as_str())
                && self.known.by_path(&s.name).is_none()
        };
        let inner: Option<&SuiteFrame> = suites.last().copied().filter(|s| is_title(*s));
        let mut titles: Vec<String> = suites.iter().copied().filter(|s| is_title(*s)).map(|s| s.name.clone()).collect();
        let full_title = suites.last().filter(|s| s.timestamp).and_then(|_| {
            let prefix = name.strip_suffix(classname.as_str())?.strip_suffix(' ')?;
            (!classname.is_empty() && inner.map_or(true, |s| prefix.ends_with(s.name.as_str()))).then(|| prefix.to_string())
        });
        if let Some(prefix) = full_title {
            if inner.is_some() {
                titles.pop();
            }
            titles.push(prefix);
            titles.push(classname.clone());
        } else if let Some(rest) = inner
            .filter(|_| name == classname)
            .and_then(|s| name.strip_prefix(s.name.as_str()))
            .and_then(|r| r.strip_prefix(' '))
            .filter(|r| !r.is_empty())
        {
            titles.push(rest.to_string());
        } else if inner.is_none() && name == classname && name.starts_with(' ') {
            // jest-junit's "{classname} {title}" of a test outside any describe
            titles.push(name[1..].to_string());
        } else {
            titles.extend(class_titles);
            titles.push(name.clone());
        }
        if file.is_none() {
            file = self.known.by_titles(&titles).map(str::to_string);
        }
        let failed = !c.errors.is_empty();
        let status = if c.skip.is_some() { JunitStatus::Skipped } else if failed { JunitStatus::Failed } else { JunitStatus::Passed };
        let (skip_type, skip_message) = c.skip.unwrap_or_default();
        self.tests.push(JunitTest {
            file,
            title_path: titles,
            status,
            duration_ms: attr(&c.attrs, "time").and_then(seconds_to_ms),
            line: attr(&c.attrs, "line").and_then(|l| l.trim().parse::<u32>().ok()).filter(|&l| l >= 1),
            errors: c.errors,
            skip_type,
            skip_message,
            stdout: c.stdout,
            stderr: c.stderr,
            properties: c.properties,
        });
    }

    fn finish(self) -> JunitImport {
        JunitImport { tests: self.tests, suites: self.suites, other_output: self.other_output }
    }
}

/// A path as written, with `\` as `/` and without a leading `./`.
fn clean(p: &str) -> String {
    let p = p.replace('\\', "/");
    let mut s = p.as_str();
    while let Some(r) = s.strip_prefix("./") {
        s = r;
    }
    s.to_string()
}

/// `time` seconds as whole milliseconds: `1.5`, `1,234.5` (thousands), `0,5` (a decimal comma).
pub fn seconds_to_ms(s: &str) -> Option<u64> {
    let s = s.trim();
    let thousands = {
        let int = s.split('.').next().unwrap_or_default();
        let groups: Vec<&str> = int.split(',').collect();
        groups.len() > 1
            && (1..=3).contains(&groups[0].len())
            && groups[1..].iter().all(|g| g.len() == 3)
            && s.matches('.').count() <= 1
    };
    let normal = if thousands {
        s.replace(',', "")
    } else if s.matches(',').count() == 1 && !s.contains('.') {
        s.replace(',', ".")
    } else {
        s.to_string()
    };
    decimal_ms(&normal)
}

/// Decimal seconds (`12.5`, `1e-3`) as whole milliseconds, rounded half up; negative or not a
/// number: none. By hand, not with `core`'s float parser, which the .wasm has no other use for.
fn decimal_ms(s: &str) -> Option<u64> {
    let (mantissa, exp) = match s.find(|c| c == 'e' || c == 'E') {
        Some(i) => (&s[..i], s[i + 1..].strip_prefix('+').unwrap_or(&s[i + 1..]).parse::<i64>().ok()?),
        None => (s, 0),
    };
    let mantissa = mantissa.strip_prefix('+').unwrap_or(mantissa);
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.len() + frac.len() == 0 || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
    // where the point falls once the value is in milliseconds
    let point = (int.len() as i64).saturating_add(exp).saturating_add(3);
    let mut ms: u64 = 0;
    for i in 0..point.max(0) {
        let d = usize::try_from(i).ok().and_then(|i| digits.get(i)).copied().unwrap_or(0);
        ms = ms.saturating_mul(10).saturating_add(d as u64);
        if ms >= MAX_SAFE_INTEGER {
            return Some(MAX_SAFE_INTEGER);
        }
    }
    let next = usize::try_from(point).ok().and_then(|i| digits.get(i)).copied().unwrap_or(0);
    Some((ms + u64::from(next >= 5)).min(MAX_SAFE_INTEGER))
}

/// The known files, for the file rules: by path, by dotted path without extension, by the titles
/// their sources declare.
struct Known<'k> {
    files: Vec<(String, &'k KnownFile)>,
    /// title path prefix -> the file whose source declares a test under it (`usize::MAX`: more
    /// than one): one lookup per prefix of a test's titles, whatever the number of files.
    titles: std::collections::HashMap<Vec<String>, usize>,
}

impl<'k> Known<'k> {
    fn new(known: &'k [KnownFile]) -> Self {
        let files: Vec<(String, &KnownFile)> = known.iter().map(|k| (clean(&k.path), k)).collect();
        let mut titles: std::collections::HashMap<Vec<String>, usize> = std::collections::HashMap::new();
        for (i, (_, k)) in files.iter().enumerate() {
            let Some(source) = &k.source else { continue };
            for path in crate::discover::discover_tests(source).tests {
                for n in 1..=path.len() {
                    titles.entry(path[..n].to_vec()).and_modify(|f| if *f != i { *f = usize::MAX }).or_insert(i);
                }
            }
        }
        Known { files, titles }
    }

    fn by_path(&self, name: &str) -> Option<&str> {
        if self.files.is_empty() || name.is_empty() {
            return None;
        }
        let name = clean(name);
        self.files.iter().find(|(p, _)| *p == name || (name.ends_with(p.as_str()) && name[..name.len() - p.len()].ends_with('/'))).map(|(p, _)| p.as_str())
    }

    /// The known file a dotted `classname` names (its longest leading part), and the rest. Each
    /// file's path without its extension is compared, `/` as `.`: time in the files and the
    /// classname's length, not its number of dots times its length.
    fn by_dotted(&self, classname: &str) -> Option<(&str, Vec<String>)> {
        let mut best: Option<(&str, usize)> = None;
        for (p, _) in &self.files {
            let stem = p.rsplit_once('.').filter(|(_, ext)| !ext.contains('/')).map_or(p.as_str(), |(s, _)| s);
            let n = stem.len();
            let names = classname.len() >= n
                && classname.is_char_boundary(n)
                && classname[..n].bytes().zip(stem.bytes()).all(|(c, f)| c == f || (c == b'.' && f == b'/'))
                && (classname.len() == n || classname.as_bytes()[n] == b'.');
            if names && n > 0 && best.map_or(true, |(_, m)| n > m) {
                best = Some((p.as_str(), n));
            }
        }
        let (p, n) = best?;
        let rest = classname.get(n + 1..).unwrap_or_default();
        Some((p, if rest.is_empty() { Vec::new() } else { rest.split('.').map(str::to_string).collect() }))
    }

    /// The one file whose source declares the longest leading part of `titles` (at least its
    /// first title); none when no file does, or two do.
    fn by_titles(&self, titles: &[String]) -> Option<&str> {
        for n in (1..=titles.len()).rev() {
            match self.titles.get(&titles[..n]) {
                Some(&i) if i != usize::MAX => return Some(self.files[i].0.as_str()),
                Some(_) => return None,
                None => {}
            }
        }
        None
    }
}
