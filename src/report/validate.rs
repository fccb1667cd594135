//! Validation of a report document: the published schema's rules plus the stricter ones of
//! report-format.md. It walks the JSON value (not the typed model) so that unknown keys,
//! fractional numbers and wrong types are all reported with the path where they are.

use serde_json::{Map, Value};

use super::model::Report;
use crate::limits;

/// One problem: where (`suites[2].tests[0].attempts[1].environmentIdx`) and what.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Issue {
    pub path: String,
    pub message: String,
}

/// Validates a typed report.
pub fn validate(report: &Report) -> Vec<Issue> {
    validate_json(&serde_json::to_value(report).unwrap_or(Value::Null))
}

/// `INVALID_INPUT` naming the first problems when `doc` is not a valid report: the check every
/// API that takes a report (the exchanges, `encodeReport`) makes before using it.
pub fn ensure_valid(doc: &Value) -> Result<(), crate::error::Error> {
    if !doc.is_object() {
        return Err(crate::error::Error::invalid_input("report must be a report document (a JSON object)"));
    }
    let issues = validate_json(doc);
    if issues.is_empty() {
        return Ok(());
    }
    const SHOWN: usize = 5;
    let shown: Vec<String> = issues.iter().take(SHOWN).map(|i| format!("{}: {}", i.path, i.message)).collect();
    let more = if issues.len() > SHOWN { format!(" (and {} more)", issues.len() - SHOWN) } else { String::new() };
    Err(crate::error::Error::invalid_input(format!(
        "report is not valid: {}{more}; validateReport(report) lists every problem",
        shown.join("; ")
    )))
}

/// Validates a report given as JSON. Empty when valid.
pub fn validate_json(doc: &Value) -> Vec<Issue> {
    let mut v = Validator { issues: Vec::new(), envs: 0 };
    v.envs = doc.get("environments").and_then(Value::as_array).map_or(0, Vec::len);
    v.report(doc, "");
    v.issues
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

struct Validator {
    issues: Vec<Issue>,
    envs: usize,
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

impl Validator {
    fn issue(&mut self, path: &str, message: impl Into<String>) {
        self.issues.push(Issue { path: if path.is_empty() { "(report)".into() } else { path.into() }, message: message.into() });
    }

    /// Checks `v` is an object with the `required` keys and no key outside `required` and
    /// `optional`; returns it for the field checks.
    fn object<'a>(&mut self, v: &'a Value, path: &str, required: &[&str], optional: &[&str]) -> Option<&'a Map<String, Value>> {
        let Some(o) = v.as_object() else {
            self.issue(path, format!("must be an object, got {}", kind(v)));
            return None;
        };
        for k in required {
            if !o.contains_key(*k) {
                self.issue(&join(path, k), "is required");
            }
        }
        for k in o.keys() {
            if !required.contains(&k.as_str()) && !optional.contains(&k.as_str()) {
                self.issue(&join(path, k), "is not a field of this object (unknown key)");
            }
        }
        Some(o)
    }

    fn string(&mut self, o: &Map<String, Value>, path: &str, key: &str, min: usize, max: usize) -> Option<String> {
        let v = o.get(key)?;
        let p = join(path, key);
        match v.as_str() {
            None => self.issue(&p, format!("must be a string, got {}", kind(v))),
            Some(s) if s.chars().count() < min || s.chars().count() > max => {
                self.issue(&p, format!("must be {min} to {max} characters, got {}", s.chars().count()))
            }
            Some(s) => return Some(s.to_string()),
        }
        None
    }

    fn uint(&mut self, o: &Map<String, Value>, path: &str, key: &str, min: u64) -> Option<u64> {
        let v = o.get(key)?;
        let p = join(path, key);
        match v.as_f64() {
            None => self.issue(&p, format!("must be a number, got {}", kind(v))),
            Some(n) if !n.is_finite() || n.fract() != 0.0 || n < min as f64 => {
                self.issue(&p, format!("must be an integer >= {min}, got {n}"))
            }
            Some(n) => return Some(n as u64),
        }
        None
    }

    fn one_of(&mut self, o: &Map<String, Value>, path: &str, key: &str, allowed: &[&str]) {
        if let Some(v) = o.get(key) {
            if !v.as_str().is_some_and(|s| allowed.contains(&s)) {
                self.issue(&join(path, key), format!("must be one of {}, got {v}", allowed.join(", ")));
            }
        }
    }

    fn array<'a>(&mut self, o: &'a Map<String, Value>, path: &str, key: &str) -> Vec<(String, &'a Value)> {
        let Some(v) = o.get(key) else { return Vec::new() };
        let p = join(path, key);
        match v.as_array() {
            None => {
                self.issue(&p, format!("must be an array, got {}", kind(v)));
                Vec::new()
            }
            Some(a) => a.iter().enumerate().map(|(i, x)| (format!("{p}[{i}]"), x)).collect(),
        }
    }

    fn strings(&mut self, o: &Map<String, Value>, path: &str, key: &str) {
        for (p, v) in self.array(o, path, key) {
            if !v.is_string() {
                self.issue(&p, format!("must be a string, got {}", kind(v)));
            }
        }
    }

    fn name_version(&mut self, o: &Map<String, Value>, path: &str, key: &str) {
        if let Some(v) = o.get(key) {
            let p = join(path, key);
            if let Some(nv) = self.object(v, &p, &["name", "version"], &[]) {
                self.string(nv, &p, "name", 0, usize::MAX);
                self.string(nv, &p, "version", 0, usize::MAX);
            }
        }
    }

    fn report(&mut self, doc: &Value, path: &str) {
        const REQUIRED: [&str; 5] = ["category", "commitId", "environments", "startTimestamp", "duration"];
        const OPTIONAL: [&str; 18] = [
            "title", "url", "configPath", "relatedCommitIds", "flakinessProject", "generatedBy", "testRunner",
            "runtime", "suites", "tests", "unattributedErrors", "sources", "cpuCount", "ramBytes", "cpuAvg",
            "cpuMax", "ram", "systemUtilization",
        ];
        let Some(o) = self.object(doc, path, &REQUIRED, &OPTIONAL) else { return };
        self.string(o, path, "category", 1, limits::CATEGORY_MAX_LEN);
        if let Some(id) = self.string(o, path, "commitId", 0, usize::MAX) {
            if !limits::is_valid_commit_id(&id) {
                self.issue(&join(path, "commitId"), format!("must be a git SHA-1: 40 lowercase hex characters ({}), got {id:?}", limits::COMMIT_ID_PATTERN));
            }
        }
        for (p, c) in self.array(o, path, "relatedCommitIds") {
            if !c.as_str().is_some_and(limits::is_valid_commit_id) {
                self.issue(&p, "must be 40 lowercase hex characters");
            }
        }
        self.uint(o, path, "startTimestamp", 0);
        self.uint(o, path, "duration", 0);
        for key in ["title", "url", "flakinessProject"] {
            self.string(o, path, key, 0, usize::MAX);
        }
        if let Some(p) = self.string(o, path, "configPath", 0, usize::MAX) {
            if let Err(m) = check_path(&p) {
                self.issue(&join(path, "configPath"), m);
            }
        }
        for key in ["generatedBy", "testRunner", "runtime"] {
            self.name_version(o, path, key);
        }
        self.uint(o, path, "cpuCount", 0);
        self.uint(o, path, "ramBytes", 0);
        for key in ["cpuAvg", "cpuMax", "ram"] {
            for (p, s) in self.array(o, path, key) {
                let ok = s.as_array().is_some_and(|a| {
                    a.len() == 2 && a[0].is_number() && a[1].as_f64().is_some_and(|x| (0.0..=100.0).contains(&x))
                });
                if !ok {
                    self.issue(&p, "must be a pair [milliseconds, percent 0..100]");
                }
            }
        }
        for (p, e) in self.array(o, path, "environments") {
            self.environment(e, &p);
        }
        for (p, s) in self.array(o, path, "suites") {
            self.suite(s, &p);
        }
        for (p, t) in self.array(o, path, "tests") {
            self.test(t, &p);
        }
        for (p, e) in self.array(o, path, "unattributedErrors") {
            self.error(e, &p);
        }
        for (p, s) in self.array(o, path, "sources") {
            if let Some(so) = self.object(s, &p, &["filePath", "text"], &["lineOffset", "contentType"]) {
                if let Some(f) = self.string(so, &p, "filePath", 0, usize::MAX) {
                    if let Err(m) = check_path(&f) {
                        self.issue(&join(&p, "filePath"), m);
                    }
                }
                self.string(so, &p, "text", 0, usize::MAX);
                self.uint(so, &p, "lineOffset", 0);
                self.string(so, &p, "contentType", 0, usize::MAX);
            }
        }
        if o.contains_key("systemUtilization") && !o["systemUtilization"].is_object() {
            self.issue(&join(path, "systemUtilization"), "must be an object");
        }
    }

    fn environment(&mut self, v: &Value, path: &str) {
        let Some(o) = self.object(v, path, &["name"], &["systemData", "userSuppliedData", "metadata"]) else { return };
        self.string(o, path, "name", 1, limits::ENVIRONMENT_NAME_MAX_LEN);
        if let Some(sd) = o.get("systemData") {
            let p = join(path, "systemData");
            if let Some(so) = self.object(sd, &p, &[], &["osName", "osVersion", "osArch"]) {
                for k in ["osName", "osVersion", "osArch"] {
                    self.string(so, &p, k, 0, usize::MAX);
                }
            }
        }
        for key in ["userSuppliedData", "metadata"] {
            if let Some(m) = o.get(key) {
                let p = join(path, key);
                match m.as_object() {
                    None => self.issue(&p, "must be an object of strings, numbers and booleans"),
                    Some(m) => {
                        for (k, x) in m {
                            if !(x.is_string() || x.is_number() || x.is_boolean()) {
                                self.issue(&join(&p, k), format!("must be a string, number or boolean, got {}", kind(x)));
                            }
                        }
                    }
                }
            }
        }
    }

    fn location(&mut self, o: &Map<String, Value>, path: &str) {
        let Some(v) = o.get("location") else { return };
        let p = join(path, "location");
        let Some(l) = self.object(v, &p, &["file", "line", "column"], &[]) else { return };
        if let Some(f) = self.string(l, &p, "file", 0, usize::MAX) {
            if let Err(m) = check_path(&f) {
                self.issue(&join(&p, "file"), m);
            }
        }
        self.uint(l, &p, "line", 1);
        self.uint(l, &p, "column", 1);
    }

    fn suite(&mut self, v: &Value, path: &str) {
        let Some(o) = self.object(v, path, &["type", "title"], &["location", "suites", "tests"]) else { return };
        self.one_of(o, path, "type", &SUITE_TYPES);
        self.string(o, path, "title", 0, usize::MAX);
        self.location(o, path);
        for (p, s) in self.array(o, path, "suites") {
            self.suite(s, &p);
        }
        for (p, t) in self.array(o, path, "tests") {
            self.test(t, &p);
        }
    }

    fn test(&mut self, v: &Value, path: &str) {
        let Some(o) = self.object(v, path, &["title", "attempts"], &["location", "tags"]) else { return };
        self.string(o, path, "title", 0, usize::MAX);
        self.location(o, path);
        self.strings(o, path, "tags");
        for (p, a) in self.array(o, path, "attempts") {
            self.attempt(a, &p);
        }
    }

    fn attempt(&mut self, v: &Value, path: &str) {
        const OPTIONAL: [&str; 13] = [
            "environmentIdx", "expectedStatus", "status", "duration", "timeout", "annotations", "errors",
            "parallelIndex", "steps", "stdio", "attachments", "stdout", "stderr",
        ];
        let Some(o) = self.object(v, path, &["startTimestamp"], &OPTIONAL) else { return };
        if let Some(idx) = self.uint(o, path, "environmentIdx", 0) {
            if idx as usize >= self.envs {
                self.issue(&join(path, "environmentIdx"), format!("{idx} is out of range ({} environments)", self.envs));
            }
        } else if !o.contains_key("environmentIdx") && self.envs == 0 {
            self.issue(&join(path, "environmentIdx"), "defaults to 0, but the report has no environments");
        }
        self.one_of(o, path, "status", &STATUSES);
        self.one_of(o, path, "expectedStatus", &STATUSES);
        self.uint(o, path, "startTimestamp", 0);
        self.uint(o, path, "duration", 0);
        self.uint(o, path, "timeout", 0);
        self.uint(o, path, "parallelIndex", 0);
        for (p, a) in self.array(o, path, "annotations") {
            if let Some(ao) = self.object(a, &p, &["type"], &["description", "location"]) {
                self.string(ao, &p, "type", 0, usize::MAX);
                self.string(ao, &p, "description", 0, usize::MAX);
                self.location(ao, &p);
            }
        }
        for (p, e) in self.array(o, path, "errors") {
            self.error(e, &p);
        }
        for (p, s) in self.array(o, path, "steps") {
            self.step(s, &p);
        }
        for (p, s) in self.array(o, path, "stdio") {
            if let Some(so) = self.object(s, &p, &[], &["stream", "dts", "text", "buffer"]) {
                self.stdio(so, &p);
            }
        }
        for key in ["stdout", "stderr"] {
            for (p, s) in self.array(o, path, key) {
                if let Some(so) = self.object(s, &p, &[], &["text", "buffer"]) {
                    self.stdio(so, &p);
                }
            }
        }
        for (p, a) in self.array(o, path, "attachments") {
            self.attachment(a, &p);
        }
    }

    fn stdio(&mut self, o: &Map<String, Value>, path: &str) {
        if let Some(s) = o.get("stream") {
            if s.as_u64() != Some(1) && s.as_u64() != Some(2) {
                self.issue(&join(path, "stream"), format!("must be 1 (stdout) or 2 (stderr), got {s}"));
            }
        }
        self.uint(o, path, "dts", 0);
        match (o.get("text"), o.get("buffer")) {
            (Some(_), Some(_)) => self.issue(path, "must have exactly one of `text` and `buffer`, not both"),
            (None, None) => self.issue(path, "must have one of `text` or `buffer`"),
            (Some(t), None) if !t.is_string() => self.issue(&join(path, "text"), "must be a string"),
            (None, Some(b)) if !b.as_str().is_some_and(is_base64) => {
                self.issue(&join(path, "buffer"), "must be valid base64")
            }
            _ => {}
        }
    }

    fn step(&mut self, v: &Value, path: &str) {
        let Some(o) = self.object(v, path, &["title"], &["duration", "location", "snippet", "error", "attachments", "steps"]) else {
            return;
        };
        self.string(o, path, "title", 0, usize::MAX);
        self.uint(o, path, "duration", 0);
        self.string(o, path, "snippet", 0, usize::MAX);
        self.location(o, path);
        if let Some(e) = o.get("error") {
            self.error(e, &join(path, "error"));
        }
        for (p, a) in self.array(o, path, "attachments") {
            self.attachment(a, &p);
        }
        for (p, s) in self.array(o, path, "steps") {
            self.step(s, &p);
        }
    }

    fn error(&mut self, v: &Value, path: &str) {
        let Some(o) = self.object(v, path, &[], &["location", "message", "stack", "snippet", "value"]) else { return };
        for k in ["message", "stack", "snippet", "value"] {
            self.string(o, path, k, 0, usize::MAX);
        }
        self.location(o, path);
    }

    fn attachment(&mut self, v: &Value, path: &str) {
        let Some(o) = self.object(v, path, &["name", "contentType", "id"], &[]) else { return };
        self.string(o, path, "name", 0, usize::MAX);
        self.string(o, path, "contentType", 1, usize::MAX);
        if let Some(id) = self.string(o, path, "id", 1, limits::MAX_ATTACHMENT_ID_LEN) {
            if !id.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()) {
                self.issue(&join(path, "id"), format!("must be a lowercase hex content hash, got {id:?}"));
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
