//! Several runs' reports as one timings document: a sharded run's shard reports (the folders its
//! shards saved), or runs of one suite. Every test of every report, with the attempts of the first
//! report that ran it (in that environment), their durations scaled to the test's mean over the
//! reports that ran it (one run's durations carry its machine's noise: several average it; a
//! setup project every shard ran counts at its mean too); and one costs record learned from them all ([`super::cost::learn_runs`]: files' costs from every shard,
//! fixed costs as their median) in place of each report's own, so the planner, `shardCosts` and
//! the durations lookups read the result as they read one run's report.

use std::collections::HashMap;

use crate::report::{self, Report, Source, Suite, SuiteType, Test};

use std::collections::BTreeMap;

use serde::Serialize;

use super::cost::{learn_runs, COSTS_SOURCE};
use super::from_report::ReportView;

/// Sources of a report that describe its own run (its costs record, its shard's plan): not kept in
/// the merged document, which is no run of its own.
const RUN_SOURCES: &str = ".shardwise/";

/// The reports as one (see the module's documentation); `None` without a report. The document's
/// `duration` is 0 (no run's wall time: its costs come from the record); its other top-level
/// fields are the first report's, its start the earliest.
pub fn merge_runs(reports: Vec<Report>) -> Option<Report> {
    let views: Vec<ReportView> = reports.iter().filter_map(|r| crate::from_json(&report::to_json(r)).ok()).collect();
    let learned = learn_runs(&views)?;
    let mut reports = reports.into_iter();
    let mut out = reports.next()?;
    let env_key = |r: &Report, idx: Option<u32>| r.environments.get(idx.unwrap_or(0) as usize).map(|e| serde_json::to_string(e).unwrap_or_default()).unwrap_or_default();
    // a test an earlier report ran too in the same environment (Playwright runs a setup project
    // on every shard that needs it): its attempts there are no retries, the first report's stay
    // and each test's time in each report, summed over its attempts there, for its mean
    let mut seen = Seen::default();
    let mut run = 0u32;
    let mut keep_new = |r: &mut Report, seen: &mut Seen| {
        let envs: Vec<String> = (0..r.environments.len()).map(|i| env_key(r, Some(i as u32))).collect();
        let (mut suites, mut tests) = (r.suites.take().unwrap_or_default(), r.tests.take().unwrap_or_default());
        run += 1;
        drop_seen(&mut suites, &mut tests, seen, &envs, &mut Vec::new(), None, run);
        r.suites = (!suites.is_empty()).then_some(suites);
        r.tests = (!tests.is_empty()).then_some(tests);
    };
    keep_new(&mut out, &mut seen);
    for mut r in reports {
        keep_new(&mut r, &mut seen);
        let offset = out.environments.len() as u32;
        out.environments.extend(r.environments);
        let mut suites = r.suites.unwrap_or_default();
        let mut tests = r.tests.unwrap_or_default();
        shift(&mut suites, &mut tests, offset);
        out.suites.get_or_insert_with(Vec::new).extend(suites);
        out.tests.get_or_insert_with(Vec::new).extend(tests);
        out.unattributed_errors.get_or_insert_with(Vec::new).extend(r.unattributed_errors.unwrap_or_default());
        out.start_timestamp = out.start_timestamp.min(r.start_timestamp);
        let have: Vec<String> = out.sources.iter().flatten().map(|s| s.file_path.clone()).collect();
        out.sources.get_or_insert_with(Vec::new).extend(r.sources.unwrap_or_default().into_iter().filter(|s| !have.contains(&s.file_path)));
    }
    out.duration = 0;
    let envs: Vec<String> = (0..out.environments.len()).map(|i| env_key(&out, Some(i as u32))).collect();
    let (suites, tests) = (out.suites.as_deref_mut().unwrap_or_default(), out.tests.as_deref_mut().unwrap_or_default());
    to_means(suites, tests, &mut seen, &envs, &mut Vec::new(), None);
    let c = &learned.costs;
    let record = Record {
        runner: learned.runner.as_deref(),
        workers: learned.workers,
        fitted_files: &c.files,
        per_shard_ms: learned.per_shard_overhead_ms,
        per_worker_ms: c.per_worker_ms,
        cold_ms: c.cold_ms,
        per_file_ms: c.per_file_ms,
        per_test_ms: c.per_test_ms,
        starts: &c.starts,
        transforms: &c.module_ms,
    };
    let mut sources: Vec<Source> = out.sources.take().unwrap_or_default().into_iter().filter(|s| !s.file_path.starts_with(RUN_SOURCES)).collect();
    sources.push(Source {
        file_path: COSTS_SOURCE.to_owned(),
        text: serde_json::to_string(&record).unwrap_or_default(),
        line_offset: None,
        content_type: Some("application/json".to_owned()),
    });
    out.sources = Some(sources);
    // equal environments and the suites of one file on several shards become one
    Some(report::normalize(out))
}

/// The costs record of the merged document: a [`super::cost::CostsRecord`] with fitted files (as a
/// service gives one back), written from the learned figures' own types (a map of `f64` would
/// add its own writer to the .wasm).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Record<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    runner: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    workers: Option<u32>,
    fitted_files: &'a BTreeMap<String, u64>,
    per_shard_ms: u64,
    per_worker_ms: u64,
    #[serde(skip_serializing_if = "is_zero")]
    cold_ms: u64,
    per_file_ms: u64,
    per_test_ms: u64,
    /// The test environments' first loads (Jest's jsdom): without them, a timings folder's plan
    /// charged jsdom's start to no shard
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    starts: &'a [super::cost::Start],
    /// Each module's transforms, their mean over the runs that made them (Vitest's): without them,
    /// a timings folder's plan (a CI's steady state) shared its cold cost out over the modules by
    /// their sizes alone, where one run's report weighs them by time (date-fns's 684 one-function
    /// modules of its `fp` build: small, slow to transform)
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    transforms: &'a BTreeMap<String, u64>,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

/// Tests in one environment seen so far: by [`key`] (a map of a type the .wasm already has), the
/// index of their time in the reports that ran them.
#[derive(Default)]
struct Seen {
    at: HashMap<String, u32>,
    tallies: Vec<Tally>,
}

impl Seen {
    /// Counts `ms` of an attempt of the `run`-th report to the test `k`; whether the attempt is
    /// kept (of the first report that ran the test).
    fn add(&mut self, k: String, ms: u64, run: u32) -> bool {
        let i = match self.at.get(&k) {
            Some(&i) => i as usize,
            None => {
                self.at.insert(k, self.tallies.len() as u32);
                self.tallies.push(Tally::default());
                self.tallies.len() - 1
            }
        };
        self.tallies[i].add(ms, run)
    }
}

/// A test's time in one environment over the reports that ran it: the sum of each report's
/// attempts, how many reports, the last one counted, and the first one's sum (the attempts kept).
#[derive(Default, Clone, Copy)]
struct Tally {
    ms: u64,
    runs: u32,
    last: u32,
    kept: u64,
}

impl Tally {
    /// Counts an attempt of the `run`-th report; whether it is of the first report that ran the
    /// test (the attempts the merged document keeps).
    fn add(&mut self, ms: u64, run: u32) -> bool {
        self.ms += ms;
        let first = self.runs == 0 || (self.runs == 1 && self.last == run);
        if first {
            self.kept += ms;
        }
        if self.last != run {
            self.runs += 1;
            self.last = run;
        }
        first
    }
}

/// A test in one environment: its file, its suites' titles, its title, the environment's JSON.
fn key<S: AsRef<str>>(file: Option<&str>, suites: &[S], title: &str, env: &str) -> String {
    let mut k = String::from(file.unwrap_or(""));
    for s in suites {
        k.push('\0');
        k.push_str(s.as_ref());
    }
    k.push('\u{1}');
    k.push_str(title);
    k.push('\u{1}');
    k.push_str(env);
    k
}

/// Counts every attempt's time in this report, the `run`-th, to its test in `seen`, and drops
/// those of a test and environment an earlier report had, and the tests and suites left empty.
/// `path` and `file` as [`Report::tests_with_paths`] reads them.
fn drop_seen(suites: &mut Vec<Suite>, tests: &mut Vec<Test>, seen: &mut Seen, envs: &[String], path: &mut Vec<String>, file: Option<&str>, run: u32) {
    tests.retain_mut(|t| {
        let f = t.location.as_ref().map(|l| l.file.as_str()).or(file);
        t.attempts.retain(|a| {
            let env = envs.get(a.environment_idx.unwrap_or(0) as usize).map_or("", String::as_str);
            let k = key(f, path, &t.title, env);
            seen.add(k, a.duration.unwrap_or(0), run)
        });
        !t.attempts.is_empty()
    });
    suites.retain_mut(|s| {
        let (is_file, title) = (s.kind == SuiteType::File, s.title.clone());
        if !is_file {
            path.push(title.clone());
        }
        let mut inner_suites = s.suites.take().unwrap_or_default();
        let mut inner_tests = s.tests.take().unwrap_or_default();
        let had = !inner_suites.is_empty() || !inner_tests.is_empty();
        drop_seen(&mut inner_suites, &mut inner_tests, seen, envs, path, if is_file { Some(title.as_str()) } else { file }, run);
        if !is_file {
            path.pop();
        }
        let keep = !had || !inner_suites.is_empty() || !inner_tests.is_empty();
        s.suites = (!inner_suites.is_empty()).then_some(inner_suites);
        s.tests = (!inner_tests.is_empty()).then_some(inner_tests);
        keep
    });
}

/// Each test's attempts in an environment (the first report's that ran it there) scaled to the
/// test's mean over the reports (`seen`): their sum becomes the mean, each keeping its share (a
/// first report's 0 ms: the first attempt takes the mean).
fn to_means(suites: &mut [Suite], tests: &mut [Test], seen: &mut Seen, envs: &[String], path: &mut Vec<String>, file: Option<&str>) {
    for t in tests {
        let f = t.location.as_ref().map(|l| l.file.as_str()).or(file);
        for a in &mut t.attempts {
            let env = envs.get(a.environment_idx.unwrap_or(0) as usize).map_or("", String::as_str);
            let Some(&i) = seen.at.get(&key(f, path, &t.title, env)) else { continue };
            let tally = &mut seen.tallies[i as usize];
            if tally.runs < 2 || tally.kept == u64::MAX {
                continue;
            }
            let mean = (tally.ms as f64 / f64::from(tally.runs)).round();
            a.duration = Some(if tally.kept == 0 { mean } else { (a.duration.unwrap_or(0) as f64 * mean / tally.kept as f64).round() } as u64);
            if tally.kept == 0 {
                tally.kept = u64::MAX;
            }
        }
    }
    for s in suites {
        let is_file = s.kind == SuiteType::File;
        if !is_file {
            path.push(s.title.clone());
        }
        let inner_file = if is_file { Some(s.title.clone()) } else { file.map(str::to_owned) };
        to_means(s.suites.as_deref_mut().unwrap_or_default(), s.tests.as_deref_mut().unwrap_or_default(), seen, envs, path, inner_file.as_deref());
        if !is_file {
            path.pop();
        }
    }
}

/// Every attempt's environment moved by `offset` (its report's environments follow the others').
fn shift(suites: &mut [Suite], tests: &mut [Test], offset: u32) {
    for t in tests {
        for a in &mut t.attempts {
            a.environment_idx = Some(a.environment_idx.unwrap_or(0) + offset);
        }
    }
    for s in suites {
        shift(s.suites.as_deref_mut().unwrap_or_default(), s.tests.as_deref_mut().unwrap_or_default(), offset);
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::plan::cost::{learn, learn_given, suite_start};

    /// A Jest shard's report: its files (one test each, `ms` long, on worker `i % 2`), its costs
    /// record, its wall time.
    fn shard<S: AsRef<str>>(env: &str, files: &[(S, u64, u64)], wall: u64) -> Report {
        let suites: Vec<String> = files
            .iter()
            .enumerate()
            .map(|(i, (f, ms, _))| {
                let f = f.as_ref();
                format!(
                    r#"{{"type":"file","title":"{f}","location":{{"file":"{f}","line":0,"column":0}},"tests":[{{"title":"t","location":{{"file":"{f}","line":1,"column":1}},"attempts":[{{"environmentIdx":0,"status":"passed","startTimestamp":{},"duration":{ms},"parallelIndex":{}}}]}}]}}"#,
                    1_700_000_000_000u64 + i as u64 * 300,
                    i % 2
                )
            })
            .collect();
        let costs: Vec<String> = files.iter().map(|(f, _, c)| format!(r#"\"{}\":{c}"#, f.as_ref())).collect();
        let json = format!(
            r#"{{"category":"jest","version":1,"commitId":"{}","startTimestamp":1700000000000,"duration":{wall},"environments":[{{"name":"{env}"}}],"suites":[{}],"sources":[{{"filePath":".shardwise/costs.json","text":"{{\"runner\":\"jest\",\"workers\":2,\"files\":{{{}}}}}"}},{{"filePath":".shardwise/shard.json","text":"{{}}"}},{{"filePath":"src/a.js","text":"x"}}]}}"#,
            "a".repeat(40),
            suites.join(","),
            costs.join(",")
        );
        crate::from_json(json.as_bytes()).expect("a report")
    }

    fn view(r: &Report) -> ReportView {
        crate::from_json(&report::to_json(r)).unwrap()
    }

    #[test]
    fn a_sharded_runs_reports_become_one_document_with_every_test_and_one_costs_record() {
        let one = shard("jest", &[("a.test.js", 400, 900), ("b.test.js", 300, 150), ("c.test.js", 200, 140), ("d.test.js", 100, 130), ("e.test.js", 100, 120)], 2600);
        let two = shard("jest", &[("f.test.js", 500, 800), ("g.test.js", 300, 160), ("h.test.js", 200, 150), ("i.test.js", 100, 140), ("j.test.js", 100, 110)], 2700);
        let merged = merge_runs(vec![one.clone(), two.clone()]).unwrap();
        // one environment (equal ones merged), ten files, each test with its one attempt
        assert_eq!(merged.environments.len(), 1);
        let tests = merged.tests_with_paths();
        assert_eq!(tests.len(), 10);
        assert!(tests.iter().all(|t| t.test.attempts.len() == 1 && t.test.attempts[0].environment_idx.unwrap_or(0) == 0));
        // the run's own sources go; the others stay once; one costs record
        let paths: Vec<&str> = merged.sources.iter().flatten().map(|s| s.file_path.as_str()).collect();
        assert_eq!(paths, ["src/a.js", COSTS_SOURCE]);
        assert_eq!(merged.duration, 0);

        // read as one report, it teaches what the shards teach together: every file's cost, the
        // fixed costs their median
        let together = learn(&view(&merged));
        // each shard learned with the workers' start both found
        let warm = suite_start(&[learn(&view(&one)), learn(&view(&two))]);
        let each = [learn_given(&view(&one), warm), learn_given(&view(&two), warm)];
        assert_eq!(together.costs.files.len(), 10);
        for l in &each {
            for (f, ms) in &l.costs.files {
                assert_eq!(together.costs.files[f], (*ms).max(l.unfitted[f]), "{f}");
            }
        }
        // the fixed costs of two: their means
        let mean = |f: &dyn Fn(&crate::plan::cost::Learned) -> u64| (f(&each[0]) + f(&each[1])).div_ceil(2);
        assert_eq!(
            (together.per_shard_overhead_ms, together.costs.per_worker_ms, together.costs.cold_ms),
            (mean(&|l| l.per_shard_overhead_ms), mean(&|l| l.costs.per_worker_ms), mean(&|l| l.costs.cold_ms))
        );
        assert_eq!((together.workers, together.runner.as_deref()), (Some(2), Some("jest")));

        // a test both shards ran (a setup project's) keeps the first shard's attempt only, at its
        // mean over the two (each shard pays it once)
        let setup = shard("jest", &[("setup.js", 700, 100), ("k.test.js", 100, 100)], 1500);
        let again = shard("jest", &[("setup.js", 650, 100), ("l.test.js", 100, 100)], 1500);
        let m = merge_runs(vec![setup, again]).unwrap();
        let tests = m.tests_with_paths();
        assert_eq!(tests.len(), 3);
        let s = tests.iter().find(|t| t.file == Some("setup.js")).unwrap();
        assert_eq!(s.test.attempts.iter().map(|a| a.duration).collect::<Vec<_>>(), [Some(675)]);

        // different environments stay apart, each attempt pointing at its own
        let other = shard("jest-node18", &[("k.test.js", 100, 100)], 900);
        let m = merge_runs(vec![one, other]).unwrap();
        assert_eq!(m.environments.len(), 2);
        let k = m.tests_with_paths().into_iter().find(|t| t.file == Some("k.test.js")).unwrap();
        assert_eq!(k.test.attempts[0].environment_idx, Some(1));
        assert!(merge_runs(vec![]).is_none());
    }

    #[test]
    fn the_merged_costs_record_keeps_the_test_environments_first_loads() {
        // Jest shards with jsdom and node files, whose records give each file's environment and
        // its load time: jsdom's first load on each worker is a start cost of a shard with a jsdom
        // file; read back from the merged document it is still one
        let with_envs = |mut r: Report| {
            let files: Vec<String> = r.tests_with_paths().iter().filter_map(|t| t.file.map(str::to_owned)).collect();
            let dom = |f: &str| f.starts_with("dom");
            let loads: BTreeMap<&str, u64> = files.iter().enumerate().map(|(i, f)| (f.as_str(), if dom(f) { if i < 2 { 380 } else { 12 } } else { 3 })).collect();
            let record = serde_json::json!({
                "runner": "jest", "workers": 2,
                "files": files.iter().map(|f| (f.as_str(), 150 + loads[f.as_str()])).collect::<BTreeMap<_, _>>(),
                "environments": ["jest-environment-jsdom", "jest-environment-node"],
                "environmentOf": files.iter().map(|f| (f.as_str(), if dom(f) { 0 } else { 1 })).collect::<BTreeMap<_, _>>(),
                "environmentMs": loads,
            });
            for s in r.sources.iter_mut().flatten().filter(|s| s.file_path == COSTS_SOURCE) {
                s.text = record.to_string();
            }
            r
        };
        // five jsdom files and two node files
        let files = |k: &str| (1..=7).map(|i| (format!("{}-{k}{i}.test.js", if i <= 5 { "dom" } else { "n" }), 200, 0)).collect::<Vec<_>>();
        let one = with_envs(shard("jest", &files("a"), 2600));
        let two = with_envs(shard("jest", &files("b"), 2700));
        let learned = learn_runs(&[view(&one), view(&two)]).unwrap();
        assert_eq!(learned.costs.starts.len(), 1, "{:?}", learned.costs.starts);
        assert_eq!(learned.costs.starts[0].files.len(), 10);
        let merged = merge_runs(vec![one, two]).unwrap();
        assert_eq!(learn(&view(&merged)).costs.starts, learned.costs.starts);
    }

    #[test]
    fn the_merged_costs_record_keeps_each_modules_transforms() {
        // two Vitest shards whose records give the transforms of the modules their files loaded:
        // a module both loaded at the mean of the two, one only one loaded as that one made it
        // (each as it takes alone: the shards' two workers asked side by side, half); read back
        // from the merged document, the plan weighs the modules as the runs did
        let with_transforms = |mut r: Report, transforms: serde_json::Value| {
            for s in r.sources.iter_mut().flatten().filter(|s| s.file_path == COSTS_SOURCE) {
                let mut record: serde_json::Value = serde_json::from_str(&s.text).unwrap();
                record["runner"] = "vitest".into();
                record["transforms"] = transforms.clone();
                s.text = record.to_string();
            }
            r
        };
        let files = |k: &str| (1..=6).map(|i| (format!("{k}{i}.test.ts"), 100, 150)).collect::<Vec<_>>();
        let one = with_transforms(shard("vitest", &files("a"), 2000), serde_json::json!({ "src/fp/add.ts": 300, "src/add.ts": 40 }));
        let two = with_transforms(shard("vitest", &files("b"), 2100), serde_json::json!({ "src/fp/add.ts": 500 }));
        let learned = learn_runs(&[view(&one), view(&two)]).unwrap();
        assert_eq!(learned.costs.module_ms, BTreeMap::from([("src/add.ts".to_owned(), 20), ("src/fp/add.ts".to_owned(), 200)]));
        let merged = merge_runs(vec![one, two]).unwrap();
        assert_eq!(learn(&view(&merged)).costs.module_ms, learned.costs.module_ms);
    }

    #[test]
    fn a_shard_of_few_files_leaves_its_workers_warm_up_to_the_workers() {
        // two workers; each worker's first file paid a warm-up of 800 ms beyond a file's 100 ms.
        // A shard of 8 files tells the two apart; one of 4 cannot alone, and its first files'
        // costs held the warm-up: planned again, they were charged it twice (with the workers'
        // start, and as their own)
        let many: Vec<(String, u64, u64)> = (0..8).map(|i| (format!("m{i}.test.js"), 100, if i < 2 { 900 } else { 100 })).collect();
        let few: Vec<(String, u64, u64)> = (0..4).map(|i| (format!("f{i}.test.js"), 100, if i < 2 { 900 } else { 100 })).collect();
        let (one, two) = (shard("jest", &many, 2200), shard("jest", &few, 1600));
        assert!(learn(&view(&two)).costs.files["f0.test.js"] >= 900, "alone, the few files' shard keeps it in its files");
        let merged = learn(&view(&merge_runs(vec![one, two]).unwrap()));
        assert_eq!(merged.costs.per_worker_ms, 800);
        // every first file costs what a steady one does (both fitted alike to their shard's wall)
        for (first, steady) in [("f0.test.js", "f2.test.js"), ("f1.test.js", "f3.test.js"), ("m0.test.js", "m2.test.js"), ("m1.test.js", "m3.test.js")] {
            assert_eq!(merged.costs.files[first], merged.costs.files[steady], "{first}: {:?}", merged.costs.files);
        }
    }

    #[test]
    fn the_fixed_costs_come_from_the_shards_of_most_files() {
        // Jest, two workers. A shard of 20 files: each worker's first file paid 800 ms of warm-up,
        // the rest of the early half 200 ms each of cold transforms (a cold cost of about 810 ms
        // at full); a shard of 7 files, whose early half is its 2 first files and 1 more, tells
        // no cold cost, and its longer wall a fixed cost per shard of 950 ms. The merged run's are
        // the larger shard's (the median of the two by their sum was the few files' shard: cold 0)
        let cost = |i: usize, n: usize| if i < 2 { 900 } else if i < n / 2 && n > 10 { 300 } else { 100 };
        let names = |p: &str, n: usize| (0..n).map(|i| (format!("{p}{i}.test.js"), 100, cost(i, n))).collect::<Vec<_>>();
        let (few, many) = (names("a", 7), names("b", 20));
        let (one, two) = (shard("jest", &few, 4000), shard("jest", &many, 4000));
        let (alone_few, alone_many) = (learn(&view(&one)), learn(&view(&two)));
        assert_eq!(alone_few.costs.cold_ms, 0);
        assert!((700..=900).contains(&alone_many.costs.cold_ms), "{}", alone_many.costs.cold_ms);
        let merged = learn(&view(&merge_runs(vec![one, two]).unwrap()));
        assert_eq!((merged.costs.cold_ms, merged.costs.per_worker_ms), (alone_many.costs.cold_ms, alone_many.costs.per_worker_ms));
    }

    /// A report of one run: each test `(file, title, attempts' durations)`, in one environment.
    fn run_of(tests: &[(&str, &str, Vec<u64>)]) -> Report {
        let suites: Vec<String> = tests
            .iter()
            .map(|(f, title, attempts)| {
                let attempts: Vec<String> = attempts
                    .iter()
                    .enumerate()
                    .map(|(i, ms)| format!(r#"{{"environmentIdx":0,"status":"{}","startTimestamp":1700000000000,"duration":{ms}}}"#, if i + 1 < attempts.len() { "failed" } else { "passed" }))
                    .collect();
                format!(r#"{{"type":"file","title":"{f}","tests":[{{"title":"{title}","location":{{"file":"{f}","line":1,"column":1}},"attempts":[{}]}}]}}"#, attempts.join(","))
            })
            .collect();
        let json = format!(
            r#"{{"category":"playwright","version":1,"commitId":"{}","startTimestamp":1700000000000,"duration":5000,"environments":[{{"name":"chromium"}}],"suites":[{}]}}"#,
            "b".repeat(40),
            suites.join(",")
        );
        crate::from_json(json.as_bytes()).expect("a report")
    }

    /// Each test of a merged document: its attempts' durations, by `file title`.
    fn durations(r: &Report) -> BTreeMap<String, Vec<u64>> {
        r.tests_with_paths()
            .into_iter()
            .map(|t| (format!("{} {}", t.file.unwrap_or(""), t.test.title), t.test.attempts.iter().map(|a| a.duration.unwrap_or(0)).collect()))
            .collect()
    }

    #[test]
    fn several_runs_of_a_suite_give_each_test_its_mean() {
        // one run's durations carry its noise: three runs of the same tests, each test at its
        // mean; a test with a retry counts both attempts in its run (a retry costs its time),
        // its attempts keeping their shares; a test one run alone had keeps that run's time
        let a = run_of(&[("a.spec.js", "x", vec![900]), ("b.spec.js", "y", vec![300, 300]), ("c.spec.js", "z", vec![0])]);
        let b = run_of(&[("a.spec.js", "x", vec![600]), ("b.spec.js", "y", vec![200]), ("c.spec.js", "z", vec![90])]);
        let c = run_of(&[("a.spec.js", "x", vec![600]), ("b.spec.js", "y", vec![250]), ("d.spec.js", "w", vec![40])]);
        let m = merge_runs(vec![a, b, c]).unwrap();
        let d = durations(&m);
        assert_eq!(d["a.spec.js x"], [700]);
        assert_eq!(d["b.spec.js y"], [175, 175], "(600 + 200 + 250) / 3 = 350, two attempts keeping their halves");
        assert_eq!(d["c.spec.js z"], [45], "a first run's 0 ms: the mean goes to its attempt");
        assert_eq!(d["d.spec.js w"], [40]);
        // the statuses are the first run's (a re-run of what failed reads them)
        let y = m.tests_with_paths().into_iter().find(|t| t.test.title == "y").unwrap();
        assert_eq!(y.test.attempts.len(), 2);
        // one run: its durations as they were
        let one = run_of(&[("a.spec.js", "x", vec![900])]);
        assert_eq!(durations(&merge_runs(vec![one]).unwrap())["a.spec.js x"], [900]);
    }

    proptest::proptest! {
        /// Whatever the runs and their sizes, each test's merged time is its mean over the runs
        /// that had it (within a millisecond an attempt, from rounding), every test is there once.
        #[test]
        fn merged_time_is_each_tests_mean(runs in proptest::collection::vec(proptest::collection::vec(proptest::option::of(proptest::collection::vec(0u64..5_000, 1..4)), 12), 1..6)) {
            let names: Vec<String> = (0..12).map(|i| format!("f{i}.spec.js")).collect();
            let reports: Vec<Report> = runs
                .iter()
                .filter_map(|run| {
                    let tests: Vec<(&str, &str, Vec<u64>)> = run.iter().enumerate().filter_map(|(i, t)| t.clone().map(|a| (names[i].as_str(), "t", a))).collect();
                    (!tests.is_empty()).then(|| run_of(&tests))
                })
                .collect();
            proptest::prop_assume!(!reports.is_empty());
            let m = merge_runs(reports).unwrap();
            let d = durations(&m);
            for (i, name) in names.iter().enumerate() {
                let sums: Vec<u64> = runs.iter().filter_map(|r| r[i].as_ref().map(|a| a.iter().sum())).collect();
                let got = d.get(&format!("{name} t"));
                if sums.is_empty() {
                    proptest::prop_assert!(got.is_none());
                    continue;
                }
                let mean = sums.iter().sum::<u64>() as f64 / sums.len() as f64;
                let got = got.unwrap();
                let total: u64 = got.iter().sum();
                proptest::prop_assert!((total as f64 - mean).abs() <= got.len() as f64, "{name}: {total} against mean {mean} ({sums:?})");
            }
        }
    }
}
