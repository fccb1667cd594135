//! An annotated report (report-format.md; the durations exchange fills each test's `attempts`
//! with one predicted attempt per environment) turned into planner units.
//!
//! - A test's **file** is its own `location.file`, else the nearest enclosing `file` suite's
//!   `location.file` or title, else the nearest enclosing suite's `location.file` (the rule of
//!   [`crate::report::Report::tests_with_paths`] and of the runners' timings lookup).
//! - Its **id** is the file, the titles of the enclosing non-`file` suites, and its own title,
//!   joined with [`ID_SEPARATOR`] (`" › "`, U+203A with a space each side), e.g.
//!   `tests/login.spec.ts › login › rejects a bad password`. Empty titles (anonymous suites)
//!   are left out.
//! - Its **prediction** is the sum of the durations of its attempts in the chosen environment
//!   (`opts.environment`), or of all its attempts when no environment is chosen (it runs once per
//!   environment, so the predictions add up). Non-finite or non-positive durations are ignored;
//!   no attempts, or a zero sum, means unknown (the planner estimates it).
//! - Tests sharing an id (the same title path twice in one file) are one unit: their predictions
//!   add up, so running that id runs all of them on one shard.
//!
//! Why a private view and not [`crate::report::Report`]: the model describes the documents this
//! package *writes* (required `category`, `commitId`, `startTimestamp`, `duration`; integer
//! durations as `u64`; the three suite types). `fetchDurations` returns the service's annotated
//! document as it came (service-api.md 2.4: only the attempts' predicted `duration` in
//! milliseconds is specified, "other fields: not shown"), so a prediction such as `1234.5`, or a
//! document without `startTimestamp`, must still plan; the model would reject both. The view
//! reads only what planning needs and ignores everything else.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::options::EnvironmentSelector;
use super::Unit;
use crate::error::{Error, Result};

/// The separator of a test id's title path.
pub const ID_SEPARATOR: &str = " › ";

/// The fields of a report the planner reads (unknown fields are ignored, `null` is absent).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ReportView {
    #[serde(default)]
    environments: Option<Vec<EnvironmentView>>,
    #[serde(default)]
    suites: Option<Vec<SuiteView>>,
    #[serde(default)]
    tests: Option<Vec<TestView>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
struct EnvironmentView {
    #[serde(default)]
    name: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
struct LocationView {
    #[serde(default)]
    file: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
struct SuiteView {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    location: Option<LocationView>,
    #[serde(default)]
    suites: Option<Vec<SuiteView>>,
    #[serde(default)]
    tests: Option<Vec<TestView>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
struct TestView {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    location: Option<LocationView>,
    #[serde(default)]
    attempts: Option<Vec<AttemptView>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AttemptView {
    /// Absent means 0 (report-format.md).
    #[serde(default)]
    environment_idx: Option<f64>,
    #[serde(default)]
    duration: Option<f64>,
}

fn location_file(l: &Option<LocationView>) -> Option<&str> {
    l.as_ref().and_then(|l| l.file.as_deref()).filter(|f| !f.is_empty())
}

/// The index `selector` picks in `report.environments`.
fn environment_index(report: &ReportView, selector: &EnvironmentSelector) -> Result<usize> {
    let envs = report.environments.as_deref().unwrap_or_default();
    let names = || {
        if envs.is_empty() {
            return "none".to_string();
        }
        envs.iter().enumerate().map(|(i, e)| format!("{i}: {:?}", e.name.as_deref().unwrap_or(""))).collect::<Vec<_>>().join(", ")
    };
    match selector {
        EnvironmentSelector::Index(i) => {
            if i.fract() == 0.0 && *i >= 0.0 && *i < envs.len() as f64 {
                Ok(*i as usize)
            } else {
                Err(Error::invalid_input(format!(
                    "environment {i} is not an index of the report's {} environments ({})",
                    envs.len(),
                    names()
                )))
            }
        }
        EnvironmentSelector::Name(name) => {
            let mut found = envs.iter().enumerate().filter(|(_, e)| e.name.as_deref() == Some(name)).map(|(i, _)| i);
            match (found.next(), found.next()) {
                (Some(i), None) => Ok(i),
                (None, _) => Err(Error::invalid_input(format!(
                    "environment {name:?} is not in the report; its environments are: {}",
                    names()
                ))),
                (Some(_), Some(_)) => Err(Error::invalid_input(format!(
                    "several environments are named {name:?} ({}); pick one by index",
                    names()
                ))),
            }
        }
    }
}

struct Walk<'a> {
    env: Option<usize>,
    /// id -> (file, summed prediction)
    out: BTreeMap<String, (Option<String>, f64)>,
    /// Non-empty titles of the enclosing non-file suites.
    path: Vec<&'a str>,
}

impl<'a> Walk<'a> {
    fn test(&mut self, t: &'a TestView, file_suite: Option<&'a str>, suite_file: Option<&'a str>) {
        let file = location_file(&t.location).or(file_suite).or(suite_file);
        let title = t.title.as_deref().unwrap_or("");
        let mut id = String::new();
        for part in file.into_iter().chain(self.path.iter().copied()).chain(Some(title).filter(|t| !t.is_empty())) {
            if !id.is_empty() {
                id.push_str(ID_SEPARATOR);
            }
            id.push_str(part);
        }
        let ms: f64 = t
            .attempts
            .iter()
            .flatten()
            .filter(|a| self.env.is_none_or(|e| a.environment_idx.unwrap_or(0.0) == e as f64))
            .filter_map(|a| a.duration)
            .filter(|d| d.is_finite() && *d > 0.0)
            .sum();
        let entry = self.out.entry(id).or_insert((file.map(str::to_owned), 0.0));
        entry.1 += ms;
    }

    fn suite(&mut self, s: &'a SuiteView, file_suite: Option<&'a str>, suite_file: Option<&'a str>) {
        let title = s.title.as_deref().unwrap_or("");
        let is_file = s.kind.as_deref() == Some("file");
        let file_suite = if is_file { location_file(&s.location).or(Some(title).filter(|t| !t.is_empty())) } else { file_suite };
        let suite_file = location_file(&s.location).or(suite_file);
        let pushed = !is_file && !title.is_empty();
        if pushed {
            self.path.push(title);
        }
        for t in s.tests.iter().flatten() {
            self.test(t, file_suite, suite_file);
        }
        for child in s.suites.iter().flatten() {
            self.suite(child, file_suite, suite_file);
        }
        if pushed {
            self.path.pop();
        }
    }
}

/// The report's tests as units (sorted by id), with the chosen environment's predictions.
pub fn units_from_report(report: &ReportView, environment: Option<&EnvironmentSelector>) -> Result<Vec<Unit<'static>>> {
    let env = environment.map(|e| environment_index(report, e)).transpose()?;
    let mut walk = Walk { env, out: BTreeMap::new(), path: Vec::new() };
    for t in report.tests.iter().flatten() {
        walk.test(t, None, None);
    }
    for s in report.suites.iter().flatten() {
        walk.suite(s, None, None);
    }
    if walk.out.contains_key("") {
        return Err(Error::invalid_input(
            "the report has a test with no title and no file; every test needs a title",
        ));
    }
    Ok(walk
        .out
        .into_iter()
        .map(|(id, (file, ms))| Unit { id: id.into(), file: file.map(Into::into), group: None, duration_ms: (ms > 0.0).then_some(ms) })
        .collect())
}
