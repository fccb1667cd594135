//! Verification after the shards of a run: did they plan alike, and did they, together, run every
//! planned test exactly once? Each balanced shard records its plan and what it ran
//! ([`ShardRecord`], the `shard.json` a reporter saves beside its report); [`verify`] reads them
//! all and names every shard that is missing or doubled, every fingerprint that differs, and
//! every test that ran on no shard, on several, or on a shard that did not plan it. Pure.
//!
//! Some tests are the runner's to place, not the plan's: Playwright runs the tests of a project
//! that is another project's dependency (a `setup` project) or teardown on every shard that runs
//! a project needing it. A record lists them (`shared`, with the planned units that need each
//! dependency): they are expected on any shard, counted apart, and a planned unit that ran on a
//! shard where a dependency of its did not is named ([`WithoutSetup`]). A record without
//! `shared` (written before it) verifies as it always did.
//!
//! This is the check that catches what a shard cannot see alone: a shard whose durations
//! differed from the others' (another timings file, a service answer the others did not get)
//! plans a different split, and tests then run twice or never, with every shard green.

use serde::Serialize;
use serde_json::Value;

use crate::error::{Error, Result};

/// What one shard planned and ran (the `shard.json` format: `fingerprint`, `shardIndex`,
/// `shardCount`, `units`, `assigned`, `ran`, and optionally `shared`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardRecord {
    /// The plan's fingerprint (equal on every shard that planned alike).
    pub fingerprint: String,
    /// 1-based.
    pub shard_index: u32,
    pub shard_count: u32,
    /// Every unit of the plan, on every shard (the planned list): test or file ids.
    pub units: Vec<String>,
    /// The units this shard was to run.
    pub assigned: Vec<String>,
    /// The units this shard ran (a test with any result, retries included, ran once).
    pub ran: Vec<String>,
    /// The runner's own units, outside the plan, run on every shard that needs them (Playwright:
    /// dependency and teardown projects' tests); empty in records written before the field.
    pub shared: Vec<Shared>,
}

/// A project whose tests the runner runs on every shard that needs them (`shard.json`'s
/// `shared`: `{project, units, dependents?}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shared {
    pub project: String,
    /// Its units (test ids, as the plan's): none when the shard did not run it (`--no-deps`).
    pub units: Vec<String>,
    /// The planned units that need it to have run on their shard first (a dependency: every
    /// unit of a project depending on it, directly or not); none for a teardown, which runs after.
    pub dependents: Vec<String>,
    /// The runner left the project out of this shard's run (`--no-deps`; JSON `leftOut`): its
    /// dependents that ran here ran without it, even when no record lists a test of it.
    pub left_out: bool,
}

impl ShardRecord {
    /// Reads a record from its JSON document (read as a [`Value`], the one document reader of
    /// the .wasm: a typed reader of this struct would add kilobytes for a file of six fields).
    pub fn from_value(v: &Value, at: usize) -> Result<ShardRecord> {
        let bad = |what: &str| Error::invalid_input(format!("shard record {at}: {what} (each shard's shard.json)"));
        let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string).ok_or_else(|| bad(&format!("`{k}` must be a string")));
        let index = |k: &str| {
            v.get(k).and_then(Value::as_u64).filter(|&n| (1..=u32::MAX as u64).contains(&n)).map(|n| n as u32)
                .ok_or_else(|| bad(&format!("`{k}` must be an integer >= 1")))
        };
        // `of`: the object holding `k` (the record, or one of its `shared` entries); `optional`:
        // `k` may be absent (an empty list)
        let ids = |of: &Value, k: &str, optional: bool| -> Result<Vec<String>> {
            let list = match of.get(k) {
                None if optional => return Ok(Vec::new()),
                x => x.and_then(Value::as_array).ok_or_else(|| bad(&format!("`{k}` must be an array of unit ids")))?,
            };
            list.iter().map(|x| x.as_str().map(str::to_string).ok_or_else(|| bad(&format!("`{k}` must hold strings")))).collect()
        };
        let mut shared = Vec::new();
        if let Some(list) = v.get("shared") {
            let not = || bad("`shared` must be an array of {project, units, dependents}");
            for s in list.as_array().ok_or_else(not)? {
                shared.push(Shared {
                    project: s.get("project").and_then(Value::as_str).ok_or_else(not)?.to_string(),
                    units: ids(s, "units", false)?,
                    dependents: ids(s, "dependents", true)?,
                    left_out: match s.get("leftOut") {
                        None => false,
                        Some(x) => x.as_bool().ok_or_else(|| bad("`shared`'s `leftOut` must be a boolean"))?,
                    },
                });
            }
        }
        Ok(ShardRecord {
            fingerprint: text("fingerprint")?,
            shard_index: index("shardIndex")?,
            shard_count: index("shardCount")?,
            units: ids(v, "units", false)?,
            assigned: ids(v, "assigned", false)?,
            ran: ids(v, "ran", false)?,
            shared,
        })
    }
}

/// A unit that ran on more than one shard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Doubled {
    pub unit: String,
    pub shards: Vec<u32>,
}

/// A unit that ran on a shard whose plan did not give it that unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Unplanned {
    pub unit: String,
    pub shard: u32,
}

/// A shard where planned units ran but a dependency project of theirs did not (its record says
/// the runner left the project out, or not every one of its tests, as any record lists them, ran
/// there): Playwright runs a project's dependencies first on every shard that runs it, so the
/// shard ran without its setup (`--no-deps`: its record names the project with no tests, left
/// out; a record from another run).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WithoutSetup {
    /// The dependency (setup) project.
    pub project: String,
    pub shard: u32,
    /// The first (by id) of the units needing it that ran there.
    pub unit: String,
    /// How many units needing it ran there.
    pub dependents: usize,
}

/// What [`verify`] found. `ok` when every shard of `1..=shard_count` is there once, all planned
/// alike, every planned unit ran on exactly one shard, and none ran without its setup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Verification {
    pub ok: bool,
    pub shard_count: u32,
    /// The distinct fingerprints, each with its shards.
    pub fingerprints: Vec<FingerprintShards>,
    /// Shards of `1..=shard_count` with no record.
    pub missing_shards: Vec<u32>,
    /// Shards with more than one record.
    pub doubled_shards: Vec<u32>,
    /// Units of the plan (of every shard's planned list together).
    pub planned: usize,
    /// Planned units that ran on no shard, sorted.
    pub missing: Vec<String>,
    /// Units that ran on several shards, sorted.
    pub doubled: Vec<Doubled>,
    /// Units that ran where no plan put them, sorted.
    pub unplanned: Vec<Unplanned>,
    /// The runner's own units (`shared`: setup and teardown tests) that ran, each counted once
    /// however many shards ran it; never planned, missing, doubled or unplanned.
    pub shared_ran: usize,
    /// Shards where planned units ran without a dependency project of theirs, by shard.
    pub without_setup: Vec<WithoutSetup>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FingerprintShards {
    pub fingerprint: String,
    pub shards: Vec<u32>,
}

/// Checks the records of the shards of one run (see the module documentation).
///
/// Written without sorts or maps of its own (records are taken in shard order, ids numbered by
/// the planner's ranking of names): each would compile its own code into the .wasm.
pub fn verify(records: &[ShardRecord]) -> Result<Verification> {
    let Some(first) = records.first() else {
        return Err(Error::invalid_input("no shard records to verify: give each shard's saved report folder (its shard.json)"));
    };
    let shard_count = first.shard_count;
    let mut in_order: Vec<Vec<&ShardRecord>> = vec![Vec::new(); shard_count as usize + 1];
    for r in records {
        if r.shard_count != shard_count {
            return Err(Error::invalid_input(format!(
                "the records are of different runs: shard {} of {} beside shards of {shard_count}",
                r.shard_index, r.shard_count
            )));
        }
        match in_order.get_mut(r.shard_index as usize) {
            Some(at) => at.push(r),
            None => return Err(Error::invalid_input(format!("a record names shard {} of {}", r.shard_index, r.shard_count))),
        }
    }
    let missing_shards: Vec<u32> = (1..=shard_count).filter(|&i| in_order[i as usize].is_empty()).collect();
    let doubled_shards: Vec<u32> = (1..=shard_count).filter(|&i| in_order[i as usize].len() > 1).collect();
    let in_order: Vec<&ShardRecord> = in_order.into_iter().flatten().collect();

    // every id numbered, in sorted order (the planner's ranking of names)
    let mut all: Vec<&str> = Vec::new();
    for r in &in_order {
        for list in [&r.units, &r.assigned, &r.ran] {
            all.extend(list.iter().map(String::as_str));
        }
        for s in &r.shared {
            all.extend(s.units.iter().chain(&s.dependents).map(String::as_str));
        }
    }
    let (names, ranks) = super::units::rank(&all);
    let n = names.len();
    // the shared project each unit belongs to, over every record: a shard whose record has none
    // of a setup's tests (run with `--no-deps`) is checked against the others' list of them
    let mut project_of: Vec<Option<&str>> = vec![None; n];
    let mut at = 0;
    for r in &in_order {
        at += r.units.len() + r.assigned.len() + r.ran.len();
        for s in &r.shared {
            for &u in &ranks[at..at + s.units.len()] {
                project_of[u as usize] = Some(&s.project);
            }
            at += s.units.len() + s.dependents.len();
        }
    }
    let mut next = ranks.into_iter();
    let mut take = |k: usize| -> Vec<usize> { next.by_ref().take(k).map(|i| i as usize).collect() };
    let mut planned = vec![false; n];
    let mut ran_on: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut unplanned_on: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut shared_ran = vec![false; n];
    let mut without_setup = Vec::new();
    let mut fingerprints: Vec<FingerprintShards> = Vec::new();
    for r in &in_order {
        let (units, assigned, ran) = (take(r.units.len()), take(r.assigned.len()), take(r.ran.len()));
        // the shared projects' ids, each project's units then its dependents, one after another
        let shared = take(r.shared.iter().map(|s| s.units.len() + s.dependents.len()).sum());
        for u in units {
            planned[u] = true;
        }
        // 1: this shard's plan gave it the unit; 2: the runner's own (shared); bit 4: it ran here
        let mut mine = vec![0u8; n];
        for u in assigned {
            mine[u] = 1;
        }
        let mut at = 0;
        for s in &r.shared {
            for &u in &shared[at..at + s.units.len()] {
                mine[u] |= 2;
            }
            at += s.units.len() + s.dependents.len();
        }
        for u in ran {
            mine[u] |= 4;
            if mine[u] & 2 != 0 {
                shared_ran[u] = true;
                continue;
            }
            if ran_on[u].last() != Some(&r.shard_index) {
                ran_on[u].push(r.shard_index);
                if mine[u] & 1 == 0 {
                    unplanned_on[u].push(r.shard_index);
                }
            }
        }
        let mut at = 0;
        for s in &r.shared {
            let dependents = &shared[at + s.units.len()..at + s.units.len() + s.dependents.len()];
            at += s.units.len() + s.dependents.len();
            // the dependents that ran here: how many, and the first by id (ranks are in id order)
            let (mut count, mut first) = (0, usize::MAX);
            for &d in dependents {
                if mine[d] & 4 != 0 {
                    count += 1;
                    first = first.min(d);
                }
            }
            // the runner left the project out here, or not every test of it (as any record lists
            // them) ran here
            if count > 0 && (s.left_out || project_of.iter().zip(&mine).any(|(p, m)| *p == Some(s.project.as_str()) && m & 4 == 0)) {
                without_setup.push(WithoutSetup { project: s.project.clone(), shard: r.shard_index, unit: names[first].to_string(), dependents: count });
            }
        }
        match fingerprints.iter_mut().find(|f| f.fingerprint == r.fingerprint) {
            Some(f) => f.shards.push(r.shard_index),
            None => fingerprints.push(FingerprintShards { fingerprint: r.fingerprint.clone(), shards: vec![r.shard_index] }),
        }
    }
    let mut missing = Vec::new();
    let mut doubled = Vec::new();
    let mut unplanned = Vec::new();
    for u in 0..n {
        let unit = || names[u].to_string();
        if planned[u] && ran_on[u].is_empty() {
            missing.push(unit());
        }
        if ran_on[u].len() > 1 {
            doubled.push(Doubled { unit: unit(), shards: std::mem::take(&mut ran_on[u]) });
        }
        for &shard in &unplanned_on[u] {
            unplanned.push(Unplanned { unit: unit(), shard });
        }
    }
    let ok = missing_shards.is_empty()
        && doubled_shards.is_empty()
        && fingerprints.len() == 1
        && missing.is_empty()
        && doubled.is_empty()
        && unplanned.is_empty()
        && without_setup.is_empty();
    Ok(Verification {
        ok,
        shard_count,
        fingerprints,
        missing_shards,
        doubled_shards,
        planned: planned.iter().filter(|&&p| p).count(),
        missing,
        doubled,
        unplanned,
        shared_ran: shared_ran.iter().filter(|&&s| s).count(),
        without_setup,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(shard: u32, count: u32, fp: &str, units: &[&str], assigned: &[&str], ran: &[&str]) -> ShardRecord {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<String>>();
        ShardRecord { fingerprint: fp.into(), shard_index: shard, shard_count: count, units: v(units), assigned: v(assigned), ran: v(ran), shared: vec![] }
    }

    fn strings(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    /// `r` with the runner's own projects: (project, its units, the planned units needing it).
    fn sharing(mut r: ShardRecord, shared: &[(&str, &[&str], &[&str])]) -> ShardRecord {
        r.shared = shared.iter().map(|(p, u, d)| Shared { project: p.to_string(), units: strings(u), dependents: strings(d), left_out: false }).collect();
        r
    }

    const ALL: [&str; 5] = ["a", "b", "c", "d", "e"];

    #[test]
    fn shards_that_planned_alike_and_ran_their_parts_verify() {
        let v = verify(&[
            record(2, 2, "f1", &ALL, &["c", "d", "e"], &["c", "d", "e"]),
            record(1, 2, "f1", &ALL, &["a", "b"], &["a", "b"]),
        ])
        .unwrap();
        assert!(v.ok, "{v:?}");
        assert_eq!((v.planned, v.fingerprints.len()), (5, 1));
        assert_eq!(v.fingerprints[0].shards, [1, 2]);
    }

    #[test]
    fn a_shard_that_planned_otherwise_leaves_tests_missing_and_doubled() {
        // shard 2 planned from other durations: it ran c only, and a, which shard 1 ran too
        let v = verify(&[
            record(1, 2, "f1", &ALL, &["a", "b"], &["a", "b"]),
            record(2, 2, "f2", &ALL, &["a", "c"], &["a", "c"]),
        ])
        .unwrap();
        assert!(!v.ok);
        assert_eq!(v.fingerprints.iter().map(|f| (f.fingerprint.as_str(), f.shards.clone())).collect::<Vec<_>>(), [("f1", vec![1]), ("f2", vec![2])]);
        assert_eq!(v.missing, ["d", "e"]);
        assert_eq!(v.doubled, [Doubled { unit: "a".into(), shards: vec![1, 2] }]);
        assert!(v.unplanned.is_empty());
    }

    #[test]
    fn missing_and_doubled_shards_and_tests_run_where_not_planned() {
        let v = verify(&[
            record(1, 3, "f", &ALL, &["a"], &["a", "z"]),
            record(1, 3, "f", &ALL, &["a"], &["a"]),
            record(2, 3, "f", &ALL, &["b", "c"], &["b"]),
        ])
        .unwrap();
        assert!(!v.ok);
        assert_eq!(v.missing_shards, [3]);
        assert_eq!(v.doubled_shards, [1]);
        assert_eq!(v.missing, ["c", "d", "e"]);
        assert_eq!(v.unplanned, [Unplanned { unit: "z".into(), shard: 1 }]);
    }

    #[test]
    fn records_read_from_their_json_and_refuse_other_shapes() {
        let v = serde_json::json!({"fingerprint": "f", "shardIndex": 2, "shardCount": 3, "units": ["a"], "assigned": ["a"], "ran": []});
        assert_eq!(ShardRecord::from_value(&v, 0).unwrap(), record(2, 3, "f", &["a"], &["a"], &[]));
        for (k, bad) in [("fingerprint", serde_json::json!(1)), ("shardIndex", serde_json::json!(0)), ("units", serde_json::json!("a")), ("ran", serde_json::json!([1]))] {
            let mut w = v.clone();
            w[k] = bad;
            assert!(ShardRecord::from_value(&w, 4).unwrap_err().message.starts_with("shard record 4: `"), "{k}");
        }
    }

    #[test]
    fn records_of_different_runs_or_none_are_refused() {
        assert!(verify(&[]).is_err());
        let e = verify(&[record(1, 2, "f", &ALL, &[], &[]), record(1, 3, "f", &ALL, &[], &[])]).unwrap_err();
        assert!(e.message.contains("different runs"), "{}", e.message);
        assert!(verify(&[record(4, 3, "f", &ALL, &[], &[])]).is_err());
    }

    // Playwright's setup projects: `setup` (one login test) is a dependency of the projects of
    // a, b, c, d; `cleanup` is its teardown; e's project depends on nothing
    const SETUP: [&str; 1] = ["setup/login"];
    const CLEANUP: [&str; 1] = ["cleanup/logout"];
    const DEPENDENTS: [&str; 4] = ["a", "b", "c", "d"];

    fn setup_shard(shard: u32, assigned: &[&str], ran: &[&str]) -> ShardRecord {
        sharing(record(shard, 3, "f", &ALL, assigned, ran), &[("setup", &SETUP, &DEPENDENTS), ("cleanup", &CLEANUP, &[])])
    }

    #[test]
    fn setup_and_teardown_tests_on_every_shard_that_needs_them_verify() {
        let v = verify(&[
            setup_shard(1, &["a", "b"], &["setup/login", "a", "b", "cleanup/logout"]),
            setup_shard(2, &["c", "d"], &["setup/login", "c", "d", "cleanup/logout"]),
            // e needs no setup: Playwright runs none there
            setup_shard(3, &["e"], &["e"]),
        ])
        .unwrap();
        assert!(v.ok, "{v:?}");
        assert_eq!((v.planned, v.shared_ran), (5, 2));
        assert!(v.doubled.is_empty() && v.unplanned.is_empty() && v.without_setup.is_empty(), "{v:?}");
    }

    #[test]
    fn ordinary_tests_are_still_checked_beside_setup_projects() {
        // shard 2 also ran a (doubled, unplanned there) and lost d
        let v = verify(&[
            setup_shard(1, &["a", "b"], &["setup/login", "a", "b", "cleanup/logout"]),
            setup_shard(2, &["c", "d"], &["setup/login", "a", "c", "cleanup/logout"]),
            setup_shard(3, &["e"], &["e"]),
        ])
        .unwrap();
        assert!(!v.ok);
        assert_eq!(v.doubled, [Doubled { unit: "a".into(), shards: vec![1, 2] }]);
        assert_eq!(v.unplanned, [Unplanned { unit: "a".into(), shard: 2 }]);
        assert_eq!(v.missing, ["d"]);
        assert!(v.without_setup.is_empty());
    }

    #[test]
    fn a_dependent_test_that_ran_without_its_setup_is_named() {
        // shard 2 ran c and d without the login (`--no-deps`); the teardown is never required
        let v = verify(&[
            setup_shard(1, &["a", "b"], &["setup/login", "a", "b"]),
            setup_shard(2, &["c", "d"], &["d", "c", "cleanup/logout"]),
            setup_shard(3, &["e"], &["e"]),
        ])
        .unwrap();
        assert!(!v.ok);
        assert_eq!(v.without_setup, [WithoutSetup { project: "setup".into(), shard: 2, unit: "c".into(), dependents: 2 }]);
        assert!(v.missing.is_empty() && v.doubled.is_empty() && v.unplanned.is_empty(), "{v:?}");
        // a test that needs no setup (e) ran without one: nothing to say
        let v = verify(&[
            setup_shard(1, &["a", "b", "c", "d"], &["setup/login", "a", "b", "c", "d"]),
            setup_shard(2, &[], &[]),
            setup_shard(3, &["e"], &["e"]),
        ])
        .unwrap();
        assert!(v.ok, "{v:?}");
    }

    #[test]
    fn a_shard_run_without_its_dependencies_is_named_from_the_other_records() {
        // shard 2 ran with `--no-deps`: Playwright gave it no setup test, so its record lists none
        let v = verify(&[
            setup_shard(1, &["a", "b"], &["setup/login", "a", "b", "cleanup/logout"]),
            sharing(record(2, 3, "f", &ALL, &["c", "d"], &["c", "d"]), &[("setup", &[], &DEPENDENTS)]),
            setup_shard(3, &["e"], &["e"]),
        ])
        .unwrap();
        assert_eq!(v.without_setup, [WithoutSetup { project: "setup".into(), shard: 2, unit: "c".into(), dependents: 2 }]);
        assert!(!v.ok);
    }

    #[test]
    fn shards_that_all_ran_without_their_dependencies_are_named_from_their_own_records() {
        // every shard ran with `--no-deps`: no record lists a setup test, so only each record's
        // word that Playwright left the project out tells it from a setup project with no test
        let left_out = |mut r: ShardRecord| {
            r.shared[0].left_out = true;
            r
        };
        let bare = |shard, assigned: &[&str]| sharing(record(shard, 3, "f", &ALL, assigned, assigned), &[("setup", &[], &DEPENDENTS)]);
        let v = verify(&[left_out(bare(1, &["a", "b"])), left_out(bare(2, &["c", "d"])), bare(3, &["e"])]).unwrap();
        assert_eq!(
            v.without_setup,
            [
                WithoutSetup { project: "setup".into(), shard: 1, unit: "a".into(), dependents: 2 },
                WithoutSetup { project: "setup".into(), shard: 2, unit: "c".into(), dependents: 2 },
            ]
        );
        assert!(!v.ok);
        // a setup project with no test at all, run on every shard: whole
        let v = verify(&[bare(1, &["a", "b"]), bare(2, &["c", "d"]), bare(3, &["e"])]).unwrap();
        assert!(v.ok, "{v:?}");
        // read from the record's JSON
        let json = serde_json::json!({"fingerprint": "f", "shardIndex": 1, "shardCount": 3, "units": ["a"], "assigned": ["a"], "ran": ["a"],
            "shared": [{"project": "setup", "units": [], "dependents": ["a"], "leftOut": true}]});
        assert!(ShardRecord::from_value(&json, 0).unwrap().shared[0].left_out);
        let mut w = json.clone();
        w["shared"][0]["leftOut"] = serde_json::json!("yes");
        assert!(ShardRecord::from_value(&w, 0).unwrap_err().message.contains("`leftOut` must be a boolean"));
    }

    #[test]
    fn records_without_the_shared_field_verify_as_before() {
        // written before the field: the setup test is a unit no plan had, on every shard
        let v = verify(&[
            record(1, 2, "f", &ALL, &["a", "b"], &["setup/login", "a", "b"]),
            record(2, 2, "f", &ALL, &["c", "d", "e"], &["setup/login", "c", "d", "e"]),
        ])
        .unwrap();
        assert!(!v.ok);
        assert_eq!(v.doubled, [Doubled { unit: "setup/login".into(), shards: vec![1, 2] }]);
        assert_eq!(v.unplanned.len(), 2);
        assert_eq!(v.shared_ran, 0);
    }

    #[test]
    fn the_shared_field_reads_from_json_and_refuses_other_shapes() {
        let v = serde_json::json!({"fingerprint": "f", "shardIndex": 1, "shardCount": 3, "units": ["a"], "assigned": ["a"], "ran": ["a"],
            "shared": [{"project": "setup", "units": ["setup/login"], "dependents": ["a"]}, {"project": "cleanup", "units": ["cleanup/logout"]}]});
        let r = ShardRecord::from_value(&v, 0).unwrap();
        assert_eq!(r, sharing(record(1, 3, "f", &["a"], &["a"], &["a"]), &[("setup", &SETUP, &["a"]), ("cleanup", &CLEANUP, &[])]));
        for bad in [serde_json::json!({}), serde_json::json!([{"units": []}]), serde_json::json!([{"project": "p"}]), serde_json::json!([{"project": "p", "units": [], "dependents": [3]}])] {
            let mut w = v.clone();
            w["shared"] = bad.clone();
            let e = ShardRecord::from_value(&w, 2).unwrap_err();
            assert!(e.message.starts_with("shard record 2: `"), "{bad}: {}", e.message);
        }
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]
        /// Any number of shards, units, setup tests: shards that ran their part, with the setup on
        /// each shard running a dependent, verify; one ordinary test also run on another shard,
        /// or one shard's setup left out, is named.
        #[test]
        fn setup_projects_never_read_as_doubled_and_real_faults_are_named(
            shards in 1u32..7,
            spec in proptest::collection::vec((0u32..64, any::<bool>()), 1..48),
            setups in 1usize..4,
            teardown in any::<bool>(),
            pick in any::<proptest::sample::Index>(),
        ) {
            let ids: Vec<String> = (0..spec.len()).map(|i| format!("u{i:03}")).collect();
            let shard_of = |i: usize| spec[i].0 % shards + 1;
            let dependents: Vec<String> = (0..spec.len()).filter(|&i| spec[i].1).map(|i| ids[i].clone()).collect();
            let setup: Vec<String> = (0..setups).map(|i| format!("setup/{i}")).collect();
            let cleanup: Vec<String> = if teardown { vec!["cleanup/0".into()] } else { vec![] };
            let records: Vec<ShardRecord> = (1..=shards).map(|s| {
                let assigned: Vec<String> = (0..spec.len()).filter(|&i| shard_of(i) == s).map(|i| ids[i].clone()).collect();
                let needs = (0..spec.len()).any(|i| shard_of(i) == s && spec[i].1);
                let mut ran = assigned.clone();
                if needs {
                    ran.extend(setup.iter().chain(&cleanup).cloned());
                }
                let mut shared = vec![Shared { project: "setup".into(), units: setup.clone(), dependents: dependents.clone(), left_out: false }];
                if teardown {
                    shared.push(Shared { project: "cleanup".into(), units: cleanup.clone(), dependents: vec![], left_out: false });
                }
                ShardRecord { fingerprint: "f".into(), shard_index: s, shard_count: shards, units: ids.clone(), assigned, ran, shared }
            }).collect();
            let v = verify(&records).unwrap();
            prop_assert!(v.ok, "{:?}", v);
            prop_assert_eq!(v.planned, ids.len());
            let needed = !dependents.is_empty();
            prop_assert_eq!(v.shared_ran, if needed { setup.len() + cleanup.len() } else { 0 });

            // an ordinary test also run on the next shard: doubled, and unplanned there
            if shards > 1 {
                let i = pick.index(ids.len());
                let other = shard_of(i) % shards + 1;
                let mut twice = records.clone();
                twice[other as usize - 1].ran.push(ids[i].clone());
                let v = verify(&twice).unwrap();
                prop_assert!(!v.ok);
                let mut both = vec![shard_of(i), other];
                both.sort_unstable();
                prop_assert_eq!(v.doubled, vec![Doubled { unit: ids[i].clone(), shards: both }]);
                prop_assert_eq!(v.unplanned, vec![Unplanned { unit: ids[i].clone(), shard: other }]);
                prop_assert!(v.missing.is_empty());
                // a test needing the setup, where none ran: named too
                let setup_there = (0..spec.len()).any(|j| shard_of(j) == other && spec[j].1);
                let expected = if spec[i].1 && !setup_there {
                    vec![WithoutSetup { project: "setup".into(), shard: other, unit: ids[i].clone(), dependents: 1 }]
                } else {
                    vec![]
                };
                prop_assert_eq!(v.without_setup, expected);
            }

            // one setup test left out of a shard that ran dependents: that shard is named, with
            // its first dependent test and how many ran there
            if needed {
                let s = shard_of((0..spec.len()).find(|&i| spec[i].1).unwrap());
                let mut cut = records.clone();
                let gone = &setup[pick.index(setup.len())];
                cut[s as usize - 1].ran.retain(|u| u != gone);
                let here: Vec<&String> = (0..spec.len()).filter(|&i| spec[i].1 && shard_of(i) == s).map(|i| &ids[i]).collect();
                let v = verify(&cut).unwrap();
                prop_assert!(!v.ok);
                prop_assert_eq!(v.without_setup, vec![WithoutSetup { project: "setup".into(), shard: s, unit: here[0].clone(), dependents: here.len() }]);
                prop_assert!(v.missing.is_empty() && v.doubled.is_empty() && v.unplanned.is_empty());
            }
        }
    }
}
