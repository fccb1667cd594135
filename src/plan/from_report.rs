//! An annotated report (docs/report-format.md §4.2; the durations exchange fills each test's `attempts`
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
//!   environment, so the predictions add up). Non-finite or negative durations are ignored; no
//!   attempt with a duration means unknown (the planner estimates it), and a measured sum of 0 ms
//!   is known (1 ms, the least the planner counts for a measured unit).
//! - Tests sharing an id (the same title path twice in one file) are one unit: their predictions
//!   add up, so running that id runs all of them on one shard.
//!
//! Why a private view and not [`crate::report::Report`]: the model describes the documents this
//! package *writes* (required `category`, `commitId`, `startTimestamp`, `duration`; integer
//! durations as `u64`; the three suite types). `fetchDurations` returns the service's annotated
//! document as it came (docs/service-contract.md §4.5: only the attempts' predicted `duration`
//! in milliseconds is promised, no other field), so a prediction such as `1234.5`, or a
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
/// `environments` is required, as in every report (the one field that tells a report from any
/// other JSON object: `{"a": 1}` is refused, not planned as a report of no tests).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ReportView {
    environments: Vec<EnvironmentView>,
    /// The runner (`jest`, `vitest`, `playwright`), for [`super::cost::learn`].
    #[serde(default)]
    category: Option<String>,
    /// For the costs a runner recorded ([`super::cost::COSTS_SOURCE`]).
    #[serde(default)]
    sources: Option<Vec<SourceView>>,
    /// The run's wall time (for [`super::recommend::fixed_cost_of`]).
    #[serde(default)]
    pub(super) duration: Option<f64>,
    /// When the run started (ms since the epoch), for [`super::cost::learn`].
    #[serde(default, rename = "startTimestamp")]
    pub(super) start_timestamp: Option<f64>,
    #[serde(default)]
    suites: Option<Vec<SuiteView>>,
    #[serde(default)]
    tests: Option<Vec<TestView>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SourceView {
    #[serde(default)]
    file_path: Option<String>,
    #[serde(default)]
    text: Option<String>,
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
pub(super) struct AttemptView {
    /// Absent means 0 (docs/report-format.md §3.5).
    #[serde(default)]
    environment_idx: Option<f64>,
    #[serde(default)]
    pub(super) duration: Option<f64>,
    #[serde(default)]
    pub(super) start_timestamp: Option<f64>,
    #[serde(default)]
    pub(super) parallel_index: Option<f64>,
    /// Absent means `passed` (docs/report-format.md §3.5), as `expected_status`.
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    expected_status: Option<String>,
}

impl AttemptView {
    /// The attempt ended as expected (absent statuses are `passed`).
    fn as_expected(&self) -> bool {
        self.status.as_deref().unwrap_or("passed") == self.expected_status.as_deref().unwrap_or("passed")
    }
}

impl ReportView {
    /// The report's `category` (its runner), if any.
    pub fn category(&self) -> Option<&str> {
        self.category.as_deref()
    }

    /// The text of the `sources` entry at `file_path`, if any (the last one given).
    pub fn source_text(&self, file_path: &str) -> Option<&str> {
        self.sources.iter().flatten().rev().find(|s| s.file_path.as_deref() == Some(file_path)).and_then(|s| s.text.as_deref())
    }

    /// Every attempt with its test's file (by the rule of this module) as `(file, start, duration,
    /// parallelIndex)`; an absent start or duration is 0.
    pub(super) fn attempts_with_files(&self) -> Vec<Attempt<'_>> {
        fn test<'a>(t: &'a TestView, file_suite: Option<&'a str>, suite_file: Option<&'a str>, out: &mut Vec<Attempt<'a>>) {
            let file = location_file(&t.location).or(file_suite).or(suite_file);
            let num = |v: Option<f64>| v.filter(|x| x.is_finite() && *x >= 0.0).unwrap_or(0.0);
            for a in t.attempts.iter().flatten() {
                out.push((file, num(a.start_timestamp), num(a.duration), a.parallel_index.filter(|p| p.is_finite() && *p >= 0.0), num(a.environment_idx)));
            }
        }
        fn suite<'a>(s: &'a SuiteView, file_suite: Option<&'a str>, suite_file: Option<&'a str>, out: &mut Vec<Attempt<'a>>) {
            let (file_suite, suite_file) = files_inside(s, file_suite, suite_file);
            for t in s.tests.iter().flatten() {
                test(t, file_suite, suite_file, out);
            }
            for c in s.suites.iter().flatten() {
                suite(c, file_suite, suite_file, out);
            }
        }
        let mut out = Vec::new();
        for t in self.tests.iter().flatten() {
            test(t, None, None, &mut out);
        }
        for s in self.suites.iter().flatten() {
            suite(s, None, None, &mut out);
        }
        out
    }
}

/// An attempt as the cost model reads it: its file, start, duration, `parallelIndex` and
/// `environmentIdx` (0 when absent).
pub(super) type Attempt<'a> = (Option<&'a str>, f64, f64, Option<f64>, f64);

fn location_file(l: &Option<LocationView>) -> Option<&str> {
    l.as_ref().and_then(|l| l.file.as_deref()).filter(|f| !f.is_empty())
}

/// Inside suite `s`: the nearest `file` suite's file and the nearest suite location's file, given
/// those around `s` (the file rule of this module, for every walk over suites).
fn files_inside<'a>(s: &'a SuiteView, file_suite: Option<&'a str>, suite_file: Option<&'a str>) -> (Option<&'a str>, Option<&'a str>) {
    let file_suite = if s.kind.as_deref() == Some("file") {
        location_file(&s.location).or(s.title.as_deref().filter(|t| !t.is_empty()))
    } else {
        file_suite
    };
    (file_suite, location_file(&s.location).or(suite_file))
}

/// The index `selector` picks in `report.environments`.
fn environment_index(report: &ReportView, selector: &EnvironmentSelector) -> Result<usize> {
    let envs = &report.environments;
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

/// What a walk keys each test by ([`Walk::out`], [`ListedTests::ids`]).
#[derive(Clone, Copy, PartialEq)]
enum Keys {
    /// Its unit id.
    Ids,
    /// Its file where it has one, else its id: the units of a runner that runs each file whole.
    Files,
    /// Nothing (a listing read for its files only): no id to build for each test.
    None,
}

struct Walk<'a> {
    env: Option<usize>,
    keys: Keys,
    /// id -> (file, summed prediction; none when no attempt says a duration); not filled while
    /// listing
    out: BTreeMap<String, (Option<String>, Option<f64>)>,
    /// Non-empty titles of the enclosing non-file suites.
    path: Vec<&'a str>,
    /// When kept: every test, in document order (see [`listed_tests`]).
    listed: Option<ListedTests<'a>>,
    /// The indexes of the enclosing suites, from `report.suites` down (for [`ListedTest::place`]).
    suites: Vec<u32>,
    /// The report's runner nests tests ([`nests_tests`]), and the suite walked is a test's: its
    /// tests' time is in that test's.
    nests: bool,
    nested: bool,
}

/// Every test of a report as [`listed_tests`] lists them, in document order, by column: the
/// n-th test's names are the n-th of each list.
#[derive(Debug, Default, PartialEq)]
pub struct ListedTests<'a> {
    /// Their unit ids (what `planShards` names them).
    pub ids: Vec<String>,
    /// Their files, by the rule of this module.
    pub files: Vec<Option<&'a str>>,
    /// Their own titles as the document has them (`""` for none).
    pub titles: Vec<&'a str>,
    /// Where each is in the document, one after the other: the place's length, then the indexes
    /// of the test's enclosing suites from `report.suites` down, then its index in the innermost
    /// one's `tests` (a top-level test's place is its index in `report.tests` alone). A reader of
    /// the same document finds each test by it, whatever order it walks in.
    pub places: Vec<u32>,
}

impl<'a> Walk<'a> {
    fn test(&mut self, i: usize, t: &'a TestView, file_suite: Option<&'a str>, suite_file: Option<&'a str>) {
        let file = location_file(&t.location).or(file_suite).or(suite_file);
        let title = t.title.as_deref().unwrap_or("");
        let mut id = String::new();
        match (self.keys, file) {
            (Keys::Files, Some(file)) => id.push_str(file),
            (Keys::None, _) => {}
            _ => {
                for part in file.into_iter().chain(self.path.iter().copied()).chain(Some(title).filter(|t| !t.is_empty())) {
                    if !id.is_empty() {
                        id.push_str(ID_SEPARATOR);
                    }
                    id.push_str(part);
                }
            }
        }
        if let Some(listed) = &mut self.listed {
            // a listing is all its reader takes (`listed_tests`): no map by id to fill
            listed.ids.push(id);
            listed.files.push(file);
            listed.titles.push(title);
            listed.places.push(self.suites.len() as u32 + 1);
            listed.places.extend_from_slice(&self.suites);
            listed.places.push(i as u32);
            return;
        }
        let (mut ms, mut known) = (0.0, false);
        let here = |a: &&AttemptView| self.env.is_none_or(|e| a.environment_idx.unwrap_or(0.0) == e as f64);
        // an attempt is data: its absent duration is 0 (report-format.md: `duration` default 0, as
        // a normalized report writes a 0 ms test); a test with none has no duration here
        for d in t.attempts.iter().flatten().filter(here).map(|a| a.duration.unwrap_or(0.0)).filter(|d| d.is_finite() && *d >= 0.0) {
            ms += d;
            known = true;
        }
        let entry = self.out.entry(id).or_insert((file.map(str::to_owned), None));
        if known {
            entry.1 = Some(entry.1.unwrap_or(0.0) + if self.nested { 0.0 } else { ms });
        }
    }

    fn suite(&mut self, i: usize, s: &'a SuiteView, file_suite: Option<&'a str>, suite_file: Option<&'a str>) {
        let title = s.title.as_deref().unwrap_or("");
        let is_file = s.kind.as_deref() == Some("file");
        let (file_suite, suite_file) = files_inside(s, file_suite, suite_file);
        let pushed = !is_file && !title.is_empty();
        if pushed {
            self.path.push(title);
        }
        self.suites.push(i as u32);
        for (k, t) in s.tests.iter().flatten().enumerate() {
            self.test(k, t, file_suite, suite_file);
        }
        let outer = self.nested;
        for (k, child) in s.suites.iter().flatten().enumerate() {
            self.nested = nested_in(self.nests, outer, s.tests.as_deref(), child);
            self.suite(k, child, file_suite, suite_file);
        }
        self.nested = outer;
        self.suites.pop();
        if pushed {
            self.path.pop();
        }
    }
}

fn walk(report: &ReportView, env: Option<usize>, list: bool, keys: Keys) -> Walk<'_> {
    let mut walk = Walk {
        env,
        keys,
        out: BTreeMap::new(),
        path: Vec::new(),
        listed: list.then(ListedTests::default),
        suites: Vec::new(),
        nests: nests_tests(report),
        nested: false,
    };
    for (i, t) in report.tests.iter().flatten().enumerate() {
        walk.test(i, t, None, None);
    }
    for (i, s) in report.suites.iter().flatten().enumerate() {
        walk.nested = nested_in(walk.nests, false, report.tests.as_deref(), s);
        walk.suite(i, s, None, None);
    }
    walk
}

/// Whether the tests of `suite` are nested ([`nests_tests`]): its parent's are (`outer`), or it is
/// a test's own (its subtests'): among `tests`, beside it, is one of its title.
fn nested_in(nests: bool, outer: bool, tests: Option<&[TestView]>, suite: &SuiteView) -> bool {
    outer
        || (nests
            && suite.kind.as_deref() != Some("file")
            && tests.unwrap_or_default().iter().any(|t| t.title.is_some() && t.title == suite.title))
}

/// Whether the report's runner records a test inside a test, the outer one's duration holding the
/// inner ones' (node:test's subtests: `t.test()` inside a `test()`, each reported as a test, in a
/// suite of the test's title beside it). A nested test, in such a suite at any depth, counts its
/// time once, by its outermost test: a file's time is its outermost tests' (as node:test spends
/// it), in the planner's units (a nested one counts 0 ms measured) and in
/// [`TestDuration::nested`].
fn nests_tests(report: &ReportView) -> bool {
    report.category() == Some("node-test")
}

/// Every test of the report, in document order (top-level tests, then each suite's tests before
/// its child suites): its unit id (what `planShards` names it), its file by the rule of this
/// module, its title and its place in the document. Tests that share an id are each listed. For
/// readers that show a report's tests by the planner's names (the report preview's test links
/// and comparisons: it finds each test by its place and checks its title).
pub fn listed_tests(report: &ReportView) -> ListedTests<'_> {
    walk(report, None, true, Keys::Ids).listed.unwrap_or_default()
}

/// Each test's file, as [`listed_tests`] lists them (without their ids to build): what the cost
/// model counts a file's tests by.
pub(super) fn test_files(report: &ReportView) -> Vec<Option<&str>> {
    walk(report, None, true, Keys::None).listed.unwrap_or_default().files
}

/// The report's tests as units (sorted by id), with the chosen environment's predictions.
pub fn units_from_report(report: &ReportView, environment: Option<&EnvironmentSelector>) -> Result<Vec<Unit<'static>>> {
    let env = environment.map(|e| environment_index(report, e)).transpose()?;
    let walk = walk(report, env, false, Keys::Ids);
    if walk.out.contains_key("") {
        return Err(Error::invalid_input(
            "the report has a test with no title and no file; every test needs a title",
        ));
    }
    Ok(as_units(walk.out))
}

/// The report's files as units, as a runner that runs each file whole plans them (the Jest,
/// Vitest and node:test shards: pkg-template/src/runner/timings.mjs `fileUnitsFromReport`): id
/// and file the test's file, its prediction its tests' summed before rounding (300 tests of
/// 0.2 ms are a 60 ms file, not the 300 ms of 300 units of at least 1 ms each), at least 1 ms when
/// measured. A test without a file stays a unit of its own. Sorted by id. A file's tests are
/// summed in document order, as the shards sum them ([`file_durations`]), without an id for each.
pub fn file_units_from_report(report: &ReportView) -> Vec<Unit<'static>> {
    as_units(walk(report, None, false, Keys::Files).out)
}

/// The walk's `(file, summed duration)` by id as planner units; a measured 0 ms is known: the
/// least the planner counts for a measured unit (1 ms), not the "unknown" a 0 prediction means.
fn as_units(out: BTreeMap<String, (Option<String>, Option<f64>)>) -> Vec<Unit<'static>> {
    out.into_iter()
        .map(|(id, (file, ms))| Unit { id: id.into(), file: file.map(Into::into), group: None, duration_ms: ms.map(|ms| ms.max(1.0)) })
        .collect()
}

/// One test's duration in one environment: the sum of its attempts' `duration` there.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TestDuration {
    /// The environment's name (`""` when it has none).
    pub environment: String,
    /// The test's file, by the rule of this module.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The titles of the enclosing non-`file` suites, then the test's own: exactly as the runners
    /// name the test (empty titles kept), so a runner can look its tests up.
    pub title_path: Vec<String>,
    pub duration_ms: f64,
    /// `failed` when the test's last attempt in this environment did not end as expected, `flaky`
    /// when it did after one that did not (a retry); absent otherwise. The rule of the preview's
    /// and the local service's `outcomeOf` (pkg-template/src/tests.js), per environment: what a
    /// re-run of the failed tests picks (`SHARDWISE_RERUN`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<&'static str>,
    /// A test inside another test of the same file and environment, whose duration holds this
    /// one's (node:test's subtests, see [`nests_tests`]): a file's time leaves it out.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub nested: bool,
}

/// Every (environment, test) of a report that has at least one attempt with a finite `duration`
/// in that environment, in document order: what a timings file or the durations exchange says
/// about each test, for runners that match the report's tests to their own (the Playwright
/// reporter per test and project, the Jest and Vitest sequencers summed per file). Attempts whose
/// `environmentIdx` is not an environment of the report are ignored.
pub fn test_durations(report: &ReportView) -> Vec<TestDuration> {
    listed_durations(report, true)
}

/// One file's time in a timings report: what a runner that runs each file whole (the Jest, Vitest
/// and node:test shards) reads of it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileDuration {
    pub file: String,
    /// Its tests' [`TestDuration::duration_ms`] summed over environments, in document order
    /// (nested tests left out): pkg-template/src/runner/timings.mjs `durationsByFile`.
    pub duration_ms: f64,
    /// One of its tests' outcome is `failed` in an environment (a re-run of the failed tests runs the file).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub failed: bool,
    /// One of its tests' outcome is `flaky` in an environment.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub flaky: bool,
}

/// [`test_durations`] summed by file (tests without a file left out), in the order of each file's
/// first test: all a file runner's shard reads of its timings, without a title path for each of
/// thousands of tests to build, carry across to JavaScript and read there (on a Vitest suite of
/// 3,535 tests, most of a shard's first read of its timings file in the .wasm).
pub fn file_durations(report: &ReportView) -> Vec<FileDuration> {
    let mut out: Vec<FileDuration> = Vec::new();
    // each file's place in `out` (the map type the cost model counts tests by: a new one costs the .wasm KBs)
    let mut at: BTreeMap<String, u64> = BTreeMap::new();
    for d in listed_durations(report, false) {
        let Some(file) = d.file else { continue };
        let i = match at.get(&file) {
            Some(&i) => i as usize,
            None => {
                at.insert(file.clone(), out.len() as u64);
                out.push(FileDuration { file, duration_ms: 0.0, failed: false, flaky: false });
                out.len() - 1
            }
        };
        let f = &mut out[i];
        if !d.nested {
            f.duration_ms += d.duration_ms;
        }
        f.failed |= d.outcome == Some("failed");
        f.flaky |= d.outcome == Some("flaky");
    }
    out
}

/// [`test_durations`], with each title path left empty unless `titles`.
fn listed_durations(report: &ReportView, titles: bool) -> Vec<TestDuration> {
    struct Lister<'a> {
        envs: Vec<String>,
        path: Vec<&'a str>,
        out: Vec<TestDuration>,
        nests: bool,
        nested: bool,
        titles: bool,
    }
    impl<'a> Lister<'a> {
        fn test(&mut self, t: &'a TestView, file: Option<&'a str>) {
            let file = location_file(&t.location).or(file);
            let mut sums: Vec<Option<f64>> = vec![None; self.envs.len()];
            // per environment: (its last attempt ended as expected, one did not)
            let mut ends: Vec<(bool, bool)> = vec![(true, false); self.envs.len()];
            for a in t.attempts.iter().flatten() {
                let idx = a.environment_idx.unwrap_or(0.0);
                if !(idx.fract() == 0.0 && idx >= 0.0 && (idx as usize) < sums.len()) {
                    continue;
                }
                let ok = a.as_expected();
                let end = &mut ends[idx as usize];
                *end = (ok, end.1 || !ok);
                // absent: 0 ms (`duration` default 0), a duration all the same
                let d = a.duration.unwrap_or(0.0);
                if d.is_finite() {
                    *sums[idx as usize].get_or_insert(0.0) += d;
                }
            }
            for ((env, sum), (last_ok, any_not)) in self.envs.iter().zip(sums).zip(ends) {
                let Some(duration_ms) = sum else { continue };
                let mut title_path: Vec<String> = Vec::new();
                if self.titles {
                    title_path.extend(self.path.iter().map(|s| s.to_string()));
                    title_path.push(t.title.clone().unwrap_or_default());
                }
                let outcome = if !last_ok { Some("failed") } else if any_not { Some("flaky") } else { None };
                self.out.push(TestDuration { environment: env.clone(), file: file.map(str::to_owned), title_path, duration_ms, outcome, nested: self.nested });
            }
        }
        fn suite(&mut self, s: &'a SuiteView, file: Option<&'a str>, suite_file: Option<&'a str>) {
            let title = s.title.as_deref().unwrap_or("");
            let is_file = s.kind.as_deref() == Some("file");
            let (file, suite_file) = files_inside(s, file, suite_file);
            if !is_file {
                self.path.push(title);
            }
            for t in s.tests.iter().flatten() {
                self.test(t, file.or(suite_file));
            }
            let outer = self.nested;
            for child in s.suites.iter().flatten() {
                self.nested = nested_in(self.nests, outer, s.tests.as_deref(), child);
                self.suite(child, file, suite_file);
            }
            self.nested = outer;
            if !is_file {
                self.path.pop();
            }
        }
    }
    let envs = report.environments.iter().map(|e| e.name.clone().unwrap_or_default()).collect();
    let mut l = Lister { envs, path: Vec::new(), out: Vec::new(), nests: nests_tests(report), nested: false, titles };
    for t in report.tests.iter().flatten() {
        l.test(t, None);
    }
    for s in report.suites.iter().flatten() {
        l.nested = nested_in(l.nests, false, report.tests.as_deref(), s);
        l.suite(s, None, None);
    }
    l.out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn durations(json: &str) -> Vec<(String, Option<String>, String, f64)> {
        let r: ReportView = serde_json::from_str(json).unwrap();
        test_durations(&r).into_iter().map(|d| (d.environment, d.file, d.title_path.join(" > "), d.duration_ms)).collect()
    }

    #[test]
    fn listed_tests_are_every_test_in_document_order_by_the_units_names_with_their_places() {
        let json = r#"{"environments": [],
          "suites": [{"type": "file", "title": "a.spec.ts",
            "tests": [{"title": "t"}, {"title": "t"}],
            "suites": [{"type": "describe", "title": "d", "location": {"file": "b.ts"}, "tests": [{"title": "u", "location": {"file": "c.ts"}}]},
                       {"type": "describe", "title": "", "tests": [{"title": "v"}]}]},
            {"type": "describe", "title": "loose suite", "location": {"file": "s.ts"}, "tests": [{"title": "w"}]}],
          "tests": [{"title": "top"}]}"#;
        let r: ReportView = serde_json::from_str(json).unwrap();
        let listed = listed_tests(&r);
        assert_eq!(listed.ids, ["top", "a.spec.ts › t", "a.spec.ts › t", "c.ts › d › u", "a.spec.ts › v", "s.ts › loose suite › w"]);
        assert_eq!(listed.files, [None, Some("a.spec.ts"), Some("a.spec.ts"), Some("c.ts"), Some("a.spec.ts"), Some("s.ts")]);
        assert_eq!(listed.titles, ["top", "t", "t", "u", "v", "w"]);
        // each place: its length, then the suite indexes and the test's index
        assert_eq!(listed.places, [1, 0, 2, 0, 0, 2, 0, 1, 3, 0, 0, 0, 3, 0, 1, 0, 2, 1, 0]);
        // the same names planShards gives its units
        let units: Vec<String> = units_from_report(&r, None).unwrap().iter().map(|u| u.id.to_string()).collect();
        let mut listed = listed.ids;
        listed.dedup();
        listed.sort();
        listed.dedup();
        assert_eq!(units, listed);
    }

    #[test]
    fn per_environment_sums_with_the_runners_title_paths() {
        let json = r#"{
          "environments": [{"name": "chromium"}, {"name": "firefox"}],
          "suites": [{"type": "file", "title": "a.spec.ts", "location": {"file": "a.spec.ts", "line": 1, "column": 1},
            "suites": [{"type": "describe", "title": "d", "suites": [{"type": "describe", "title": "",
              "tests": [{"title": "t", "attempts": [
                {"environmentIdx": 0, "duration": 100}, {"environmentIdx": 0, "duration": 50.5},
                {"environmentIdx": 1, "duration": 0}, {"environmentIdx": 7, "duration": 9}, {"duration": null}]}]}]}],
            "tests": [{"title": "top", "location": {"file": "other.ts"}, "attempts": [{"duration": 5}]},
                      {"title": "new", "attempts": []}]}],
          "tests": [{"title": "loose", "attempts": [{"environmentIdx": 1, "duration": 3}]}]
        }"#;
        let s = |x: &str| x.to_string();
        assert_eq!(
            durations(json),
            [
                (s("firefox"), None, s("loose"), 3.0),
                (s("chromium"), Some(s("other.ts")), s("top"), 5.0),
                (s("chromium"), Some(s("a.spec.ts")), s("d >  > t"), 150.5),
                (s("firefox"), Some(s("a.spec.ts")), s("d >  > t"), 0.0),
            ]
        );
    }

    #[test]
    fn each_environments_outcome_is_its_last_attempts_against_what_was_expected() {
        let json = r#"{
          "environments": [{"name": "chromium"}, {"name": "firefox"}],
          "tests": [
            {"title": "retried then passed", "attempts": [{"status": "failed", "duration": 5}, {"duration": 4}]},
            {"title": "failed in one", "attempts": [{"duration": 1}, {"environmentIdx": 1, "status": "timedOut", "duration": 9}]},
            {"title": "failing as expected", "attempts": [{"status": "failed", "expectedStatus": "failed", "duration": 2}]},
            {"title": "passed, then failed", "attempts": [{"duration": 1}, {"status": "interrupted", "duration": 1}]},
            {"title": "skipped", "attempts": [{"status": "skipped", "expectedStatus": "skipped", "duration": 0}]}
          ]
        }"#;
        let r: ReportView = crate::from_json(json.as_bytes()).unwrap();
        let got: Vec<(String, String, Option<&str>)> =
            test_durations(&r).into_iter().map(|d| (d.environment, d.title_path.join(" > "), d.outcome)).collect();
        let s = |x: &str| x.to_string();
        assert_eq!(
            got,
            [
                (s("chromium"), s("retried then passed"), Some("flaky")),
                (s("chromium"), s("failed in one"), None),
                (s("firefox"), s("failed in one"), Some("failed")),
                (s("chromium"), s("failing as expected"), None),
                (s("chromium"), s("passed, then failed"), Some("failed")),
                (s("chromium"), s("skipped"), None),
            ]
        );
        // only a failed or flaky test says so: a timings list of passing tests is unchanged
        let json = serde_json::to_string(&test_durations(&r)[1]).unwrap();
        assert!(!json.contains("outcome"), "{json}");
    }

    /// node:test: a test with subtests is a test too, its duration holding theirs. A file's time
    /// (its units summed, what the cost model calibrates against) counts them once.
    #[test]
    fn a_node_test_subtests_time_is_counted_once_by_its_outermost_test() {
        let report = |category: &str| {
            format!(
                r#"{{"category": "{category}", "environments": [{{"name": "node"}}], "suites": [
                  {{"type": "file", "title": "test/search.test.mjs", "tests": [
                      {{"title": "search", "attempts": [{{"duration": 100}}]}},
                      {{"title": "a slow one", "attempts": [{{"duration": 150}}]}}],
                    "suites": [{{"type": "suite", "title": "search", "tests": [{{"title": "finds by title", "attempts": [{{"duration": 60}}]}}],
                      "suites": [{{"type": "suite", "title": "finds by title", "tests": [{{"title": "deeper", "attempts": [{{"duration": 20}}]}}]}}]}}]}},
                  {{"type": "file", "title": "test/cart.test.mjs", "suites": [{{"type": "suite", "title": "cart", "tests": [
                      {{"title": "adds an item", "attempts": [{{"duration": 5}}]}}],
                    "suites": [{{"type": "suite", "title": "coupons", "tests": [{{"title": "applies one", "attempts": [{{"duration": 7}}]}}]}}]}}]}},
                  {{"type": "file", "title": "test/other.test.mjs", "tests": [{{"title": "search", "attempts": [{{"duration": 3}}]}}]}}
                ]}}"#
            )
        };
        let by_file = |json: &str| {
            let r: ReportView = crate::from_json(json.as_bytes()).unwrap();
            let mut sums: BTreeMap<String, f64> = BTreeMap::new();
            for u in units_from_report(&r, None).unwrap() {
                *sums.entry(u.file.unwrap().to_string()).or_default() += u.duration_ms.unwrap();
            }
            let nested: Vec<String> = test_durations(&r).into_iter().filter(|d| d.nested).map(|d| d.title_path.join(" > ")).collect();
            (sums.into_iter().collect::<Vec<_>>(), nested)
        };
        let s = |x: &str| x.to_string();
        // a subtest counts the least a measured unit counts (1 ms); a test of the same title in
        // another file is not inside it
        assert_eq!(
            by_file(&report("node-test")),
            (
                vec![(s("test/cart.test.mjs"), 12.0), (s("test/other.test.mjs"), 3.0), (s("test/search.test.mjs"), 252.0)],
                vec![s("search > finds by title"), s("search > finds by title > deeper")]
            )
        );
        // other runners have no test inside a test: every test counts
        assert_eq!(
            by_file(&report("jest")),
            (vec![(s("test/cart.test.mjs"), 12.0), (s("test/other.test.mjs"), 3.0), (s("test/search.test.mjs"), 330.0)], vec![])
        );
    }

    /// What a file runner's shard reads of its timings (`file_durations`) is what it read from
    /// every test's durations before (pkg-template/src/runner/timings.mjs: `durationsByFile` sums a
    /// file's tests, nested ones left out, in document order; `rerunSelection` picks a file with a
    /// failed, or with `flaky` a flaky, test in any environment), on reports of every shape here
    /// and on 3,000 generated tests with fractional durations (sums in another order could differ
    /// in their last bits, and with them a shard's plan).
    #[test]
    fn a_files_duration_is_its_tests_summed_as_the_runners_summed_them() {
        fn by_rule(r: &ReportView) -> Vec<FileDuration> {
            let mut out: Vec<FileDuration> = Vec::new();
            for d in test_durations(r) {
                let Some(file) = d.file else { continue };
                let i = match out.iter().position(|f| f.file == file) {
                    Some(i) => i,
                    None => {
                        out.push(FileDuration { file, duration_ms: 0.0, failed: false, flaky: false });
                        out.len() - 1
                    }
                };
                if !d.nested {
                    out[i].duration_ms += d.duration_ms;
                }
                out[i].failed |= d.outcome == Some("failed");
                out[i].flaky |= d.outcome == Some("flaky");
            }
            out
        }
        let mut generated = String::from(r#"{"environments": [{"name": "a"}, {"name": "b"}], "suites": ["#);
        let mut x: u64 = 7;
        for f in 0..150 {
            generated.push_str(&format!(r#"{}{{"type": "file", "title": "tests/f{f}.test.ts", "suites": [{{"type": "describe", "title": "d", "tests": ["#, if f > 0 { "," } else { "" }));
            for t in 0..20 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let ms = (x >> 33) as f64 / 1e6;
                let (status, env) = match x % 13 { 0 => ("failed", 0), 1 => ("passed", 1), _ => ("passed", 0) };
                let retry = if x % 17 == 0 { r#"{"status": "failed", "duration": 1.25}, "# } else { "" };
                generated.push_str(&format!(
                    r#"{}{{"title": "t{t}", "attempts": [{retry}{{"environmentIdx": {env}, "status": "{status}", "duration": {ms}}}]}}"#,
                    if t > 0 { "," } else { "" }
                ));
            }
            generated.push_str("]}]}");
        }
        generated.push_str("]}");
        let node_test = r#"{"category": "node-test", "environments": [{"name": "node"}], "suites": [
          {"type": "file", "title": "a.mjs", "tests": [{"title": "s", "attempts": [{"duration": 100}]}],
            "suites": [{"type": "suite", "title": "s", "tests": [{"title": "inner", "attempts": [{"status": "failed", "duration": 60}]}]}]}]}"#;
        let fixtures = [
            r#"{"environments": [{"name": "chromium"}, {"name": "firefox"}],
              "suites": [{"type": "file", "title": "a.spec.ts", "tests": [{"title": "t", "attempts": [{"duration": 1.5}, {"environmentIdx": 1, "status": "timedOut", "duration": 2}]}],
                "suites": [{"type": "describe", "title": "d", "location": {"file": "b.ts"}, "tests": [{"title": "u", "attempts": [{"status": "failed", "duration": 3}, {"duration": 4}]}]}]}],
              "tests": [{"title": "loose", "attempts": [{"duration": 3}]}, {"title": "new", "location": {"file": "c.ts"}, "attempts": []}]}"#,
            node_test,
            &generated,
        ];
        for json in fixtures {
            let r: ReportView = crate::from_json(json.as_bytes()).unwrap();
            let got = file_durations(&r);
            assert_eq!(got, by_rule(&r));
            assert!(!got.is_empty());
            // the units the cost model calibrates with: the same files at the same sums, exactly
            let units: Vec<(String, f64)> =
                file_units_from_report(&r).into_iter().filter_map(|u| Some((u.file?.to_string(), u.duration_ms?))).collect();
            let mut sums: Vec<(String, f64)> = got.iter().map(|f| (f.file.clone(), f.duration_ms.max(1.0))).collect();
            sums.sort_by(|a, b| a.0.cmp(&b.0));
            assert_eq!(units, sums);
        }
        let r: ReportView = crate::from_json(fixtures[0].as_bytes()).unwrap();
        let s = |x: &str| x.to_string();
        let got: Vec<(String, f64, bool, bool)> = file_durations(&r).into_iter().map(|f| (f.file, f.duration_ms, f.failed, f.flaky)).collect();
        // a test without a file has no file's time; a file's is its tests' over both environments
        // (a describe inside the file suite is in its file, whatever its location says), failed
        // for one test and flaky for another
        assert_eq!(got, [(s("a.spec.ts"), 10.5, true, true)]);
        // a subtest's time is in its test's; its failure is its file's
        let r: ReportView = crate::from_json(node_test.as_bytes()).unwrap();
        assert_eq!(file_durations(&r), [FileDuration { file: s("a.mjs"), duration_ms: 100.0, failed: true, flaky: false }]);
    }
}
