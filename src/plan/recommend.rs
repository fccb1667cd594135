//! How many shards: every shard pays a fixed cost (runner boot, browser launch, global set-up)
//! on top of its tests, so more shards shorten the wall time less and less while the machine
//! time grows by that cost per shard.
//!
//! - [`fixed_cost_of`] estimates the fixed cost from past runs' reports: a report's wall time
//!   (`duration`) less what the cost model ([`super::cost`]) predicts for its tests, files and
//!   workers. Over several reports (e.g. each shard of a past run), the median
//!   ([`median_fixed_cost`]).
//! - [`recommend`] plans the same input for 1, 2, ... `max_shards` shards with that cost per shard
//!   and picks the count with the least predicted wall time whose machine time (every shard's
//!   predicted time, summed) stays within the budget; ties go to fewer shards. Counts that would
//!   leave a shard empty are not offered.

use serde::Serialize;

use super::from_report::ReportView;
use super::{checked_units, plan_units, PlanInput, MAX_SHARDS};
use crate::error::{Error, Result};

/// One report's fixed cost per shard: its wall time less what the cost model predicts for its
/// tests and files ([`super::cost::learn`]); `None` when the report has no wall time or no timed
/// attempt.
pub fn fixed_cost_of(report: &ReportView) -> Option<u64> {
    let learned = super::cost::learn(report);
    learned.from_wall.then_some(learned.per_shard_overhead_ms)
}

/// The per-shard fixed cost from several reports' [`fixed_cost_of`]: their median (the lower
/// middle one of an even count), so one slow machine does not decide; `None` without any.
pub fn median_fixed_cost(each: &[u64]) -> Option<u64> {
    let mut known = each.to_vec();
    known.sort_unstable();
    known.get(known.len().checked_sub(1)? / 2).copied()
}

/// The machine-time budget of [`recommend`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Budget {
    /// At most this many times the machine time of one shard (>= 1).
    Ratio(f64),
    /// At most this many milliseconds of machine time in all.
    Ms(f64),
}

/// One shard count's predicted figures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CountRow {
    pub shards: u32,
    /// The slowest shard's predicted time (its fixed cost included).
    pub wall_ms: u64,
    /// Every shard's predicted time, summed: what the run costs in machine time.
    pub machine_ms: u64,
    pub within_budget: bool,
    pub fingerprint: String,
}

/// The counts considered and the one chosen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Recommendation {
    pub rows: Vec<CountRow>,
    /// The chosen count (a row's `shards`).
    pub shards: u32,
    /// The machine time allowed, in ms.
    pub budget_ms: u64,
    pub per_shard_overhead_ms: u64,
    /// How many units had no prediction (estimated), the same for every count.
    pub estimated: u32,
    /// The largest count was cut short: more shards would leave one empty.
    pub capped_at: Option<u32>,
}

/// See the module's documentation.
/// `plan`: the `planShards` options without `shardCount` (`perShardOverheadMs`: the fixed cost).
pub fn recommend(mut plan: PlanInput, max_shards: f64, budget: Budget) -> Result<Recommendation> {
    if !(max_shards.fract() == 0.0 && (1.0..=MAX_SHARDS as f64).contains(&max_shards)) {
        return Err(Error::invalid_input(format!("maxShards must be a whole number from 1 to {MAX_SHARDS}")));
    }
    if plan.shard_count.is_some() {
        return Err(Error::invalid_input("give maxShards, not shardCount: every count up to it is planned"));
    }
    plan.shard_count = Some(1.0);
    let (units, mut settings) = checked_units(plan)?;
    let mut rows: Vec<CountRow> = Vec::new();
    let mut estimated = 0;
    let mut capped_at = None;
    for n in 1..=max_shards as u32 {
        settings.shard_count = n;
        let p = plan_units(&units, &settings)?;
        if n > 1 && p.shards.iter().any(|s| s.units.is_empty()) {
            capped_at = Some(n - 1);
            break;
        }
        estimated = p.estimated;
        rows.push(CountRow {
            shards: n,
            wall_ms: p.makespan_ms,
            machine_ms: p.shards.iter().map(|s| s.predicted_ms).sum(),
            within_budget: false,
            fingerprint: p.fingerprint,
        });
    }
    let one = rows[0].machine_ms as f64;
    let budget_ms = match budget {
        Budget::Ratio(r) if r.is_finite() && r >= 1.0 => (one * r).floor() as u64,
        Budget::Ms(ms) if ms.is_finite() && ms >= 0.0 => ms.floor() as u64,
        _ => return Err(Error::invalid_input("budget: a ratio >= 1 of one shard's machine time, or milliseconds >= 0")),
    };
    for r in &mut rows {
        r.within_budget = r.machine_ms <= budget_ms;
    }
    // the least wall time within the budget (ties: fewer shards); none within it: the cheapest
    let chosen = rows
        .iter()
        .filter(|r| r.within_budget)
        .min_by_key(|r| (r.wall_ms, r.shards))
        .or_else(|| rows.iter().min_by_key(|r| (r.machine_ms, r.shards)))
        .map_or(1, |r| r.shards);
    Ok(Recommendation {
        rows,
        shards: chosen,
        budget_ms,
        per_shard_overhead_ms: settings.per_shard_overhead_ms,
        estimated,
        capped_at,
    })
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    /// A report of these fields (and no environment, which the fixed cost does not read).
    fn view(json: &str) -> ReportView {
        let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
        v["environments"] = serde_json::json!([]);
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn fixed_cost_is_the_wall_time_the_model_does_not_explain() {
        // 10 s run; a 4 s and a 5.5 s test on two workers, busy from 3 s to 9 s: 4 s outside
        let r = view(r#"{"duration":10000,"suites":[{"title":"s","tests":[
            {"title":"a","attempts":[{"startTimestamp":3000,"duration":4000,"parallelIndex":0}]},
            {"title":"b","attempts":[{"startTimestamp":3500,"duration":5500,"parallelIndex":1}]}]}]}"#);
        assert_eq!(fixed_cost_of(&r), Some(4000));
        // untimed attempts (start 0, a test that never started): the wall less the model's makespan
        let r = view(r#"{"duration":10000,"tests":[
            {"title":"a","attempts":[{"duration":3000,"parallelIndex":0},{"duration":2000,"parallelIndex":0}]},
            {"title":"b","attempts":[{"startTimestamp":0,"duration":4000,"parallelIndex":1}]}]}"#);
        assert_eq!(fixed_cost_of(&r), Some(5000));
        // no duration at all: nothing to say
        assert_eq!(fixed_cost_of(&view(r#"{"tests":[{"title":"a","attempts":[{"duration":1}]}]}"#)), None);
        assert_eq!(fixed_cost_of(&view(r#"{"duration":5,"tests":[{"title":"a","attempts":[]}]}"#)), None);
        // tests longer than the wall (clock skew): 0, never negative
        assert_eq!(fixed_cost_of(&view(r#"{"duration":5,"tests":[{"title":"a","attempts":[{"duration":9}]}]}"#)), Some(0));
    }

    #[test]
    fn over_several_reports_the_median_so_one_slow_machine_does_not_decide() {
        let r = |wall: u32| view(&format!(r#"{{"duration":{wall},"tests":[{{"title":"t","attempts":[{{"duration":1000}}]}}]}}"#));
        let each: Vec<Option<u64>> = [r(3000), r(3200), r(60000), view("{}")].iter().map(fixed_cost_of).collect();
        assert_eq!(each, vec![Some(2000), Some(2200), Some(59000), None]);
        assert_eq!(median_fixed_cost(&each.into_iter().flatten().collect::<Vec<_>>()), Some(2200));
        assert_eq!(median_fixed_cost(&[5, 1]), Some(1));
        assert_eq!(median_fixed_cost(&[]), None);
    }

    fn recommend_units(units: &str, max: u32, budget: Budget, overhead: u64) -> Result<Recommendation> {
        let mut plan = PlanInput::from_json(units).unwrap();
        plan.per_shard_overhead_ms = Some(overhead as f64);
        recommend(plan, max as f64, budget)
    }

    #[test]
    fn the_least_wall_time_within_the_budget() {
        // 40 units of 1 s: one shard 40 s of machine time; each shard costs 10 s more
        let units = format!(
            r#"{{"units":[{}]}}"#,
            (0..40).map(|i| format!(r#"{{"id":"t{i}","durationMs":1000}}"#)).collect::<Vec<_>>().join(",")
        );
        let r = recommend_units(&units, 8, Budget::Ratio(2.0), 10_000).unwrap();
        assert_eq!(r.rows.len(), 8);
        assert_eq!(r.rows[0].wall_ms, 50_000);
        assert_eq!(r.rows[0].machine_ms, 50_000);
        assert_eq!(r.rows[3].wall_ms, 20_000); // 4 shards: 10 s + 10 s
        assert_eq!(r.rows[3].machine_ms, 80_000);
        // budget 100 s of machine time: 6 shards (40 + 60) is the most it allows
        assert_eq!(r.budget_ms, 100_000);
        assert_eq!(r.shards, 6);
        assert!(r.rows[5].within_budget && !r.rows[6].within_budget);
        // no fixed cost: every count costs the same machine time, so the most shards win
        let r = recommend_units(&units, 8, Budget::Ratio(1.0), 0).unwrap();
        assert_eq!(r.shards, 8);
        // an absolute budget below one shard: the cheapest count, said by within_budget
        let r = recommend_units(&units, 8, Budget::Ms(1000.0), 10_000).unwrap();
        assert_eq!(r.shards, 1);
        assert!(!r.rows[0].within_budget);
    }

    #[test]
    fn counts_that_leave_a_shard_empty_are_not_offered() {
        let units = r#"{"units":[{"id":"a","durationMs":5000},{"id":"b","durationMs":100},{"id":"c","durationMs":100}]}"#;
        let r = recommend_units(units, 8, Budget::Ratio(3.0), 1000).unwrap();
        assert_eq!(r.rows.len(), 3);
        assert_eq!(r.capped_at, Some(3));
        // 2 shards: wall 6 s (5 s + 1 s), 3 shards: still 6 s but more machine time
        assert_eq!(r.shards, 2);
    }

    #[test]
    fn bad_input_is_refused() {
        let units = r#"{"units":[{"id":"a","durationMs":5}]}"#;
        assert!(recommend_units(units, 0, Budget::Ratio(1.5), 0).is_err());
        assert!(recommend_units(units, 4, Budget::Ratio(0.5), 0).is_err());
        let mut plan = PlanInput::from_json(units).unwrap();
        plan.shard_count = Some(2.0);
        assert!(recommend(plan, 4.0, Budget::Ratio(1.5)).is_err());
    }
}
