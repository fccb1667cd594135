//! The shard planner: splits test units into `shardCount` shards of near-equal predicted
//! duration. Pure and deterministic: the same input gives a bit-identical [`ShardPlan`] on every
//! host, whatever the order of the input.
//!
//! The pipeline, one file per concern:
//! 1. [`options`]: read and check the options ([`PlanInput`] mirrors `planShards(opts)`,
//!    `PlanOptions` of pkg-template/types/plan.d.ts); a bad value is an `INVALID_INPUT` error
//!    naming the option;
//! 2. [`from_report`]: an annotated report becomes units (only when `opts.report` is given);
//! 3. [`units`]: units in canonical order (by id hash), integer milliseconds, and
//!    [`estimate`]s for the units without a prediction;
//! 4. [`groups`]: units that must share a shard (same `group`, or same file with `unit: 'file'`);
//! 5. [`assign`]: LPT over the groups, then a bounded, deterministic improvement pass;
//! 6. [`fingerprint`]: a SHA-1 of the canonical input and the plan.
//!
//! All arithmetic is on integer milliseconds and every choice has a total tie-break, so no
//! floating-point rounding or hash-map order can change a plan.

mod assign;
pub mod cost;
mod estimate;
mod fingerprint;
pub mod from_report;
mod groups;
mod options;
pub mod recommend;
pub mod runs;
pub mod setups;
mod units;
pub mod verify;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::error::Result;

pub use options::{EnvironmentSelector, PlanInput, Settings, UnitKind};
pub use units::{split_nul_terminated, UnitColumns};

/// Largest accepted prediction for one unit (about 115 days), so that sums over a million units
/// stay exact in a JavaScript number.
pub const MAX_DURATION_MS: u64 = 10_000_000_000;
/// Largest accepted `shardCount` and `workers`.
pub const MAX_SHARDS: u32 = 100_000;
pub const MAX_WORKERS: u32 = 10_000;
/// The default prediction for a unit when nothing better is known (`defaultDurationMs`).
pub const DEFAULT_DURATION_MS: u64 = crate::limits::DEFAULT_PLAN_DURATION_MS;
/// A balanced plan replaces the runner's own split (`runnerSplit`) only when it is predicted at
/// least this much sooner: the cost model's error on one shard. On the bench's Jest and Vitest
/// suites (`npm run bench:suites`, 2-4 shards, each shard's files predicted alone with the seed's
/// costs) a shard took 0.86-1.21x its prediction; where the plan promised less than this over the
/// runner's split, the runner's split was as fast or faster (commander.js at 2 and 3 shards: 0%
/// and -3% predicted, 1.13x measured; Vitest at 2 and 3: 5% and 8%, 1.01x and 1.04x). Kept so,
/// they run the runner's own files; where the plan is kept (Jest and commander.js at 4 shards,
/// 13% and 24% predicted) it measured 0.97x and 0.83x.
pub const RUNNER_SPLIT_MARGIN: f64 = 0.10;

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
    /// The prediction; missing or zero means unknown (an estimate is used); negative is an error.
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
    /// With `runnerSplit`: the predicted wall time of the runner's own split's slowest shard.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runner_split_ms: Option<u64>,
    /// With `runnerSplit`: the shards are the runner's own split, the balanced plan not being
    /// predicted [`RUNNER_SPLIT_MARGIN`] sooner (`makespanMs` is then the runner's split's).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub kept_runner_split: bool,
}

/// One shard of a [`ShardPlan`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Shard {
    /// 1-based, as runners number shards (`--shard=index/count`).
    pub index: u32,
    /// `overheadMs` plus its units' time: their sum with one worker; with several, the makespan
    /// of its groups over the workers, longest first to the first free worker; 0 for an empty
    /// shard.
    pub predicted_ms: u64,
    /// Its units' own time as the plan counted it: their durations, and the estimates of those
    /// without one, summed (no costs, whatever the workers). A shard's end line sets its tests'
    /// own time against it.
    pub tests_ms: u64,
    /// Unit ids, sorted.
    pub units: Vec<String>,
    /// The distinct files of those units, sorted.
    pub files: Vec<String>,
    /// With `costs.modules` charged (a cold cost): of the modules' bytes that the plan's files
    /// load, the share this shard's files load (in thousandths: 0.001 steps). A shard's report
    /// keeps it (its costs record's `modulesShare`), and its cold cost is read over it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modules_share: Option<Thousandths>,
}

/// A share in thousandths, written as the number it stands for (`0.25` for 250).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thousandths(pub u32);

impl Serialize for Thousandths {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_f64(f64::from(self.0) / 1000.0)
    }
}

/// `planShards(opts)`: checks the options, turns a report into units when given one, and plans.
pub fn plan_shards(input: PlanInput) -> Result<ShardPlan> {
    let (units, settings) = checked_units(input)?;
    plan_units(&units, &settings)
}

/// The checked settings, and the units: as given, or a report's tests.
fn checked_units(input: PlanInput) -> Result<(Vec<Unit>, Settings)> {
    let (source, settings) = input.validate()?;
    let units = match source {
        options::Source::Units(units) => units,
        options::Source::Report(report, env) => from_report::units_from_report(&report, env.as_ref())?,
    };
    Ok((units, settings))
}

/// [`plan_shards`], with the result as input indices ([`CompactPlan`]; for a report, indices of
/// its tests in the order [`from_report::units_from_report`] lists them).
pub fn plan_shards_compact(input: PlanInput) -> Result<CompactPlan> {
    let (units, settings) = checked_units(input)?;
    plan_units_compact(&units, &settings)
}

/// Plans already-built units with checked settings.
pub fn plan_units(input: &[Unit], settings: &Settings) -> Result<ShardPlan> {
    check_runner_split(input.len(), settings)?;
    let core = plan_core(units::canonical(input)?, settings);
    let canon = &core.canon;
    let shards = (0..core.predicted_ms.len())
        .map(|s| Shard {
            index: s as u32 + 1,
            predicted_ms: core.predicted_ms[s],
            tests_ms: core.tests_ms[s],
            units: core.shard_units(s).iter().map(|&u| canon.input_ids[u as usize].to_owned()).collect(),
            files: core.shard_files(s).iter().map(|&f| canon.files[f as usize].to_owned()).collect(),
            modules_share: core.modules_share.as_ref().map(|v| Thousandths(v[s])),
        })
        .collect();
    Ok(ShardPlan {
        fingerprint: core.fingerprint,
        lower_bound_ms: core.lower_bound_ms,
        makespan_ms: core.makespan_ms,
        shards,
        estimated: core.estimated,
        runner_split_ms: core.runner_split_ms,
        kept_runner_split: core.kept_runner_split,
    })
}

/// A [`ShardPlan`] in indices into the input, for the bindings' fast path: no id or file is
/// copied out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompactPlan {
    pub fingerprint: String,
    pub lower_bound_ms: u64,
    pub makespan_ms: u64,
    pub estimated: u32,
    /// Per shard (in index order).
    pub predicted_ms: Vec<u64>,
    /// Per shard, [`Shard::tests_ms`].
    pub tests_ms: Vec<u64>,
    /// Per shard, how many units (of `units`) and files (of `files`) it has.
    pub unit_counts: Vec<u32>,
    pub file_counts: Vec<u32>,
    /// Shard after shard, the input indices of its units, in id order.
    pub units: Vec<u32>,
    /// Shard after shard, for each of its files (in file-name order), the input index of one of
    /// its units with that file.
    pub files: Vec<u32>,
    /// As [`ShardPlan::runner_split_ms`] and [`ShardPlan::kept_runner_split`].
    pub runner_split_ms: Option<u64>,
    pub kept_runner_split: bool,
    /// Per shard, [`Shard::modules_share`] in thousandths, when modules are charged.
    pub modules_share: Option<Vec<u32>>,
}

/// [`plan_units`], with the result as input indices ([`CompactPlan`]).
pub fn plan_units_compact(input: &[Unit], settings: &Settings) -> Result<CompactPlan> {
    check_runner_split(input.len(), settings)?;
    Ok(compact(plan_core(units::canonical(input)?, settings)))
}

/// `runnerSplit`, when given, has a shard for each unit.
fn check_runner_split(units: usize, settings: &Settings) -> Result<()> {
    let n = settings.runner_split.len();
    if n != 0 && n != units {
        return Err(crate::error::Error::invalid_input(format!("runnerSplit has {n} shards for {units} units: give each unit its shard in the runner's own split, in the order of units")));
    }
    Ok(())
}

/// `planShards` for units given as columns (the bindings' fast path): `input` holds the other
/// options (its `units`, if any, are ignored), checked exactly as by [`plan_shards`]. The
/// result's indices are indices of the columns.
pub fn plan_columns_compact(mut input: PlanInput, columns: &UnitColumns) -> Result<CompactPlan> {
    input.units = Some(Vec::new());
    let (_, settings) = input.validate()?;
    check_runner_split(columns.ids.len(), &settings)?;
    Ok(compact(plan_core(units::canonical_columns(columns)?, &settings)))
}

fn compact(core: Core) -> CompactPlan {
    let canon = &core.canon;
    // a unit of each file (the first in canonical order): any one names the file
    let mut unit_of_file = vec![u32::MAX; canon.files.len()];
    for (u, cu) in canon.units.iter().enumerate().rev() {
        if cu.file != units::NONE {
            unit_of_file[cu.file as usize] = canon.order[u];
        }
    }
    let n = core.predicted_ms.len();
    CompactPlan {
        units: core.unit_list,
        files: core.file_list.iter().map(|&f| unit_of_file[f as usize]).collect(),
        unit_counts: (0..n).map(|s| core.unit_ends[s + 1] - core.unit_ends[s]).collect(),
        file_counts: (0..n).map(|s| core.file_ends[s + 1] - core.file_ends[s]).collect(),
        fingerprint: core.fingerprint,
        lower_bound_ms: core.lower_bound_ms,
        makespan_ms: core.makespan_ms,
        estimated: core.estimated,
        predicted_ms: core.predicted_ms,
        tests_ms: core.tests_ms,
        runner_split_ms: core.runner_split_ms,
        kept_runner_split: core.kept_runner_split,
        modules_share: core.modules_share,
    }
}

/// The plan in canonical indices.
struct Core<'a> {
    canon: units::Canon<'a>,
    fingerprint: String,
    lower_bound_ms: u64,
    makespan_ms: u64,
    estimated: u32,
    predicted_ms: Vec<u64>,
    tests_ms: Vec<u64>,
    /// Shard `s` holds input units `unit_list[unit_ends[s]..unit_ends[s + 1]]` (in id order)
    /// and canonical files `file_list[file_ends[s]..file_ends[s + 1]]` (ascending).
    unit_list: Vec<u32>,
    unit_ends: Vec<u32>,
    file_list: Vec<u32>,
    file_ends: Vec<u32>,
    runner_split_ms: Option<u64>,
    kept_runner_split: bool,
    modules_share: Option<Vec<u32>>,
}

impl Core<'_> {
    fn shard_units(&self, s: usize) -> &[u32] {
        &self.unit_list[self.unit_ends[s] as usize..self.unit_ends[s + 1] as usize]
    }
    fn shard_files(&self, s: usize) -> &[u32] {
        &self.file_list[self.file_ends[s] as usize..self.file_ends[s + 1] as usize]
    }
}

/// The first half of a plan: the units' durations (without costs), their groups (weighed with
/// costs), and the groups' assignment to shards.
struct Assigned {
    estimated: u32,
    /// Per canonical unit, its duration (known or estimated), without costs.
    durations_ms: Vec<u64>,
    groups: groups::Groups,
    unit_masks: Vec<u64>,
    assignment: assign::Assignment,
    /// With a runner's own split: its predicted makespan, and whether it is the assignment.
    runner_split_ms: Option<u64>,
    kept_runner_split: bool,
    /// The heaviest group with every charged module it loads ([`setups::largest_floor`]).
    floor_ms: u64,
}

fn assign_core(canon: &units::Canon, settings: &Settings) -> Assigned {
    let durations = estimate::resolve(canon, settings.default_duration_ms);
    // each unit's weight: its duration with its costs (the durations alone are the shards' tests' time)
    let mut weights = durations.ms.clone();
    if !settings.costs.is_zero() {
        for (ms, extra) in weights.iter_mut().zip(settings.costs.unit_extras(canon)) {
            *ms = ms.saturating_add(extra);
        }
    }
    let groups = groups::build(canon, &weights, settings.unit);
    // with setups, start costs or modules, each unit's (and group's): they decide where the groups go
    let unit_masks = setups::unit_masks(canon, &settings.setups, &settings.costs.starts, settings.costs.charged_modules());
    // the runner's own split, when given: the plan's rival, predicted by the same model
    let runner = runner_split(canon, &groups, settings);
    let mut floor_ms = 0;
    let (balanced, runner) = if unit_masks.is_empty() {
        // each group's first file: LPT keeps a file's groups together when the file has a cost,
        // and a runner that hands a shard's files to its workers by name (node:test) has each
        // group ranked by it (canonical file indices are in name order). With setups or start
        // costs (which node:test has none of) the phases model below plans longest first
        let mut first_file = vec![units::NONE; groups.weights.len()];
        for (u, &g) in canon.units.iter().zip(&groups.of_unit) {
            first_file[g as usize] = first_file[g as usize].min(u.file);
        }
        let in_order = (settings.costs.order == cost::Order::Name && settings.workers > 1).then(|| assign::InOrder::by_first_file(&first_file));
        let fixed = if settings.costs.is_zero() { vec![0; canon.files.len()] } else { settings.costs.file_fixed(canon) };
        let files = assign::Files::new(first_file, canon.units.iter().map(|u| u.file).zip(groups.of_unit.iter().copied()), fixed);
        let runner = runner.map(|shard_of_group| {
            let costs = assign::costs_of(&groups.weights, &shard_of_group, settings, in_order.as_ref(), Some(&files));
            assign::Assignment { shard_of_group, costs }
        });
        (assign::assign(&groups.weights, settings, in_order.as_ref(), Some(&files)), runner)
    } else {
        let mut group_masks = vec![0u64; groups.weights.len()];
        for (&g, &m) in groups.of_unit.iter().zip(&unit_masks) {
            group_masks[g as usize] |= m;
        }
        let (setups, starts) = (&settings.setups, &settings.costs.starts);
        // a module only one group loads is part of its weight
        let weights = setups::with_owned_modules(&groups.weights, &group_masks, settings);
        floor_ms = setups::largest_floor(&weights, group_masks.clone(), setups, starts, settings);
        let runner = runner.map(|shard_of_group| {
            let costs = setups::costs_of(&weights, group_masks.clone(), setups, starts, settings, &shard_of_group);
            assign::Assignment { shard_of_group, costs }
        });
        (setups::assign(&weights, group_masks, setups, starts, settings), runner)
    };
    let (assignment, runner_split_ms, kept_runner_split) = match runner {
        None => (balanced, None, false),
        Some(runner) => {
            let (b, r) = (slowest(&balanced, settings), slowest(&runner, settings));
            let keep = b as f64 > r as f64 * (1.0 - RUNNER_SPLIT_MARGIN);
            (if keep { runner } else { balanced }, Some(r), keep)
        }
    };
    Assigned { estimated: durations.estimated, durations_ms: durations.ms, groups, unit_masks, assignment, runner_split_ms, kept_runner_split, floor_ms }
}

/// Per group, its shard in the runner's own split (`settings.runner_split`, per input unit), when
/// one is given for more than one shard and puts each group's units on one shard (a runner that
/// splits what the plan keeps together is no rival to it).
fn runner_split(canon: &units::Canon, groups: &groups::Groups, settings: &Settings) -> Option<Vec<u32>> {
    if settings.runner_split.len() != canon.units.len() || settings.shard_count < 2 {
        return None;
    }
    let mut shard_of_group = vec![u32::MAX; groups.weights.len()];
    for (&input, &g) in canon.order.iter().zip(&groups.of_unit) {
        let shard = settings.runner_split[input as usize];
        let at = &mut shard_of_group[g as usize];
        if *at != u32::MAX && *at != shard {
            return None;
        }
        *at = shard;
    }
    Some(shard_of_group)
}

/// The predicted wall time of an assignment's slowest non-empty shard, with what each pays
/// before its groups.
fn slowest(a: &assign::Assignment, settings: &Settings) -> u64 {
    let mut used = vec![false; a.costs.len()];
    for &s in &a.shard_of_group {
        used[s as usize] = true;
    }
    let fixed = fixed_ms(settings);
    a.costs.iter().zip(used).filter(|(_, used)| *used).map(|(&c, _)| fixed.saturating_add(c)).max().unwrap_or(0)
}

/// What every non-empty shard pays before its groups: its start and its workers' (cost.rs).
fn fixed_ms(settings: &Settings) -> u64 {
    settings.per_shard_overhead_ms.saturating_add(settings.costs.per_worker_ms)
}

/// The plan's makespan alone (what [`plan_units`] would give), for a caller that plans the same
/// units again and again under other costs (the cost model's calibration): no listing of the
/// shards, no fingerprint.
fn makespan_of(canon: &units::Canon, settings: &Settings) -> u64 {
    slowest(&assign_core(canon, settings).assignment, settings)
}

fn plan_core<'a>(canon: units::Canon<'a>, settings: &Settings) -> Core<'a> {
    let Assigned { estimated, durations_ms, groups, unit_masks, assignment, runner_split_ms, kept_runner_split, floor_ms } = assign_core(&canon, settings);

    let n = canon.units.len();
    // shard_of[u]: 1-based shard of canonical unit u
    let shard_of: Vec<u32> = groups.of_unit.iter().map(|&g| assignment.shard_of_group[g as usize] + 1).collect();
    let shards = assignment.costs.len();
    // per input unit: its 0-based shard, and its file
    let mut shard_of_input = vec![0u32; n];
    let mut file_of_input = vec![units::NONE; n];
    for ((&i, &s), u) in canon.order.iter().zip(&shard_of).zip(&canon.units) {
        shard_of_input[i as usize] = s - 1;
        file_of_input[i as usize] = u.file;
    }
    let (unit_list, unit_ends) = units::shard_lists_by_id(&canon.input_ids, &shard_of_input, shards);
    // file indices are in file-name order
    let mut file_seen = vec![u32::MAX; canon.files.len()];
    let mut file_list: Vec<u32> = Vec::new();
    let mut file_ends = Vec::with_capacity(shards + 1);
    let fixed = fixed_ms(settings);
    file_ends.push(0u32);
    let mut predicted_ms = Vec::with_capacity(shards);
    for (s, &cost) in assignment.costs.iter().enumerate() {
        let from = file_list.len();
        let ids = &unit_list[unit_ends[s] as usize..unit_ends[s + 1] as usize];
        for &u in ids {
            let f = file_of_input[u as usize];
            if f != units::NONE && file_seen[f as usize] != s as u32 {
                file_seen[f as usize] = s as u32;
                file_list.push(f);
            }
        }
        file_list[from..].sort_unstable();
        file_ends.push(file_list.len() as u32);
        predicted_ms.push(if ids.is_empty() { 0 } else { fixed.saturating_add(cost) });
    }
    let makespan_ms = predicted_ms.iter().copied().max().unwrap_or(0);
    let lower_bound_ms = assign::lower_bound(&groups.weights, settings, floor_ms);
    let fingerprint = fingerprint::fingerprint(&canon, settings, &shard_of, &unit_masks);
    // each shard's units' masks together: the modules its files load (none charged: no share)
    let mut loaded = vec![0u64; shards];
    for (&s, &m) in shard_of.iter().zip(&unit_masks) {
        loaded[s as usize - 1] |= m;
    }
    let modules_share = setups::module_shares(settings, &loaded);
    // each shard's units' own time, estimates included and costs left out
    let mut tests_ms = vec![0u64; shards];
    for (&s, ms) in shard_of.iter().zip(durations_ms) {
        tests_ms[s as usize - 1] = tests_ms[s as usize - 1].saturating_add(ms);
    }
    Core {
        canon,
        fingerprint,
        lower_bound_ms,
        makespan_ms,
        estimated,
        predicted_ms,
        tests_ms,
        unit_list,
        unit_ends,
        file_list,
        file_ends,
        runner_split_ms,
        kept_runner_split,
        modules_share,
    }
}

