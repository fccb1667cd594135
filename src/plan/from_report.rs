//! An annotated report (report-format.md; the durations exchange fills each test's `attempts`
//! with one predicted attempt per environment) turned into planner units.
//!
//! This reads a small private serde view of the report, only the fields the planner needs
//! (unknown fields are ignored), so it can later be swapped for the crate's report model.
//!
//! - A test's **id** is its suite title path plus its own title joined with `" › "` (U+203A with
//!   a space each side), e.g. `tests/login.spec.ts › login › rejects a bad password`; suites with
//!   an empty title (anonymous suites) are left out of the path.
//! - Its **file** is the title of the nearest enclosing `file` suite, else its own
//!   `location.file`, else the nearest enclosing suite's `location.file`.
//! - Its **prediction** is the sum of the durations of its attempts in the chosen environment
//!   (`opts.environment`), or of all its attempts when no environment is chosen (the summed
//!   prediction across environments). No attempts, or a zero sum, means unknown.
//! - Tests sharing an id (the same title path twice) are one unit: their predictions add up, so
//!   running that id runs all of them on one shard.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::options::EnvironmentSelector;
use super::Unit;
use crate::error::{Error, Result};

/// The separator of a test id's title path.
pub const ID_SEPARATOR: &str = " › ";

/// The fields of a report the planner reads.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ReportView {
    #[serde(default)]
    environments: Vec<EnvironmentView>,
    #[serde(default)]
    suites: Vec<SuiteView>,
    #[serde(default)]
    tests: Vec<TestView>,
}

#[derive(Debug, Clone, Default, Deserialize)]
struct EnvironmentView {
    #[serde(default)]
    name: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
struct LocationView {
    file: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
struct SuiteView {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    title: String,
    location: Option<LocationView>,
    #[serde(default)]
    suites: Vec<SuiteView>,
    #[serde(default)]
    tests: Vec<TestView>,
}

#[derive(Debug, Clone, Default, Deserialize)]
struct TestView {
    #[serde(default)]
    title: String,
    location: Option<LocationView>,
    #[serde(default)]
    attempts: Vec<AttemptView>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AttemptView {
    /// Defaults to 0 (report-format.md).
    #[serde(default)]
    environment_idx: f64,
    #[serde(default)]
    duration: f64,
}

/// The index `selector` picks in `report.environments`.
fn environment_index(report: &ReportView, selector: &EnvironmentSelector) -> Result<usize> {
    let names = || report.environments.iter().map(|e| format!("{:?}", e.name)).collect::<Vec<_>>().join(", ");
    match selector {
        EnvironmentSelector::Index(i) => {
            if i.fract() == 0.0 && *i >= 0.0 && (*i as usize) < report.environments.len() {
                Ok(*i as usize)
            } else {
                Err(Error::invalid_input(format!(
                    "environment {i} is not an index of the report's {} environments ({})",
                    report.environments.len(),
                    names()
                )))
            }
        }
        EnvironmentSelector::Name(name) => {
            let mut found = report.environments.iter().enumerate().filter(|(_, e)| &e.name == name).map(|(i, _)| i);
            match (found.next(), found.next()) {
                (Some(i), None) => Ok(i),
                (None, _) => Err(Error::invalid_input(format!(
                    "environment {name:?} is not in the report; its environments are: {}",
                    names()
                ))),
                (Some(_), Some(_)) => Err(Error::invalid_input(format!(
                    "several environments are named {name:?}; pick one by index"
                ))),
            }
        }
    }
}

struct Walk<'a> {
    env: Option<usize>,
    /// id -> (file, summed prediction)
    out: BTreeMap<String, (Option<String>, f64)>,
    path: Vec<&'a str>,
}

impl<'a> Walk<'a> {
    fn test(&mut self, t: &'a TestView, file_suite: Option<&'a str>, suite_file: Option<&'a str>) {
        let mut parts = self.path.clone();
        parts.push(&t.title);
        let id = parts.join(ID_SEPARATOR);
        let file = file_suite.or(t.location.as_ref().map(|l| l.file.as_str())).or(suite_file).map(str::to_owned);
        let ms: f64 = t
            .attempts
            .iter()
            .filter(|a| self.env.is_none_or(|e| a.environment_idx == e as f64))
            .map(|a| a.duration)
            .filter(|d| d.is_finite() && *d > 0.0)
            .sum();
        let entry = self.out.entry(id).or_insert((file, 0.0));
        entry.1 += ms;
    }

    fn suite(&mut self, s: &'a SuiteView, file_suite: Option<&'a str>, suite_file: Option<&'a str>) {
        let file_suite = if s.kind == "file" { Some(s.title.as_str()) } else { file_suite };
        let suite_file = s.location.as_ref().map(|l| l.file.as_str()).or(suite_file);
        let pushed = !s.title.is_empty();
        if pushed {
            self.path.push(&s.title);
        }
        for t in &s.tests {
            self.test(t, file_suite, suite_file);
        }
        for child in &s.suites {
            self.suite(child, file_suite, suite_file);
        }
        if pushed {
            self.path.pop();
        }
    }
}

/// The report's tests as units (sorted by id), with the chosen environment's predictions.
pub fn units_from_report(report: &ReportView, environment: Option<&EnvironmentSelector>) -> Result<Vec<Unit>> {
    let env = environment.map(|e| environment_index(report, e)).transpose()?;
    let mut walk = Walk { env, out: BTreeMap::new(), path: Vec::new() };
    for t in &report.tests {
        walk.test(t, None, None);
    }
    for s in &report.suites {
        walk.suite(s, None, None);
    }
    Ok(walk
        .out
        .into_iter()
        .map(|(id, (file, ms))| Unit { id, file, group: None, duration_ms: (ms > 0.0).then_some(ms) })
        .collect())
}
