//! Validation of a report document at two levels: the published schema's own rules (what
//! `@flakiness/flakiness-report`'s `Schema.Report` accepts, so what the service reads) and, on
//! top of them, the stricter rules of docs/report-format.md §5 (`validateReport`, and every API that
//! writes or sends a report). It walks the JSON value (not the typed model) so that unknown keys,
//! fractional numbers and wrong types are all reported with the path where they are.

use serde_json::{Map, Value};

use super::model::Report;
use super::split::{self, Splitter};
use crate::error::Error;
use crate::limits;

/// One problem: where (`suites[2].tests[0].attempts[1].environmentIdx`) and what.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Issue {
    pub path: String,
    pub message: String,
    /// The same place as steps from the top of what was checked, for [`mend_attempt`].
    #[serde(skip)]
    pub(crate) at: Vec<PathStep>,
    /// True when the value is missing (a required field), not wrong.
    #[serde(skip)]
    pub(crate) missing: bool,
}

/// One step of a path into a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PathStep {
    Key(String),
    Index(usize),
}

/// Which rules a document is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// The published schema's: what `Schema.Report.safeParse` accepts (unknown keys allowed,
    /// numbers need not be integers, paths and positions are not checked).
    Schema,
    /// The schema's plus the stricter ones of docs/report-format.md §5: `validateReport`.
    Strict,
}

/// Validates a typed report (strict rules). Read from its JSON text, not `serde_json::to_value`
/// (which would compile a second serializer of the whole model into the `.wasm`).
pub fn validate(report: &Report) -> Vec<Issue> {
    validate_json(&crate::from_json(&super::to_json(report)).unwrap_or(Value::Null))
}

/// Validates a report given as JSON against the strict rules. Empty when valid.
pub fn validate_json(doc: &Value) -> Vec<Issue> {
    issues(doc, Rules::Strict)
}

/// The problems of a report given as JSON under `rules`. Empty when valid.
pub fn issues(doc: &Value, rules: Rules) -> Vec<Issue> {
    let mut v = Validator::new(rules, doc.get("environments").and_then(Value::as_array).map_or(0, Vec::len));
    v.report(doc, &Path::Root(""));
    v.issues
}

/// `INVALID_INPUT` naming the first problems when `doc` is not a valid report: the check every
/// API that takes a report (the exchanges, `encodeReport`) makes before using it.
pub fn ensure_valid(doc: &Value) -> Result<(), Error> {
    if !doc.is_object() {
        return Err(not_a_report_object());
    }
    to_result("report", &validate_json(doc), "; validateReport(report) lists every problem")
}

fn not_a_report_object() -> Error {
    Error::invalid_input("report must be a report document (a JSON object)")
}

/// [`ensure_valid`] of a report given as JSON text, without building the whole document
/// ([`report_issues_json`]): what `uploadReport` checks, so a report of 100,000 tests is not
/// held as one `serde_json::Value` (about 8 times its text) in wasm memory, which never shrinks.
pub fn ensure_valid_json(json: &[u8]) -> Result<(), Error> {
    to_result("report", &report_issues_json(json, Rules::Strict)?, "; validateReport(report) lists every problem")
}

/// The problems of a report given as JSON text under `rules`, as [`issues`] finds them, read
/// piece by piece ([`report_issues_split`]): the top level, then each top-level suite and test
/// on its own, checked and dropped. The same problems as [`issues`] of the whole document (those
/// of `unattributedErrors` and `sources` listed before the suites' rather than after). Text that
/// cannot be split (not an object, not JSON) is read as a whole document, which names why.
pub fn report_issues_json(json: &[u8], rules: Rules) -> Result<Vec<Issue>, Error> {
    if let Some(issues) = report_issues_split(|text| text(json), rules) {
        return Ok(issues);
    }
    // not split: read whole, which names what is wrong
    let doc: Value = crate::from_json(json).map_err(|e| Error::invalid_input(format!("report is not valid JSON: {e}")))?;
    if !doc.is_object() {
        return Err(not_a_report_object());
    }
    Ok(issues(&doc, rules))
}

/// [`report_issues_json`] of a text that `text` hands over chunk by chunk, from its start, to
/// the function it is given (which returns false to stop); `text` returns false when it could
/// not hand over all of it. Read twice: the top level (each element of `suites` and `tests` as
/// `0`), then each of those elements on its own, checked and dropped ([`split`]). So a text that
/// is decoded as it is read is never held whole. `None` when the text could not be split or a
/// piece of it is not JSON: the caller then reads it whole for the exact error.
pub(crate) fn report_issues_split(mut text: impl FnMut(&mut dyn FnMut(&[u8]) -> bool) -> bool, rules: Rules) -> Option<Vec<Issue>> {
    // 1. the top level
    let mut top = Splitter::new(None);
    if !text(&mut |chunk| top.feed(chunk, &mut |_, _, _, _| true).is_ok()) {
        return None;
    }
    let (skeleton, lists) = top.finish().ok()?;
    let mut de = serde_json::Deserializer::from_slice(&skeleton);
    let doc: Value = serde::Deserializer::deserialize_map(&mut de, piecewise::Top).and_then(|doc| de.end().map(|()| doc)).ok()?;
    drop(skeleton);
    let mut v = Validator::new(rules, doc.get("environments").and_then(Value::as_array).map_or(0, Vec::len));
    let root = Path::Root("");
    v.report(&doc, &root);
    drop(doc);
    // 2. each element of those lists (of a list given twice, read but not checked)
    let mut items = Splitter::new(Some(lists));
    let mut check = |name: &'static str, i: usize, bytes: &[u8], last: bool| {
        let Ok(item) = crate::from_json::<Value>(bytes) else { return false };
        if last {
            let check: Check = if name == "suites" { Validator::suite } else { Validator::test };
            check(&mut v, &item, &Path::Index(&Path::Key(&root, name), i));
        }
        true
    };
    if !text(&mut |chunk| items.feed(chunk, &mut check).is_ok()) {
        return None;
    }
    items.finish().ok()?;
    Some(v.issues)
}

/// The top level of a report read from its skeleton ([`report_issues_split`]).
mod piecewise {
    use std::fmt;

    use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
    use serde_json::{Map, Value};

    use super::split::list;

    /// The top-level object, `suites` and `tests` as `[]` when they are arrays.
    pub(super) struct Top;

    impl<'de> Visitor<'de> for Top {
        type Value = Value;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a report object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
            let mut doc = Map::new();
            while let Some(key) = map.next_key::<String>()? {
                let value = match list(&key) {
                    Some(_) => map.next_value_seed(Skipped)?,
                    None => map.next_value::<Value>()?,
                };
                doc.insert(key, value);
            }
            Ok(Value::Object(doc))
        }
    }

    /// An array skipped (as `[]`); anything else read whole, for the check to name.
    struct Skipped;

    impl<'de> DeserializeSeed<'de> for Skipped {
        type Value = Value;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
            d.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Skipped {
        type Value = Value;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Value::Array(Vec::new()))
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
            serde::Deserialize::deserialize(serde::de::value::MapAccessDeserializer::new(map))
        }
        fn visit_bool<E>(self, b: bool) -> Result<Value, E> { Ok(Value::Bool(b)) }
        fn visit_i64<E>(self, n: i64) -> Result<Value, E> { Ok(n.into()) }
        fn visit_u64<E>(self, n: u64) -> Result<Value, E> { Ok(n.into()) }
        fn visit_f64<E>(self, n: f64) -> Result<Value, E> { Ok(n.into()) }
        fn visit_str<E>(self, s: &str) -> Result<Value, E> { Ok(Value::String(s.to_owned())) }
        fn visit_unit<E>(self) -> Result<Value, E> { Ok(Value::Null) }
        fn visit_none<E>(self) -> Result<Value, E> { Ok(Value::Null) }
    }
}

/// The problems of one attempt given to the builder as JSON (`addAttempt`), in a report of
/// `environments` environments, under the strict rules, as it will be stored: a field whose
/// value is `null` is an absent one (as the typed model reads it, and as JSON.stringify drops
/// `undefined`). Paths start at `attempt`.
pub(crate) fn attempt_issues(attempt: &Value, environments: usize) -> Vec<Issue> {
    let mut v = Validator::new(Rules::Strict, environments);
    v.nulls_absent = true;
    v.attempt(attempt, &Path::Root("attempt"));
    v.issues
}

/// Makes an attempt given to the builder as JSON valid by leaving out what the report rules
/// refuse, where it stands: a field of the wrong type or out of range, an unknown key, an
/// output entry with both `text` and `buffer`; when what is left out was required by the object
/// holding it (a location without its line), that object goes too, up to the attempt. Every
/// other part of the attempt is kept. Returns what was left out (empty when the attempt was
/// valid), or `INVALID_INPUT` when no leaving out helps: the attempt is not an object, its
/// `environmentIdx` names no environment of a report without any, or its `status` is not a
/// status (left out, it would say `passed`).
pub(crate) fn mend_attempt(attempt: &mut Value, environments: usize) -> Result<Vec<Issue>, Error> {
    /// Each round leaves out at least one value; a required field's removal takes its holder in
    /// the next round. Deeper nesting than this is refused by the builder anyway.
    const MAX_ROUNDS: usize = 64;
    let mut mended = Vec::new();
    for _ in 0..MAX_ROUNDS {
        let mut issues = attempt_issues(attempt, environments);
        if issues.is_empty() {
            return Ok(mended);
        }
        let refuse = |issues: &[Issue]| to_result("attempt", issues, "").map(|()| Vec::new());
        // every value to leave out becomes `null` first, so no removal shifts another's path
        let mut removed = false;
        for i in &issues {
            let at = if i.missing { &i.at[..i.at.len().saturating_sub(1)] } else { &i.at[..] };
            if at.is_empty() || matches!(at, [PathStep::Key(k)] if k == "status") {
                return refuse(&issues);
            }
            removed |= mend_at(attempt, at);
        }
        if !removed {
            return refuse(&issues);
        }
        // then the `null`s of arrays go (an attempt's arrays hold objects, never `null`)
        drop_null_elements(attempt);
        // a start left out is the default start, 0 (as the builder reads an attempt without one)
        if let Some(o) = attempt.as_object_mut().filter(|o| o.get("startTimestamp").is_none_or(Value::is_null)) {
            o.insert("startTimestamp".into(), 0.into());
        }
        mended.append(&mut issues);
    }
    to_result("attempt", &attempt_issues(attempt, environments), "").map(|()| mended)
}

/// Mends the value at `at`: a fractional number that rounds to a whole one >= 0 is rounded
/// (milliseconds from `performance.now()`); anything else is set to `null`: an object's field
/// that is `null` is absent to the builder's rules and reader (removing the key from the map
/// would compile `BTreeMap::remove` into the .wasm: 7 KB), and an array's `null` is dropped by
/// [`drop_null_elements`]. False when there is nothing there (or only `null`).
fn mend_at(v: &mut Value, at: &[PathStep]) -> bool {
    let Some(last) = at.last() else { return false };
    let rounded = |x: &Value| {
        let n = x.as_f64()?;
        let r = n.round();
        (n.fract() != 0.0 && r >= 0.0 && r <= limits::MAX_SAFE_INTEGER as f64).then(|| Value::from(r as u64))
    };
    let x = at.iter().try_fold(v, |cur, step| match (step, cur) {
        (PathStep::Key(k), Value::Object(o)) => o.get_mut(k.as_str()),
        (PathStep::Index(i), Value::Array(a)) => a.get_mut(*i),
        _ => None,
    });
    match x {
        // a `null` element is dropped with the others
        Some(Value::Null) => matches!(last, PathStep::Index(_)),
        None => false,
        Some(x) => {
            *x = rounded(x).filter(|_| matches!(last, PathStep::Key(_))).unwrap_or(Value::Null);
            true
        }
    }
}

/// Removes every `null` element of every array in `v`.
fn drop_null_elements(v: &mut Value) {
    match v {
        Value::Array(a) => {
            a.retain(|x| !x.is_null());
            a.iter_mut().for_each(drop_null_elements);
        }
        Value::Object(o) => o.values_mut().for_each(drop_null_elements),
        _ => {}
    }
}

/// The problems of one environment given to the builder as JSON (`addEnvironment`), under the
/// strict rules, a `null` field being an absent one (as in [`attempt_issues`]).
pub(crate) fn environment_issues(env: &Value) -> Vec<Issue> {
    let mut v = Validator::new(Rules::Strict, 0);
    v.nulls_absent = true;
    v.environment(env, &Path::Root("environment"));
    v.issues
}

/// `Ok` when there are no issues, else `INVALID_INPUT`: "`what` is not valid: " and the first
/// few issues, then `hint`.
pub(crate) fn to_result(what: &str, issues: &[Issue], hint: &str) -> Result<(), Error> {
    if issues.is_empty() {
        return Ok(());
    }
    const SHOWN: usize = 5;
    let shown: Vec<String> = issues.iter().take(SHOWN).map(|i| format!("{}: {}", i.path, i.message)).collect();
    let more = if issues.len() > SHOWN { format!(" (and {} more)", issues.len() - SHOWN) } else { String::new() };
    Err(Error::invalid_input(format!("{what} is not valid: {}{more}{hint}", shown.join("; "))))
}

/// Checks a repository path: relative, POSIX, no `..`.
pub(crate) fn check_path(p: &str) -> Result<(), String> {
    if p.is_empty() {
        Err("must not be empty".into())
    } else if p.contains('\\') {
        Err(format!("{p:?} must use POSIX separators (/), not backslashes"))
    } else if p.starts_with('/') || p.as_bytes().get(1) == Some(&b':') {
        Err(format!("{p:?} must be relative to the repository root, not absolute"))
    } else if p.split('/').any(|s| s == "..") {
        Err(format!("{p:?} must not contain `..`"))
    } else {
        Ok(())
    }
}

const STATUSES: [&str; 5] = ["passed", "failed", "timedOut", "skipped", "interrupted"];
const SUITE_TYPES: [&str; 3] = ["file", "suite", "anonymous suite"];

/// What a number field must be. The strict rules want an integer in `min..=max` (the range the
/// typed model stores); the schema only wants a number, and at least 0 where `nonneg`.
#[derive(Clone, Copy)]
struct Int {
    min: u64,
    max: u64,
    nonneg: bool,
}
/// Timestamps, durations, byte and CPU counts.
const MS: Int = Int { min: 0, max: limits::MAX_SAFE_INTEGER, nonneg: true };
/// `environmentIdx`.
const INDEX: Int = Int { min: 0, max: u32::MAX as u64, nonneg: true };
/// `line`, `column`: 1-based.
const POSITION: Int = Int { min: 1, max: u32::MAX as u64, nonneg: false };
/// `lineOffset`, `parallelIndex`.
const SMALL: Int = Int { min: 0, max: u32::MAX as u64, nonneg: false };

struct Validator {
    issues: Vec<Issue>,
    envs: usize,
    strict: bool,
    /// A field whose value is `null` is an absent one (the builder's input).
    nulls_absent: bool,
}

/// Where a value is: a chain of borrowed steps on the walk's stack, written out
/// (`suites[2].tests[0].location.line`) only when there is an issue to report, so a valid
/// report costs no string per field.
#[derive(Clone, Copy)]
enum Path<'a> {
    /// The top: `""` for a report, or the name of the part checked (`attempt`).
    Root(&'static str),
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    /// The name of the top, and the steps from it, for an issue.
    fn steps(&self) -> (&'static str, Vec<PathStep>) {
        let mut steps = Vec::new();
        let mut p = self;
        let root = loop {
            match *p {
                Path::Root(r) => break r,
                Path::Key(up, k) => {
                    steps.push(PathStep::Key(k.to_string()));
                    p = up;
                }
                Path::Index(up, i) => {
                    steps.push(PathStep::Index(i));
                    p = up;
                }
            }
        };
        steps.reverse();
        (root, steps)
    }
}

/// A checking step for each element of an array (`Validator::each`).
type Check = fn(&mut Validator, &Value, &Path);

impl Validator {
    fn new(rules: Rules, envs: usize) -> Self {
        Validator { issues: Vec::new(), envs, strict: rules == Rules::Strict, nulls_absent: false }
    }

    /// The field `key` of `o`, unless absent (or `null`, where that means absent).
    fn get<'a>(&self, o: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
        o.get(key).filter(|v| !(self.nulls_absent && v.is_null()))
    }

    fn issue(&mut self, path: &Path, message: impl Into<String>) {
        self.push(path, message.into(), false);
    }

    fn push(&mut self, path: &Path, message: String, missing: bool) {
        let (root, at) = path.steps();
        // written out from the steps: `suites[2].tests[0].location.line`, `attempt.stdio[0]`
        let mut text = root.to_string();
        for step in &at {
            match step {
                PathStep::Key(k) => {
                    if !text.is_empty() {
                        text.push('.');
                    }
                    text.push_str(k);
                }
                PathStep::Index(i) => {
                    text.push('[');
                    text.push_str(itoa::Buffer::new().format(*i));
                    text.push(']');
                }
            }
        }
        if text.is_empty() {
            text.push_str("(report)");
        }
        self.issues.push(Issue { path: text, message, at, missing });
    }

    /// Checks `v` is an object with the `required` keys and (strict rules) no key outside
    /// `required` and `optional`; returns it for the field checks.
    fn object<'a>(&mut self, v: &'a Value, path: &Path, required: &[&str], optional: &[&str]) -> Option<&'a Map<String, Value>> {
        let Some(o) = v.as_object() else {
            self.issue(path, format!("must be an object, got {}", kind(v)));
            return None;
        };
        for k in required {
            if self.get(o, k).is_none() {
                self.push(&Path::Key(path, k), "is required".into(), true);
            }
        }
        if self.strict {
            for (k, x) in o {
                let known = required.contains(&k.as_str()) || optional.contains(&k.as_str());
                if !(known || self.nulls_absent && x.is_null()) {
                    self.issue(&Path::Key(path, k), "is not a field of this object (unknown key)");
                }
            }
        }
        Some(o)
    }

    fn string<'a>(&mut self, o: &'a Map<String, Value>, path: &Path, key: &str, min: usize, max: usize) -> Option<&'a str> {
        let v = self.get(o, key)?;
        let count = |s: &str| if s.is_ascii() { s.len() } else { s.chars().count() };
        match v.as_str() {
            None => self.issue(&Path::Key(path, key), format!("must be a string, got {}", kind(v))),
            Some(s) if count(s) < min || count(s) > max => {
                self.issue(&Path::Key(path, key), format!("must be {min} to {max} characters, got {}", count(s)))
            }
            Some(s) => return Some(s),
        }
        None
    }

    /// A repository path (`file`, `filePath`, `configPath`): a string; relative POSIX (strict).
    fn path(&mut self, o: &Map<String, Value>, path: &Path, key: &str) {
        if let Some(p) = self.string(o, path, key, 0, usize::MAX) {
            if let (true, Err(m)) = (self.strict, check_path(p)) {
                self.issue(&Path::Key(path, key), m);
            }
        }
    }

    /// A number field; returns it when it is an integer in range.
    fn int(&mut self, o: &Map<String, Value>, path: &Path, key: &str, rule: Int) -> Option<u64> {
        let v = self.get(o, key)?;
        let p = Path::Key(path, key);
        let Some(n) = v.as_f64() else {
            let why = if v.is_null() { " (NaN and Infinity become null in JSON)" } else { "" };
            self.issue(&p, format!("must be a number, got {}{why}", kind(v)));
            return None;
        };
        if self.strict && (n.fract() != 0.0 || n < rule.min as f64) {
            self.issue(&p, format!("must be an integer >= {}, got {n}", rule.min));
        } else if self.strict && n > rule.max as f64 {
            self.issue(&p, format!("must be at most {}, got {n}", rule.max));
        } else if rule.nonneg && n < 0.0 {
            self.issue(&p, format!("must be a number >= 0, got {n}"));
        } else if n.fract() == 0.0 && (0.0..=rule.max as f64).contains(&n) {
            return Some(n as u64);
        }
        None
    }

    /// A number from 0 to 100 (a percentage).
    fn percent(&mut self, v: &Value, path: &Path) {
        if !v.as_f64().is_some_and(|x| (0.0..=100.0).contains(&x)) {
            self.issue(path, format!("must be a percentage from 0 to 100, got {v}"));
        }
    }

    fn one_of(&mut self, o: &Map<String, Value>, path: &Path, key: &str, allowed: &[&str]) {
        if let Some(v) = self.get(o, key) {
            if !v.as_str().is_some_and(|s| allowed.contains(&s)) {
                self.issue(&Path::Key(path, key), format!("must be one of {}, got {v}", allowed.join(", ")));
            }
        }
    }

    /// Runs `check` on each element of the array `key` of `o` (absent: none; not an array: an issue).
    fn each(&mut self, o: &Map<String, Value>, path: &Path, key: &str, check: Check) {
        let Some(v) = self.get(o, key) else { return };
        let p = Path::Key(path, key);
        match v.as_array() {
            None => self.issue(&p, format!("must be an array, got {}", kind(v))),
            Some(a) => {
                for (i, x) in a.iter().enumerate() {
                    check(self, x, &Path::Index(&p, i));
                }
            }
        }
    }

    fn a_string(&mut self, v: &Value, path: &Path) {
        if !v.is_string() {
            self.issue(path, format!("must be a string, got {}", kind(v)));
        }
    }

    /// A commit id: 40 characters (schema), lowercase hex (strict).
    fn commit_id(&mut self, v: &Value, path: &Path) {
        let ok = match v.as_str() {
            Some(id) if self.strict => limits::is_valid_commit_id(id),
            Some(id) => id.chars().count() == limits::COMMIT_ID_LEN,
            None => false,
        };
        if !ok {
            self.issue(path, format!("must be a git SHA-1: 40 lowercase hex characters ({}), got {v}", limits::COMMIT_ID_PATTERN));
        }
    }

    fn name_version(&mut self, o: &Map<String, Value>, path: &Path, key: &str) {
        if let Some(v) = self.get(o, key) {
            let p = Path::Key(path, key);
            if let Some(nv) = self.object(v, &p, &["name", "version"], &[]) {
                self.string(nv, &p, "name", 1, usize::MAX);
                self.string(nv, &p, "version", 1, usize::MAX);
            }
        }
    }

    /// A telemetry pair `[milliseconds >= 0, percent 0..100]`.
    fn telemetry(&mut self, s: &Value, path: &Path) {
        let ok = s.as_array().is_some_and(|a| {
            a.len() == 2 && a[0].as_f64().is_some_and(|ms| ms >= 0.0) && a[1].as_f64().is_some_and(|x| (0.0..=100.0).contains(&x))
        });
        if !ok {
            self.issue(path, format!("must be a pair [milliseconds >= 0, percent 0..100], got {s}"));
        }
    }

    fn report(&mut self, doc: &Value, path: &Path) {
        const REQUIRED: [&str; 5] = ["category", "commitId", "environments", "startTimestamp", "duration"];
        const OPTIONAL: [&str; 18] = [
            "title", "url", "configPath", "relatedCommitIds", "flakinessProject", "generatedBy", "testRunner",
            "runtime", "suites", "tests", "unattributedErrors", "sources", "cpuCount", "ramBytes", "cpuAvg",
            "cpuMax", "ram", "systemUtilization",
        ];
        let Some(o) = self.object(doc, path, &REQUIRED, &OPTIONAL) else { return };
        self.string(o, path, "category", 1, limits::CATEGORY_MAX_LEN);
        if let Some(id) = self.get(o, "commitId") {
            self.commit_id(id, &Path::Key(path, "commitId"));
        }
        self.each(o, path, "relatedCommitIds", Self::commit_id);
        self.int(o, path, "startTimestamp", MS);
        self.int(o, path, "duration", MS);
        for key in ["title", "url", "flakinessProject"] {
            self.string(o, path, key, 0, usize::MAX);
        }
        self.path(o, path, "configPath");
        for key in ["generatedBy", "testRunner", "runtime"] {
            self.name_version(o, path, key);
        }
        self.int(o, path, "cpuCount", MS);
        self.int(o, path, "ramBytes", MS);
        for key in ["cpuAvg", "cpuMax", "ram"] {
            self.each(o, path, key, Self::telemetry);
        }
        if let Some(u) = self.get(o, "systemUtilization") {
            self.system_utilization(u, &Path::Key(path, "systemUtilization"));
        }
        self.each(o, path, "environments", Self::environment);
        self.each(o, path, "suites", Self::suite);
        self.each(o, path, "tests", Self::test);
        self.each(o, path, "unattributedErrors", Self::error);
        self.each(o, path, "sources", Self::source);
    }

    fn source(&mut self, v: &Value, path: &Path) {
        if let Some(o) = self.object(v, path, &["filePath", "text"], &["lineOffset", "contentType"]) {
            self.path(o, path, "filePath");
            self.string(o, path, "text", 0, usize::MAX);
            self.int(o, path, "lineOffset", SMALL);
            self.string(o, path, "contentType", 0, usize::MAX);
        }
    }

    fn system_utilization(&mut self, v: &Value, path: &Path) {
        let Some(o) = self.object(v, path, &["totalMemoryBytes", "startTimestamp", "samples"], &[]) else { return };
        self.int(o, path, "totalMemoryBytes", MS);
        self.int(o, path, "startTimestamp", MS);
        self.each(o, path, "samples", Self::sample);
    }

    fn sample(&mut self, v: &Value, path: &Path) {
        let Some(o) = self.object(v, path, &["dts", "cpuUtilization", "memoryUtilization"], &[]) else { return };
        self.int(o, path, "dts", MS);
        for key in ["cpuUtilization", "memoryUtilization"] {
            if let Some(x) = self.get(o, key) {
                self.percent(x, &Path::Key(path, key));
            }
        }
    }

    fn environment(&mut self, v: &Value, path: &Path) {
        let Some(o) = self.object(v, path, &["name"], &["systemData", "userSuppliedData", "metadata"]) else { return };
        self.string(o, path, "name", 1, limits::ENVIRONMENT_NAME_MAX_LEN);
        if let Some(sd) = self.get(o, "systemData") {
            let p = Path::Key(path, "systemData");
            if let Some(so) = self.object(sd, &p, &[], &["osName", "osVersion", "osArch"]) {
                for k in ["osName", "osVersion", "osArch"] {
                    self.string(so, &p, k, 0, usize::MAX);
                }
            }
        }
        if !self.strict {
            return;
        }
        for key in ["userSuppliedData", "metadata"] {
            if let Some(m) = self.get(o, key) {
                let p = Path::Key(path, key);
                match m.as_object() {
                    None => self.issue(&p, "must be an object of strings, numbers and booleans"),
                    Some(m) => {
                        for (k, x) in m {
                            if !(x.is_string() || x.is_number() || x.is_boolean()) {
                                self.issue(&Path::Key(&p, k), format!("must be a string, number or boolean, got {}", kind(x)));
                            }
                        }
                    }
                }
            }
        }
    }

    fn location(&mut self, o: &Map<String, Value>, path: &Path) {
        let Some(v) = self.get(o, "location") else { return };
        let p = Path::Key(path, "location");
        let Some(l) = self.object(v, &p, &["file", "line", "column"], &[]) else { return };
        self.path(l, &p, "file");
        self.int(l, &p, "line", POSITION);
        self.int(l, &p, "column", POSITION);
    }

    fn suite(&mut self, v: &Value, path: &Path) {
        let Some(o) = self.object(v, path, &["type", "title"], &["location", "suites", "tests"]) else { return };
        self.one_of(o, path, "type", &SUITE_TYPES);
        self.string(o, path, "title", 0, usize::MAX);
        self.location(o, path);
        self.each(o, path, "suites", Self::suite);
        self.each(o, path, "tests", Self::test);
    }

    fn test(&mut self, v: &Value, path: &Path) {
        let Some(o) = self.object(v, path, &["title", "attempts"], &["location", "tags"]) else { return };
        self.string(o, path, "title", 0, usize::MAX);
        self.location(o, path);
        self.each(o, path, "tags", Self::a_string);
        self.each(o, path, "attempts", Self::attempt);
    }

    fn attempt(&mut self, v: &Value, path: &Path) {
        const OPTIONAL: [&str; 13] = [
            "environmentIdx", "expectedStatus", "status", "duration", "timeout", "annotations", "errors",
            "parallelIndex", "steps", "stdio", "attachments", "stdout", "stderr",
        ];
        let Some(o) = self.object(v, path, &["startTimestamp"], &OPTIONAL) else { return };
        let idx = self.int(o, path, "environmentIdx", INDEX);
        if self.strict {
            let p = Path::Key(path, "environmentIdx");
            match idx {
                Some(idx) if idx as usize >= self.envs => {
                    self.issue(&p, format!("{idx} is out of range ({} environments)", self.envs))
                }
                None if self.get(o, "environmentIdx").is_none() && self.envs == 0 => {
                    self.issue(&p, "defaults to 0, but the report has no environments")
                }
                _ => {}
            }
        }
        self.one_of(o, path, "status", &STATUSES);
        self.one_of(o, path, "expectedStatus", &STATUSES);
        self.int(o, path, "startTimestamp", MS);
        self.int(o, path, "duration", MS);
        self.int(o, path, "timeout", MS);
        self.int(o, path, "parallelIndex", SMALL);
        self.each(o, path, "annotations", Self::annotation);
        self.each(o, path, "errors", Self::error);
        self.each(o, path, "steps", Self::step);
        self.each(o, path, "stdio", Self::timed_stdio);
        self.each(o, path, "stdout", Self::stdio);
        self.each(o, path, "stderr", Self::stdio);
        self.each(o, path, "attachments", Self::attachment);
    }

    fn annotation(&mut self, v: &Value, path: &Path) {
        if let Some(o) = self.object(v, path, &["type"], &["description", "location"]) {
            self.string(o, path, "type", 0, usize::MAX);
            self.string(o, path, "description", 0, usize::MAX);
            self.location(o, path);
        }
    }

    /// An entry of `stdio`: output with its stream and time.
    fn timed_stdio(&mut self, v: &Value, path: &Path) {
        let Some(o) = self.object(v, path, &[], &["stream", "dts", "text", "buffer"]) else { return };
        if let Some(s) = self.get(o, "stream") {
            if s.as_u64() != Some(1) && s.as_u64() != Some(2) {
                self.issue(&Path::Key(path, "stream"), format!("must be 1 (stdout) or 2 (stderr), got {s}"));
            }
        }
        self.int(o, path, "dts", MS);
        self.output(o, path);
    }

    /// An entry of `stdout` or `stderr`: output alone.
    fn stdio(&mut self, v: &Value, path: &Path) {
        if let Some(o) = self.object(v, path, &[], &["text", "buffer"]) {
            self.output(o, path);
        }
    }

    /// The `text` or `buffer` of an output entry.
    fn output(&mut self, o: &Map<String, Value>, path: &Path) {
        let (text, buffer) = (self.get(o, "text"), self.get(o, "buffer"));
        if !self.strict {
            // the schema: a string `text`, or else a string `buffer`
            if !text.is_some_and(Value::is_string) && !buffer.is_some_and(Value::is_string) {
                self.issue(path, "must have a string `text` or a string `buffer`");
            }
            return;
        }
        match (text, buffer) {
            (Some(_), Some(_)) => self.issue(path, "must have exactly one of `text` and `buffer`, not both"),
            (None, None) => self.issue(path, "must have one of `text` or `buffer`"),
            (Some(t), None) if !t.is_string() => self.issue(&Path::Key(path, "text"), "must be a string"),
            (None, Some(b)) if !b.as_str().is_some_and(is_base64) => {
                self.issue(&Path::Key(path, "buffer"), "must be valid base64")
            }
            _ => {}
        }
    }

    fn step(&mut self, v: &Value, path: &Path) {
        let Some(o) = self.object(v, path, &["title"], &["duration", "location", "snippet", "error", "attachments", "steps"]) else {
            return;
        };
        self.string(o, path, "title", 0, usize::MAX);
        self.int(o, path, "duration", MS);
        self.string(o, path, "snippet", 0, usize::MAX);
        self.location(o, path);
        if let Some(e) = self.get(o, "error") {
            self.error(e, &Path::Key(path, "error"));
        }
        self.each(o, path, "attachments", Self::attachment);
        self.each(o, path, "steps", Self::step);
    }

    fn error(&mut self, v: &Value, path: &Path) {
        let Some(o) = self.object(v, path, &[], &["location", "message", "stack", "snippet", "value"]) else { return };
        for k in ["message", "stack", "snippet", "value"] {
            self.string(o, path, k, 0, usize::MAX);
        }
        self.location(o, path);
    }

    /// An attachment reference. The schema allows ids of 1 to 1024 characters; the strict rules
    /// want what the upload API takes: a lowercase hex content hash of at most 256.
    fn attachment(&mut self, v: &Value, path: &Path) {
        let Some(o) = self.object(v, path, &["name", "contentType", "id"], &[]) else { return };
        self.string(o, path, "name", 0, usize::MAX);
        self.string(o, path, "contentType", self.strict as usize, usize::MAX);
        let max = if self.strict { limits::MAX_ATTACHMENT_ID_LEN } else { limits::SCHEMA_ATTACHMENT_ID_MAX_LEN };
        if let (Some(id), true) = (self.string(o, path, "id", 1, max), self.strict) {
            if !id.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()) {
                self.issue(&Path::Key(path, "id"), format!("must be a lowercase hex content hash, got {id:?}"));
            }
        }
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn is_base64(s: &str) -> bool {
    let b = s.as_bytes();
    let body = b.iter().position(|&c| c == b'=').unwrap_or(b.len());
    b.len().is_multiple_of(4)
        && b.len() - body <= 2
        && b[body..].iter().all(|&c| c == b'=')
        && b[..body].iter().all(|&c| c.is_ascii_alphanumeric() || c == b'+' || c == b'/')
}
