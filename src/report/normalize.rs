//! Normalization: one index per distinct environment, one test per identity, no default-valued
//! fields. Idempotent, and every attempt is kept.

use std::collections::HashMap;

use super::model::*;

/// Merges equal environments (remapping every `environmentIdx`), merges suites of the same type
/// and title under one parent and tests with the same title and file (concatenating their
/// attempts), and drops fields equal to their defaults.
pub fn normalize(mut report: Report) -> Report {
    // Environments: first occurrence wins; `remap[old] = new`.
    let mut seen: HashMap<String, u32> = HashMap::new();
    let mut environments = Vec::new();
    let remap: Vec<u32> = report
        .environments
        .drain(..)
        .map(|mut env| {
            env.system_data = env.system_data.filter(|d| *d != SystemData::default());
            env.metadata = env.metadata.filter(|m| !m.is_empty());
            env.user_supplied_data = env.user_supplied_data.filter(|m| !m.is_empty());
            let key = serde_json::to_string(&env).unwrap_or_default();
            *seen.entry(key).or_insert_with(|| {
                environments.push(env);
                environments.len() as u32 - 1
            })
        })
        .collect();
    report.environments = environments;

    let suites = report.suites.take().unwrap_or_default();
    report.suites = non_empty(merge_suites(suites, &remap));
    let tests = report.tests.take().unwrap_or_default();
    report.tests = non_empty(merge_tests(tests, &remap));
    report.related_commit_ids = report.related_commit_ids.filter(|v| !v.is_empty());
    for telemetry in [&mut report.cpu_avg, &mut report.cpu_max, &mut report.ram] {
        *telemetry = telemetry.take().filter(|v| !v.is_empty());
    }
    report.unattributed_errors = report.unattributed_errors.filter(|v| !v.is_empty());
    report.sources = report.sources.filter(|v| !v.is_empty());
    report
}

fn non_empty<T>(v: Vec<T>) -> Option<Vec<T>> {
    (!v.is_empty()).then_some(v)
}

fn merge_suites(suites: Vec<Suite>, remap: &[u32]) -> Vec<Suite> {
    let mut out: Vec<Suite> = Vec::new();
    let mut index: HashMap<(SuiteType, String), usize> = HashMap::new();
    for s in suites {
        match index.get(&(s.kind, s.title.clone())) {
            Some(&i) => {
                let into = &mut out[i];
                into.location = into.location.take().or(s.location);
                into.suites.get_or_insert_with(Vec::new).extend(s.suites.unwrap_or_default());
                into.tests.get_or_insert_with(Vec::new).extend(s.tests.unwrap_or_default());
            }
            None => {
                index.insert((s.kind, s.title.clone()), out.len());
                out.push(s);
            }
        }
    }
    for s in &mut out {
        s.suites = non_empty(merge_suites(s.suites.take().unwrap_or_default(), remap));
        s.tests = non_empty(merge_tests(s.tests.take().unwrap_or_default(), remap));
    }
    out
}

fn merge_tests(tests: Vec<Test>, remap: &[u32]) -> Vec<Test> {
    let mut out: Vec<Test> = Vec::new();
    let mut index: HashMap<(String, Option<String>), usize> = HashMap::new();
    for mut t in tests {
        for a in &mut t.attempts {
            normalize_attempt(a, remap);
        }
        t.tags = t.tags.filter(|v| !v.is_empty());
        let key = (t.title.clone(), t.location.as_ref().map(|l| l.file.clone()));
        match index.get(&key) {
            Some(&i) => {
                let into = &mut out[i];
                into.attempts.extend(t.attempts);
                into.location = into.location.take().or(t.location);
                if let Some(tags) = t.tags {
                    let have = into.tags.get_or_insert_with(Vec::new);
                    for tag in tags {
                        if !have.contains(&tag) {
                            have.push(tag);
                        }
                    }
                }
            }
            None => {
                index.insert(key, out.len());
                out.push(t);
            }
        }
    }
    out
}

fn normalize_attempt(a: &mut RunAttempt, remap: &[u32]) {
    let idx = remap.get(a.env()).copied().unwrap_or(a.env() as u32);
    a.environment_idx = (idx != 0).then_some(idx);
    a.status = a.status.filter(|s| *s != TestStatus::Passed);
    a.expected_status = a.expected_status.filter(|s| *s != TestStatus::Passed);
    a.duration = a.duration.filter(|d| *d != 0);
    a.annotations = a.annotations.take().filter(|v| !v.is_empty());
    a.errors = a.errors.take().filter(|v| !v.is_empty());
    a.attachments = a.attachments.take().filter(|v| !v.is_empty());
    a.steps = normalize_steps(a.steps.take());
    a.stdout = a.stdout.take().filter(|v| !v.is_empty());
    a.stderr = a.stderr.take().filter(|v| !v.is_empty());
    a.stdio = a.stdio.take().filter(|v| !v.is_empty()).map(|mut v| {
        for e in &mut v {
            e.stream = e.stream.filter(|s| *s != 1);
        }
        v
    });
}

fn normalize_steps(steps: Option<Vec<TestStep>>) -> Option<Vec<TestStep>> {
    let mut steps = steps.filter(|v| !v.is_empty())?;
    for s in &mut steps {
        s.attachments = s.attachments.take().filter(|v| !v.is_empty());
        s.steps = normalize_steps(s.steps.take());
    }
    Some(steps)
}
