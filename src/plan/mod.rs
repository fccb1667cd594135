//! The shard planner: splits test units into `shardCount` shards of near-equal predicted
//! duration. Pure and deterministic: the same input gives a bit-identical [`ShardPlan`] on every
//! host, whatever the order of the input.
//!
//! The pipeline, one file per concern:
//! 1. [`options`]: read and check the options ([`PlanInput`] mirrors `planShards(opts)` of
//!    api.md); a bad value is an `INVALID_INPUT` error naming the option;
//! 2. [`from_report`]: an annotated report becomes units (only when `opts.report` is given);
//! 3. [`units`]: units in canonical order (sorted by id), integer milliseconds, and
//!    [`estimate`]s for the units without a prediction;
//! 4. [`groups`]: units that must share a shard (same `group`, or same file with `unit: 'file'`);
//! 5. [`assign`]: LPT over the groups, then a bounded, deterministic improvement pass;
//! 6. [`fingerprint`]: a SHA-1 of the canonical input and the plan.
//!
//! All arithmetic is on integer milliseconds and every choice has a total tie-break, so no
//! floating-point rounding or hash-map order can change a plan.

mod assign;
mod estimate;
mod fingerprint;
pub mod from_report;
mod groups;
mod options;
mod units;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::error::Result;

pub use options::{EnvironmentSelector, PlanInput, Settings, UnitKind};

/// Largest accepted prediction for one unit (about 115 days), so that sums over a million units
/// stay exact in a JavaScript number.
pub const MAX_DURATION_MS: u64 = 10_000_000_000;
/// Largest accepted `shardCount` and `workers`.
pub const MAX_SHARDS: u32 = 100_000;
pub const MAX_WORKERS: u32 = 10_000;
/// The default prediction for a unit when nothing better is known (api.md).
pub const DEFAULT_DURATION_MS: u64 = crate::limits::DEFAULT_PLAN_DURATION_MS;

/// One schedulable test (or file) with an optional predicted duration in milliseconds. Strings
/// borrow from the JSON text they were read from when they can (no escapes).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Unit<'a> {
    /// Unique among the units of one call.
    #[serde(borrow)]
    pub id: Cow<'a, str>,
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub file: Option<Cow<'a, str>>,
    /// Units with the same group always land on the same shard.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub group: Option<Cow<'a, str>>,
    /// The prediction; missing, zero or negative means unknown (an estimate is used).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<f64>,
}

/// The result of [`plan_shards`], as returned to JavaScript.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShardPlan {
    /// Lowercase hex SHA-1 of the canonical input and the plan (see [`fingerprint`]).
    pub fingerprint: String,
    /// No plan can be shorter: `max(ceil(total / (shards * workers)), largest group)` plus the
    /// per-shard overhead (0 when there are no units).
    pub lower_bound_ms: u64,
    /// The predicted wall time of the slowest shard.
    pub makespan_ms: u64,
    pub shards: Vec<Shard>,
    /// How many units had no usable prediction and got an estimate.
    pub estimated: u32,
}

/// One shard of a [`ShardPlan`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Shard {
    /// 1-based, as runners number shards (`--shard=index/count`).
    pub index: u32,
    /// `overheadMs + max(ceil(sum / workers), largest group)`; 0 for an empty shard.
    pub predicted_ms: u64,
    /// Unit ids, sorted.
    pub units: Vec<String>,
    /// The distinct files of those units, sorted.
    pub files: Vec<String>,
}

/// `planShards(opts)`: checks the options, turns a report into units when given one, and plans.
pub fn plan_shards(input: PlanInput) -> Result<ShardPlan> {
    let (source, settings) = input.validate()?;
    let units = match source {
        options::Source::Units(units) => units,
        options::Source::Report(report, env) => from_report::units_from_report(&report, env.as_ref())?,
    };
    plan_units(&units, &settings)
}

/// Plans already-built units with checked settings.
pub fn plan_units(input: &[Unit], settings: &Settings) -> Result<ShardPlan> {
    let canon = units::canonical(input)?;
    let durations = estimate::resolve(&canon, settings.default_duration_ms);
    let groups = groups::build(&canon, &durations.ms, settings.unit);
    let assignment = assign::assign(&groups, settings);

    let mut shard_of = vec![0u32; canon.units.len()];
    let mut file_seen = vec![u32::MAX; canon.files.len()];
    let mut shards = Vec::with_capacity(assignment.len());
    for (i, shard) in assignment.iter().enumerate() {
        let index = i as u32 + 1;
        let mut ids: Vec<usize> = shard.groups.iter().flat_map(|&g| groups[g].units.iter().copied()).collect();
        ids.sort_unstable();
        // canonical order is id order, and file indices are in file-name order
        let mut files: Vec<u32> = Vec::new();
        for &u in &ids {
            shard_of[u] = index;
            let f = canon.units[u].file;
            if f != units::NONE && file_seen[f as usize] != index {
                file_seen[f as usize] = index;
                files.push(f);
            }
        }
        files.sort_unstable();
        let predicted_ms = if ids.is_empty() { 0 } else { settings.per_shard_overhead_ms.saturating_add(shard.cost) };
        shards.push(Shard {
            index,
            predicted_ms,
            units: ids.iter().map(|&u| canon.units[u].id.to_owned()).collect(),
            files: files.iter().map(|&f| canon.files[f as usize].to_owned()).collect(),
        });
    }
    let makespan_ms = shards.iter().map(|s| s.predicted_ms).max().unwrap_or(0);
    let lower_bound_ms = assign::lower_bound(&groups, settings);
    let fingerprint = fingerprint::fingerprint(&canon, settings, &shard_of);
    Ok(ShardPlan { fingerprint, lower_bound_ms, makespan_ms, shards, estimated: durations.estimated })
}
