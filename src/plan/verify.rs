//! Verification after the shards of a run: did they plan alike, and did they, together, run every
//! planned test exactly once? Each balanced shard records its plan and what it ran
//! ([`ShardRecord`], the `shard.json` a reporter saves beside its report); [`verify`] reads them
//! all and names every shard that is missing or doubled, every fingerprint that differs, and
//! every test that ran on no shard, on several, or on a shard that did not plan it. Pure.
//!
//! This is the check that catches what a shard cannot see alone: a shard whose durations
//! differed from the others' (another timings file, a service answer the others did not get)
//! plans a different split, and tests then run twice or never, with every shard green.

use serde::Serialize;
use serde_json::Value;

use crate::error::{Error, Result};

/// What one shard planned and ran (the `shard.json` format: `fingerprint`, `shardIndex`,
/// `shardCount`, `units`, `assigned`, `ran`).
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
        let ids = |k: &str| -> Result<Vec<String>> {
            let list = v.get(k).and_then(Value::as_array).ok_or_else(|| bad(&format!("`{k}` must be an array of unit ids")))?;
            list.iter().map(|x| x.as_str().map(str::to_string).ok_or_else(|| bad(&format!("`{k}` must hold strings")))).collect()
        };
        Ok(ShardRecord {
            fingerprint: text("fingerprint")?,
            shard_index: index("shardIndex")?,
            shard_count: index("shardCount")?,
            units: ids("units")?,
            assigned: ids("assigned")?,
            ran: ids("ran")?,
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

/// What [`verify`] found. `ok` when every shard of `1..=shard_count` is there once, all planned
/// alike, and every planned unit ran on exactly one shard.
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
    }
    let (names, ranks) = super::units::rank(&all);
    let n = names.len();
    let mut next = ranks.into_iter();
    let mut take = |k: usize| -> Vec<usize> { next.by_ref().take(k).map(|i| i as usize).collect() };
    let mut planned = vec![false; n];
    let mut ran_on: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut unplanned_on: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut fingerprints: Vec<FingerprintShards> = Vec::new();
    for r in &in_order {
        let (units, assigned, ran) = (take(r.units.len()), take(r.assigned.len()), take(r.ran.len()));
        for u in units {
            planned[u] = true;
        }
        let mut mine = vec![false; n];
        for u in assigned {
            mine[u] = true;
        }
        for u in ran {
            if ran_on[u].last() != Some(&r.shard_index) {
                ran_on[u].push(r.shard_index);
                if !mine[u] {
                    unplanned_on[u].push(r.shard_index);
                }
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
        && unplanned.is_empty();
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(shard: u32, count: u32, fp: &str, units: &[&str], assigned: &[&str], ran: &[&str]) -> ShardRecord {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<String>>();
        ShardRecord { fingerprint: fp.into(), shard_index: shard, shard_count: count, units: v(units), assigned: v(assigned), ran: v(ran) }
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
}
