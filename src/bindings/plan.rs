//! `planShards`.

use wasm_bindgen::prelude::*;

use super::report::stringify;
use super::{to_js, JsResult};
use crate::plan::{self, split_nul_terminated, CompactPlan, PlanInput, UnitColumns};
use crate::plan::verify::{verify, ShardRecord};

/// Splits units (or an annotated report's tests) into shards of equal predicted time. Pure and
/// deterministic: the same input gives a bit-identical plan on every host.
#[wasm_bindgen(js_name = planShards)]
pub fn plan_shards(opts: JsValue) -> JsResult<JsValue> {
    // Options are plain data (a report or units): JSON text is the fast way across.
    let json = stringify(&opts, "planShards options")?;
    let input = PlanInput::from_json(&json)?;
    to_js(&plan::plan_shards(input)?)
}

/// `verifyShards(records)`: checks the shards of one run against each other (see
/// `plan::verify`): one fingerprint, every shard there once, every planned unit run exactly once.
#[wasm_bindgen(js_name = verifyShards)]
pub fn verify_shards(records: JsValue) -> JsResult<JsValue> {
    let not_records = || crate::error::Error::invalid_input("verifyShards takes an array of shard records (each shard's shard.json)");
    if !js_sys::Array::is_array(&records) {
        return Err(not_records().into());
    }
    let json = stringify(&records, "verifyShards records")?;
    let doc: serde_json::Value = crate::from_json(json.as_bytes()).map_err(|_| not_records())?;
    let records = doc
        .as_array()
        .ok_or_else(not_records)?
        .iter()
        .enumerate()
        .map(|(i, v)| ShardRecord::from_value(v, i))
        .collect::<crate::error::Result<Vec<_>>>()?;
    // as JSON text: serde_json's writer, which every JSON result of the .wasm shares
    super::report::parse(&serde_json::to_string(&verify(&records)?).unwrap_or_default())
}

thread_local! {
    /// The ids of the next [`plan_shards_columns`] call, as [`plan_ids_push`] gathers them.
    static IDS: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Appends a piece of the ids for the next `__planShardsColumns` call (`first`: start over):
/// ids joined by NUL, to which a NUL is added here, so that every id ends with one. The glue
/// sends the ids in pieces of about a thousand: one concatenation of all of them is a string of
/// megabytes that the JavaScript heap allocates and collects on every call, where pieces stay
/// small and are encoded straight into the wasm memory.
#[wasm_bindgen(js_name = "__planIdsPush")]
pub fn plan_ids_push(piece: &str, first: bool) {
    IDS.with(|ids| {
        let mut ids = ids.borrow_mut();
        if first {
            ids.clear();
        }
        ids.push_str(piece);
        ids.push('\0');
    });
}

/// The fast path of `planShards(opts)` for `opts.units`, called by the package's glue
/// (`src/api.js`), not public: the units cross as columns instead of JSON, and the plan comes
/// back as input indices (see [`CompactPlan`]) that the glue turns into the documented shape.
///
/// - `rest`: the other options as JSON text (checked here, as in [`plan_shards`]);
/// - the ids, each ending with a NUL, as [`plan_ids_push`] gathered them (taken: the next call
///   starts over);
/// - `files`/`groups`: the distinct names, each ending with a NUL, how many, and per unit the
///   index of its name (`0xFFFFFFFF`: none);
/// - `durations`: per unit, `durationMs` as given, or 0 when absent (0 is unknown too). NaN and
///   the infinities are refused, with the error the planner gives any non-finite duration: the
///   one input the JSON path reads otherwise (JSON writes them as `null`, absent), as the types
///   of `planShards` say.
///
/// The glue only comes here with structurally valid units (plain objects, a string `id`,
/// string or absent `file`/`group`, a number or absent `durationMs`, no other key), so every
/// check left is on values and happens in the same Rust code as on the JSON path, with the same
/// messages. Returns `undefined` when the glue must take the JSON path instead: inconsistent
/// columns (no units, or a string holding a NUL, give the wrong number of them); a U+FFFD in a
/// string, which is what a lone surrogate becomes on its way in (the JSON path tells them apart;
/// they are rare enough not to check in JavaScript first); a number the result cannot hold
/// exactly, which the JSON path reports.
#[wasm_bindgen(js_name = "__planShardsColumns")]
#[allow(clippy::too_many_arguments)]
pub fn plan_shards_columns(
    rest: &str,
    files: &str,
    file_count: u32,
    file_of: &[u32],
    groups: &str,
    group_count: u32,
    group_of: &[u32],
    durations: &[f64],
) -> JsResult<JsValue> {
    let ids = IDS.with(|ids| std::mem::take(&mut *ids.borrow_mut()));
    let ids = ids.as_str();
    let n = durations.len();
    let (Some(ids), Some(files), Some(groups)) = (
        split_nul_terminated(ids, n),
        split_nul_terminated(files, file_count as usize),
        split_nul_terminated(groups, group_count as usize),
    ) else {
        return Ok(JsValue::UNDEFINED);
    };
    if file_of.len() != n || group_of.len() != n {
        return Ok(JsValue::UNDEFINED);
    }
    let in_range = |of: &[u32], names: usize| of.iter().all(|&i| i == u32::MAX || (i as usize) < names);
    if !in_range(file_of, files.len()) || !in_range(group_of, groups.len()) {
        return Ok(JsValue::UNDEFINED);
    }
    let input = PlanInput::from_json(rest)?;
    if input.units.is_some() || input.report.is_some() {
        return Ok(JsValue::UNDEFINED);
    }
    let columns = UnitColumns {
        ids,
        // 0 (absent) is unknown; NaN and infinities are refused by the same check as on the JSON path
        durations: durations.iter().map(|&d| Some(d)).collect(),
        file_names: files,
        file_of: file_of.to_vec(),
        group_names: groups,
        group_of: group_of.to_vec(),
    };
    compact_to_js(&plan::plan_columns_compact(input, &columns)?)
}

/// Largest integer a JavaScript number holds exactly.
const MAX_SAFE: u64 = (1 << 53) - 1;

fn compact_to_js(p: &CompactPlan) -> JsResult<JsValue> {
    if p.lower_bound_ms > MAX_SAFE || p.makespan_ms > MAX_SAFE || p.predicted_ms.iter().chain(&p.tests_ms).any(|&v| v > MAX_SAFE) || p.runner_split_ms.is_some_and(|v| v > MAX_SAFE) {
        return Ok(JsValue::UNDEFINED);
    }
    let o = js_sys::Object::new();
    let set = |k: &str, v: JsValue| js_sys::Reflect::set(&o, &JsValue::from_str(k), &v).map(|_| ());
    set("fingerprint", JsValue::from_str(&p.fingerprint))?;
    set("lowerBoundMs", JsValue::from(p.lower_bound_ms as f64))?;
    set("makespanMs", JsValue::from(p.makespan_ms as f64))?;
    set("estimated", JsValue::from(p.estimated))?;
    let predicted: Vec<f64> = p.predicted_ms.iter().map(|&v| v as f64).collect();
    set("predictedMs", js_sys::Float64Array::from(&predicted[..]).into())?;
    let tests: Vec<f64> = p.tests_ms.iter().map(|&v| v as f64).collect();
    set("testsMs", js_sys::Float64Array::from(&tests[..]).into())?;
    set("unitCounts", js_sys::Uint32Array::from(&p.unit_counts[..]).into())?;
    set("units", js_sys::Uint32Array::from(&p.units[..]).into())?;
    set("fileCounts", js_sys::Uint32Array::from(&p.file_counts[..]).into())?;
    set("files", js_sys::Uint32Array::from(&p.files[..]).into())?;
    if let Some(ms) = p.runner_split_ms {
        set("runnerSplitMs", JsValue::from(ms as f64))?;
    }
    if p.kept_runner_split {
        set("keptRunnerSplit", JsValue::TRUE)?;
    }
    if let Some(shares) = &p.modules_share {
        let shares: Vec<f64> = shares.iter().map(|&v| f64::from(v) / 1000.0).collect();
        set("modulesShare", js_sys::Float64Array::from(&shares[..]).into())?;
    }
    Ok(o.into())
}

/// `__recommendShards(opts, maxShards, budgetRatio, budgetMs, fixedCosts)` (the CLI's `plan
/// --shards auto`): plans 1 to `maxShards` shards of `opts` (the `planShards` options without
/// `shardCount`) and picks a count within the budget (`budgetRatio` times one shard's machine
/// time when it is not NaN, else `budgetMs`); see `plan::recommend`. The fixed cost per shard is
/// `opts.perShardOverheadMs`, else the median of `fixedCosts` (reports' `__fixedCostMs`).
#[wasm_bindgen(js_name = "__recommendShards")]
pub fn recommend_shards(opts: JsValue, max_shards: f64, budget_ratio: f64, budget_ms: f64, fixed_costs: Vec<u64>) -> JsResult<JsValue> {
    use crate::plan::recommend::{median_fixed_cost, recommend, Budget};
    let json = stringify(&opts, "planShards options")?;
    let budget = if budget_ratio.is_nan() { Budget::Ms(budget_ms) } else { Budget::Ratio(budget_ratio) };
    let mut plan = PlanInput::from_json(&json)?;
    if plan.per_shard_overhead_ms.is_none() {
        plan.per_shard_overhead_ms = median_fixed_cost(&fixed_costs).map(|ms| ms as f64);
    }
    // as JSON text, like verifyShards (serde_json's writer is in the .wasm already)
    super::report::parse(&serde_json::to_string(&recommend(plan, max_shards, budget)?).unwrap_or_default())
}

/// `shardCosts(report)`: the cost model of a report (`plan::cost::learn`): a past run's report
/// teaches its files' costs and its fixed cost per shard; a durations document gives what its
/// source gave, else the runner's defaults. The result's `workers`, `unit`,
/// `perShardOverheadMs` and `costs` are `planShards` options.
#[wasm_bindgen(js_name = shardCosts)]
pub fn shard_costs(report: JsValue) -> JsResult<JsValue> {
    let json = stringify(&report, "shardCosts report")?;
    let view: crate::plan::from_report::ReportView = crate::from_json(json.as_bytes()).map_err(|e| {
        crate::error::Error::invalid_input(format!("shardCosts takes a report (an object with `environments`): {e}"))
    })?;
    super::report::parse(&serde_json::to_string(&crate::plan::cost::learn(&view)).unwrap_or_default())
}

/// `__mergeRuns(reports)`: several runs' reports (a sharded run's shards) as one timings document
/// (`plan::runs::merge_runs`): every test, and one costs record learned from them all. Each report
/// is validated as `encodeReport` validates one.
#[wasm_bindgen(js_name = "__mergeRuns")]
pub fn merge_runs(reports: JsValue) -> JsResult<JsValue> {
    let bad = || crate::error::Error::invalid_input("__mergeRuns takes a non-empty array of reports");
    if !js_sys::Array::is_array(&reports) {
        return Err(bad().into());
    }
    let list = js_sys::Array::from(&reports);
    let mut all = Vec::with_capacity(list.length() as usize);
    for r in list.iter() {
        all.push(super::report::report_from_js(&r)?);
    }
    let merged = crate::plan::runs::merge_runs(all).ok_or_else(bad)?;
    super::report::parse(&super::text_of(&crate::report::to_json(&merged)))
}

/// Where a report keeps its run's costs (a `sources` entry's `filePath`): `plan::cost::COSTS_SOURCE`.
#[wasm_bindgen(js_name = "__costsSource")]
pub fn costs_source() -> String {
    crate::plan::cost::COSTS_SOURCE.to_owned()
}

/// How many setups and start costs one plan takes, together: `plan::setups::MAX_SETUPS`.
#[wasm_bindgen(js_name = "__maxSetupsAndStarts")]
pub fn max_setups_and_starts() -> u32 {
    crate::plan::setups::MAX_SETUPS as u32
}

/// Whether a plan with the cold cost `coldMs` charges the suite's modules, so that a shard reads
/// them (`costs.modules`): `plan::cost::charges_modules`.
#[wasm_bindgen(js_name = "__chargesModules")]
pub fn charges_modules(cold_ms: f64) -> bool {
    crate::plan::cost::charges_modules(cold_ms)
}

/// How much sooner a balanced plan must be predicted to replace a runner's own split
/// (`runnerSplit`): `plan::RUNNER_SPLIT_MARGIN`, for the line a shard prints.
#[wasm_bindgen(js_name = "__runnerSplitMargin")]
pub fn runner_split_margin() -> f64 {
    crate::plan::RUNNER_SPLIT_MARGIN
}

/// `__fixedCostMs({report})`: the per-shard fixed cost a past run's report shows (its wall time
/// outside any test), or `undefined`; `__recommendShards` takes the figures of several (their
/// median). The report is read as `planShards` reads one.
#[wasm_bindgen(js_name = "__fixedCostMs")]
pub fn fixed_cost_ms(opts: JsValue) -> JsResult<Option<f64>> {
    let json = stringify(&opts, "planShards options")?;
    let report = PlanInput::from_json(&json)?.report;
    Ok(report.as_ref().and_then(crate::plan::recommend::fixed_cost_of).map(|ms| ms as f64))
}

