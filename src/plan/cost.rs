//! What a shard costs beyond its tests' own time: the one cost model of the planner.
//!
//! A shard's predicted wall time is
//!
//! ```text
//! perShardOverheadMs + perWorkerMs + coldMs × (1 − (4/5)^groups) + makespan over `workers` of its groups,
//! a group's weight = its tests' predicted durations + their files' costs
//! ```
//!
//! - **per shard** (`perShardOverheadMs`): the runner's boot, config, global set-up and teardown,
//!   paid once by every non-empty shard;
//! - **per worker** (`costs.perWorkerMs`): a worker's start (a process, a browser); workers start
//!   side by side, so a shard's wall pays it once;
//! - **cold, per shard** (`costs.coldMs`): what a shard's workers pay once for the modules its files
//!   share, on whichever files import them first (Jest's transforms: its cache is per run). A
//!   shard of many files pays all of it, one of a few files less: `coldMs × (1 − (4/5)^groups)`
//!   ([`cold_of`]), the share of the shared modules its first files reach; or, given the suite's
//!   modules and the files that load them (`costs.modules`, [`Module`]: the Jest sequencer reads
//!   them), each module's share of it by size on each worker of a shard that runs a file loading
//!   it (up to its workers; one file's, on its worker), as work of the shard, and a file with
//!   every module it loads a floor under its shard ([`super::setups`]);
//! - **per file** (`costs.files[path]`, else `costs.perFileMs + costs.perTestMs × its tests`): the
//!   time a file holds a worker beyond its tests' bodies: load, transform, collection, test
//!   environment (jsdom), set-up files, `beforeAll` hooks, and the runner's own per-test overhead.
//!   A file's cost is spread over its units (an integer share each, the remainder to the first
//!   units in canonical order), so a file kept whole (`unit: 'file'`) carries exactly its cost;
//!   a shard that runs `k` of a split file's `n` units (each shard that runs part of it really
//!   loads it) pays also the rest of the file's fixed part (its cost beyond `perTestMs` a unit),
//!   `× (n − k) / n`, over its workers ([`super::assign::Files`]);
//! - units without a file pay `perTestMs` each.
//!
//! [`learn`] reads these from a past run's report: the costs its reporter recorded (a `sources`
//! entry at [`COSTS_SOURCE`], [`CostsRecord`]: what each file cost beyond its tests, from Jest's
//! `perfStats`, Vitest's module durations), else the gaps between tests on each worker's timeline
//! (attempts' `parallelIndex` and start times: Playwright). They are fitted to the run until the
//! model's makespan of the run is the time its workers were busy: scaled down (a runner's
//! figures, taken on a busy machine, may overlap), or up by the runner's [`Profile`] (the same
//! gap added to every file: Jest, Vitest; Playwright's gaps scaled, at most 1.5x), with the run
//! planned as its runner plans it (one unit a file for Jest, Vitest and node:test, its tests'
//! time summed before rounding), and the fixed cost per shard is the
//! rest of the run's wall time ([`calibrate`]). Without a run report (a durations
//! document from the service, which predicts per test only), the record's model fields if a
//! service gave them, else the documented defaults of the runner ([`defaults`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::from_report::{Attempt, ReportView};
use super::options::{Settings, UnitKind};
use super::units::{Canon, NONE};
use super::setups::{by_id, MAX_SETUPS};
use super::{MAX_DURATION_MS, MAX_WORKERS};
use crate::error::{Error, Result};

/// Where a report keeps its run's costs: a `sources` entry (docs/report-format.md §3.1 allows any
/// file's text there, and the service keeps it without reading it) whose text is a
/// [`CostsRecord`].
pub const COSTS_SOURCE: &str = ".shardwise/costs.json";

/// `planShards`' `opts.costs` as given (numbers are JavaScript numbers, checked by
/// [`CostsInput::check`]).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CostsInput {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_worker_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cold_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_file_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_test_ms: Option<f64>,
    /// Known files' costs (file as the units name it -> ms), in place of `perFileMs + perTestMs ×
    /// tests` for those files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<BTreeMap<String, f64>>,
    /// Start costs a shard pays once when it holds a unit of theirs ([`Start`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starts: Option<Vec<StartInput>>,
    /// The order in which the runner hands a shard's groups to its workers ([`Order`]):
    /// `longest` or `name` (read by hand: serde's reader of an enum costs the .wasm KBs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<String>,
    /// The suite's own modules and the files that load them ([`Module`]): the cold cost spread
    /// over them by size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modules: Option<Vec<ModuleInput>>,
    /// Per module (as `modules` names it), what its transforms took in a past run (ms): its
    /// weight among `modules` in place of its size ([`check_modules`]). A run's learned costs give
    /// it ([`Costs::module_ms`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module_ms: Option<BTreeMap<String, f64>>,
}

/// One entry of `costs.modules`, as given.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ModuleInput {
    pub id: String,
    /// Its size (bytes of source).
    pub bytes: f64,
    /// The files (as the units name them) that load it, directly or through other modules.
    pub files: Vec<String>,
}

/// A module of the suite's own (or several loaded by the same files, merged): a shard that holds
/// any file loading it transforms it once, on one of its workers (Jest's transform cache is per
/// run and empty on a fresh CI machine). With the cold cost ([`Costs::cold_ms`], what a shard of
/// every file pays for them at full), a shard pays each module it loads its share of that cost by
/// size, `coldMs × workers × bytes / total bytes`, as work on its workers, in place of `coldMs ×
/// (1 − 0.8^groups)`: files that load the same modules go together unless the imbalance is worth
/// transforming them again ([`super::setups`]). The bench's Jest suites (19 modules, 1.1 MB): a
/// shard's files cost 1.95-2.5 ms more a KB of modules they were first to load than in an
/// unsharded run (`npm run bench:modules`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Module {
    pub id: String,
    /// Its weight: its bytes, or with the modules' transform times (`costs.moduleMs`) thousandths
    /// of a ms ([`check_modules`]).
    pub bytes: u64,
    #[serde(skip)]
    pub files: Vec<String>,
}

/// Most modules planned (after merging those the same files load): the largest, each a bit of a
/// unit's mask with the setups and starts ([`super::options`] keeps what fits).
pub const MAX_MODULES: usize = 48;
/// Most `costs.modules` entries taken.
const MAX_MODULES_INPUT: usize = 100_000;

/// The least cold cost ([`Costs::cold_ms`], ms) a plan shares out over the suite's modules
/// ([`Module`]); below it the plan charges it by a shard's number of groups ([`ColdOf`]), as
/// without modules, and a shard need not read them ([`charges_modules`]). Reading them is most of
/// what a plan adds to a shard's start: 80-145 ms in luxon's Jest shards (b6b9d037: 58 files, 25
/// modules, 272 KB), for a cold cost of 99-369 ms learned from its shards' folders (commander's
/// 5-341 ms), where a plan by modules moves a part of the cold cost at most. The bench's Jest
/// suites, which the modules decide (`npm run bench:modules`), learn 1.5-3.4 s.
pub const MODULES_MIN_COLD_MS: u64 = 500;

/// Whether a plan with the cold cost `cold_ms` (as `costs.coldMs` gives it) charges the suite's
/// modules ([`MODULES_MIN_COLD_MS`]): a shard reads them only then.
pub fn charges_modules(cold_ms: f64) -> bool {
    cold_ms.is_finite() && cold_ms.round() >= MODULES_MIN_COLD_MS as f64
}

/// `costs.order`: the order in which the runner hands a shard's groups (files) to its workers,
/// each to the first free one. It decides a shard's time over several workers: a long file
/// handed out last ends late.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// Longest first: the Jest and Vitest sequencers of shardwise sort a shard's files so;
    /// Playwright's tests are planned alike.
    #[default]
    Longest,
    /// By file name: node:test sorts the files it is given (`node --test b.mjs a.mjs` runs a.mjs
    /// first), whatever order they come in.
    Name,
}

fn is_longest(o: &Order) -> bool {
    *o == Order::Longest
}

/// One entry of `costs.starts`, as given.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StartInput {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<f64>,
    /// The files whose units need it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<String>>,
    /// The ids of the units that need it (beside those of `files`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units: Option<Vec<String>>,
}

/// A start cost: what each of a shard's workers that runs a unit needing it pays once, before
/// the first of them, and only on a shard that holds one: a test environment's first load in a
/// worker (Jest's jsdom, learned by [`learn`]), the workers of a Playwright project (its browser
/// and fixtures: a worker runs one project's tests, so each project on a shard starts its own).
/// No barrier, unlike a setup: the planner charges it as work of the phase of the units that need
/// it, once for each worker that runs one of them ([`super::setups`]), so units that share a
/// start go together unless the imbalance is worth paying it once more.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Start {
    pub id: String,
    pub duration_ms: u64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<String>,
}

/// The checked costs the planner runs on (all 0: tests' bodies only, the planner as before).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Costs {
    pub per_worker_ms: u64,
    /// A shard's cold cost at full (see [`cold_of`]); left out of the fingerprint while 0, so
    /// plans from costs without it keep theirs.
    #[serde(skip_serializing_if = "is_zero_ms")]
    pub cold_ms: u64,
    pub per_file_ms: u64,
    pub per_test_ms: u64,
    pub files: BTreeMap<String, u64>,
    /// Sorted by id; left out of the fingerprint while empty, so plans without keep theirs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub starts: Vec<Start>,
    /// Left out of the fingerprint while longest first, so plans without keep theirs.
    #[serde(skip_serializing_if = "is_longest")]
    pub order: Order,
    /// The largest first (ties by id); left out of the fingerprint while empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub modules: Vec<Module>,
    /// Per module of the suite's own, what its transforms took in the run [`learn`] read (a
    /// Vitest record's `transforms`): given out with the learned costs, which a plan takes as
    /// `costs.moduleMs`, the modules' weights. Empty in a plan's checked costs, whose modules
    /// carry them (the fingerprint too).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub module_ms: BTreeMap<String, u64>,
    /// Where the modules weigh what the runner's main process took to transform them alone
    /// (`costs.moduleMs`, Vitest's, [`learn`]), the sum of those times over every module given (ms;
    /// 0 otherwise): one process transforms for every worker, one module after another, so a
    /// shard of every file keeps it busy that long, and each worker running files waits about as
    /// long, behind the others' requests as well as its own: the cold cost at full
    /// ([`Costs::module_ms`]; `coldMs`, read from a shard's transforms over the share of the
    /// modules it loaded, came out 2.9 s for date-fns's 1.5 s where that share was small). A shard
    /// of one group, whose worker is the only one asking, waits for its own modules' transforms
    /// alone ([`Costs::module_ms`]'s `K`). Not in the fingerprint: it follows from the costs given.
    #[serde(skip)]
    pub served_ms: u64,
}

fn is_zero_ms(v: &u64) -> bool {
    *v == 0
}

/// Of a shard's cold cost at full (`cold_ms`), what a shard of `groups` groups pays, by its
/// number of groups: `cold_ms × (1 − r^groups)` with `r` = [`COLD_REACH`]. Multiplications only
/// (no `exp`, whose last bit may differ between hosts), so every shard computes the same plan.
pub(super) struct ColdOf(Vec<u64>);

/// `1 − r^groups` ([`COLD_REACH`]): the share of the cold cost a shard of `groups` groups pays.
fn cold_share(groups: usize) -> f64 {
    let mut left = 1.0f64;
    for _ in 0..groups.min(200) {
        left *= COLD_REACH;
    }
    1.0 - left
}

impl ColdOf {
    pub(super) fn new(cold_ms: u64) -> ColdOf {
        if cold_ms == 0 {
            return ColdOf(vec![0]);
        }
        // r^200 < 1e-19: every larger shard pays all of it
        ColdOf((0..=200).map(|g| (cold_ms as f64 * cold_share(g)).round() as u64).collect())
    }
    pub(super) fn of(&self, groups: usize) -> u64 {
        self.0[groups.min(self.0.len() - 1)]
    }
}

/// Of the cold cost a shard has not yet paid, the share its next file leaves unpaid: each file
/// imports about a fifth of the shared modules not yet loaded. On the bench's Jest suites (80 files,
/// seeds and shards of one run re-predicted offline), with the cold cost per shard at 4/5: 15 and
/// 17 of 18 shards within 15% of their wall (one shard of a single slow file: 0.76); with half of
/// it per shard and half spread over the files (linear): 12 and 9 of 18; all of it per shard,
/// whatever its files: the single-file shard 0.73.
const COLD_REACH: f64 = 0.8;

pub(super) fn ms_of(v: Option<f64>, name: &str) -> Result<u64> {
    match v {
        None => Ok(0),
        Some(v) if v.is_finite() && (0.0..=MAX_DURATION_MS as f64).contains(&v) => Ok(v.round() as u64),
        Some(v) => Err(Error::invalid_input(format!("{name} must be a number of ms from 0 to {MAX_DURATION_MS}, got {v}"))),
    }
}

impl CostsInput {
    pub fn check(&self) -> Result<Costs> {
        let mut files = BTreeMap::new();
        for (f, &ms) in self.files.iter().flatten() {
            files.insert(f.clone(), ms_of(Some(ms), &format!("costs.files[{f:?}]"))?);
        }
        let cold_ms = ms_of(self.cold_ms, "costs.coldMs")?;
        let mut weights = BTreeMap::new();
        for (m, &ms) in self.module_ms.iter().flatten() {
            weights.insert(m.clone(), ms_of(Some(ms), &format!("costs.moduleMs[{m:?}]"))?);
        }
        let (modules, served_ms) = check_modules(self.modules.as_deref().unwrap_or_default(), &weights)?;
        Ok(Costs {
            per_worker_ms: ms_of(self.per_worker_ms, "costs.perWorkerMs")?,
            cold_ms,
            per_file_ms: ms_of(self.per_file_ms, "costs.perFileMs")?,
            per_test_ms: ms_of(self.per_test_ms, "costs.perTestMs")?,
            files,
            starts: check_starts(self.starts.as_deref().unwrap_or_default())?,
            order: match self.order.as_deref() {
                None | Some("longest") => Order::Longest,
                Some("name") => Order::Name,
                Some(o) => return Err(Error::invalid_input(format!("costs.order must be 'longest' or 'name', got {o:?}"))),
            },
            // below the least cold cost they share out, as if not given (the fingerprint too)
            modules: if charges_modules(cold_ms as f64) { modules } else { Vec::new() },
            module_ms: BTreeMap::new(),
            served_ms,
        })
    }
}

/// `costs.modules` checked: those loaded by the same files merged (their bytes summed, the
/// largest's id), the [`MAX_MODULES`] largest kept, largest first (ties by id: the input's order
/// does not matter). A module no file loads is left out. With the modules' transform times
/// (`module_ms`, `costs.moduleMs`), a module weighs what its transforms took in place of its
/// bytes, and one without a time its bytes at the rate of those with one (ms a byte): a module's
/// transform costs more than its size says where the modules are small (date-fns's 684
/// one-function modules of its `fp` build, 1.9 s of Vitest's 5.8 s for the suite's modules).
/// Also, where the weights are the transforms' times, their sum over every module (ms,
/// [`Costs::served_ms`]; else 0).
fn check_modules(input: &[ModuleInput], module_ms: &BTreeMap<String, u64>) -> Result<(Vec<Module>, u64)> {
    if input.len() > MAX_MODULES_INPUT {
        return Err(Error::invalid_input(format!("costs.modules: at most {MAX_MODULES_INPUT} modules, got {}", input.len())));
    }
    // ms a byte, of the modules with a time (IEEE multiplication and division: the same on every host)
    let (timed_ms, timed_bytes) = input.iter().filter_map(|m| module_ms.get(&m.id).map(|&ms| (ms, m.bytes))).fold((0u64, 0f64), |(a, b), (ms, bytes)| (a + ms, b + bytes.max(0.0)));
    let timed = timed_ms > 0 && timed_bytes >= 1.0;
    // by the files that load them (a key of their names): the merged module, its largest's bytes
    let mut index: BTreeMap<String, u64> = BTreeMap::new();
    let mut merged: Vec<(Module, u64)> = Vec::new();
    for (i, m) in input.iter().enumerate() {
        if m.id.is_empty() {
            return Err(Error::invalid_input(format!("costs.modules[{i}].id must be a non-empty string")));
        }
        if !(m.bytes.is_finite() && (0.0..=1e12).contains(&m.bytes)) {
            return Err(Error::invalid_input(format!("costs.modules[{i}].bytes must be a number of bytes from 0 to 1e12, got {}", m.bytes)));
        }
        let files = sorted_set(&m.files);
        if files.is_empty() {
            continue;
        }
        let bytes = match module_ms.get(&m.id) {
            // in thousandths of a ms: the weights' unit where times are given
            Some(&ms) if timed => ms.saturating_mul(1000),
            _ if timed => (m.bytes.round() * 1000.0 * timed_ms as f64 / timed_bytes.round()).round() as u64,
            _ => m.bytes.round() as u64,
        };
        let key = files.join("\n");
        let k = *index.entry(key).or_insert_with(|| {
            merged.push((Module { id: m.id.clone(), bytes: 0, files }, bytes));
            merged.len() as u64 - 1
        });
        let (e, largest) = &mut merged[k as usize];
        e.bytes += bytes;
        if bytes > *largest || (bytes == *largest && m.id < e.id) {
            (*largest, e.id) = (bytes, m.id.clone());
        }
    }
    let all: u64 = merged.iter().map(|(m, _)| m.bytes).sum();
    // the largest first, by insertion into the kept ones (no sort of its own in the .wasm)
    let mut out: Vec<Module> = Vec::new();
    for (m, _) in merged {
        let at = out.partition_point(|o| o.bytes > m.bytes || (o.bytes == m.bytes && o.id < m.id));
        if at < MAX_MODULES {
            out.insert(at, m);
            out.truncate(MAX_MODULES);
        }
    }
    Ok((out, if timed { (all + 500) / 1000 } else { 0 }))
}

/// Strings sorted, without repeats (through a map of a type the planner has: a sort of strings
/// would add its own copy to the .wasm).
fn sorted_set(items: &[String]) -> Vec<String> {
    // inserted one by one: a map collected from an iterator sorts with a copy of its own
    let mut set: BTreeMap<String, u64> = BTreeMap::new();
    for f in items {
        set.insert(f.clone(), 0);
    }
    set.into_keys().collect()
}

/// `costs.starts` checked, sorted by id (their order in the input does not matter); at most
/// [`super::setups::MAX_SETUPS`] with the setups ([`super::options`] checks the sum).
fn check_starts(input: &[StartInput]) -> Result<Vec<Start>> {
    let mut out: Vec<Start> = Vec::with_capacity(input.len());
    for (i, s) in input.iter().enumerate() {
        if s.id.is_empty() {
            return Err(Error::invalid_input(format!("costs.starts[{i}].id must be a non-empty string")));
        }
        let duration_ms = ms_of(s.duration_ms, &format!("costs.starts[{i}].durationMs"))?;
        let files = sorted_set(s.files.as_deref().unwrap_or_default());
        out.push(Start { id: s.id.clone(), duration_ms, files, units: s.units.clone().unwrap_or_default() });
    }
    if let Some(twice) = by_id(&mut out, |s| s.id.as_str()) {
        return Err(Error::invalid_input(format!("costs.starts: the id {twice:?} is given twice")));
    }
    Ok(out)
}

impl Costs {
    pub fn is_zero(&self) -> bool {
        self.per_worker_ms == 0
            && self.cold_ms == 0
            && self.per_file_ms == 0
            && self.per_test_ms == 0
            && self.files.values().all(|&v| v == 0)
            && self.starts.iter().all(|s| s.duration_ms == 0)
            && self.order == Order::Longest
    }

    /// The modules a shard is charged for (see [`Module`]): none below the least cold cost they
    /// share out ([`MODULES_MIN_COLD_MS`]).
    pub(super) fn charged_modules(&self) -> &[Module] {
        if charges_modules(self.cold_ms as f64) { &self.modules } else { &[] }
    }

    /// Per charged module, what each worker that loads it pays, given how many of the plan's
    /// groups load it (`loaders[k]`, 0 where none does) and the shard's `workers`: its share by
    /// size of the work a shard of every planned file pays, `coldMs × workers`, where a module is
    /// paid once by each worker that runs a group loading it, up to the workers (one that a single
    /// group loads, once, on that group's worker). `K × bytes` with `K = coldMs × workers / Σ bytes
    /// × min(loaders, workers)`, rounded (IEEE multiplication and division: the same on every
    /// host). So a shard of every file pays `coldMs` of wall, as [`ColdOf`] charges it and as the
    /// run it was learned from was fitted with it ([`calibrate`]). Where every module is loaded by
    /// at least as many groups as workers, `K` is `coldMs / total`; where modules only one file
    /// loads weigh (date-fns: the `fp` file's 200 wrappers, each function's own modules), more:
    /// charged `coldMs × bytes / total` each, a shard of date-fns's every file was predicted
    /// 13.4 s where the seed it was learned from took 14.4 s, and its shards 1.14-1.43x under
    /// (3 of 18 within 15%; with `K`, 16 and 13 of 18 in two runs). `None` where no planned file
    /// loads any: the cold cost is then charged by groups ([`ColdOf`]).
    ///
    /// With the charges, `K`: with [`Costs::served_ms`] (`coldMs` replaced by it; the weights
    /// thousandths of the ms each module's transforms take alone, [`learn`]), a shard of one group
    /// pays `1 / (1000 K)` of each ms charged, its worker waiting for its own modules alone
    /// (date-fns's `fp` file alone on a shard of 2 workers: 1.07-1.11 s of transforms, where
    /// charged at `K` as a worker of every file's shard that waits behind the other's requests
    /// too, 2.0 s).
    pub(super) fn module_ms(&self, workers: u32, loaders: &[u32]) -> Option<(Vec<u64>, f64)> {
        let modules = self.charged_modules();
        let workers = workers.max(1);
        let paid: f64 = modules.iter().zip(loaders).map(|(m, &n)| m.bytes as f64 * n.min(workers) as f64).sum();
        let all = if self.served_ms > 0 { self.served_ms } else { self.cold_ms } as f64 * workers as f64;
        (paid > 0.0).then(|| (modules.iter().zip(loaders).map(|(m, &n)| if n > 0 { (all * m.bytes as f64 / paid).round() as u64 } else { 0 }).collect(), all / paid))
    }

    /// The cold cost charged as `coldMs × (1 − 0.8^groups)` ([`ColdOf`]): none where modules
    /// share it out.
    pub(super) fn cold_of_groups(&self) -> ColdOf {
        ColdOf::new(if self.charged_modules().is_empty() { self.cold_ms } else { 0 })
    }

    /// The cost of a file of `tests` units that is not among the known files.
    pub fn unknown_file_ms(&self, tests: u64) -> u64 {
        self.per_file_ms.saturating_add(self.per_test_ms.saturating_mul(tests))
    }

    /// Per canonical file, its units and its cost (`files[path]`, else `perFileMs + perTestMs ×
    /// its units`).
    pub(super) fn file_costs(&self, canon: &Canon) -> (Vec<u64>, Vec<u64>) {
        let mut per_file = vec![0u64; canon.files.len()];
        for u in &canon.units {
            if u.file != NONE {
                per_file[u.file as usize] += 1;
            }
        }
        let cost = canon
            .files
            .iter()
            .zip(&per_file)
            .map(|(name, &n)| self.files.get(*name).copied().unwrap_or_else(|| self.unknown_file_ms(n)))
            .collect();
        (per_file, cost)
    }

    /// The part of each canonical file's cost that a shard running any of its units pays whole:
    /// its cost beyond `perTestMs` for each of its units (load, transform, `beforeAll`). Zero for
    /// a file of one unit, which is never split.
    pub(super) fn file_fixed(&self, canon: &Canon) -> Vec<u64> {
        let (per_file, cost) = self.file_costs(canon);
        per_file.iter().zip(cost).map(|(&n, c)| if n > 1 { c.saturating_sub(self.per_test_ms.saturating_mul(n)) } else { 0 }).collect()
    }

    /// Per canonical unit, what it carries beyond its own duration: its share of its file's cost,
    /// or `perTestMs` without a file (see the module's documentation).
    pub(super) fn unit_extras(&self, canon: &Canon) -> Vec<u64> {
        let (per_file, cost) = self.file_costs(canon);
        let mut seen = vec![0u64; canon.files.len()];
        canon
            .units
            .iter()
            .map(|u| {
                if u.file == NONE {
                    return self.per_test_ms;
                }
                let f = u.file as usize;
                let (n, c) = (per_file[f], cost[f]);
                let k = seen[f];
                seen[f] += 1;
                c / n + u64::from(k < c % n)
            })
            .collect()
    }
}

/// The costs a runner's reporter records in its report ([`COSTS_SOURCE`]); a service that learns
/// costs may give the model fields too. Every field is optional; unknown fields are ignored, so a
/// newer record still reads.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CostsRecord {
    /// `jest`, `vitest`, `playwright`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner: Option<String>,
    /// The run's parallel workers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workers: Option<f64>,
    /// Per file (as the report names it), the time it held a worker beyond its tests' bodies, as
    /// the runner measured it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<BTreeMap<String, f64>>,
    /// The same fitted to the run by [`learn`] (its workers' warm-up moved to `perWorkerMs`,
    /// scaled to the time the workers were busy): what a service keeps and gives back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fitted_files: Option<BTreeMap<String, f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_shard_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_worker_ms: Option<f64>,
    /// A shard's cold cost at full ([`Costs::cold_ms`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cold_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_file_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_test_ms: Option<f64>,
    /// The run's test environments (Jest: `jest-environment-jsdom`), where the runner says...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environments: Option<Vec<String>>,
    /// ...and per file (as the report names it), the index of its own in `environments`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment_of: Option<BTreeMap<String, f64>>,
    /// Per file, the time the runner took to load its test environment (Jest's `perfStats`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment_ms: Option<BTreeMap<String, f64>>,
    /// The start costs [`learn`] found ([`environment_starts`]): what a service keeps and gives back
    /// with `fittedFiles`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starts: Option<Vec<StartInput>>,
    /// What the run's wall time holds before its runner started: `shardwise node-test`'s own start
    /// and planning, which each shard measures and adds to its prediction itself, so the fixed
    /// cost per shard leaves it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub launch_ms: Option<f64>,
    /// Of the suite's own modules (their bytes), the share this run's files load, where its plan
    /// read them (a Jest shard's, `costs.modules`): its cold cost is their transforms, and a shard
    /// of every file pays it over this share ([`learn`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modules_share: Option<f64>,
    /// What the runner's main process spent transforming the suite's own modules (not its test
    /// files) this run, taken off the costs of the files that asked for each first (Vitest: vite
    /// transforms a module once per run, for whichever file loads it first): paid once a shard for
    /// the modules its files load, its cold cost ([`learn`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transform_ms: Option<f64>,
    /// Per module of the suite's own (as the report names files), what its transforms took this
    /// run: the modules' weights in a plan ([`Costs::module_ms`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transforms: Option<BTreeMap<String, f64>>,
}

/// The least a test environment's first load in a worker must cost beyond its usual load to be
/// planned as a start cost ([`environment_starts`]); less is noise, left in the files' costs.
const MIN_START_MS: f64 = 100.0;

/// Each test environment's first load in a worker, as a start cost of the shards that run its
/// files (see [`Start`]). Jest loads a file's environment on its worker (`perfStats`), once per
/// worker: on the bench's `jest-slow` suite jsdom took 370 ms on each worker's first jsdom file
/// and 5-25 ms on the others, and `node` 1-9 ms everywhere. Left in the files' costs, that first
/// load lands with whichever files ran first (the seed's workers' warm-up, [`warm_up`]) and is
/// charged to every shard, also one that runs no jsdom file.
///
/// Per environment, of its files' load times the `workers` longest, beyond the median of them,
/// on average (those at least [`MIN_START_MS`] beyond it); the files they were taken from keep the
/// rest. Only with two environments or more: with one, every shard pays it, as the workers' start.
///
/// Returns the starts, and per file what was taken off its cost.
fn environment_starts(record: Option<&CostsRecord>, measured: &mut BTreeMap<String, f64>, workers: u32) -> (Vec<Start>, Vec<(String, u64)>) {
    let mut taken = Vec::new();
    let Some(((names, of), loads)) = record.and_then(|r| r.environments.as_ref().zip(r.environment_of.as_ref()).zip(r.environment_ms.as_ref())) else {
        return (Vec::new(), taken);
    };
    // per environment (by its index), its measured files with their load times
    let mut by_env: Vec<Vec<(&str, u64)>> = vec![Vec::new(); names.len().min(MAX_SETUPS)];
    for (f, &i) in of {
        let i = i as usize;
        if i < by_env.len() && measured.contains_key(f) {
            let load = loads.get(f).copied().filter(|v| v.is_finite() && *v >= 0.0).unwrap_or(0.0);
            by_env[i].push((f.as_str(), load.round().min(MAX_DURATION_MS as f64) as u64));
        }
    }
    if by_env.iter().filter(|files| !files.is_empty()).count() < 2 {
        return (Vec::new(), taken);
    }
    let mut out = Vec::new();
    for (files, env) in by_env.iter().zip(names) {
        if files.is_empty() || env.is_empty() {
            continue;
        }
        // the loads longest first (keys `load << 20 | index`, sorted as integers, then reversed)
        let mut keys: Vec<u64> = files.iter().enumerate().take(1 << 20).map(|(i, &(_, load))| load << 20 | i as u64).collect();
        keys.sort_unstable();
        keys.reverse();
        let median = keys[keys.len() / 2] >> 20;
        let mut sum = 0u64;
        let mut count = 0u64;
        for &k in keys.iter().take(workers.max(1) as usize) {
            let (f, load) = files[(k & ((1 << 20) - 1)) as usize];
            let over = load.saturating_sub(median);
            if (over as f64) < MIN_START_MS {
                continue;
            }
            sum += over;
            count += 1;
            if let Some(v) = measured.get_mut(f) {
                *v = (*v - over as f64).max(0.0);
            }
            taken.push((f.to_owned(), over));
        }
        if count == 0 {
            continue;
        }
        out.push(Start {
            id: format!("environment {env}"),
            duration_ms: sum / count,
            // in name order: `of` is a map by file
            files: files.iter().map(|&(f, _)| f.to_owned()).collect(),
            units: Vec::new(),
        });
    }
    // ids of distinct environments: none twice
    by_id(&mut out, |s| s.id.as_str());
    (out, taken)
}

/// What the planner knows of a runner, in one place: its documented costs, used when no report
/// teaches better, and how to read its reports' figures (see [`learn`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// `(per shard, per worker, per file, per test)` in ms. Measured on this project's bench
    /// suites (`npm run bench:suites`, 2 cores): Jest's boot and a worker's module registry;
    /// Vitest's boot (Vite) and a worker's environment; Playwright's boot and a browser per
    /// worker; node:test's boot (with `shardwise node-test`'s planning) and a process per file. An
    /// unknown runner: none.
    pub defaults: (u64, u64, u64, u64),
    /// The greatest factor [`calibrate`] scales the measured files' costs by. Jest's figures are
    /// each file's time on its worker (`perfStats`), which may overlap on a busy machine, and
    /// Vitest's are measured inside the worker: scaled down only (1); what they miss is added by
    /// `max_gap_ms`. Playwright's
    /// timeline counts no gap before a worker's first file, nor a worker started again after a
    /// failure: up to 1.5x (the bench's Playwright suite: shards took 1.14-1.27x their prediction
    /// at 1x, 0.91-1.05x at 1.5x).
    pub max_scale: f64,
    /// The most [`calibrate`] adds to every file's cost when the run was busy longer than its
    /// files' figures explain even at `max_scale`: the time a worker spends between files, which
    /// the runner's figures leave out. Jest's `perfStats` time a file on its worker and miss it:
    /// commander.js at 63eed4aa was busy 16.7 s on 2 workers where its tests and files' figures
    /// explain 13 s (about 67 ms a file), and its balanced shards took 1.25-1.59x their
    /// prediction alike, though they run their files longest first (so not time lost to Jest's
    /// own order). Added, not scaled: a scale (tried at 2x) doubled the 4 s of its first
    /// TypeScript file's compiler load too, and a shard of that file alone took 0.53x its
    /// prediction. Vitest's module figures miss each file's own start in its worker (an isolated
    /// file gets a fresh module graph and environment): the same on a file of 30 ms as on one of
    /// 300. Scaled instead (up to 3x, 2.5x fitted on the bench's `vitest-slow` seed), a shard of
    /// 40 cheap files and the slow one took 1.31-1.35x its prediction and the shards of 20 heavier
    /// files 0.89-0.96x; with the same total added per file, 1.04-1.07x and 0.98-1.11x (every
    /// balanced shard of that run re-predicted alone from the seed: 27 of 27 within 15%, against
    /// 21 scaled).
    pub max_gap_ms: f64,
    /// How far a run's warm-up reaches (see [`warm_up`]).
    pub cold: Cold,
    /// The unit the runner shards by: `file` for Jest, Vitest and node:test (they cannot split a
    /// file).
    pub unit: Option<UnitKind>,
    /// The order in which it hands a shard's files to its workers.
    pub order: Order,
}

/// The runner's [`Profile`] (a report's `category`).
pub fn profile(runner: Option<&str>) -> Profile {
    match runner {
        Some("jest") => Profile { defaults: (1500, 300, 150, 2), max_scale: 1.0, max_gap_ms: 250.0, cold: Cold::EarlyHalf, unit: Some(UnitKind::File), order: Order::Longest },
        Some("vitest") => Profile { defaults: (1200, 300, 120, 1), max_scale: 1.0, max_gap_ms: 500.0, cold: Cold::FirstFiles, unit: Some(UnitKind::File), order: Order::Longest },
        Some("playwright") => Profile { defaults: (1500, 1000, 100, 30), max_scale: 1.5, max_gap_ms: 0.0, cold: Cold::FirstFiles, unit: None, order: Order::Longest },
        // node:test runs each file in a process of its own (no worker to start): a file's cost is
        // that process's start and its imports, as node:test times it from the parent (1x). From
        // js-tests/node-test-shards.test.mjs's seed run (2 cores, busy): 216-432 ms a file, 208 ms
        // a shard, with `shardwise node-test`'s planning before node --test's boot. It runs the
        // files it is given in name order
        Some("node-test") => Profile { defaults: (500, 0, 150, 1), max_scale: 1.0, max_gap_ms: 0.0, cold: Cold::FirstFiles, unit: Some(UnitKind::File), order: Order::Name },
        _ => Profile { defaults: (0, 0, 0, 0), max_scale: 1.0, max_gap_ms: 0.0, cold: Cold::FirstFiles, unit: None, order: Order::Longest },
    }
}

/// What [`learn`] read from a report: the `planShards` options of its cost model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Learned {
    /// The report's runner (its `category`), if it names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runner: Option<String>,
    /// The run's parallel workers (its record, else its attempts' `parallelIndex`), if it says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workers: Option<u32>,
    /// The unit the runner shards by: `file` for Jest and Vitest (they cannot split a file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<UnitKind>,
    pub per_shard_overhead_ms: u64,
    pub costs: Costs,
    /// Files whose cost was measured (the others get `perFileMs + perTestMs × tests`).
    pub measured_files: u32,
    /// Whether the fixed cost per shard came from the run's wall time.
    pub from_wall: bool,
    /// Where the figures come from, for a person: `learned from the report (…)`, `the runner's
    /// defaults (…)`.
    pub source: String,
    /// The files' costs as measured (the warm-up apart), before [`calibrate`] fitted them to the
    /// run's wall: what [`learn_runs`] combines (a shard whose wall one long file decides fits its
    /// other files' costs to nothing).
    #[serde(skip)]
    pub(super) unfitted: BTreeMap<String, u64>,
    /// What each worker's first file paid beyond a steady file, where the run had files enough
    /// to tell ([`warm_up`]): what [`learn_runs`] takes a suite's workers' start from.
    #[serde(skip)]
    pub(super) first_starts: Vec<u64>,
}

/// Per file, the gaps on the workers' timelines before its tests: after a worker's first test,
/// each gap between one test's end and the next's start goes to the next test's file (loading a
/// file, its hooks, the runner's overhead between tests). The first gap of a worker is its start
/// and the run's set-up: the fixed cost per shard takes it. A gap where a lane goes from one
/// environment to another (Playwright: a project to the next) is a new worker's start (a worker
/// runs one project's tests): returned apart, per lane, not charged to the file after it; and,
/// for the worker's start, each such gap without a wait at a barrier (see [`start_part`]). The
/// run's stalls ([`stalls`]) are no file's and no worker's: taken out of every gap, and their
/// time returned (last).
/// (Attempts are ordered by integer keys, `start << 24 | index` per lane, with the sort the
/// planner already has: a sort of another element type would add its own copy to the .wasm.)
fn timeline_costs<'a>(attempts: &[Attempt<'a>]) -> (BTreeMap<&'a str, f64>, Vec<Vec<f64>>, Vec<f64>, f64) {
    let timed: Vec<&Attempt> =
        attempts.iter().filter(|(_, s, d, p, _)| *s > 0.0 && *d >= 0.0 && p.is_some()).take(1 << 24).collect();
    let t0 = timed.iter().map(|a| a.1).fold(f64::INFINITY, f64::min);
    let mut lanes: Vec<Vec<u64>> = Vec::new();
    for (i, a) in timed.iter().enumerate() {
        let lane = (a.3.unwrap_or(0.0) as usize).min(MAX_WORKERS as usize);
        if lanes.len() <= lane {
            lanes.resize(lane + 1, Vec::new());
        }
        lanes[lane].push(((a.1 - t0).round() as u64).min((1 << 40) - 1) << 24 | i as u64);
    }
    let mut out: BTreeMap<&str, f64> = BTreeMap::new();
    let mut switches: Vec<Vec<f64>> = Vec::new();
    let mut worker_starts: Vec<f64> = Vec::new();
    for lane in &mut lanes {
        lane.sort_unstable();
    }
    let at = |k: u64| timed[(k & ((1 << 24) - 1)) as usize];
    // per lane, its attempts' (start, end, environment), in order
    let spans: Vec<Vec<(f64, f64, f64)>> = lanes.iter().map(|l| l.iter().map(|&k| at(k)).map(|a| (a.1, a.1 + a.2, a.4)).collect()).collect();
    let stalled = stalls(&spans);
    let stall_in = |from: f64, to: f64| stalled.iter().map(|&(a, b)| (to.min(b) - from.max(a)).max(0.0)).sum::<f64>();
    for (li, lane) in lanes.iter().enumerate() {
        let mut starts = Vec::new();
        for pair in lane.windows(2) {
            let (prev, next) = (at(pair[0]), at(pair[1]));
            let stall = stall_in(prev.1 + prev.2, next.1);
            let gap = (next.1 - (prev.1 + prev.2) - stall).max(0.0);
            if prev.4 != next.4 {
                starts.push(gap);
                // of the start (the gap after the other lanes released it), the part no stall took
                let part = start_part(&spans, li, prev.1 + prev.2, next.1);
                worker_starts.push((part - stall_in(next.1 - part, next.1)).max(0.0));
                if let Some(f) = next.0 {
                    out.entry(f).or_insert(0.0);
                }
            } else if let Some(f) = next.0 {
                *out.entry(f).or_insert(0.0) += gap;
            }
        }
        // a lane's first file still holds a worker while it loads: counted by the others' mean
        if let Some(f) = lane.first().and_then(|&k| at(k).0) {
            out.entry(f).or_insert(0.0);
        }
        if !lane.is_empty() {
            switches.push(starts);
        }
    }
    (out, switches, worker_starts, stalled.iter().map(|&(a, b)| b - a).sum())
}

/// How long every lane of a run must have been idle at once, between its first test's start and
/// its last test's end, for that time to be a stall of the whole run (its runner's process or its
/// machine held up) rather than a file's load or a worker's start, which a lane pays while the
/// others work, or beside the others at a barrier (1.3-3 s on the peer bench's setup suites).
const STALL_MS: f64 = 10_000.0;

/// The run's stalls: the spans, longer than [`STALL_MS`], where no lane of a run of two or more
/// ran a test (`spans`: per lane its attempts' `(start, end, _)`). A first run on a new machine
/// (the peer bench's setup suite, its seed's first minute): both lanes idle from 9.4 s to 42.6 s,
/// read as two files' costs, and every shard planned from it predicted 102-108 s for 34-38 s.
/// (Ordered by integer keys, as [`timeline_costs`] orders a lane.)
fn stalls(spans: &[Vec<(f64, f64, f64)>]) -> Vec<(f64, f64)> {
    if spans.iter().filter(|l| !l.is_empty()).count() < 2 {
        return Vec::new();
    }
    let flat: Vec<(f64, f64)> = spans.iter().flatten().map(|a| (a.0, a.1)).take(1 << 24).collect();
    let t0 = flat.iter().map(|a| a.0).fold(f64::INFINITY, f64::min);
    let mut keys: Vec<u64> = flat.iter().enumerate().map(|(i, a)| ((a.0 - t0).round().max(0.0) as u64).min((1 << 40) - 1) << 24 | i as u64).collect();
    keys.sort_unstable();
    let mut out = Vec::new();
    let mut end = f64::NEG_INFINITY;
    for k in keys {
        let (start, stop) = flat[(k & ((1 << 24) - 1)) as usize];
        if end.is_finite() && start - end > STALL_MS {
            out.push((end, start));
        }
        end = end.max(stop);
    }
    out
}

/// Of a lane's gap from its test's end (`end`) to a test of another environment (`start`), the
/// part that was a worker's start. All of it while another lane still worked on: a test of the
/// environment it was in at `end` running at `start`, or another of it after. At a barrier
/// (Playwright's phases: a project waits for every project it depends on, a teardown for the
/// rest), where every other lane had ended its tests of that environment by `start` (and went on
/// to another, if to any), only the part after the last of them ended: what came before was a
/// wait for the others, which the plan charges as the barrier. The setup suite of
/// `npm run bench:peer-playwright` (its seed, 2 lanes): switches of 3.1, 1.2, 2.5, 1.8, 3.8 and
/// 2.8 s, the 3.8 s a lane waiting 2.6 s for the other's last test before the barrier and the
/// 1.8 s one 0.7 s before its teardown; a worker's start their median, 2.67 s, where the shards'
/// starts at a barrier took 1.3-1.5 s and each shard took 0.79-0.93 of its prediction.
fn start_part(spans: &[Vec<(f64, f64, f64)>], lane: usize, end: f64, start: f64) -> f64 {
    let mut released = end;
    for s in spans.iter().enumerate().filter(|&(o, _)| o != lane).map(|(_, s)| s) {
        // its test at `end` (running then, or its last before): the environment it worked in
        let begun = s.partition_point(|a| a.0 <= end);
        if begun == 0 {
            continue;
        }
        let env = s[begun - 1].2;
        // then its tests of that environment begun before `start`
        let mut j = begun - 1;
        while j + 1 < s.len() && s[j + 1].2 == env && s[j + 1].0 < start {
            j += 1;
        }
        if s[j].1 > start || s.get(j + 1).is_some_and(|n| n.2 == env) {
            return (start - end).max(0.0);
        }
        released = released.max(s[j].1);
    }
    (start - released).max(0.0)
}

/// The median of some figures (of an even count, the mean of the middle two, rounded up); 0
/// without any.
fn median_of(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    let n = v.len();
    match n {
        0 => 0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]).div_ceil(2),
    }
}

/// `costs` with the files' costs (per file and per test; not per worker) times `k`, plus `a` ms
/// on every file (the measured files' and an unknown file's base).
fn adjusted(costs: &Costs, k: f64, a: f64) -> Costs {
    let x = |v: u64| (v as f64 * k).round() as u64;
    let a = a.round() as u64;
    Costs {
        per_worker_ms: costs.per_worker_ms,
        cold_ms: costs.cold_ms,
        per_file_ms: x(costs.per_file_ms).saturating_add(a),
        per_test_ms: x(costs.per_test_ms),
        files: costs.files.iter().map(|(f, &v)| (f.clone(), x(v).saturating_add(a))).collect(),
        starts: costs.starts.clone(),
        order: costs.order,
        modules: costs.modules.clone(),
        module_ms: costs.module_ms.clone(),
        served_ms: costs.served_ms,
    }
}

/// Where `off` (rising) crosses 0 in `[0, hi]`, by bisection: `hi` when it is still below 0
/// there, 0 when it is above 0 already.
fn root(off: &mut dyn FnMut(f64) -> f64, hi: f64) -> f64 {
    if off(hi) < 0.0 {
        return hi;
    }
    if off(0.0) > 0.0 {
        return 0.0;
    }
    let (mut lo, mut hi) = (0.0, hi);
    for _ in 0..16 {
        let mid = (lo + hi) / 2.0;
        if off(mid) > 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    (lo + hi) / 2.0
}

/// Fits the model to the run and returns its fixed cost per shard. A runner's own figures of a
/// file's cost are taken on a busy machine and may overlap (Vitest's collection includes waiting
/// for the server that transforms for every worker), so when the model's makespan of the run's
/// tests over its workers is longer than the time its workers were busy (from its first test's
/// start, less its workers' warm-up and that test's file's cost, to its last test's end), they
/// are scaled down until it is not. The fixed cost is the wall time outside that busy time (the
/// runner's start-up and teardown).
/// `lead`: the part of the workers' warm-up paid before the run's first test started (its file's
/// load); the rest of it fell inside the busy span.
/// `switched`: the time a lane spent, on average, starting workers for another environment (a
/// Playwright project), which the plan charges as start costs, not to the files.
///
/// `files_span`: the busy span as the files' own starts and ends tell it, where the tests start
/// with their file ([`files_span`]): the warm-up and the first file's load are inside it.
fn calibrate(units: &[super::Unit], settings: &mut Settings, costs: &mut Costs, attempts: &[Attempt], wall: f64, (max_scale, max_gap): (f64, f64), (lead, switched): (f64, f64), files_span: Option<f64>) -> u64 {
    // the units put in their canonical order once; each try plans them under other costs
    let canon = super::units::canonical(units).ok();
    let makespan = |settings: &mut Settings, c: Costs| {
        settings.costs = c;
        canon.as_ref().map_or(0.0, |canon| super::makespan_of(canon, settings) as f64)
    };
    let timed: Vec<_> = attempts.iter().filter(|a| a.1 > 0.0).collect();
    let (Some(first), Some(end)) = (
        timed.iter().min_by(|a, b| a.1.total_cmp(&b.1)),
        timed.iter().map(|a| a.1 + a.2).max_by(f64::total_cmp),
    ) else {
        return (wall - makespan(settings, costs.clone())).max(0.0).round() as u64;
    };
    // model makespan (with the workers' warm-up) less the busy span, which began with the warm-up
    // and the first file's load, at scale k (rises with k: the files' costs are on every lane)
    let (span, first_file) = match files_span {
        Some(span) => (span, 0.0),
        None => (end - first.1 + lead, first.0.and_then(|f| costs.files.get(f).copied()).unwrap_or(costs.per_file_ms) as f64),
    };
    let busy = span - switched;
    let mut off = |k: f64| makespan(settings, adjusted(costs, k, 0.0)) - (busy + k * first_file);
    // the model's fixed parts alone (the tests, the workers' start, the cold cost) longer than the
    // busy span as read: the span missed where the run's files were busy, so the files keep their
    // costs as measured and the fixed cost is the rest of the wall. A Vitest shard of one file
    // whose tests run after its import: date-fns' `fp` file alone, 1,284 ms of collection and
    // 1,497 ms of transforms before its 13 tests of 2 ms; the span read from its tests was 2 ms
    // and the 0x fit took the file as free, its 3.4 s wall the fixed cost of every shard (a plan
    // from its report predicted it 4.9 s)
    if off(0.0) > 0.0 {
        let whole = makespan(settings, costs.clone());
        return (wall - whole).max(0.0).round() as u64;
    }
    let k = if off(1.0).abs() < 1.0 { 1.0 } else { root(&mut off, max_scale) };
    *costs = adjusted(costs, k, 0.0);
    // what is still missing when the runner's figures leave out the time its workers spend
    // between files (Jest: taking the next file, resetting the module registry): the same gap on
    // every file, up to `max_gap` ms (see [`Profile::max_gap_ms`]), not a scale, which would
    // double a file's one-off cost (a first TypeScript file's compiler load) with the rest
    let mut gap = 0.0;
    if max_gap > 0.0 {
        let base = costs.clone();
        let mut off = |a: f64| makespan(settings, adjusted(&base, 1.0, a)) - (busy + k * first_file + a);
        if off(0.0) < -1.0 {
            gap = root(&mut off, max_gap);
            *costs = adjusted(&base, 1.0, gap);
        }
    }
    (wall - (span + k * first_file + gap)).max(0.0).round() as u64
}

/// The time a run's workers were busy as its files' own starts and ends tell it, where its tests
/// carry no start of their own but their file's (Jest 29 gives a test no start; its reporter
/// starts each at its file's `perfStats.start`): from the first file's start to the last file's
/// end, a file's end its start plus its measured cost beyond its tests (`raw`) and its tests'
/// durations. Read from the tests' starts, such a run's busy span began before its first file's
/// load and warm-up (which [`calibrate`] would add again) and ended at its last file's longest
/// test, not at its end. commander.js' 4-shard run (Jest, coverage on): the shard whose first
/// file was `ts-imports.test.ts` (2.6 s, its TypeScript compile) was read as busy 2.2 s longer
/// than its workers were, its 28 files fitted 212 ms each of gap beyond their 45 ms (Jest's gaps
/// between its files were 30-50 ms), and the bench's commander shards planned from such folders
/// took down to 0.77 of their predictions (13 of 18 within ±15%; 16 of 18 read so). `None` where the tests start on their own (a file whose tests
/// start at different times), where no file tells (tests of one file each, or whose durations
/// sum to under 2 ms: tests that start within one millisecond of each other), or a file's cost
/// is not measured.
fn files_span(attempts: &[Attempt], raw: &BTreeMap<String, f64>) -> Option<f64> {
    // per file: its tests' one start and their durations summed (maps of a type the planner has:
    // each new one costs the .wasm KBs); `tells`: a file's later test started with its first
    // after 2 ms of tests
    let (mut starts, mut tests): (BTreeMap<&str, f64>, BTreeMap<&str, f64>) = (BTreeMap::new(), BTreeMap::new());
    let mut tells = false;
    for &(file, start, duration, ..) in attempts.iter().filter(|a| a.1 > 0.0) {
        let file = file?;
        let sum = tests.entry(file).or_insert(0.0);
        match starts.insert(file, start) {
            Some(first) if first != start => return None,
            Some(_) => tells |= *sum >= 2.0,
            None => {}
        }
        *sum += duration;
    }
    if !tells {
        return None;
    }
    let (mut from, mut to) = (f64::INFINITY, f64::NEG_INFINITY);
    for (f, &start) in &starts {
        from = from.min(start);
        to = to.max(start + raw.get(*f)? + tests[f]);
    }
    (to > from).then_some(to - from)
}

/// A worker's warm-up (the runner's own modules, the test environment's first load, cold
/// transforms of shared modules) lands on the files each worker runs first, and another shard's
/// workers pay it again on whichever files they run first. Returned for `perWorkerMs` (what each
/// worker pays); the files it was taken from keep a steady file's cost at most. Needs more than
/// twice as many files measured as workers, so that a typical file means something.
///
/// How far into the run it reaches depends on the runner (`cold`):
/// - [`Cold::FirstFiles`]: the `workers` files that started first, beyond the median of the
///   others, on average. Vitest and Playwright: a worker's start (its environment, its browser).
///   Not the median of all: in a run of few files the first ones are many of them (jest-slow's
///   4-shard run from the seed: a shard of 6 files, its 6 s file and a heavy file first, held the
///   files to a median of 1.9 s, and the plan from its folder predicted that file's shard of its
///   own 10.1 s; it took 6.9-7.4 s).
/// - [`Cold::EarlyHalf`]: the same of the first files, beyond the upper quartile of the run's
///   second half's files; and what the rest of the first half's files paid beyond it, over the
///   workers, is the shard's cold cost (`coldMs`, see [`cold_of`]). Jest: its transform cache is
///   per run (CI starts with none) and its module registry per file, so every shard transforms the
///   shared modules its files import again, on whichever of them import each first; a shard of
///   fewer files imports fewer. On the bench's `jest-slow` suite a shard's files' costs summed to
///   5 s at 14 files, 10-13 s at 26, 13 s at 33, 15 s at 40 and 18 s at 80 (the seed): with a
///   steady file's 140 ms taken off, 3, 6-9, 8, 9 and 7 s: paid per shard, less by a shard of
///   few files.
///
/// A run of too few files leaves its warm-up in their costs, unless other runs of the suite
/// learned it (`known`, see [`learn_runs`]): then that is taken off the files each worker ran
/// first (each keeps what is left, at least 0). Left in, it was charged twice wherever those
/// files were planned again: with the workers' start, and in their own costs (the Jest bench
/// suite's 4-shard run planned from its previous run's shard folders: a shard of 4 files had
/// taught two of them 1,044 and 1,011 ms, against 67 and 46 in an unsharded run, and the shard
/// they made took 0.72 of its prediction).
///
/// What the early files paid is the run's cold cost as paid; [`learn`] reads it at full
/// ([`cold_at_full`]): over the share of the suite's modules the run's files loaded, where its plan
/// read them (a Jest shard's record's `modulesShare`), in place of the share a shard of its number
/// of files reaches. Read at full from a
/// shard's folder, a 4-shard run of the Jest bench's jest-slow suite took 1.19-1.23 of its shards'
/// predictions.
///
/// A run of enough files, given the start other runs of the suite learned (`known`), leaves a
/// first file that paid far beyond it out of its workers' start, and that file keeps the rest as
/// its own cost ([`OWN_COST_OVER_START`]); the start is its other first files' mean (the known
/// start where there are none).
fn warm_up(measured: &mut BTreeMap<String, f64>, attempts: &[Attempt], workers: u32, cold: Cold, known: Option<f64>) -> WarmUp {
    let few = too_few_files(measured.len(), workers);
    let workers = workers.max(1) as usize;
    let known = known.filter(|w| w.is_finite() && *w > 0.0);
    if few && known.is_none() {
        return WarmUp::default();
    }
    let mut first: BTreeMap<&str, f64> = BTreeMap::new();
    for &(file, start, _, _, _) in attempts {
        if let Some(f) = file.filter(|f| start > 0.0 && measured.contains_key(*f)) {
            let at = first.entry(f).or_insert(start);
            *at = at.min(start);
        }
    }
    // the files by their first start (keys `start << 20 | index`, sorted as integers)
    if first.len() >= 1 << 20 {
        return WarmUp::default();
    }
    let names: Vec<&str> = first.keys().copied().collect();
    let t0 = first.values().copied().fold(f64::INFINITY, f64::min);
    let mut keys: Vec<u64> = first.values().enumerate().map(|(i, &s)| ((s - t0).round() as u64).min((1 << 40) - 1) << 20 | i as u64).collect();
    keys.sort_unstable();
    let order: Vec<&str> = keys.iter().map(|&k| names[(k & ((1 << 20) - 1)) as usize]).collect();
    if let Some(warm) = known.filter(|_| few) {
        for f in &order[..workers.min(order.len())] {
            if let Some(v) = measured.get_mut(*f) {
                *v = (*v - warm).max(0.0);
            }
        }
        return WarmUp { warm, lead: warm, ..WarmUp::default() };
    }
    if order.is_empty() {
        return WarmUp::default();
    }
    // the early files, and the cost a file is held to: the median of the files after the first
    // ones, or the upper quartile of the files that ran after the early half (too few of those:
    // the first files' rule)
    let half = order.len() / 2;
    let cold = if order.len() - half < 2 * workers { Cold::FirstFiles } else { cold };
    let (early, mut pool, quarters): (&[&str], Vec<u64>, usize) = match cold {
        // the median of the files the workers did not start with (all of them where there are
        // none): in a run of few files its first files are many of them
        Cold::FirstFiles => {
            let firsts = workers.min(order.len());
            let later = if firsts < order.len() { &order[firsts..] } else { &order[..] };
            (&order[..firsts], later.iter().map(|f| measured[*f].round() as u64).collect(), 2)
        }
        Cold::EarlyHalf => (&order[..half], order[half..].iter().map(|f| measured[*f].round() as u64).collect(), 3),
    };
    pool.sort_unstable();
    // never the largest of three or more: in a shard of few files, one later file may have paid
    // a shared module's transform (Jest transforms a module once per shard, on the first file
    // that imports it). jest-slow's 4-shard run, a shard of 7 files: its later four 115, 184, 291
    // and 1,760 ms (file-005, the first of them to import a 210 KB module); the upper quartile of
    // four is the largest, and its first files (3.0 s each, the 6 s file's among them) kept
    // 1,760 ms each as their own, charged again wherever they were planned
    let at = if pool.len() >= 3 { (pool.len() * quarters / 4).min(pool.len() - 2) } else { pool.len() * quarters / 4 };
    let steady = pool[at] as f64;
    if early.is_empty() {
        return WarmUp::default();
    }
    let over = |f: &&str| (measured[*f] - steady).max(0.0);
    let firsts = workers.min(early.len());
    // what the workers' first files paid beyond the steady cost: each worker's start; what the
    // rest of the early files paid (Jest's transforms of shared modules), over the workers: the
    // shard's cold cost, which a shard of few files pays less of (it imports fewer modules)
    let rest: f64 = early[firsts..].iter().map(over).sum();
    let starts: Vec<u64> = early[..firsts].iter().map(|f| over(f).round() as u64).collect();
    // each worker's start: what its first file paid beyond a steady file, on average; with the
    // start other runs of the suite found (`known`: their first files', [`suite_start`]), a first
    // file that paid more than `OWN_COST_OVER_START` times it was paying for itself too (a
    // compiler it loads): it is left out of the mean and keeps the rest as its own cost
    // first files that all paid far beyond the suite's start, and about alike (within
    // `OWN_COST_OVER_START` of each other), paid this run's start: its workers warmed up longer (a
    // shard whose first files load more of the suite), no file paid for itself. jest-slow's
    // 4-shard folder: a shard's two first files paid 3.4 s each against the suite's 2.1 s, and
    // kept 1.1 s each as their own, charged again wherever they were planned (7 files of its
    // folder at 0.8-1.3 s, where from unsharded runs 0.15-0.18 s)
    let long = |x: f64| known.is_some_and(|k| pays_for_itself(x, k));
    let (least, most) = starts.iter().fold((u64::MAX, 0), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    let run_start = starts.len() >= 2 && starts.iter().all(|&x| long(x as f64)) && most as f64 <= OWN_COST_OVER_START * least as f64;
    let alike = |x: f64| run_start || !long(x);
    let (sum, n) = starts.iter().map(|&x| x as f64).filter(|&x| alike(x)).fold((0.0, 0u32), |(s, n), x| (s + x, n + 1));
    let warm = if n > 0 { sum / f64::from(n) } else { known.unwrap_or(0.0) };
    let own = |over: f64| if alike(over) { 0.0 } else { over - warm };
    // what of the warm-up came before the run's first test: its file's (less what that file paid
    // for itself), or every first file's on average (the workers start side by side)
    let lead = match cold {
        Cold::FirstFiles => warm,
        Cold::EarlyHalf => over(&early[0]) - own(over(&early[0])),
    };
    // each early file keeps the steady cost at most (a first file, what it paid for itself too):
    // workers warm up unevenly (one may instrument the sources for coverage, or load jsdom, on its
    // first file), and what was left on an early file would be charged to it again on whichever
    // shard it lands on
    for (i, f) in early.iter().enumerate() {
        if let Some(v) = measured.get_mut(*f) {
            let own = if i < firsts { own((*v - steady).max(0.0)) } else { 0.0 };
            *v = v.min(steady + own);
        }
    }
    WarmUp { warm, lead, cold_paid: rest, starts }
}

/// A shard's cold cost at full from what a run of `files` files paid for the shared modules (`paid`,
/// work over its `workers`): a run that loaded part of the suite's modules (`modules_share`, where
/// its plan read them; else by its number of files, [`cold_share`]) paid part of it.
fn cold_at_full(paid: f64, workers: u32, files: usize, modules_share: Option<f64>) -> f64 {
    paid / workers.max(1) as f64 / modules_share.map_or_else(|| cold_share(files).max(0.5), |s| s.max(0.2))
}

/// What [`warm_up`] read from a run: each worker's start (`warm`), the part of it paid before the
/// run's first test (`lead`), what the rest of its early files paid beyond a steady file (`cold_paid`,
/// work over its workers: the shard's cold cost, [`cold_at_full`]), and what each worker's first
/// file paid beyond a steady file (`starts`: the figures [`learn_runs`] takes the suite's start
/// from).
#[derive(Default)]
struct WarmUp {
    warm: f64,
    lead: f64,
    cold_paid: f64,
    starts: Vec<u64>,
}

/// How many times the suite's workers' start ([`suite_start`]) a worker's first file may pay
/// beyond a steady file and still be read as that start (see [`warm_up`]); beyond it, the rest is
/// the file's own. On commander.js at 63eed4aa (Jest, 2 workers, coverage on), the workers' first
/// files paid 2.2 and 2.0 s beyond a steady file in its unsharded run; in its shards' runs 2.6 and
/// 2.8 s against 6.1 and 6.4 s where one was `ts-imports.test.ts` (its TypeScript compile, 5 s
/// wherever it runs; Jest runs it first, the longest file). Read as start, that file cost a
/// steady file's 0.3 s in the shards' folder, every shard was charged half of it as its workers'
/// start, and a 4-shard plan from that folder put it on a shard that took 1.29x its prediction.
const OWN_COST_OVER_START: f64 = 1.5;

/// Whether a worker's first file that paid `over` ms beyond a steady file paid for itself too,
/// given the suite's workers' start (`start`, ms): more than [`OWN_COST_OVER_START`] times it. The
/// one rule [`warm_up`] reads a run's start by and [`learn_runs`] picks the runs it changes by.
fn pays_for_itself(over: f64, start: f64) -> bool {
    over > OWN_COST_OVER_START * start
}

/// Whether a run of `files` measured files on `workers` workers has too few to tell its workers'
/// warm-up from its files' costs (at most twice as many as workers; see [`warm_up`]).
fn too_few_files(files: usize, workers: u32) -> bool {
    files <= 2 * workers.max(1) as usize
}

/// How far a run's warm-up reaches (see [`warm_up`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cold {
    FirstFiles,
    EarlyHalf,
}

/// `overhead ≈ a + b × tests` over the measured files, least squares, both >= 0; `(mean, 0)` when
/// the test counts do not vary.
fn fit(points: &[(f64, f64)]) -> (f64, f64) {
    let n = points.len() as f64;
    if points.is_empty() {
        return (0.0, 0.0);
    }
    let (mx, my) = (points.iter().map(|p| p.0).sum::<f64>() / n, points.iter().map(|p| p.1).sum::<f64>() / n);
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx <= 0.0 {
        return (my.max(0.0), 0.0);
    }
    let b = sxy / sxx;
    let a = my - b * mx;
    if b < 0.0 || a < 0.0 {
        // a negative slope or intercept is noise: the mean per file, or through the origin
        return if b < 0.0 { (my.max(0.0), 0.0) } else { (0.0, my / mx.max(1.0)) };
    }
    (a, b)
}

/// The cost model of a report (see the module's documentation). Never fails: what the report
/// does not say comes from the runner's defaults, and `source` says which.
pub fn learn(report: &ReportView) -> Learned {
    learn_given(report, None)
}

/// [`learn`], with a worker's warm-up other runs of the suite learned (`known_warm`, ms): a run of
/// too few files to tell it from their own costs has it taken off the files its workers ran
/// first; one of enough files tells by it which first file paid for itself too ([`warm_up`]).
pub(super) fn learn_given(report: &ReportView, known_warm: Option<f64>) -> Learned {
    let runner = report.category().map(str::to_owned);
    let record = report.source_text(COSTS_SOURCE).and_then(|t| crate::from_json::<CostsRecord>(t.as_bytes()).ok());
    let attempts = report.attempts_with_files();
    let profile = profile(runner.as_deref());
    let unit = profile.unit;
    let lanes = attempts.iter().filter_map(|a| a.3).filter(|p| p.is_finite() && *p >= 0.0).fold(None, |m: Option<f64>, p| Some(m.map_or(p, |m| m.max(p))));
    let workers = record
        .as_ref()
        .and_then(|r| r.workers)
        .filter(|w| w.is_finite() && *w >= 1.0)
        .or(lanes.map(|p| p + 1.0))
        .map(|w| (w.round() as u32).clamp(1, MAX_WORKERS));

    // per file: its tests, and what it cost beyond them
    let mut tests_of: BTreeMap<String, u64> = BTreeMap::new();
    for f in super::from_report::test_files(report).into_iter().flatten() {
        *tests_of.entry(f.to_owned()).or_insert(0) += 1;
    }
    // a reporter's record has the files' costs as measured and as it fitted them: learning again
    // from the measured ones gives the same fit (against the report's final wall time) and knows
    // the warm-up; a record with fitted costs only (the service's) is taken as fitted
    let raw = record.as_ref().and_then(|r| r.files.as_ref()).filter(|f| !f.is_empty());
    let fitted = record.as_ref().and_then(|r| r.fitted_files.as_ref()).filter(|_| raw.is_none());
    // the workers' timelines: per file its gaps, per lane the starts of a worker for another
    // environment (Playwright: a project after another); read only when the record has no files'
    // costs (Playwright's)
    let (mut measured, switches, worker_starts, stalled): (BTreeMap<String, f64>, Vec<Vec<f64>>, Vec<f64>, f64) = match fitted.or(raw) {
        Some(files) => (files.iter().filter(|(_, v)| v.is_finite() && **v >= 0.0).map(|(k, v)| (k.clone(), *v)).collect(), Vec::new(), Vec::new(), 0.0),
        None => {
            let (timeline, switches, starts, stalled) = timeline_costs(&attempts);
            (timeline.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(), switches, starts, stalled)
        }
    };
    // where the tests start with their file (Jest's): the workers' busy span from the files' costs
    // as measured, before the warm-up and the environments' first loads are taken off them
    let span_of_files = raw.and_then(|_| files_span(&attempts, &measured));
    // a worker's start, where the run started workers for another project: the median of the
    // switches' starts, without their waits at a barrier ([`start_part`]; a lane's gap before a
    // project that waits for a setup project holds that wait too: on the peer bench's chain suite
    // 4.3 s among five of 0.5-1.8 s, the mean 1.5 s against 0.95 s a shard's starts measured; the
    // plan charges the wait apart, as the setups' barrier); and the time a lane spent on the
    // switches, on average, waits and all (see `calibrate`)
    let (count, total) = (switches.iter().map(Vec::len).sum::<usize>(), switches.iter().flatten().sum::<f64>());
    let (switch_ms, switched) = if count == 0 { (0.0, 0.0) } else { (median_of(worker_starts.iter().map(|x| x.max(0.0).round() as u64).collect()) as f64, total / switches.len() as f64) };
    // the test environments' first loads, out of the files' costs before the workers' warm-up is
    // read from them; a service's record gives them as it keeps them
    let (starts, taken) = match (fitted, record.as_ref().and_then(|r| r.starts.as_deref())) {
        (Some(_), Some(starts)) => (check_starts(starts).unwrap_or_default(), Vec::new()),
        (Some(_), None) => (Vec::new(), Vec::new()),
        (None, _) => environment_starts(record.as_ref(), &mut measured, workers.unwrap_or(1)),
    };
    // the run's first file loaded its environment before its first test started, as its worker's
    // warm-up was (`lead` below)
    let first = attempts.iter().filter(|a| a.1 > 0.0).min_by(|a, b| a.1.total_cmp(&b.1));
    let first_file = first.and_then(|a| a.0);
    let first_start = taken.iter().find(|(f, _)| Some(f.as_str()) == first_file).map_or(0.0, |t| t.1 as f64);
    let mut first_starts = Vec::new();
    // the workers that ran files: those that asked the runner's main process for transforms
    let asking = workers.unwrap_or(1).clamp(1, measured.len().max(1) as u32);
    let (warm, lead, cold, cold_fit) = if fitted.is_some() {
        let lead = record.as_ref().and_then(|r| r.per_worker_ms).filter(|w| w.is_finite() && *w >= 0.0).unwrap_or(0.0);
        (0.0, lead, 0.0, 0.0)
    } else {
        // a shard that loaded part of the suite's modules paid their transforms, not all
        let share = record.as_ref().and_then(|r| r.modules_share).filter(|s| s.is_finite() && *s > 0.0 && *s < 1.0);
        let WarmUp { warm, lead, cold_paid, starts } = warm_up(&mut measured, &attempts, workers.unwrap_or(1), profile.cold, known_warm);
        first_starts = starts;
        // what the run paid for the shared modules: its early files' (Jest's), else the transforms
        // the runner recorded apart from the files' costs (Vitest's)
        let transforms = record.as_ref().and_then(|r| r.transform_ms).filter(|t| t.is_finite() && *t > 0.0 && !measured.is_empty());
        let paid = if cold_paid > 0.0 { cold_paid } else { transforms.unwrap_or(0.0) };
        // at full, a little more than what the run paid (over the share of the modules it loaded,
        // when its plan knew them); the run is fitted with what it paid
        let at = |share| if paid > 0.0 { cold_at_full(paid, workers.unwrap_or(1), measured.len(), share) } else { 0.0 };
        let (cold, mut cold_fit) = (at(share), at(None));
        // the transforms the runner recorded (Vitest's) are the time its workers waited for them,
        // over the workers that ran files: the run is fitted with that, whatever its number of
        // files (a shard of one file waited for all of them on its one worker; read as a fifth of
        // them, the fit's model of date-fns' `fp` shard alone was 1.2 s short of its wall)
        if cold_paid <= 0.0 && paid > 0.0 {
            cold_fit = paid / asking as f64 / cold_share(measured.len()).max(0.2);
        }
        // what came before the run's first test is at most the time from the run's start to it:
        // a file's cost may fall after its first test started (luxon's first files, 2.66 s each
        // beyond their tests, held their workers from their first tests at 0.54 s to 3.36 s: read
        // as before them, the run's busy time came out 2.1 s longer than its wall, and every
        // shard was predicted 1.15-1.3x what it took)
        let before = match (report.start_timestamp, first) {
            (Some(run), Some(&(_, test, ..))) if run.is_finite() && run > 0.0 && test >= run => test - run,
            _ => f64::INFINITY,
        };
        let lead = (lead + first_start).min(before);
        // a project's workers start as the run's first ones did, before its first test
        if switch_ms > warm {
            (switch_ms, lead.max(switch_ms), cold, cold_fit)
        } else {
            (warm, lead, cold, cold_fit)
        }
    };
    let (d_shard, d_worker, d_file, d_test) = profile.defaults;
    let points: Vec<(f64, f64)> = measured.iter().map(|(f, &ms)| (*tests_of.get(f.as_str()).unwrap_or(&1) as f64, ms)).collect();
    let num = |v: Option<f64>| v.filter(|x| x.is_finite() && *x >= 0.0).map(|x| x.round() as u64);
    let (per_file_ms, per_test_ms) = if points.is_empty() {
        (num(record.as_ref().and_then(|r| r.per_file_ms)).unwrap_or(d_file), num(record.as_ref().and_then(|r| r.per_test_ms)).unwrap_or(d_test))
    } else {
        let (a, b) = fit(&points);
        (a.round() as u64, b.round() as u64)
    };
    let per_worker_ms = if warm > 0.0 {
        warm.round() as u64
    } else {
        num(record.as_ref().and_then(|r| r.per_worker_ms)).unwrap_or(if measured.is_empty() { d_worker } else { 0 })
    };
    let cold_ms = if cold > 0.0 { cold.round() as u64 } else { num(record.as_ref().and_then(|r| r.cold_ms)).unwrap_or(0) };
    let mut costs = Costs {
        per_worker_ms,
        cold_ms,
        per_file_ms,
        per_test_ms,
        files: measured.iter().map(|(f, &ms)| (f.clone(), ms.round() as u64)).collect(),
        starts,
        order: profile.order,
        modules: Vec::new(),
        module_ms: BTreeMap::new(),
        served_ms: 0,
    };
    // each module's transforms as they take alone: the runner's main process transforms for
    // every worker, one module after another, so a transform its workers asked for side by side
    // took about as many times its own as the run had workers running files (date-fns's `fp`
    // file: 2,571 ms of transforms beside 81 files on the other worker, 1,070-1,110 ms alone). A
    // record fitted already (a merged run's, [`learn_runs`]) holds them so.
    let asked = if fitted.is_some() { 1.0 } else { asking as f64 };
    // (inserted one by one: a map collected from an iterator sorts with a copy of its own)
    for (m, ms) in record.as_ref().and_then(|r| r.transforms.as_ref()).into_iter().flatten() {
        if ms.is_finite() && *ms >= 0.0 {
            costs.module_ms.insert(m.clone(), (ms / asked).round().min(MAX_DURATION_MS as f64) as u64);
        }
    }

    // the fixed cost per shard, and the files' costs fitted to what the run took (see `calibrate`)
    let launch = record.as_ref().and_then(|r| r.launch_ms).filter(|l| l.is_finite() && *l >= 0.0).unwrap_or(0.0);
    let wall = report.duration.map(|w| w - launch).filter(|w| w.is_finite() && *w > 0.0);
    let mut from_wall = false;
    let unfitted = costs.files.clone();
    let mut costs = costs;
    let recorded_shard = num(record.as_ref().and_then(|r| r.per_shard_ms));
    let per_shard = match (wall, attempts.iter().any(|a| a.2 > 0.0), fitted.and(recorded_shard)) {
        // a record its reporter fitted already, at its run's end, to this same wall with the
        // workers' timelines (Playwright's, which it no longer gives): its figures as they are.
        // Fitted again without the timelines' worker starts, the files took those for their
        // own (the peer bench's chain suite: every file 1.5x, 3 s a shard over-predicted)
        (Some(_), true, Some(ms)) => {
            from_wall = true;
            ms
        }
        (Some(wall), true, _) => {
            let mut settings = Settings::new(1);
            settings.workers = workers.unwrap_or(1);
            settings.unit = unit.unwrap_or_default();
            from_wall = true;
            // the units as the runner plans them: a file's tests summed, then rounded, where a
            // file is the unit (many sub-millisecond tests would each count 1 ms as units of their
            // own, and the fit would take that time off the files' costs)
            let units = match unit {
                Some(UnitKind::File) => Ok(super::from_report::file_units_from_report(report)),
                _ => super::from_report::units_from_report(report, None),
            };
            match units {
                Ok(units) => {
                    // fitted with the cold cost the run paid: a shard that loaded part of the
                    // suite's modules paid part of its cold cost at full, and fitted with all of
                    // it, its fixed cost came out short by the rest
                    if cold_fit > 0.0 {
                        costs.cold_ms = cold_fit.round() as u64;
                    }
                    // (the modules' times are not planned with here: out of the copies the fit makes)
                    let module_ms = std::mem::take(&mut costs.module_ms);
                    // the run's stalls held no worker busy: out of its busy span, as its switches are
                    let per_shard = calibrate(&units, &mut settings, &mut costs, &attempts, wall, (profile.max_scale, profile.max_gap_ms), (lead, switched + stalled), span_of_files);
                    costs.cold_ms = cold_ms;
                    costs.module_ms = module_ms;
                    per_shard
                }
                Err(_) => wall.round() as u64,
            }
        }
        _ => recorded_shard.unwrap_or(d_shard),
    };

    let name = runner.as_deref().unwrap_or("unknown runner");
    let files = match measured.len() {
        0 => "no file's cost".to_owned(),
        1 => "1 file's cost".to_owned(),
        n => format!("{n} files' costs"),
    };
    let source = if from_wall {
        format!("learned from a run: {files} measured, start-up from its wall time")
    } else if record.is_some() {
        format!("the durations' costs record: {files}, start-up {}", if record.as_ref().is_some_and(|r| r.per_shard_ms.is_some()) { "learned" } else { "default" })
    } else {
        format!("{name} defaults")
    };
    Learned {
        runner,
        workers,
        unit,
        per_shard_overhead_ms: per_shard,
        costs,
        measured_files: measured.len() as u32,
        from_wall,
        source,
        unfitted,
        first_starts,
    }
}

/// Each sum the mean of its `counts` (rounded), in place (collecting into a new map would add a sort).
fn means_in_place(sums: &mut BTreeMap<String, u64>, counts: &BTreeMap<String, u64>) {
    for (k, sum) in sums.iter_mut() {
        let n = counts.get(k).copied().unwrap_or(1).max(1);
        *sum = (*sum + n / 2) / n;
    }
}

/// The workers' start several runs found together: the median of what their workers' first files
/// paid beyond a steady file ([`Learned::first_starts`]), of an even number the higher of the
/// middle two; `None` where none paid any.
///
/// Not their mean: a first file that loads little of the suite pays less than a start, and of
/// two shards' four first files two may be such. commander.js' 2-shard run (Jest, coverage on):
/// one shard's workers began with `ts-imports.test.ts` (5.4 s beyond a steady file: its
/// TypeScript compile) and `command.default.test.js` (3.1 s: the start, 75 ms in an unsharded
/// run), the other's with two files that run commander in child processes (0.4 and 0.3 s). The
/// mean of the middle two, 1.8 s, made `command.default` pay for itself ([`pays_for_itself`]): it
/// kept 1.7 s as its own cost, and Jest's split, which puts it on shard 1, was predicted 0.81-0.89
/// and 1.09-1.26 of what its shards took.
pub(super) fn suite_start(runs: &[Learned]) -> Option<f64> {
    let mut starts: Vec<u64> = runs.iter().flat_map(|l| l.first_starts.iter().copied()).filter(|&ms| ms > 0).collect();
    starts.sort_unstable();
    starts.get(starts.len() / 2).map(|&ms| ms as f64)
}

/// The cost model of several runs' reports (the shards of a sharded run, or runs of one suite):
/// each learned alone ([`learn`]), then combined: every file's cost as measured (the mean where
/// several runs measured it), the fixed costs (per shard, per worker, cold) of the run whose sum
/// of them is the median among those of at least half the most files (of an even number, the
/// mean of the middle two), and of the costs per file
/// and per test and the workers the median, so that one run on a busy machine moves the figures
/// less than it would alone. `None` without a report. Of the runs learned from a wall time, only
/// those count for the fixed costs, when there are any. Each run is then learned again with the
/// workers' start the runs found together ([`suite_start`], [`warm_up`]): a shard of few files
/// has it taken off its first files, and in a shard of enough files a first file that paid far
/// beyond it keeps the rest as its own cost.
pub fn learn_runs(reports: &[ReportView]) -> Option<Learned> {
    let mut each: Vec<Learned> = reports.iter().map(learn).collect();
    if each.len() <= 1 {
        return each.pop();
    }
    // every run learned again with the workers' start the runs found together ([`suite_start`]:
    // what their workers' first files paid beyond a steady file, the middle one). A shard of too few files to tell
    // it from its files' costs has it taken off its first files; in one of enough files, a first
    // file that paid far beyond it (Jest runs the longest file first, a TypeScript compile among
    // them) keeps the rest as its own cost, which alone the run could not tell from its worker's
    // start. Only those two are learned again: a run of enough files whose first files all paid
    // about the start learns the same with it (each run's fit plans its units many times, which a
    // shard reading a folder pays at its start)
    if let Some(warm) = suite_start(&each) {
        for (l, r) in each.iter_mut().zip(reports) {
            let few = too_few_files(l.measured_files as usize, l.workers.unwrap_or(1));
            if l.measured_files > 0 && (few || l.first_starts.iter().any(|&ms| pays_for_itself(ms as f64, warm))) {
                *l = learn_given(r, Some(warm));
            }
        }
    }
    let walled: Vec<&Learned> = each.iter().filter(|l| l.from_wall).collect();
    let pool: Vec<&Learned> = if walled.is_empty() { each.iter().collect() } else { walled };
    // the fixed costs from the reports of at least half the most files: a cold cost is at full
    // (`coldMs`), which a shard of few files tells poorly (the Jest bench's jest-slow suite, at 2
    // shards: 0 ms from one of 7 files, 1,488 ms from the other of 73; the median of the two took
    // the first, and the shard of many files took 1.27 of its prediction)
    let most = pool.iter().map(|l| l.measured_files).max().unwrap_or(0);
    let fixed_pool: Vec<&Learned> = pool.iter().copied().filter(|l| 2 * l.measured_files >= most).collect();
    let median = |f: &dyn Fn(&Learned) -> u64| median_of(pool.iter().map(|l| f(l)).collect());
    // the fixed costs of the run whose sum of them is the median: how a run's fixed cost splits
    // into per shard, per worker and cold varies from run to run more than their sum does. Of an
    // even number of runs, the mean of the middle two, where the one nearer their mean decided
    // alone: jest-slow's 3-shard run from its seed had two shards of 35 and 36 files, their fixed
    // costs 8.8 and 5.6 s (the first on a shard that took 1.24x its prediction), and the plan
    // from their folder took the first's and predicted every shard 12.0-12.1 s; they took 9.3-10.4 s
    let fixed = |l: &Learned| l.per_shard_overhead_ms + l.costs.per_worker_ms + l.costs.cold_ms;
    let mut by_sum: Vec<u64> = fixed_pool.iter().map(|l| fixed(l)).collect();
    by_sum.sort_unstable();
    let of_sum = |sum: u64| fixed_pool.iter().copied().find(|l| fixed(l) == sum);
    let n = by_sum.len();
    let middle = match n {
        0 => [None, None],
        n if n % 2 == 1 => [of_sum(by_sum[n / 2]), None],
        n => [of_sum(by_sum[n / 2 - 1]), of_sum(by_sum[n / 2])],
    };
    let typical = middle[0].unwrap_or(&each[0]);
    let mid = |f: &dyn Fn(&Learned) -> u64| match middle {
        [Some(a), Some(b)] => (f(a) + f(b)).div_ceil(2),
        _ => f(typical),
    };
    // (maps and sorts of types the planner already has: each new one costs the .wasm KBs)
    let (mut sums, mut counts): (BTreeMap<String, u64>, BTreeMap<String, u64>) = (BTreeMap::new(), BTreeMap::new());
    for l in &each {
        // a run's fit only lowers its files' costs when something else decides its wall (one
        // long file: a shard of it fits the others to nothing); it raises them where the runner's
        // figures miss a part (Vitest's, a worker's start for each file): the greater of the two
        for (f, &fitted) in &l.costs.files {
            let ms = fitted.max(l.unfitted.get(f).copied().unwrap_or(0));
            *sums.entry(f.clone()).or_insert(0) += ms;
            *counts.entry(f.clone()).or_insert(0) += 1;
        }
    }
    means_in_place(&mut sums, &counts);
    // each module's transforms: the mean of the runs that made them (a shard transforms those its
    // files load)
    let (mut module_ms, mut module_n): (BTreeMap<String, u64>, BTreeMap<String, u64>) = (BTreeMap::new(), BTreeMap::new());
    for (m, &ms) in each.iter().flat_map(|l| &l.costs.module_ms) {
        *module_ms.entry(m.clone()).or_insert(0) += ms;
        *module_n.entry(m.clone()).or_insert(0) += 1;
    }
    means_in_place(&mut module_ms, &module_n);
    let workers = pool.iter().any(|l| l.workers.is_some()).then(|| median(&|l| u64::from(l.workers.unwrap_or(1))) as u32);
    // the start costs: each the mean of the runs that found it, with all their files
    let mut starts: Vec<Start> = Vec::new();
    let mut found: Vec<u64> = Vec::new();
    for st in each.iter().flat_map(|l| &l.costs.starts) {
        match starts.iter().position(|x| x.id == st.id) {
            Some(i) => {
                starts[i].duration_ms += st.duration_ms;
                starts[i].files.extend(st.files.iter().cloned());
                starts[i].units.extend(st.units.iter().cloned());
                found[i] += 1;
            }
            None => {
                starts.push(st.clone());
                found.push(1);
            }
        }
    }
    for (st, &n) in starts.iter_mut().zip(&found) {
        st.duration_ms = (st.duration_ms + n / 2) / n;
        st.files = sorted_set(&st.files);
        st.units = sorted_set(&st.units);
    }
    // merged by id: none twice
    by_id(&mut starts, |s| s.id.as_str());
    let costs = Costs {
        per_worker_ms: mid(&|l| l.costs.per_worker_ms),
        cold_ms: mid(&|l| l.costs.cold_ms),
        per_file_ms: median(&|l| l.costs.per_file_ms),
        per_test_ms: median(&|l| l.costs.per_test_ms),
        files: sums,
        starts,
        order: typical.costs.order,
        modules: Vec::new(),
        module_ms,
        served_ms: 0,
    };
    let from_wall = pool.iter().any(|l| l.from_wall);
    let measured = costs.files.len();
    let source = format!(
        "learned from {} runs: {}, start-up {}",
        each.len(),
        match measured {
            0 => "no file's cost".to_owned(),
            1 => "1 file's cost".to_owned(),
            n => format!("{n} files' costs"),
        },
        if from_wall { "from their wall times" } else { "from their records" }
    );
    Some(Learned {
        runner: each.iter().find_map(|l| l.runner.clone()),
        workers,
        unit: each.iter().find_map(|l| l.unit),
        per_shard_overhead_ms: mid(&|l| l.per_shard_overhead_ms),
        costs,
        measured_files: measured as u32,
        from_wall,
        source,
        unfitted: BTreeMap::new(),
        first_starts: Vec::new(),
    })
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::plan::{plan_units, Unit, UnitKind};

    fn unit(id: &str, file: &str, ms: f64) -> Unit<'static> {
        Unit { id: id.to_owned().into(), file: Some(file.to_owned().into()), group: None, duration_ms: Some(ms) }
    }

    fn view(json: &str) -> ReportView {
        serde_json::from_str(json).unwrap()
    }

    /// The suite the issue saw on a Vitest date library: one file with one slow test, and many
    /// files of tiny tests that each cost far more to load than to run.
    fn date_library() -> Vec<Unit<'static>> {
        let mut units = vec![unit("slow.test.ts", "slow.test.ts", 1400.0)];
        for f in 0..120 {
            units.push(unit(&format!("f{f:03}.test.ts"), &format!("f{f:03}.test.ts"), 2.0));
        }
        units
    }

    #[test]
    fn a_file_kept_whole_carries_exactly_its_cost() {
        let units = vec![unit("a1", "a.ts", 100.0), unit("a2", "a.ts", 200.0), unit("a3", "a.ts", 300.0), unit("b1", "b.ts", 50.0)];
        let mut s = Settings { unit: UnitKind::File, per_shard_overhead_ms: 1000, ..Settings::new(1) };
        s.costs = Costs { per_worker_ms: 400, cold_ms: 0, per_file_ms: 80, per_test_ms: 5, files: [("a.ts".to_owned(), 1001)].into(), starts: Vec::new(), order: Order::Longest, modules: Vec::new(), module_ms: BTreeMap::new(), served_ms: 0 };
        let p = plan_units(&units, &s).unwrap();
        // 1000 + 400 + (600 + 1001) + (50 + 80 + 5)
        assert_eq!(p.shards[0].predicted_ms, 1000 + 400 + 600 + 1001 + 50 + 85);
        assert_eq!(p.makespan_ms, p.shards[0].predicted_ms);
        // split by test, the shares of a.ts still add up to its cost
        s.unit = UnitKind::Test;
        assert_eq!(plan_units(&units, &s).unwrap().shards[0].predicted_ms, 1000 + 400 + 600 + 1001 + 50 + 85);
    }

    #[test]
    fn file_costs_balance_many_cheap_files_against_one_slow_test() {
        let units = date_library();
        let s = Settings { unit: UnitKind::File, ..Settings::new(3) };
        // bodies only: the slow file alone on a shard, the 120 others split in two
        let bodies = plan_units(&units, &s).unwrap();
        assert_eq!(bodies.shards.iter().map(|x| x.units.len()).min(), Some(1));
        // each file costs 60 ms to load: 120 x 60 = 7.2 s of the 8.8 s, spread over the three
        let mut s = s;
        s.costs.per_file_ms = 60;
        let p = plan_units(&units, &s).unwrap();
        let counts: Vec<usize> = p.shards.iter().map(|x| x.units.len()).collect();
        // the slow file's shard takes 24 more files, the others 48 each
        assert!(counts.iter().all(|&c| c >= 20), "{counts:?}");
        let total: u64 = 1400 + 120 * 2 + 121 * 60;
        assert!(p.makespan_ms <= total / 3 + 70, "{} for {}", p.makespan_ms, total);
    }

    #[test]
    fn costs_change_the_fingerprint_and_no_costs_keep_it() {
        let units = date_library();
        let plain = plan_units(&units, &Settings::new(3)).unwrap();
        let mut s = Settings::new(3);
        s.costs = Costs::default();
        assert_eq!(plan_units(&units, &s).unwrap().fingerprint, plain.fingerprint);
        s.costs.per_test_ms = 1;
        let with = plan_units(&units, &s).unwrap();
        assert_ne!(with.fingerprint, plain.fingerprint);
        s.costs.files.insert("f000.test.ts".into(), 7);
        assert_ne!(plan_units(&units, &s).unwrap().fingerprint, with.fingerprint);
    }

    #[test]
    fn costs_options_are_checked() {
        let ok = crate::plan::PlanInput::from_json(r#"{"shardCount":2,"units":[{"id":"a"}],"costs":{"perFileMs":50.4,"files":{"a.ts":3}}}"#).unwrap();
        assert_eq!(ok.costs.as_ref().unwrap().check().unwrap().per_file_ms, 50);
        for (json, says) in [
            (r#"{"shardCount":2,"units":[],"costs":{"perFileMs":-1}}"#, "costs.perFileMs must be a number of ms"),
            (r#"{"shardCount":2,"units":[],"costs":{"files":{"a.ts":1e99}}}"#, "costs.files[\"a.ts\"]"),
        ] {
            let e = crate::plan::plan_shards(crate::plan::PlanInput::from_json(json).unwrap()).unwrap_err();
            assert!(e.message.contains(says), "{}", e.message);
        }
        let e = crate::plan::PlanInput::from_json(r#"{"shardCount":2,"units":[],"costs":{"perFile":1}}"#).unwrap_err();
        assert!(e.message.contains("costs: unknown field `perFile`"), "{}", e.message);
    }

    #[test]
    fn learns_file_costs_a_reporter_recorded_and_the_rest_from_the_wall() {
        // Jest: two workers; a.ts cost 900 ms beyond its tests, b.ts 300 ms; the run took 5 s:
        // 1 s of start-up, then a.ts loads (900) and runs a1 and a2 on one worker, b.ts loads (300)
        // and runs b1 on the other, and 2 s after the last test
        let record = r#"{\"runner\":\"jest\",\"workers\":2,\"files\":{\"a.ts\":900,\"b.ts\":300}}"#;
        let r = view(&format!(
            r#"{{"category":"jest","duration":5000,"environments":[{{"name":"jest"}}],
            "sources":[{{"filePath":".shardwise/costs.json","text":"{record}"}}],
            "tests":[{{"title":"a1","location":{{"file":"a.ts","line":1,"column":1}},"attempts":[{{"startTimestamp":1900,"duration":1000}}]}},
                     {{"title":"a2","location":{{"file":"a.ts","line":2,"column":1}},"attempts":[{{"startTimestamp":2900,"duration":100}}]}},
                     {{"title":"b1","location":{{"file":"b.ts","line":1,"column":1}},"attempts":[{{"startTimestamp":1300,"duration":500}}]}}]}}"#
        ));
        let l = learn(&r);
        assert_eq!(l.runner.as_deref(), Some("jest"));
        assert_eq!((l.workers, l.unit), (Some(2), Some(UnitKind::File)));
        assert_eq!(l.costs.files, [("a.ts".to_owned(), 900), ("b.ts".to_owned(), 300)].into());
        assert_eq!(l.measured_files, 2);
        // the workers were busy from 1000 (b.ts began loading) to 3000, as the model says (a.ts:
        // 1100 + 900 on one worker): the files' costs stand, and 3 s of the 5 s are outside
        assert_eq!(l.per_shard_overhead_ms, 3000);
        assert!(l.from_wall && l.source.starts_with("learned from a run: 2 files' costs"), "{}", l.source);
        // a file never seen costs the fit of those two (2 tests 900, 1 test 300), through 0 as
        // the line through both would cost a file of no tests -300 ms
        assert_eq!((l.costs.per_file_ms, l.costs.per_test_ms), (0, 400));
    }

    #[test]
    fn many_sub_millisecond_tests_leave_their_files_costs_whole() {
        // node:test, one worker: a.mjs loads for 500 ms, then runs 300 tests of 0.2 ms; b.mjs the
        // same after it; 180 ms after the last test the run ends. The runner plans a file as one
        // unit of its tests' summed time (60 ms): as 300 units of at least 1 ms each, the fit took
        // the 480 ms they were over from the files' costs (to 20 ms of 500) and every plan by
        // file then came out short
        let record = r#"{\"runner\":\"node-test\",\"workers\":1,\"files\":{\"a.mjs\":500,\"b.mjs\":500}}"#;
        let mut tests = Vec::new();
        for (file, start) in [("a.mjs", 500.0), ("b.mjs", 1060.0)] {
            for i in 0..300 {
                tests.push(format!(
                    r#"{{"title":"t{i}","location":{{"file":"{file}","line":{},"column":1}},"attempts":[{{"startTimestamp":{},"duration":0.2}}]}}"#,
                    i + 1,
                    start + i as f64 * 0.2
                ));
            }
        }
        let r = view(&format!(
            r#"{{"category":"node-test","duration":1300,"environments":[{{"name":"node"}}],
            "sources":[{{"filePath":".shardwise/costs.json","text":"{record}"}}],"tests":[{}]}}"#,
            tests.join(",")
        ));
        let l = learn(&r);
        assert_eq!(l.unit, Some(UnitKind::File));
        assert_eq!(l.costs.files, [("a.mjs".to_owned(), 500), ("b.mjs".to_owned(), 500)].into());
        assert_eq!(l.per_shard_overhead_ms, 180);
        // and a plan of its files predicts the run: 60 + 500 + 60 + 500, plus 180
        let units = super::super::from_report::file_units_from_report(&r);
        assert_eq!(units.iter().map(|u| (u.id.as_ref(), u.duration_ms.map(f64::round))).collect::<Vec<_>>(), [("a.mjs", Some(60.0)), ("b.mjs", Some(60.0))]);
        let mut s = Settings::new(1);
        s.costs = l.costs.clone();
        s.per_shard_overhead_ms = l.per_shard_overhead_ms;
        s.unit = UnitKind::File;
        assert_eq!(plan_units(&units, &s).unwrap().makespan_ms, 1300);
        // a shard of it, run by `shardwise node-test` after 300 ms of its own start and planning:
        // its wall holds them, the fixed cost per shard does not (each shard adds its own)
        let launched = view(&format!(
            r#"{{"category":"node-test","duration":1600,"environments":[{{"name":"node"}}],
            "sources":[{{"filePath":".shardwise/costs.json","text":"{}"}}],"tests":[{}]}}"#,
            record.replace("\\\"workers\\\":1", "\\\"workers\\\":1,\\\"launchMs\\\":300"),
            tests.join(",")
        ));
        assert_eq!(learn(&launched).per_shard_overhead_ms, 180);
    }

    #[test]
    fn a_workers_warm_up_leaves_its_first_file_for_the_per_worker_cost() {
        // two workers; f0 and f1 started first and cost 3 s more than the others (about 100 ms):
        // the workers' warm-up, which another shard's workers pay on other files
        let mut files = String::new();
        let mut tests = String::new();
        for f in 0..8 {
            let cost = if f < 2 { 3100 } else { 90 + 5 * f };
            files.push_str(&format!(r#"{}\"f{f}.ts\":{cost}"#, if f > 0 { "," } else { "" }));
            let start = if f < 2 { 4000 + f * 30 } else { 5000 + f * 300 };
            tests.push_str(&format!(
                r#"{}{{"title":"t{f}","location":{{"file":"f{f}.ts","line":1,"column":1}},"attempts":[{{"startTimestamp":{start},"duration":100}}]}}"#,
                if f > 0 { "," } else { "" }
            ));
        }
        let record = format!(r#"{{\"runner\":\"jest\",\"workers\":2,\"files\":{{{files}}}}}"#);
        let r = view(&format!(
            r#"{{"category":"jest","duration":9000,"environments":[{{"name":"jest"}}],"sources":[{{"filePath":".shardwise/costs.json","text":"{record}"}}],"tests":[{tests}]}}"#
        ));
        let l = learn(&r);
        // the median file costs 115 ms: f0 and f1 cost 2985 ms more, on average
        assert!((2800..=3100).contains(&l.costs.per_worker_ms), "{}", l.costs.per_worker_ms);
        assert!(l.costs.files["f0.ts"] < 400 && l.costs.files["f1.ts"] < 400, "{:?}", l.costs.files);
        assert!(l.costs.files["f7.ts"] >= 100, "{:?}", l.costs.files);
        // fitted files given back by a service are taken as they are
        let again = format!(r#"{{\"runner\":\"jest\",\"workers\":2,\"perWorkerMs\":3000,\"fittedFiles\":{{\"f0.ts\":3100,\"f1.ts\":100}}}}"#);
        let doc = view(&format!(
            r#"{{"category":"jest","environments":[{{"name":"jest"}}],"sources":[{{"filePath":".shardwise/costs.json","text":"{again}"}}],"tests":[{{"title":"t","location":{{"file":"f0.ts","line":1,"column":1}},"attempts":[{{"duration":5}}]}}]}}"#
        ));
        let l = learn(&doc);
        assert_eq!((l.costs.per_worker_ms, l.costs.files["f0.ts"]), (3000, 3100));
    }

    /// A Jest run on 2 workers that started at 1,000 ms and took `wall` ms: per file, `(name,
    /// its first test's start after `lead` ms, its cost as the reporter measured it)`.
    fn jest_run(run: &[(&str, u64, u64)], lead: u64, wall: u64) -> ReportView {
        let files: Vec<String> = run.iter().map(|(f, _, cost)| format!(r#"\"{f}\":{cost}"#)).collect();
        let tests: Vec<String> = run
            .iter()
            .map(|(f, start, _)| format!(r#"{{"title":"t","location":{{"file":"{f}","line":1,"column":1}},"attempts":[{{"startTimestamp":{},"duration":20}}]}}"#, 1000 + lead + start))
            .collect();
        jest_report(&files, &tests, wall)
    }

    /// A Jest run's report on 2 workers, started at 1,000 ms and `wall` ms long: its files' costs
    /// record (`"name":cost` entries) and its tests (JSON objects).
    fn jest_report(files: &[String], tests: &[String], wall: u64) -> ReportView {
        let record = format!(r#"{{\"runner\":\"jest\",\"workers\":2,\"files\":{{{}}}}}"#, files.join(","));
        view(&format!(
            r#"{{"category":"jest","startTimestamp":1000,"duration":{wall},"environments":[{{"name":"jest"}}],"sources":[{{"filePath":".shardwise/costs.json","text":"{record}"}}],"tests":[{}]}}"#,
            tests.join(",")
        ))
    }

    #[test]
    fn a_run_of_few_files_holds_its_first_ones_to_the_others_median() {
        // jest-slow's 4-shard run planned from its seed, shard 4: 6 files on 2 workers, each
        // worker's first file (the 6 s file, file-024, and file-006) paid its start, 2.8 s beyond
        // its tests; file-076 paid a module's transform later (1.8 s); the others 120-210 ms.
        // Held to the median of all six (1.8 s), the first files kept 1.9 s each and a plan from
        // the shards' folder predicted file-024's shard of its own 10.1 s; it took 6.9-7.4 s.
        let run = [("f024.js", 582, 2792), ("f006.js", 633, 2818), ("f060.js", 4534, 159), ("f076.js", 5746, 1837), ("f030.js", 7612, 208), ("f000.js", 7874, 121)];
        let l = learn(&jest_run(&run, 0, 9173));
        // the later files' median is 208 ms: each first file is held to it (as the run's wall
        // fits them, a steady later file's cost), and a later file keeps what it paid
        let f = &l.costs.files;
        assert!(f["f024.js"] <= f["f030.js"] && f["f006.js"] <= f["f030.js"] && f["f030.js"] < 600, "{f:?}");
        assert!(f["f076.js"] >= 1500, "{f:?}");
        // each worker's start the rest of its first file's cost (2.6 s beyond the median)
        assert!((2000..=2800).contains(&l.costs.per_worker_ms), "{}", l.costs.per_worker_ms);
    }

    #[test]
    fn a_later_file_that_paid_a_shared_modules_transform_is_no_steady_file() {
        // jest-slow's 4-shard run planned from its seed (bench:suites --history), a shard of 7
        // files on 2 workers: its workers began with the 6 s file (file-024) and file-006 (3.0 s
        // beyond their tests each: the workers' start), then file-060 (140 ms); of the later four,
        // file-005 paid 1,760 ms (the first to import a 210 KB module: its transform), the others
        // 115-291 ms. Held to the upper quartile of the later four (their largest, 1,760 ms), the
        // first files kept 1.76 s each as their own, charged again wherever they were planned
        let run = [("f024.js", 0, 3006), ("f006.js", 27, 3045), ("f060.js", 1651, 140), ("f050.js", 3001, 291), ("f005.js", 4767, 1760), ("f030.js", 5052, 184), ("f038.js", 5265, 115)];
        let f = learn(&jest_run(&run, 4489, 10281)).costs.files;
        assert!(f["f024.js"] < 600 && f["f006.js"] < 600, "{f:?}");
        assert!(f["f005.js"] >= 1500, "{f:?}");
    }

    /// A Jest shard's run of 12 files on 2 workers (as commander.js' shards): its files' costs as
    /// measured (`first` and `second`: those its workers ran first, the others about 100 ms), its
    /// wall time.
    fn jest_shard(prefix: &str, first: u64, second: u64, wall: u64) -> ReportView {
        let mut files = String::new();
        let mut tests = String::new();
        for f in 0..12 {
            let cost = match f {
                0 => first,
                1 => second,
                _ => 90 + 2 * f,
            };
            let sep = if f > 0 { "," } else { "" };
            files.push_str(&format!(r#"{sep}\"{prefix}{f}.ts\":{cost}"#));
            let start = if f < 2 { 8000 + f * 30 } else { 9000 + f * 300 };
            tests.push_str(&format!(
                r#"{sep}{{"title":"t{f}","location":{{"file":"{prefix}{f}.ts","line":1,"column":1}},"attempts":[{{"startTimestamp":{start},"duration":50}}]}}"#
            ));
        }
        let record = format!(r#"{{\"runner\":\"jest\",\"workers\":2,\"files\":{{{files}}}}}"#);
        view(&format!(
            r#"{{"category":"jest","duration":{wall},"environments":[{{"name":"jest"}}],"sources":[{{"filePath":".shardwise/costs.json","text":"{record}"}}],"tests":[{tests}]}}"#
        ))
    }

    #[test]
    fn a_first_file_that_pays_far_beyond_the_suites_worker_start_keeps_its_own_cost() {
        // commander.js' shards: Jest runs a shard's longest file first, ts-imports.test.ts (a
        // TypeScript compile, 5 s wherever it runs), beside another worker's first file; both pay
        // the workers' start (2.5 s) beyond a steady file (about 100 ms). Alone, the run cannot
        // tell the compile from its worker's start: read as start (3.7 s each, the mean), the
        // file cost a steady file's 0.1 s, and every shard a plan from it made was charged half
        // of the compile as its workers' start, the file's own shard 1.29x its prediction
        let ts = jest_shard("a", 2600 + 5000, 2500 + 100, 16000);
        let alone = learn(&ts);
        assert!(alone.costs.files["a0.ts"] < 400 && alone.costs.per_worker_ms > 3500, "{alone:?}");
        // another shard of the same run, its first files alike: together, the suite's start is
        // the higher middle one of the four first files' (2.6 s); the compile's shard reads its
        // start from its other first file (2.5 s), and the compile stays with its file (it held
        // its worker 5 s more than a steady file), on whichever shard it lands
        let other = jest_shard("b", 2700, 2400, 11000);
        let l = learn_runs(&[ts, other]).unwrap();
        assert!((2300..=2700).contains(&l.costs.per_worker_ms), "{}", l.costs.per_worker_ms);
        assert!((4600..=5400).contains(&l.costs.files["a0.ts"]), "{:?}", l.costs.files);
        for f in ["a1.ts", "b0.ts", "b1.ts"] {
            assert!(l.costs.files[f] < 400, "{f}: {:?}", l.costs.files);
        }
        // a worker's first file that paid less than the others' (it loads little of the suite) is
        // no start of its own: the median leaves it out, and the other files keep what they had
        let light = jest_shard("c", 2600, 500, 11000);
        let l = learn_runs(&[jest_shard("a", 2600 + 5000, 2500 + 100, 16000), jest_shard("b", 2700, 2400, 11000), light]).unwrap();
        assert!((2300..=2700).contains(&l.costs.per_worker_ms), "{}", l.costs.per_worker_ms);
        assert!(l.costs.files["c0.ts"] < 400 && l.costs.files["c1.ts"] < 600, "{:?}", l.costs.files);
    }

    /// A Jest shard as its reporter saves it: every test starts with its file (Jest 29 gives a test
    /// no start of its own). The run starts at 1,000 ms, its first files 450 ms later; `files`:
    /// `(name, cost beyond its tests, tests of 5 ms)`, handed out in that order each to the first
    /// free of 2 workers, 40 ms between files on a worker (Jest's own time, outside its figures);
    /// the run ends 450 ms after its last file.
    fn jest_shard_by_file(files: &[(String, u64, u64)]) -> ReportView {
        let mut free = [1450u64, 1460];
        let (mut costs, mut tests) = (Vec::new(), Vec::new());
        for (name, cost, n) in files {
            let w = if free[0] <= free[1] { 0 } else { 1 };
            let start = free[w];
            costs.push(format!(r#"\"{name}\":{cost}"#));
            for t in 0..*n {
                tests.push(format!(r#"{{"title":"t{t}","location":{{"file":"{name}","line":{},"column":1}},"attempts":[{{"startTimestamp":{start},"duration":5,"parallelIndex":{w}}}]}}"#, t + 1));
            }
            free[w] = start + cost + 5 * n + 40;
        }
        jest_report(&costs, &tests, free.iter().max().unwrap() - 40 + 450 - 1000)
    }

    #[test]
    fn tests_that_start_with_their_file_are_fitted_from_the_files_span() {
        // commander.js' 4-shard run: a shard's workers began with ts-imports.test.ts (2.6 s: its
        // worker's start and its TypeScript compile) and a file that paid the start (1.1 s), then
        // files of 45 ms each, 40 ms apart; another shard's both paid the start. Its tests all
        // start with their file: read from them, the busy span began before the compile and the
        // start (which the fit added again), so its files were fitted 212 ms of gap each and the
        // shard nothing of fixed cost. From the files' own spans: the 40 ms, and the 900 ms
        // before the first files and after the last one the shard's own
        let smalls = |p: &str, n: usize| (0..n).map(|i| (format!("{p}{i:02}.test.js"), 45, 3)).collect::<Vec<_>>();
        let mut ts = vec![("ts-imports.test.ts".to_owned(), 2600, 3), ("a-first.test.js".to_owned(), 1100, 3)];
        ts.extend(smalls("a", 26));
        let mut other = vec![("b-first.test.js".to_owned(), 1045, 3), ("b-second.test.js".to_owned(), 1000, 3)];
        other.extend(smalls("b", 26));
        let (ts, other) = (jest_shard_by_file(&ts), jest_shard_by_file(&other));
        for one in [&ts, &other] {
            let l = learn(one);
            assert!((700..=1000).contains(&l.per_shard_overhead_ms), "{}", l.per_shard_overhead_ms);
        }
        let l = learn_runs(&[ts, other]).unwrap();
        let f = &l.costs.files;
        for name in ["a00.test.js", "a25.test.js", "b00.test.js", "b25.test.js"] {
            assert!((60..=120).contains(&f[name]), "{name}: {f:?}");
        }
        // the compile its own, the start each worker's
        assert!(f["ts-imports.test.ts"] >= 1300, "{f:?}");
        assert!((900..=1200).contains(&l.costs.per_worker_ms), "{}", l.costs.per_worker_ms);
        assert!((700..=1000).contains(&l.per_shard_overhead_ms), "{}", l.per_shard_overhead_ms);
        // shards of 5 to 600 files, their first files' starts alike: the same 900 ms a shard,
        // and a small file its 45 ms with the 40 ms between files at most (Jest's own)
        for n in [3, 8, 40, 150, 598] {
            let mut files = vec![("first.test.js".to_owned(), 1045, 3), ("second.test.js".to_owned(), 1000, 3)];
            files.extend(smalls("s", n));
            let l = learn(&jest_shard_by_file(&files));
            assert!((800..=950).contains(&l.per_shard_overhead_ms), "{n} files: {}", l.per_shard_overhead_ms);
            assert!((45..=95).contains(&l.costs.files["s00.test.js"]), "{n} files: {:?}", l.costs.files);
        }
    }

    #[test]
    fn first_files_that_all_paid_alike_far_beyond_the_suites_start_are_their_runs_start() {
        // jest-slow's 4-shard folder: one shard's two first files paid 3.4 s each beyond a steady
        // file, the other shards' 2.0-2.2 s (the suite's start 2.2 s, the higher middle one). Read
        // as paying for themselves (beyond 1.5x the start), each kept 1.1-1.3 s as its own cost,
        // charged again on whichever shard it landed; alike, they are that shard's start
        let runs = [jest_shard("a", 3700, 3600, 12000), jest_shard("b", 2200, 2100, 11000), jest_shard("c", 2300, 2200, 11000)];
        let l = learn_runs(&runs).unwrap();
        for f in ["a0.ts", "a1.ts", "b0.ts", "b1.ts", "c0.ts", "c1.ts"] {
            assert!(l.costs.files[f] < 400, "{f}: {:?}", l.costs.files);
        }
        // two first files far beyond the start and far apart: the longer one paid for itself
        // too (a compile), the other is the start (as alone above the start, with a steady other)
        let l = learn_runs(&[jest_shard("a", 2600 + 5000, 3600, 16000), jest_shard("b", 2200, 2100, 11000), jest_shard("c", 2300, 2200, 11000)]).unwrap();
        assert!(l.costs.files["a0.ts"] >= 3000, "{:?}", l.costs.files);
    }

    #[test]
    fn a_first_file_that_loaded_little_does_not_halve_the_suites_start() {
        // commander.js' 2-shard run: shard a's workers began with the TypeScript compile (5.4 s
        // beyond a steady file) and a file that paid the start (3.1 s); shard b's with two files
        // that load little of the suite (0.4 and 0.3 s). The start is 3.1 s, not the mean of the
        // middle two (1.8 s, by which the file that paid the start paid for itself and kept 1.3 s
        // as its own, charged again wherever it was planned)
        let (a, b) = (jest_shard("a", 5462, 3218, 16000), jest_shard("b", 530, 424, 11000));
        let start = suite_start(&[learn(&a), learn(&b)]).unwrap();
        assert!((3000.0..=3200.0).contains(&start), "{start}");
        let l = learn_runs(&[a, b]).unwrap();
        assert!(l.costs.files["a1.ts"] < 400, "{:?}", l.costs.files);
        // the compile stays with its file: beyond 1.5x the start, it keeps what it paid beyond it
        assert!((2200..=2800).contains(&l.costs.files["a0.ts"]), "{:?}", l.costs.files);
        // three shards' six first files: the higher of the middle two (c's 2.6 s)
        let c = jest_shard("c", 2700, 2600, 11000);
        let three = suite_start(&[learn(&jest_shard("a", 5462, 3218, 16000)), learn(&jest_shard("b", 530, 424, 11000)), learn(&c)]).unwrap();
        assert!((2400.0..=2700.0).contains(&three), "{three}");
    }

    #[test]
    fn two_shards_alike_in_size_give_the_mean_of_their_fixed_costs() {
        // two shards of 12 files, one on a busier machine (its wall 12 s against 9 s): the plan
        // from their folder takes neither's fixed costs (per shard, per worker, cold) alone but
        // their means; of three, the middle one's as they are
        let sum = |l: &Learned| l.per_shard_overhead_ms + l.costs.per_worker_ms + l.costs.cold_ms;
        let (a, b, c) = (jest_shard("a", 2600, 2500, 12000), jest_shard("b", 2600, 2500, 9000), jest_shard("c", 2600, 2500, 10000));
        let (la, lb, lc) = (learn(&a), learn(&b), learn(&c));
        assert!(sum(&la) > sum(&lc) + 500 && sum(&lc) > sum(&lb) + 500, "{} {} {}", sum(&la), sum(&lb), sum(&lc));
        let two = learn_runs(&[a, b]).unwrap();
        assert!(sum(&two).abs_diff((sum(&la) + sum(&lb)) / 2) <= 2, "{} of {} and {}", sum(&two), sum(&la), sum(&lb));
        let three = learn_runs(&[jest_shard("a", 2600, 2500, 12000), jest_shard("b", 2600, 2500, 9000), c]).unwrap();
        assert_eq!((three.per_shard_overhead_ms, three.costs.per_worker_ms, three.costs.cold_ms), (lc.per_shard_overhead_ms, lc.costs.per_worker_ms, lc.costs.cold_ms));
    }

    /// A Jest-like run of 12 files on 2 workers: f0 and f1 ran first (jsdom files, each 370 ms
    /// to load jsdom and 800 ms more of the workers' warm-up), f2..f5 more jsdom files (10 ms to
    /// load it), f6..f11 node files (the slow one f11).
    fn jsdom_run(node_env: &str) -> ReportView {
        let (mut files, mut envs, mut loads, mut tests) = (String::new(), String::new(), String::new(), String::new());
        let names = format!(r#"[\"jest-environment-jsdom\",\"{node_env}\"]"#);
        for f in 0..12 {
            let sep = if f > 0 { "," } else { "" };
            let dom = f < 6;
            let load = if f < 2 { 370 } else if dom { 10 } else { 3 };
            let cost = if f < 2 { 1250 } else { 80 + load };
            files.push_str(&format!(r#"{sep}\"f{f}.js\":{cost}"#));
            envs.push_str(&format!(r#"{sep}\"f{f}.js\":{}"#, if dom || node_env == "jest-environment-jsdom" { 0 } else { 1 }));
            loads.push_str(&format!(r#"{sep}\"f{f}.js\":{load}"#));
            let start = if f < 2 { 1000 + f * 20 } else { 2400 + f * 250 };
            let ms = if f == 11 { 3000 } else { 100 };
            tests.push_str(&format!(r#"{sep}{{"title":"t{f}","location":{{"file":"f{f}.js","line":1,"column":1}},"attempts":[{{"startTimestamp":{start},"duration":{ms}}}]}}"#));
        }
        let record = format!(r#"{{\"runner\":\"jest\",\"workers\":2,\"files\":{{{files}}},\"environments\":{names},\"environmentOf\":{{{envs}}},\"environmentMs\":{{{loads}}}}}"#);
        view(&format!(
            r#"{{"category":"jest","duration":8000,"environments":[{{"name":"jest"}}],"sources":[{{"filePath":".shardwise/costs.json","text":"{record}"}}],"tests":[{tests}]}}"#
        ))
    }

    #[test]
    fn a_test_environments_first_load_is_a_start_cost_of_the_shards_that_run_its_files() {
        let l = learn(&jsdom_run("jest-environment-node"));
        // jsdom's first load on each worker: 370 ms beyond its median load (10 ms); node's loads
        // vary by nothing worth a start
        assert_eq!(l.costs.starts.len(), 1, "{:?}", l.costs.starts);
        let st = &l.costs.starts[0];
        assert_eq!((st.id.as_str(), st.duration_ms), ("environment jest-environment-jsdom", 360));
        assert_eq!(st.files, ["f0.js", "f1.js", "f2.js", "f3.js", "f4.js", "f5.js"]);
        // the rest of the first files' warm-up is every worker's
        assert!((700..=900).contains(&l.costs.per_worker_ms), "{}", l.costs.per_worker_ms);
        // planned: a shard of the slow node file alone pays no jsdom start, a shard of jsdom files does
        let units: Vec<Unit> = (0..12).map(|f| unit(&format!("f{f}.js"), &format!("f{f}.js"), if f == 11 { 3000.0 } else { 100.0 })).collect();
        let mut s = Settings::new(2);
        s.workers = 2;
        s.unit = UnitKind::File;
        s.per_shard_overhead_ms = l.per_shard_overhead_ms;
        s.costs = l.costs.clone();
        let p = plan_units(&units, &s).unwrap();
        let slow = p.shards.iter().find(|sh| sh.files.contains(&"f11.js".to_owned())).unwrap();
        let dom = p.shards.iter().find(|sh| sh.files.contains(&"f0.js".to_owned())).unwrap();
        assert!(slow.files.iter().all(|f| !["f0.js", "f1.js", "f2.js", "f3.js", "f4.js", "f5.js"].contains(&f.as_str())), "{p:?}");
        let without = Settings { costs: Costs { starts: Vec::new(), ..l.costs.clone() }, ..s.clone() };
        let q = plan_units(&units, &without).unwrap();
        let slow_without = q.shards.iter().find(|sh| sh.files.contains(&"f11.js".to_owned())).unwrap();
        assert_eq!(slow.predicted_ms, slow_without.predicted_ms, "the node shard: no start");
        assert!(dom.predicted_ms >= 360 + s.per_shard_overhead_ms + s.costs.per_worker_ms, "{p:?}");
        // one environment only: no start (every shard would pay it: the workers' start has it)
        let one = learn(&jsdom_run("jest-environment-jsdom"));
        assert!(one.costs.starts.is_empty());
        // the first file's load came before the run's first test, as its worker's warm-up did:
        // the fixed cost per shard is the same with the start apart as without
        assert!(one.per_shard_overhead_ms.abs_diff(l.per_shard_overhead_ms) <= 50, "{} vs {}", one.per_shard_overhead_ms, l.per_shard_overhead_ms);
        // a service's record gives them back as they were fitted
        let rec = CostsRecord {
            runner: Some("jest".into()),
            fitted_files: Some([("f0.js".to_owned(), 100.0)].into()),
            starts: Some(vec![StartInput { id: "environment x".into(), duration_ms: Some(250.0), files: Some(vec!["f0.js".into()]), units: None }]),
            ..Default::default()
        };
        let text = serde_json::to_string(&serde_json::to_string(&rec).unwrap()).unwrap();
        let doc = view(&format!(
            r#"{{"category":"jest","environments":[{{"name":"jest"}}],"sources":[{{"filePath":".shardwise/costs.json","text":{text}}}],"tests":[{{"title":"t","location":{{"file":"f0.js","line":1,"column":1}},"attempts":[{{"duration":5}}]}}]}}"#
        ));
        assert_eq!(learn(&doc).costs.starts, [Start { id: "environment x".into(), duration_ms: 250, files: vec!["f0.js".into()], units: vec![] }]);
    }

    #[test]
    fn jests_cold_transforms_reach_past_the_first_files_and_recur_on_every_shard() {
        // two workers, 20 files by start: the first ten pay cold transforms (2.4 s on each
        // worker's first file, then less and less), the last ten cost 100-145 ms
        let early = [2400, 2400, 1000, 800, 500, 300, 150, 120, 110, 100];
        let doc_with = |runner: &str, extra: &str| {
            let mut files = String::new();
            let mut tests = String::new();
            for f in 0..20u64 {
                let cost = if f < 10 { early[f as usize] } else { 100 + 5 * (f - 10) };
                files.push_str(&format!(r#"{}\"f{f}.js\":{cost}"#, if f > 0 { "," } else { "" }));
                tests.push_str(&format!(
                    r#"{}{{"title":"t{f}","location":{{"file":"f{f}.js","line":1,"column":1}},"attempts":[{{"startTimestamp":{},"duration":50}}]}}"#,
                    if f > 0 { "," } else { "" },
                    1000 + f * 400
                ));
            }
            let record = format!(r#"{{{extra}\"runner\":\"{runner}\",\"workers\":2,\"files\":{{{files}}}}}"#);
            view(&format!(
                r#"{{"category":"{runner}","duration":12000,"environments":[{{"name":"{runner}"}}],"sources":[{{"filePath":".shardwise/costs.json","text":"{record}"}}],"tests":[{tests}]}}"#
            ))
        };
        let doc = |runner: &str| doc_with(runner, "");
        // Jest: the late files' upper quartile is 135 ms; the two first files paid 2,265 ms
        // beyond it each (each worker's start), the other early files 2,075 ms in all: over its
        // two workers, the cold cost of a shard (1,037 ms at full); every file keeps a steady cost,
        // and the same gap on each: the run was busy longer (7.6 s) than its files explain, the
        // time Jest's workers spend between files (at most 250 ms a file)
        let l = learn(&doc("jest"));
        assert!((2200..=2300).contains(&l.costs.per_worker_ms), "{}", l.costs.per_worker_ms);
        assert!((1000..=1080).contains(&l.costs.cold_ms), "{}", l.costs.cold_ms);
        for f in 0..20 {
            let c = l.costs.files[&format!("f{f}.js")];
            assert!((350..=395).contains(&c), "f{f}: {:?}", l.costs.files);
        }
        // Vitest and Playwright: a worker's start, on its first file only (beyond the median)
        let v = learn(&doc("vitest"));
        assert!((2200..=2350).contains(&v.costs.per_worker_ms), "{}", v.costs.per_worker_ms);
        assert_eq!(v.costs.cold_ms, 0);
        assert!(v.costs.files["f2.js"] > 500, "{:?}", v.costs.files);
        // a Jest shard whose files loaded 40% of the suite's modules (its record's modulesShare)
        // paid their transforms, 2,075 ms over its two workers: at full, over that share
        let shard = |share: &str| learn(&doc_with("jest", &format!(r#"\"modulesShare\":{share},"#)));
        let part = shard("0.4");
        assert!((2550..=2650).contains(&part.costs.cold_ms), "{}: 2,075 / 2 / 0.4", part.costs.cold_ms);
        assert_eq!(part.costs.per_worker_ms, l.costs.per_worker_ms);
        // the run is fitted with the cold cost it paid, not at full: the same fixed cost per shard
        // as the run without a share (fitted with all of it, 1.5 s short)
        assert!(part.per_shard_overhead_ms.abs_diff(l.per_shard_overhead_ms) <= 20, "{} vs {}", part.per_shard_overhead_ms, l.per_shard_overhead_ms);
        // every module, or a share that is no share: as a run of no plan
        assert_eq!(shard("1").costs.cold_ms, l.costs.cold_ms);
        assert_eq!(shard("0").costs.cold_ms, l.costs.cold_ms);
        // Vitest's transforms of the suite's modules, recorded apart from the files' costs (3 s in
        // a run of 20 files over two workers): the cold cost of a shard, 3,000 / 2 / (1 − 0.8^20);
        // over the share of the modules a shard's files loaded, where its plan read them
        let vitest = |extra: &str| learn(&doc_with("vitest", extra));
        let full = vitest(r#"\"transformMs\":3000,"#);
        assert_eq!(full.costs.cold_ms, 1517);
        assert_eq!(full.costs.per_worker_ms, v.costs.per_worker_ms);
        assert_eq!(vitest(r#"\"transformMs\":3000,\"modulesShare\":0.5,"#).costs.cold_ms, 3000);
        assert_eq!(vitest(r#"\"transformMs\":0,"#).costs.cold_ms, 0);
        // each module's transforms: given out with the costs (a plan's `costs.moduleMs`) as they
        // take alone (recorded while both workers asked: half), the mean of the runs that made
        // them from a folder
        let one = vitest(r#"\"transformMs\":3000,\"transforms\":{\"lib/a.ts\":2000.4,\"lib/b.ts\":999.6,\"lib/x.ts\":-1},"#);
        assert_eq!(one.costs.module_ms, BTreeMap::from([("lib/a.ts".to_owned(), 1000), ("lib/b.ts".to_owned(), 500)]));
        assert_eq!(serde_json::to_value(&one).unwrap()["costs"]["moduleMs"]["lib/a.ts"], 1000);
        let runs = learn_runs(&[
            doc_with("vitest", r#"\"transformMs\":3000,\"transforms\":{\"lib/a.ts\":2000,\"lib/b.ts\":1000},"#),
            doc_with("vitest", r#"\"transformMs\":1500,\"transforms\":{\"lib/a.ts\":1000,\"lib/c.ts\":500},"#),
        ])
        .unwrap();
        assert_eq!(runs.costs.module_ms, BTreeMap::from([("lib/a.ts".to_owned(), 750), ("lib/b.ts".to_owned(), 500), ("lib/c.ts".to_owned(), 250)]));
        // Jest's early files say its cold cost: a record's transforms do not replace it
        assert_eq!(learn(&doc_with("jest", r#"\"transformMs\":3000,"#)).costs.cold_ms, l.costs.cold_ms);
    }

    #[test]
    fn a_first_file_whose_cost_fell_after_its_first_test_started_is_not_read_as_before_it() {
        // two workers, 20 Jest files; the run started at 900, its first tests at 1,000 (each
        // worker's first file), and each worker's first file held it 2.4 s beyond its tests after
        // its first test had started (luxon's first files). Read as paid before the first test
        // (the whole warm-up), the busy time came out longer than the run and the model of the
        // run over-predicted it; at most the 100 ms before the first test, it predicts the run
        let doc = |start: &str| {
            let (mut files, mut tests) = (String::new(), String::new());
            for f in 0..20u64 {
                let (cost, at) = match f {
                    0 | 1 => (2400, 1000),
                    _ => (100, 3600 + (f - 2) / 2 * 450),
                };
                files.push_str(&format!(r#"{}\"f{f}.js\":{cost}"#, if f > 0 { "," } else { "" }));
                tests.push_str(&format!(
                    r#"{}{{"title":"t{f}","location":{{"file":"f{f}.js","line":1,"column":1}},"attempts":[{{"startTimestamp":{at},"duration":300,"parallelIndex":{}}}]}}"#,
                    if f > 0 { "," } else { "" },
                    f % 2
                ));
            }
            let record = format!(r#"{{\"runner\":\"jest\",\"workers\":2,\"files\":{{{files}}}}}"#);
            view(&format!(
                r#"{{"category":"jest",{start}"duration":7900,"environments":[{{"name":"jest"}}],"sources":[{{"filePath":".shardwise/costs.json","text":"{record}"}}],"tests":[{tests}]}}"#
            ))
        };
        let predicted = |d: &ReportView| {
            let l = learn(d);
            let mut s = Settings::new(1);
            s.workers = 2;
            s.unit = UnitKind::File;
            s.per_shard_overhead_ms = l.per_shard_overhead_ms;
            s.costs = l.costs;
            let units = super::super::from_report::file_units_from_report(d);
            super::super::makespan_of(&super::super::units::canonical(&units).unwrap(), &s)
        };
        let with = predicted(&doc(r#""startTimestamp":900,"#));
        assert!((7500..=8300).contains(&with), "predicted {with} ms of a 7,900 ms run");
        let without = predicted(&doc(""));
        assert!(without > 8500, "without the run's start: {without} ms (the case it mends: 8,800)");
    }

    #[test]
    fn vitests_missing_time_is_the_same_on_every_file_not_a_scale() {
        // Vitest, one worker, ten files one after another: five whose module figures say 20 ms
        // and five 200 ms, each holding the worker 100 ms more than its figures (its own start in
        // the worker), then its one test of 10 ms. The fit adds those 100 ms to every file; a
        // scale (as before) would have made the cheap files 37 ms and the heavy ones 366 ms
        let cost = |f: u64| if f % 2 == 0 { 20 } else { 200 };
        let (mut files, mut tests, mut at) = (String::new(), String::new(), 0);
        for f in 0..10u64 {
            files.push_str(&format!(r#"{}\"f{f}.ts\":{}"#, if f > 0 { "," } else { "" }, cost(f)));
            at += cost(f) + 100;
            tests.push_str(&format!(
                r#"{}{{"title":"t{f}","location":{{"file":"f{f}.ts","line":1,"column":1}},"attempts":[{{"startTimestamp":{at},"duration":10}}]}}"#,
                if f > 0 { "," } else { "" }
            ));
            at += 10;
        }
        let record = format!(r#"{{\"runner\":\"vitest\",\"workers\":1,\"files\":{{{files}}}}}"#);
        let l = learn(&view(&format!(
            r#"{{"category":"vitest","duration":3000,"environments":[{{"name":"vitest"}}],"sources":[{{"filePath":".shardwise/costs.json","text":"{record}"}}],"tests":[{tests}]}}"#
        )));
        for f in 0..10 {
            // (the fit's bisection stops within a millisecond or two)
            assert!((cost(f) + 98..=cost(f) + 101).contains(&l.costs.files[&format!("f{f}.ts")]), "f{f}: {:?}", l.costs.files);
        }
    }

    #[test]
    fn a_vitest_shard_of_one_file_whose_tests_run_after_its_import_keeps_the_files_cost() {
        // date-fns' balanced 3-shard run, shard 1 (bench:suites --history --always-balance): the
        // `fp` file alone on 2 workers, 3,376 ms; Vitest measured 1,284 ms of collection beyond
        // its 13 tests of 0.15 ms, and 1,497 ms of the suite's transforms before them. Read from
        // its tests, the busy span was 2 ms: the fit took the file as free (0 ms) and the shard's
        // 3.4 s as the fixed cost of every shard (its record's `perShardMs`: 3,372 ms)
        let tests: Vec<String> = (0..13)
            .map(|i| format!(r#"{{"title":"t{i}","location":{{"file":"fp.ts","line":{},"column":1}},"attempts":[{{"startTimestamp":{},"duration":0.15}}]}}"#, i + 1, 4300 + i / 6))
            .collect();
        let record = r#"{\"runner\":\"vitest\",\"workers\":2,\"modulesShare\":0.961,\"transformMs\":1497,\"files\":{\"fp.ts\":1284}}"#;
        let l = learn(&view(&format!(
            r#"{{"category":"vitest","startTimestamp":1000,"duration":3376,"environments":[{{"name":"vitest"}}],"sources":[{{"filePath":".shardwise/costs.json","text":"{record}"}}],"tests":[{}]}}"#,
            tests.join(",")
        )));
        assert_eq!(l.costs.files["fp.ts"], 1284, "the file keeps its cost as measured");
        // the rest of the wall beyond the file and the transforms its worker waited for
        assert!((500..=700).contains(&l.per_shard_overhead_ms), "{}", l.per_shard_overhead_ms);
        // (and its tests' 2 ms)
        assert!((3370..=3376).contains(&(l.per_shard_overhead_ms + l.costs.per_worker_ms + 1284 + 1497)), "{l:?}");
    }

    #[test]
    fn a_lane_that_goes_to_another_project_starts_a_worker_for_it() {
        // Playwright, two projects (environments), two workers. Worker 0: a1, a2 of `app`, 1 s
        // gap, then c1, c2 of `admin`; worker 1: b1, b2 of `app`, 1.2 s gap, then d1 of `admin`.
        // The gaps at the switches are a new worker's start each (a worker runs one project's
        // tests), not the cost of the file after them
        let r = view(
            r#"{"category":"playwright","duration":9000,"environments":[{"name":"app"},{"name":"admin"}],"suites":[
            {"type":"file","title":"a.spec.ts","tests":[
              {"title":"a1","attempts":[{"startTimestamp":1000,"duration":500,"parallelIndex":0}]},
              {"title":"a2","attempts":[{"startTimestamp":1600,"duration":500,"parallelIndex":0}]}]},
            {"type":"file","title":"b.spec.ts","tests":[
              {"title":"b1","attempts":[{"startTimestamp":1000,"duration":500,"parallelIndex":1}]},
              {"title":"b2","attempts":[{"startTimestamp":1600,"duration":500,"parallelIndex":1}]}]},
            {"type":"file","title":"c.spec.ts","tests":[
              {"title":"c1","attempts":[{"environmentIdx":1,"startTimestamp":3100,"duration":500,"parallelIndex":0}]},
              {"title":"c2","attempts":[{"environmentIdx":1,"startTimestamp":3700,"duration":500,"parallelIndex":0}]}]},
            {"type":"file","title":"d.spec.ts","tests":[
              {"title":"d1","attempts":[{"environmentIdx":1,"startTimestamp":3300,"duration":900,"parallelIndex":1}]}]}]}"#,
        );
        let (files, switches, starts, _) = timeline_costs(&r.attempts_with_files());
        assert_eq!(switches, [vec![1000.0], vec![1200.0]]);
        // lane 1's switch at 3.3 s: lane 0 still worked (c1 running); lane 0's at 3.1 s: lane 1
        // had ended (2.1 s) and starts another environment next, a barrier from lane 0's own end
        assert_eq!(starts, [1000.0, 1200.0]);
        assert_eq!(files, [("a.spec.ts", 100.0), ("b.spec.ts", 100.0), ("c.spec.ts", 100.0), ("d.spec.ts", 0.0)].into());
        let l = learn(&r);
        assert_eq!(l.costs.per_worker_ms, 1100, "a worker's start: the switches' mean");
        // the busy span (1 s to 4.2 s) less the lanes' switches (1.1 s) is what the model fits
        // the files to; the fixed cost is the wall outside the busy span and the first start
        assert!(l.costs.files.values().all(|&v| v <= 150), "{:?}", l.costs.files);
        assert_eq!(l.per_shard_overhead_ms, 9000 - (4200 - 1000) - 1100 - l.costs.files["a.spec.ts"]);
    }

    #[test]
    fn a_stall_of_the_whole_run_is_no_files_cost() {
        // Playwright, one project, two workers, both idle from 2.2 s to 33 s (a first run on a new
        // machine held up): the gaps before a3 and b3 are not their files' loads
        let run = |lanes: &[usize]| {
            let at = |lane: usize, t: &str, start: u64| format!(r#"{{"title":"{t}","attempts":[{{"startTimestamp":{start},"duration":500,"parallelIndex":{lane}}}]}}"#);
            let mut files = Vec::new();
            if lanes.contains(&0) {
                files.push(format!(r#"{{"type":"file","title":"a.spec.ts","tests":[{},{},{}]}}"#, at(0, "a1", 1000), at(0, "a2", 1600), at(0, "a3", 33_000)));
            }
            if lanes.contains(&1) {
                files.push(format!(r#"{{"type":"file","title":"b.spec.ts","tests":[{},{},{}]}}"#, at(1, "b1", 1000), at(1, "b2", 1700), at(1, "b3", 34_000)));
            }
            view(&format!(r#"{{"category":"playwright","duration":36000,"environments":[{{"name":"chromium"}}],"suites":[{}]}}"#, files.join(",")))
        };
        let r = run(&[0, 1]);
        let (files, _, _, stalled) = timeline_costs(&r.attempts_with_files());
        assert_eq!(stalled, 30_800.0);
        // a: 100 ms before a2, 100 ms before a3 beyond the stall; b: 200 ms, then 1 s beyond it
        // (a3 ran from 33 s on lane 0 while lane 1 waited)
        assert_eq!(files, [("a.spec.ts", 200.0), ("b.spec.ts", 1200.0)].into());
        let l = learn(&r);
        assert!(l.costs.files.values().all(|&v| v <= 1800), "{:?}", l.costs.files);
        // the stall is no shard's fixed cost either: the wall outside the busy span (1 s to 34.5 s)
        assert!(l.per_shard_overhead_ms <= 2500, "{}", l.per_shard_overhead_ms);
        // one lane idle alone is that lane's (a file's load), however long
        let one = run(&[0]);
        let (files, _, _, stalled) = timeline_costs(&one.attempts_with_files());
        assert_eq!(stalled, 0.0);
        assert_eq!(files["a.spec.ts"], 100.0 + 30_900.0);
    }

    /// A Playwright run of three projects on two workers, where a lane's switch to `docs` waited
    /// 4 s for another lane (a setup project's barrier): gaps of 800, 900 and 4,000 ms.
    const SWITCHES_WITH_A_WAIT: &str = r#"{"category":"playwright","duration":12000,"environments":[{"name":"app"},{"name":"admin"},{"name":"docs"}],"suites":[
            {"type":"file","title":"a.spec.ts","tests":[
              {"title":"a1","attempts":[{"startTimestamp":1000,"duration":500,"parallelIndex":0}]}]},
            {"type":"file","title":"b.spec.ts","tests":[
              {"title":"b1","attempts":[{"startTimestamp":1000,"duration":500,"parallelIndex":1}]}]},
            {"type":"file","title":"c.spec.ts","tests":[
              {"title":"c1","attempts":[{"environmentIdx":1,"startTimestamp":2300,"duration":500,"parallelIndex":0}]}]},
            {"type":"file","title":"d.spec.ts","tests":[
              {"title":"d1","attempts":[{"environmentIdx":1,"startTimestamp":2400,"duration":5000,"parallelIndex":1}]}]},
            {"type":"file","title":"e.spec.ts","tests":[
              {"title":"e1","attempts":[{"environmentIdx":2,"startTimestamp":6800,"duration":500,"parallelIndex":0}]}]}]}"#;

    fn switches_with_a_wait() -> ReportView {
        view(SWITCHES_WITH_A_WAIT)
    }

    #[test]
    fn a_workers_start_leaves_out_the_wait_before_a_barrier() {
        // 2 lanes: a setup project (lane 0) beside `public` (lane 1); lane 0 starts `public`'s
        // workers while lane 1 still runs it (3 s, all of it a start); then both wait for the
        // last `public` test (lane 0's, to 11 s) and start `app`: lane 0 1.9 s after it, lane 1
        // 2.5 s after its own last test, 0.5 s of it waiting for lane 0's
        let r = view(
            r#"{"category":"playwright","duration":15000,"environments":[{"name":"setup"},{"name":"public"},{"name":"app"}],"suites":[
            {"type":"file","title":"s.spec.ts","tests":[
              {"title":"login","attempts":[{"startTimestamp":1000,"duration":6000,"parallelIndex":0}]}]},
            {"type":"file","title":"p1.spec.ts","tests":[
              {"title":"p1a","attempts":[{"environmentIdx":1,"startTimestamp":1000,"duration":3000,"parallelIndex":1}]},
              {"title":"p1b","attempts":[{"environmentIdx":1,"startTimestamp":4100,"duration":6400,"parallelIndex":1}]}]},
            {"type":"file","title":"p2.spec.ts","tests":[
              {"title":"p2a","attempts":[{"environmentIdx":1,"startTimestamp":10000,"duration":1000,"parallelIndex":0}]}]},
            {"type":"file","title":"a1.spec.ts","tests":[
              {"title":"a1a","attempts":[{"environmentIdx":2,"startTimestamp":12900,"duration":1100,"parallelIndex":0}]}]},
            {"type":"file","title":"a2.spec.ts","tests":[
              {"title":"a2a","attempts":[{"environmentIdx":2,"startTimestamp":13000,"duration":1000,"parallelIndex":1}]}]}]}"#,
        );
        let (_, switches, starts, _) = timeline_costs(&r.attempts_with_files());
        assert_eq!(switches, [vec![3000.0, 1900.0], vec![2500.0]]);
        assert_eq!(starts, [3000.0, 1900.0, 2000.0]);
        // the median of the starts; of the whole gaps it was 2.5 s
        assert_eq!(learn(&r).costs.per_worker_ms, 2000);
    }

    #[test]
    fn a_workers_start_is_the_median_switch_a_wait_at_a_barrier_is_not_one() {
        let r = switches_with_a_wait();
        let (_, switches, _, _) = timeline_costs(&r.attempts_with_files());
        assert_eq!(switches, [vec![800.0, 4000.0], vec![900.0]]);
        // the mean (1.9 s) would charge every project's workers the wait; the median does not
        assert_eq!(learn(&r).costs.per_worker_ms, 900);
    }

    #[test]
    fn a_record_its_reporter_fitted_is_learned_as_it_stands() {
        // what a reporter records at its run's end (shardCosts of its report: the figures it
        // learned from the workers' timelines, the files' costs fitted) is what a plan from the
        // saved report learns again: fitted once, not again without the timelines
        for json in [SWITCHES_WITH_A_WAIT, r#"{"category":"playwright","duration":6000,"environments":[{"name":"app"},{"name":"admin"}],"suites":[
            {"type":"file","title":"a.spec.ts","tests":[
              {"title":"a1","attempts":[{"startTimestamp":1000,"duration":500,"parallelIndex":0}]},
              {"title":"a2","attempts":[{"startTimestamp":1900,"duration":500,"parallelIndex":0}]}]},
            {"type":"file","title":"c.spec.ts","tests":[
              {"title":"c1","attempts":[{"environmentIdx":1,"startTimestamp":1000,"duration":2500,"parallelIndex":1}]}]}]}"#] {
            let first = learn(&view(json));
            let files: Vec<String> = first.costs.files.iter().map(|(f, ms)| format!(r#"\"{f}\":{ms}"#)).collect();
            let record = format!(
                r#"{{\"runner\":\"playwright\",\"workers\":2,\"perShardMs\":{},\"perWorkerMs\":{},\"perFileMs\":{},\"perTestMs\":{},\"fittedFiles\":{{{}}}}}"#,
                first.per_shard_overhead_ms,
                first.costs.per_worker_ms,
                first.costs.per_file_ms,
                first.costs.per_test_ms,
                files.join(",")
            );
            let saved = json.replacen(r#""suites":"#, &format!(r#""sources":[{{"filePath":".shardwise/costs.json","text":"{record}"}}],"suites":"#), 1);
            let again = learn(&view(&saved));
            assert_eq!(again.costs.files, first.costs.files);
            assert_eq!((again.per_shard_overhead_ms, again.costs.per_worker_ms, again.from_wall), (first.per_shard_overhead_ms, first.costs.per_worker_ms, true));
        }
    }

    #[test]
    fn learns_file_costs_from_the_workers_timelines() {
        // Playwright, two workers; on worker 0: a1 then a2 (20 ms between), on worker 1: b1 then
        // b2 (250 ms between: b's hooks)
        let r = view(
            r#"{"category":"playwright","duration":4000,"environments":[{"name":"chromium"}],"suites":[
            {"type":"file","title":"a.spec.ts","tests":[
              {"title":"a1","attempts":[{"startTimestamp":1000,"duration":500,"parallelIndex":0}]},
              {"title":"a2","attempts":[{"startTimestamp":1520,"duration":500,"parallelIndex":0}]}]},
            {"type":"file","title":"b.spec.ts","tests":[
              {"title":"b1","attempts":[{"startTimestamp":1100,"duration":500,"parallelIndex":1}]},
              {"title":"b2","attempts":[{"startTimestamp":1850,"duration":900,"parallelIndex":1}]}]}]}"#,
        );
        let l = learn(&r);
        assert_eq!(l.workers, Some(2));
        assert_eq!(l.unit, None);
        // the run was busy longer (1750 ms) than the model's split of its tests over two workers
        // (1535 ms: a test of b beside a's): Playwright's gaps are scaled up, at most 1.5x; the
        // fixed cost is what lies outside the busy time (and a's load)
        assert_eq!(l.costs.files, [("a.spec.ts".to_owned(), 30), ("b.spec.ts".to_owned(), 375)].into());
        assert!(l.from_wall);
        assert_eq!(l.per_shard_overhead_ms, 4000 - 1750 - 30);
        // a timings document (no wall): the runner's defaults say the fixed cost
        let doc = view(r#"{"category":"vitest","environments":[{"name":"default"}],"tests":[{"title":"t","attempts":[{"duration":5}]}]}"#);
        let l = learn(&doc);
        assert!(!l.from_wall);
        let (shard, worker, file, test) = profile(Some("vitest")).defaults;
        assert_eq!((l.per_shard_overhead_ms, l.costs.per_worker_ms, l.costs.per_file_ms, l.costs.per_test_ms), (shard, worker, file, test));
        assert_eq!(l.source, "vitest defaults");
        // node:test: its defaults, by file
        let doc = view(r#"{"category":"node-test","environments":[{"name":"node"}],"tests":[{"title":"t","attempts":[{"duration":5}]}]}"#);
        let l = learn(&doc);
        assert_eq!(l.unit, Some(UnitKind::File));
        let (shard, worker, file, test) = profile(Some("node-test")).defaults;
        assert_eq!((l.per_shard_overhead_ms, l.costs.per_worker_ms, l.costs.per_file_ms, l.costs.per_test_ms), (shard, worker, file, test));
        assert_eq!(l.source, "node-test defaults");
    }

    #[test]
    fn a_shard_of_few_files_pays_less_of_the_cold_cost() {
        let cold = ColdOf::new(5000);
        assert_eq!((cold.of(0), cold.of(1), cold.of(2), cold.of(5)), (0, 1000, 1800, 3362));
        assert_eq!((cold.of(40), cold.of(60), cold.of(10_000)), (4999, 5000, 5000));
        assert_eq!(ColdOf::new(0).of(30), 0);
        // the table is `1 − r^groups` of the cold cost, for every count and cost
        for ms in [1, 999, 5000, 123_457, MAX_DURATION_MS] {
            let cold = ColdOf::new(ms);
            for g in 0..=250 {
                assert_eq!(cold.of(g), (ms as f64 * cold_share(g)).round() as u64, "{ms} ms, {g} groups");
            }
        }

        // Jest, two workers, four shards: one file with a 6 s test and 40 files of 1 s; a shard
        // pays 4 s of cold transforms at full. The slow file's shard, of 7 files, pays 3.2 s of it
        // and its prediction says so (with a cold cost whatever the files, every shard 11.5 s)
        let mut units = vec![unit("slow", "slow.test.js", 6000.0)];
        for f in 0..40 {
            units.push(unit(&format!("t{f}"), &format!("f{f:02}.test.js"), 1000.0));
        }
        let mut s = Settings { unit: UnitKind::File, workers: 2, per_shard_overhead_ms: 1000, ..Settings::new(4) };
        s.costs = Costs { per_worker_ms: 500, cold_ms: 4000, ..Costs::default() };
        let p = plan_units(&units, &s).unwrap();
        let slow = p.shards.iter().find(|sh| sh.units.iter().any(|u| u == "slow")).unwrap();
        assert!(p.shards.iter().all(|sh| sh.index == slow.index || sh.predicted_ms > slow.predicted_ms), "{:?}", p.shards);
        for sh in &p.shards {
            // fixed costs + the makespan of its files over two workers + its cold cost
            let n = sh.files.len();
            let makespan = if sh.units.iter().any(|u| u == "slow") { 6000u64.max((n as u64 - 1).div_ceil(2) * 1000) } else { (n as u64).div_ceil(2) * 1000 };
            assert_eq!(sh.predicted_ms, 1500 + makespan + ColdOf::new(4000).of(n), "{sh:?}");
        }
        assert!(p.makespan_ms < 11_500, "{}", p.makespan_ms);
    }

    #[test]
    fn fit_is_least_squares_and_never_negative() {
        let (a, b) = fit(&[(1.0, 110.0), (3.0, 130.0), (5.0, 150.0)]);
        assert!((a - 100.0).abs() < 1e-9 && (b - 10.0).abs() < 1e-9);
        assert_eq!(fit(&[(2.0, 50.0), (2.0, 70.0)]), (60.0, 0.0));
        // falling with more tests: noise, the mean
        assert_eq!(fit(&[(1.0, 300.0), (10.0, 100.0)]), (200.0, 0.0));
        assert_eq!(fit(&[]), (0.0, 0.0));
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Files kept whole, one worker: each shard's prediction is exactly its fixed costs, its
        /// cold cost for its number of files, its tests' durations and its files' costs (measured,
        /// else per file and per test), whatever the sizes; every unit is on one shard; and costs
        /// of 0 are the plan without costs.
        #[test]
        fn a_shard_pays_exactly_its_tests_and_its_files(
            sizes in proptest::collection::vec((0usize..12, 1u64..5000), 1..60),
            measured in proptest::collection::vec(0u64..3000, 0..20),
            shards in 1u32..7,
            fixed in 0u64..3000,
            (per_worker, per_file, per_test) in (0u64..2000, 0u64..500, 0u64..50),
            cold_ms in prop_oneof![Just(0u64), 1u64..20_000],
        ) {
            let units: Vec<Unit> = sizes.iter().enumerate().map(|(i, &(f, ms))| unit(&format!("t{i}"), &format!("d/f{f}.ts"), ms as f64)).collect();
            let files: BTreeMap<String, u64> = measured.iter().enumerate().map(|(f, &ms)| (format!("d/f{f}.ts"), ms)).collect();
            let mut s = Settings { unit: UnitKind::File, per_shard_overhead_ms: fixed, ..Settings::new(shards) };
            let plain = plan_units(&units, &s).unwrap();
            s.costs = Costs::default();
            prop_assert_eq!(&plan_units(&units, &s).unwrap(), &plain);
            s.costs = Costs { per_worker_ms: per_worker, cold_ms, per_file_ms: per_file, per_test_ms: per_test, files: files.clone(), starts: Vec::new(), order: Order::Longest, modules: Vec::new(), module_ms: BTreeMap::new(), served_ms: 0 };
            let cold = ColdOf::new(cold_ms);
            let p = plan_units(&units, &s).unwrap();
            let mut seen = 0;
            for shard in &p.shards {
                seen += shard.units.len();
                if shard.units.is_empty() {
                    prop_assert_eq!(shard.predicted_ms, 0);
                    continue;
                }
                let bodies: u64 = units.iter().filter(|u| shard.units.iter().any(|id| *id == u.id)).map(|u| u.duration_ms.unwrap() as u64).sum();
                let file_costs: u64 = shard.files.iter().map(|f| {
                    let n = units.iter().filter(|u| u.file.as_deref() == Some(f.as_str())).count() as u64;
                    files.get(f).copied().unwrap_or(per_file + per_test * n)
                }).sum();
                // one worker, files whole: a group is a file
                prop_assert_eq!(shard.predicted_ms, fixed + per_worker + bodies + file_costs + cold.of(shard.files.len()));
            }
            prop_assert_eq!(seen, units.len());
        }
    }
}
