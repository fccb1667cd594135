//! `planShards` options: the raw shape JavaScript passes ([`PlanInput`]) and the checked
//! [`Settings`] the planner runs on.

use serde::{Deserialize, Serialize};

use super::cost::{Costs, CostsInput};
use super::from_report::ReportView;
use super::setups::{Setup, SetupInput};
use super::{Unit, DEFAULT_DURATION_MS, MAX_DURATION_MS, MAX_SHARDS, MAX_WORKERS};
use crate::error::{Error, Result};

/// The `opts` of `planShards(opts)` (`PlanOptions`, pkg-template/types/plan.d.ts), exactly as
/// given: numbers are JavaScript numbers, checked by [`PlanInput::validate`].
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlanInput<'a> {
    /// An annotated report (from `fetchDurations`, or a past run's report).
    pub report: Option<ReportView>,
    #[serde(borrow)]
    pub units: Option<Vec<Unit<'a>>>,
    pub shard_count: Option<f64>,
    /// Which environment's predictions to use (report input only); default: all summed.
    pub environment: Option<EnvironmentSelector>,
    pub unit: Option<UnitKind>,
    pub default_duration_ms: Option<f64>,
    pub per_shard_overhead_ms: Option<f64>,
    pub workers: Option<f64>,
    /// What a shard pays beyond its tests' bodies ([`super::cost`]).
    pub costs: Option<CostsInput>,
    /// Setup and teardown projects run on each shard that holds a unit needing them ([`super::setups`]).
    pub setups: Option<Vec<SetupInput>>,
    /// Per unit of `units` (in their order), its shard (1-based) in the runner's own split: kept
    /// when the balanced plan is not predicted [`super::RUNNER_SPLIT_MARGIN`] sooner.
    pub runner_split: Option<Vec<f64>>,
}

/// `opts.environment`: an environment's `name` or its index in `environments`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum EnvironmentSelector {
    Index(f64),
    Name(String),
}

/// `opts.unit`: what one indivisible unit of scheduling is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    /// Each test (or explicit `group`) is scheduled on its own.
    #[default]
    Test,
    /// All the units of a file always share a shard.
    File,
}

/// Checked planner settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub shard_count: u32,
    pub unit: UnitKind,
    pub default_duration_ms: u64,
    /// Fixed start-up cost added to every non-empty shard.
    pub per_shard_overhead_ms: u64,
    /// Parallel workers inside one shard: wall time ~ `max(ceil(sum / workers), largest group)`.
    pub workers: u32,
    /// Per worker, file and test ([`super::cost`]); all 0 by default.
    pub costs: Costs,
    /// Setup and teardown projects, sorted by id ([`super::setups`]); none by default.
    pub setups: Vec<Setup>,
    /// Per input unit, its shard (0-based) in the runner's own split; empty: none given.
    pub runner_split: Vec<u32>,
}

impl Settings {
    /// Settings with the defaults `PlanOptions` documents and `shard_count` shards.
    pub fn new(shard_count: u32) -> Self {
        Settings {
            shard_count,
            unit: UnitKind::Test,
            default_duration_ms: DEFAULT_DURATION_MS,
            per_shard_overhead_ms: 0,
            workers: 1,
            costs: Costs::default(),
            setups: Vec::new(),
            runner_split: Vec::new(),
        }
    }
}

/// Where the units come from.
pub(super) enum Source<'a> {
    Units(Vec<Unit<'a>>),
    Report(ReportView, Option<EnvironmentSelector>),
}

pub(super) fn whole(value: Option<f64>, name: &str, default: u64, min: u64, max: u64) -> Result<u64> {
    match value {
        None => Ok(default),
        Some(v) if v.fract() == 0.0 && v >= min as f64 && v <= max as f64 => Ok(v as u64),
        Some(v) => Err(Error::invalid_input(format!("{name} must be an integer from {min} to {max}, got {v}"))),
    }
}

/// The options `planShards` declares, in the order of `PlanOptions` (pkg-template/types/plan.d.ts).
const OPTIONS: [&str; 11] =
    ["report", "units", "shardCount", "environment", "unit", "defaultDurationMs", "perShardOverheadMs", "workers", "costs", "setups", "runnerSplit"];

/// The first problem in `value` as the option it concerns, e.g. `units[3].durationMs: invalid
/// type: string "5", expected f64`.
fn explain(value: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    // Each option is read again from its own JSON text through `crate::from_json`, the reader
    // `PlanInput` uses: a `T::deserialize(&Value)` would compile a second parser of every option
    // type into the `.wasm`, for an error path. The position that reader adds to its message
    // ("at line 1 column 9", within the option's text) would only mislead, so it is left out.
    fn check<'v, T: Deserialize<'v>>(json: &'v [u8], path: &str) -> Option<String> {
        let e = crate::from_json::<T>(json).err()?;
        let text = e.to_string();
        let at = format!(" at line {} column {}", e.line(), e.column());
        Some(format!("{path}: {}", text.strip_suffix(&at).unwrap_or(&text)))
    }
    let Value::Object(map) = value else { return Some("options must be an object".into()) };
    for key in map.keys() {
        if !OPTIONS.contains(&key.as_str()) {
            return Some(format!("unknown option `{key}` (expected one of: {})", OPTIONS.join(", ")));
        }
    }
    let text = |v: &Value| serde_json::to_vec(v).unwrap_or_default();
    for (key, v) in map {
        let problem = match key.as_str() {
            "report" => check::<Option<ReportView>>(&text(v), "report"),
            "units" => match v {
                Value::Array(units) => {
                    units.iter().enumerate().find_map(|(i, u)| check::<Unit>(&text(u), &format!("units[{i}]")))
                }
                _ => check::<Option<Vec<Unit>>>(&text(v), "units"),
            },
            "environment" => check::<Option<EnvironmentSelector>>(&text(v), "environment (a name or an index)"),
            "unit" => check::<Option<UnitKind>>(&text(v), "unit"),
            "costs" => check::<Option<CostsInput>>(&text(v), "costs"),
            "setups" => check::<Option<Vec<SetupInput>>>(&text(v), "setups"),
            "runnerSplit" => check::<Option<Vec<f64>>>(&text(v), "runnerSplit"),
            _ => check::<Option<f64>>(&text(v), key),
        };
        if problem.is_some() {
            return problem;
        }
    }
    None
}

impl<'a> PlanInput<'a> {
    /// Reads `planShards` options from JSON text. A malformed option is an `INVALID_INPUT` error
    /// naming it (and the unit, for `units`).
    pub fn from_json(json: &'a str) -> Result<PlanInput<'a>> {
        crate::from_json(json.as_bytes()).map_err(|first| {
            let why = crate::from_json::<serde_json::Value>(json.as_bytes())
                .ok()
                .and_then(|v| explain(&v))
                .unwrap_or_else(|| first.to_string());
            Error::invalid_input(format!("planShards options: {why}"))
        })
    }

    /// Checks every option; the error message names the option and the accepted values.
    pub(super) fn validate(self) -> Result<(Source<'a>, Settings)> {
        let shard_count = match self.shard_count {
            None => return Err(Error::invalid_input("shardCount is required (an integer >= 1)")),
            Some(v) => whole(Some(v), "shardCount", 1, 1, MAX_SHARDS as u64)? as u32,
        };
        let settings = Settings {
            shard_count,
            unit: self.unit.unwrap_or_default(),
            default_duration_ms: whole(self.default_duration_ms, "defaultDurationMs", DEFAULT_DURATION_MS, 1, MAX_DURATION_MS)?,
            per_shard_overhead_ms: whole(self.per_shard_overhead_ms, "perShardOverheadMs", 0, 0, MAX_DURATION_MS)?,
            workers: whole(self.workers, "workers", 1, 1, MAX_WORKERS as u64)? as u32,
            costs: self.costs.as_ref().map(CostsInput::check).transpose()?.unwrap_or_default(),
            setups: super::setups::check(self.setups.unwrap_or_default())?,
            runner_split: match &self.runner_split {
                None => Vec::new(),
                Some(split) => split
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| whole(Some(v), &format!("runnerSplit[{i}]"), 1, 1, shard_count as u64).map(|s| s as u32 - 1))
                    .collect::<Result<_>>()?,
            },
        };
        let (setups, starts) = (settings.setups.len(), settings.costs.starts.len());
        // the modules that fit beside them, the largest (each a bit of a unit's mask)
        let mut settings = settings;
        settings.costs.modules.truncate(super::setups::MAX_SETUPS.saturating_sub(setups + starts));
        if setups + starts > super::setups::MAX_SETUPS {
            return Err(Error::invalid_input(format!(
                "setups and costs.starts: at most {} together (each is a bit of a unit's mask), got {setups} setups and {starts} starts",
                super::setups::MAX_SETUPS
            )));
        }
        let source = match (self.report, self.units) {
            (Some(_), Some(_)) => return Err(Error::invalid_input("pass either opts.report or opts.units, not both")),
            (None, None) => {
                return Err(Error::invalid_input(
                    "opts.report (an annotated report) or opts.units (an array of {id, file?, group?, durationMs?}) is required",
                ))
            }
            (Some(_), None) if self.runner_split.is_some() => {
                return Err(Error::invalid_input("opts.runnerSplit applies to opts.units only (each unit's shard in the runner's own split)"))
            }
            (Some(report), None) => Source::Report(report, self.environment),
            (None, Some(units)) => {
                if self.environment.is_some() {
                    return Err(Error::invalid_input(
                        "opts.environment applies to opts.report only; give units their durationMs directly",
                    ));
                }
                Source::Units(units)
            }
        };
        Ok((source, settings))
    }
}
