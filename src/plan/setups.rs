//! Setup and teardown projects (Playwright's `dependencies` and `teardown`): tests the runner runs
//! on every shard that holds a test needing them, outside the plan. They are not assigned; what
//! they cost decides where their dependents go.
//!
//! A shard runs in phases, as Playwright does (its runner's phases: a project starts once every
//! project it depends on has finished, on that shard): phase 0 holds the setups of level 0 and
//! the groups that need no setup; phase `l + 1` the groups whose deepest setup is of level `l`
//! (and the setups of level `l + 1`). Each phase waits for the one before, so a shard's time is
//! the sum over its phases of `max(ceil(sum / workers), largest)` (the makespan over workers when
//! predicted), plus its teardowns (run alone after the rest), plus its cold cost. A shard that
//! holds no dependent of a setup does not run it. A start cost (a Playwright project's workers)
//! is work of the phase of the groups that need it, once on each worker that runs one of them.
//!
//! The assignment ([`assign`]) is LPT by that cost (each group, heaviest first, onto the shard
//! whose cost after taking it is least: a dependent goes where its setup is already paid unless
//! the imbalance is worth a setup more), then moves and swaps off the heaviest shard while they
//! lower it, bounded by counts as in [`super::assign`]. The plan that ignores the setups (what a
//! user gets without them), improved the same way, is kept instead when it is predicted to end
//! sooner: the plan that knows the setups is never worse than the one that does not.

use serde::{Deserialize, Serialize};

use super::assign::{cost, heaviest, lpt_order, over_workers, settle, Assignment, Bin, MAX_EVALUATIONS, MAX_IMPROVEMENT_STEPS, SWAP_TARGETS};
use super::cost::{ms_of, ColdOf, Module, Start};
use super::options::{whole, Settings};
use super::units::Canon;
use crate::error::{Error, Result};

/// Most setups one plan takes (a bit each in a group's mask).
pub const MAX_SETUPS: usize = 64;
/// Deepest setup level (a chain of setups each needing the one before).
pub const MAX_SETUP_LEVEL: u32 = 8;

/// One entry of `planShards`' `setups` option, as given.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetupInput {
    pub id: String,
    /// What the setup takes on a shard that runs it (its tests' time); default 0.
    pub duration_ms: Option<f64>,
    /// The ids of the units that need it (units not planned are ignored).
    pub units: Vec<String>,
    /// 0 for a setup that needs no other, else one more than the deepest setup it needs.
    pub level: Option<f64>,
    /// A teardown: run after the shard's other tests, alone.
    pub teardown: Option<bool>,
}

/// A checked setup. In the fingerprint's header (without its units, which the per-unit words
/// carry).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Setup {
    pub id: String,
    pub duration_ms: u64,
    pub level: u32,
    pub teardown: bool,
    #[serde(skip)]
    pub units: Vec<String>,
}

/// Checks `setups` (their ids and units moved, not copied), sorted by id (so their order in the
/// input does not matter).
pub(super) fn check(input: Vec<SetupInput>) -> Result<Vec<Setup>> {
    if input.len() > MAX_SETUPS {
        return Err(Error::invalid_input(format!("setups: at most {MAX_SETUPS} setups, got {}", input.len())));
    }
    let mut out = Vec::with_capacity(input.len());
    for (i, s) in input.into_iter().enumerate() {
        if s.id.is_empty() {
            return Err(Error::invalid_input(format!("setups[{i}].id must be a non-empty string")));
        }
        let duration_ms = ms_of(s.duration_ms, &format!("setups[{i}].durationMs"))?;
        let level = whole(s.level, &format!("setups[{i}].level"), 0, 0, MAX_SETUP_LEVEL as u64)? as u32;
        out.push(Setup { id: s.id, duration_ms, level, teardown: s.teardown.unwrap_or(false), units: s.units });
    }
    if let Some(twice) = by_id(&mut out, |s| s.id.as_str()) {
        return Err(Error::invalid_input(format!("setups: the id {twice:?} is given twice")));
    }
    Ok(out)
}

/// Sorts setups or start costs by their id, by insertion (at most 64: no sort of its own in the
/// .wasm); returns an id given twice, if any.
pub(super) fn by_id<T>(items: &mut [T], id: fn(&T) -> &str) -> Option<String> {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && id(&items[j - 1]) > id(&items[j]) {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
    items.windows(2).find(|w| id(&w[0]) == id(&w[1])).map(|w| id(&w[0]).to_owned())
}

/// Per canonical unit, the setups it needs (bit `k`: `setups[k]`), then the start costs (bit
/// `setups.len() + k`: `starts[k]`, by their files or units), then the modules it loads (bit
/// `setups.len() + starts.len() + k`: `modules[k]`, by their files); empty without any.
pub(super) fn unit_masks(canon: &Canon, setups: &[Setup], starts: &[Start], modules: &[Module]) -> Vec<u64> {
    if setups.is_empty() && starts.is_empty() && modules.is_empty() {
        return Vec::new();
    }
    let mut mask = vec![0u64; canon.units.len()];
    let by_units = setups.iter().map(|s| &s.units).chain(starts.iter().map(|s| &s.units));
    // a start's or module's files: per canonical file (they are in name order), their bits
    let mut file_mask = vec![0u64; canon.files.len()];
    let by_files = starts.iter().map(|s| &s.files).chain(modules.iter().map(|m| &m.files));
    for (k, files) in by_files.enumerate().take(MAX_SETUPS.saturating_sub(setups.len())) {
        for f in files {
            if let Ok(i) = canon.files.binary_search(&f.as_str()) {
                file_mask[i] |= 1 << (setups.len() + k);
            }
        }
    }
    for (m, u) in mask.iter_mut().zip(&canon.units) {
        if u.file != super::units::NONE {
            *m |= file_mask[u.file as usize];
        }
    }
    // canonical order is the ids' hash order: a search by hash finds a unit (the id confirms it)
    for (k, ids) in by_units.enumerate().take(MAX_SETUPS) {
        for id in ids {
            let h = super::fingerprint::hash128(id.as_bytes());
            let from = canon.id_hashes.partition_point(|x| *x < h);
            for c in from..canon.id_hashes.len() {
                if canon.id_hashes[c] != h {
                    break;
                }
                if canon.input_ids[canon.order[c] as usize] == id.as_str() {
                    mask[c] |= 1 << k;
                }
            }
        }
    }
    mask
}

/// Whether `mask` ([`unit_masks`]) loads module `k` of the charged modules, whose bits follow the
/// `first` bits of the setups and start costs (a module past the mask's 64 bits is not charged).
fn loads_module(mask: u64, first: usize, k: usize) -> bool {
    first + k < MAX_SETUPS && mask >> (first + k) & 1 == 1
}

/// Per charged module, what one worker pays to load it ([`super::cost::Costs::module_ms`]: a shard
/// of every file pays `coldMs` of wall for them all), and the one group that
/// loads it where only one does: a module only one file loads is transformed for that file
/// wherever it goes, on its worker, while that file waits (Vitest's main process transforms it
/// as the file imports it), so it is part of that file's weight, not work another worker can
/// take (date-fns's `fp` build: 1.9 s of transforms for one file, which as work of its own the
/// model spread beside the file on the shard's other worker, and the file's shard took 1.25x
/// its prediction), and one worker pays it, not each of the shard's (that file alone on a shard
/// was predicted 9.3 s for its 2 workers' share, and took 5.1-6.8 s). `None` without charged
/// modules.
/// With `K` of [`super::cost::Costs::module_ms`].
fn module_work(group_masks: &[u64], s: &Settings) -> Option<(Vec<(u64, Option<usize>)>, f64)> {
    let first = s.setups.len() + s.costs.starts.len();
    // per charged module, how many groups load it and the last that does (its owner where it is
    // the only one): one pass over the groups' bits
    let n = s.costs.charged_modules().len();
    let (mut loaders, mut last) = (vec![0u32; n], vec![0usize; n]);
    for (g, &m) in group_masks.iter().enumerate() {
        for k in 0..n {
            if loads_module(m, first, k) {
                loaders[k] += 1;
                last[k] = g;
            }
        }
    }
    let (modules, k) = s.costs.module_ms(s.workers, &loaders)?;
    Some((modules.into_iter().zip(loaders.iter().zip(last)).map(|(ms, (&l, g))| (ms, (l == 1).then_some(g))).collect(), k))
}

/// The groups' weights with the modules only one group loads ([`module_work`]): what the phases
/// model plans and predicts with.
pub(super) fn with_owned_modules(weights: &[u64], group_masks: &[u64], s: &Settings) -> Vec<u64> {
    let owned = owned_of(module_work(group_masks, s).as_ref().map(|(m, _)| m.as_slice()), weights.len());
    weights.iter().enumerate().map(|(g, &w)| w.saturating_add(owned.get(g).copied().unwrap_or(0))).collect()
}

/// Per group (of `groups`), the modules' charges ([`module_work`]) that only it loads: what its
/// weight carries. Empty without charged modules.
fn owned_of(modules: Option<&[(u64, Option<usize>)]>, groups: usize) -> Vec<u64> {
    let Some(modules) = modules else { return Vec::new() };
    let mut owned = vec![0u64; groups];
    for &(ms, owner) in modules {
        if let Some(g) = owner {
            owned[g] = owned[g].saturating_add(ms);
        }
    }
    owned
}

/// The heaviest of the phase-0 groups' floors (`weights`, with the modules only one group loads,
/// and [`Model::floor_extra`]): no shard holding it takes less; 0 without charged modules.
pub(super) fn largest_floor(weights: &[u64], group_masks: Vec<u64>, setups: &[Setup], starts: &[Start], s: &Settings) -> u64 {
    let m = Model::new(group_masks, setups, starts, s);
    weights.iter().enumerate().filter_map(|(g, &w)| m.floor_of(w, g).map(|f| m.lone_of(w, g).map_or(f, |l| l.min(f)))).max().unwrap_or(0)
}

/// Per shard (`loaded`: the masks of its units, [`unit_masks`], together), of the charged
/// modules' bytes that some shard loads, the share its files load, in thousandths (rounded);
/// `None` without charged modules or where no planned file loads one.
pub(super) fn module_shares(s: &Settings, loaded: &[u64]) -> Option<Vec<u32>> {
    let first = s.setups.len() + s.costs.starts.len();
    let modules = s.costs.charged_modules();
    let bytes = |mask: u64| -> f64 {
        modules.iter().enumerate().filter(|&(k, _)| loads_module(mask, first, k)).map(|(_, m)| m.bytes as f64).sum()
    };
    let total = bytes(loaded.iter().fold(0, |a, m| a | m));
    (total > 0.0).then(|| loaded.iter().map(|&m| (1000.0 * bytes(m) / total).round() as u32).collect())
}

/// The phases model of the module doc.
struct Model {
    workers: u64,
    cold: ColdOf,
    /// Per group, its setups and its phase.
    masks: Vec<u64>,
    phase_of_group: Vec<usize>,
    /// Per setup: `(phase, ms)`, or `(SERIAL, ms)` for a teardown (paid once by a shard that
    /// needs it, outside its phases); then per start cost `(LANES | phase, ms)`: paid in the phase
    /// of the groups that need it by each worker that runs one of them, as its work ([`lanes`]);
    /// then per module `(WORK, ms)`: `ms` paid by each worker of a shard that runs a group
    /// loading it, up to its workers, as work of phase 0 (one group's: on its worker).
    setups: Vec<(usize, u64)>,
    phases: usize,
    /// Per group, what its worker pays for the charged modules it loads beyond those its weight
    /// carries (only it loads them): a worker that runs it loads them all, so a phase-0 group's
    /// weight and these are a floor under the shard's first phase. Empty without charged modules.
    floor_extra: Vec<u64>,
    /// Per group, the charged modules its weight carries (only it loads them,
    /// [`with_owned_modules`]); empty without charged modules.
    owned: Vec<u64>,
    /// With modules a main process transforms for every worker ([`super::cost::Costs::served_ms`]),
    /// and no setups or start costs: what a shard of one group pays of each ms charged for its
    /// modules (`K` of [`super::cost::Costs::module_ms`]), its worker the only one asking for them.
    lone: Option<f64>,
}

/// The phase of what a shard pays once, alone: a teardown.
const SERIAL: usize = usize::MAX;
/// The mark of a start cost's phase: paid by each worker that runs a group needing it ([`lanes`]).
const LANES: usize = 1 << 16;
const _: () = assert!(MAX_SETUP_LEVEL as usize + 2 < LANES, "a phase's index holds no LANES bit");

/// The phase of a start cost's entry (`LANES | phase`), or `None` for a setup's, a teardown's or a
/// module's (`SERIAL` and `WORK` have every bit, `LANES`'s among them).
fn start_phase(p: usize) -> Option<usize> {
    (p != SERIAL && p != WORK && p & LANES != 0).then_some(p & !LANES)
}

/// How many of a shard's `workers` pay a start cost that `n` of its groups need: one each, up to
/// the workers (a Playwright project's workers start side by side, one a lane that runs its
/// tests; a Jest worker loads a test environment once). As work of the phase, beside its groups:
/// charged once serially, each project of a shard added a whole start to its time, where its
/// lanes start them beside each other's work (the setup suite of `npm run bench:peer-playwright`:
/// shards of three projects took 0.79-0.93 of their predictions, the rest of their time 9-12 s
/// against 15-18 s predicted).
fn lanes(n: u32, workers: u64) -> u64 {
    u64::from(n).min(workers.max(1))
}
/// The phase of what a shard pays once as work beside its first phase's groups, barrier to none:
/// a module's transform.
const WORK: usize = usize::MAX - 1;

/// A shard being built: its groups by phase, and how many of them need each setup.
#[derive(Clone)]
struct SBin {
    phases: Vec<Bin>,
    needs: Vec<u32>,
    groups: usize,
    sum: u64,
    /// Its phase-0 groups' floors ([`Model::floor_of`]), ascending.
    floors: Vec<u64>,
}

/// A change to one shard: a group in (`weight`, `group`), or the group at `pos` of `phase` out.
#[derive(Clone, Copy)]
enum Delta {
    None,
    Add(u64, usize),
    Remove(usize, usize),
    /// The group at `pos` of `phase` out, `(weight, group)` in.
    Swap(usize, usize, u64, usize),
}

impl Model {
    fn new(group_masks: Vec<u64>, setups: &[Setup], starts: &[Start], s: &Settings) -> Model {
        let phase_of_setup = |st: &Setup| if st.teardown { SERIAL } else { st.level as usize };
        let phase_of_group: Vec<usize> = group_masks
            .iter()
            .map(|&m| {
                let mut p = 0;
                for (k, st) in setups.iter().enumerate() {
                    if m >> k & 1 == 1 && !st.teardown {
                        p = p.max(st.level as usize + 1);
                    }
                }
                p
            })
            .collect();
        let mut setups_p: Vec<(usize, u64)> = setups.iter().map(|st| (phase_of_setup(st), st.duration_ms)).collect();
        // a start cost is paid in the phase of the groups that need it (the first, where they
        // span several)
        let first = setups.len();
        setups_p.extend(starts.iter().enumerate().map(|(k, st)| {
            let phase = group_masks.iter().zip(&phase_of_group).filter(|(&m, _)| first + k < MAX_SETUPS && m >> (first + k) & 1 == 1).map(|(_, &p)| p).min().unwrap_or(0);
            (LANES | phase, st.duration_ms)
        }));
        // the modules, by the bits after the setups' and starts': work of the shard, but for those
        // one group loads, which its weight carries ([`with_owned_modules`])
        let modules = module_work(&group_masks, s);
        let first = setups_p.len();
        setups_p.extend(modules.iter().flat_map(|(m, _)| m).map(|&(ms, owner)| (WORK, if owner.is_some() { 0 } else { ms })));
        setups_p.truncate(MAX_SETUPS);
        let floor_extra = match &modules {
            Some(_) => group_masks
                .iter()
                .map(|&m| (first..setups_p.len()).filter(|&k| m >> k & 1 == 1).map(|k| setups_p[k].1).sum())
                .collect(),
            None => Vec::new(),
        };
        let owned = owned_of(modules.as_ref().map(|(m, _)| m.as_slice()), group_masks.len());
        let lone = modules.as_ref().filter(|(_, k)| s.costs.served_ms > 0 && setups.is_empty() && starts.is_empty() && *k > 0.0).map(|(_, k)| 1.0 / (1000.0 * k));
        let phases = 1 + setups.iter().filter(|st| !st.teardown).map(|st| st.level as usize + 1).max().unwrap_or(0);
        Model {
            workers: s.workers as u64,
            cold: if modules.is_some() { ColdOf::new(0) } else { ColdOf::new(s.costs.cold_ms) },
            masks: group_masks,
            phase_of_group,
            setups: setups_p,
            phases,
            floor_extra,
            owned,
            lone,
        }
    }

    /// A shard's cost while group `g` (of weight `w`) is all it holds, where its worker waits for
    /// its modules alone ([`Model::lone`]): its weight without the modules it carries, and all the
    /// modules it loads at what they take alone. `None` where the model has no such shard.
    fn lone_of(&self, w: u64, g: usize) -> Option<u64> {
        let f = self.lone?;
        let (owned, extra) = (self.owned.get(g).copied()?, self.floor_extra.get(g).copied()?);
        Some(w.saturating_sub(owned).saturating_add((owned.saturating_add(extra) as f64 * f).round() as u64))
    }

    fn empty(&self) -> SBin {
        SBin { phases: vec![Bin::default(); self.phases], needs: vec![0; self.setups.len()], groups: 0, sum: 0, floors: Vec::new() }
    }

    /// A phase-0 group's floor ([`Model::floor_extra`]), or `None` (another phase, or no charged
    /// modules).
    fn floor_of(&self, w: u64, g: usize) -> Option<u64> {
        (self.phase_of_group[g] == 0).then(|| self.floor_extra.get(g).map(|&e| w.saturating_add(e))).flatten()
    }

    /// The shard's cost after `d` (the planning cost: per phase `max(ceil(sum / workers), largest)`).
    fn cost_after(&self, b: &SBin, d: Delta) -> u64 {
        let (add, out) = match d {
            Delta::None => (None, None),
            Delta::Add(w, g) => (Some((w, g)), None),
            Delta::Remove(p, pos) => (None, Some((p, pos))),
            Delta::Swap(p, pos, w, g) => (Some((w, g)), Some((p, pos))),
        };
        let groups = b.groups + add.is_some() as usize - out.is_some() as usize;
        if groups == 1 && self.lone.is_some() {
            // the one group left: the added one, else the one of the shard's (one or two) not
            // taken out (no setups, so nothing serial)
            let items = &b.phases[0].items;
            let sole = add.or_else(|| items.iter().enumerate().find(|&(i, _)| out.map_or(true, |(_, pos)| pos != i)).map(|(_, &it)| it));
            if let Some(l) = sole.and_then(|(w, g)| self.lone_of(w, g)) {
                return l + self.cold.of(1);
            }
        }
        let out_group = out.map(|(p, pos)| (p, pos, b.phases[p].items[pos]));
        // how many of its groups need each setup after the change, and the setups it runs
        let count = |k: usize| {
            let mut n = i64::from(b.needs[k]);
            if let Some((_, _, (_, g))) = out_group {
                n -= (self.masks[g] >> k & 1) as i64;
            }
            if let Some((_, g)) = add {
                n += (self.masks[g] >> k & 1) as i64;
            }
            n.max(0) as u32
        };
        let mut needed = 0u64;
        for k in 0..b.needs.len() {
            if count(k) > 0 {
                needed |= 1 << k;
            }
        }
        let mut sums = [0u64; MAX_SETUP_LEVEL as usize + 2];
        let mut largest = [0u64; MAX_SETUP_LEVEL as usize + 2];
        for (p, bin) in b.phases.iter().enumerate() {
            match out_group {
                Some((op, pos, (w, _))) if op == p => {
                    sums[p] = bin.sum - w;
                    largest[p] = bin.largest_without(pos);
                }
                _ => {
                    sums[p] = bin.sum;
                    largest[p] = bin.largest();
                }
            }
        }
        if let Some((w, g)) = add {
            let p = self.phase_of_group[g];
            sums[p] += w;
            largest[p] = largest[p].max(w);
        }
        let mut serial = 0u64;
        for (k, &(p, ms)) in self.setups.iter().enumerate() {
            if needed >> k & 1 == 0 {
                continue;
            }
            if p == SERIAL {
                serial += ms;
            } else if p == WORK {
                sums[0] += lanes(count(k), self.workers) * ms;
            } else if let Some(p) = start_phase(p) {
                sums[p] += lanes(count(k), self.workers) * ms;
            } else {
                sums[p] += ms;
                largest[p] = largest[p].max(ms);
            }
        }
        // the first phase's floor: its heaviest group with the modules its worker loads
        let added = add.and_then(|(w, g)| self.floor_of(w, g));
        if !b.floors.is_empty() || added.is_some() {
            let n = b.floors.len();
            let gone = out_group.and_then(|(_, _, (w, g))| self.floor_of(w, g));
            let kept = match (gone, b.floors.last()) {
                (Some(f), Some(&top)) if f == top => if n >= 2 { b.floors[n - 2] } else { 0 },
                (_, top) => top.copied().unwrap_or(0),
            };
            largest[0] = largest[0].max(kept).max(added.unwrap_or(0));
        }
        if groups == 0 {
            return 0;
        }
        let phases: u64 = (0..self.phases).map(|p| cost(sums[p], largest[p], self.workers)).sum();
        phases + serial + self.cold.of(groups)
    }

    fn apply(&self, b: &mut SBin, d: Delta) {
        let take_out = |b: &mut SBin, p: usize, pos: usize| {
            let (w, g) = b.phases[p].remove(pos);
            for (k, n) in b.needs.iter_mut().enumerate() {
                *n -= (self.masks[g] >> k & 1) as u32;
            }
            b.groups -= 1;
            b.sum -= w;
            if let Some(f) = self.floor_of(w, g) {
                let at = b.floors.partition_point(|x| *x < f);
                b.floors.remove(at);
            }
            (w, g)
        };
        let put_in = |b: &mut SBin, w: u64, g: usize| {
            b.phases[self.phase_of_group[g]].insert((w, g));
            for (k, n) in b.needs.iter_mut().enumerate() {
                *n += (self.masks[g] >> k & 1) as u32;
            }
            b.groups += 1;
            b.sum += w;
            if let Some(f) = self.floor_of(w, g) {
                let at = b.floors.partition_point(|x| *x < f);
                b.floors.insert(at, f);
            }
        };
        match d {
            Delta::None => {}
            Delta::Add(w, g) => put_in(b, w, g),
            Delta::Remove(p, pos) => {
                take_out(b, p, pos);
            }
            Delta::Swap(p, pos, w, g) => {
                take_out(b, p, pos);
                put_in(b, w, g);
            }
        }
    }

    /// The shard's predicted time: per phase the makespan over the workers (longest first), its
    /// teardowns, its cold cost.
    fn predicted(&self, b: &SBin) -> u64 {
        if b.groups == 0 {
            return 0;
        }
        if b.groups == 1 {
            if let Some(l) = b.phases[0].items.first().and_then(|&(w, g)| self.lone_of(w, g)) {
                return l + self.cold.of(1);
            }
        }
        let mut total = 0u64;
        for (p, bin) in b.phases.iter().enumerate() {
            let mut with = bin.clone();
            for (k, &(sp, ms)) in self.setups.iter().enumerate() {
                if b.needs[k] > 0 && start_phase(sp) == Some(p) {
                    // a start: once on each worker that runs a group needing it, before the first
                    // of them; longest first gives the heaviest of them a worker each, so it is
                    // theirs (a worker's start on its own beside them where they are in a later
                    // phase)
                    let n = lanes(b.needs[k], self.workers) as usize;
                    let at: Vec<usize> = (0..with.items.len()).rev().filter(|&i| with.items[i].1 < self.masks.len() && self.masks[with.items[i].1] >> k & 1 == 1).take(n).collect();
                    let heaviest: Vec<(u64, usize)> = at.iter().map(|&i| with.remove(i)).collect();
                    for &(w, g) in &heaviest {
                        with.insert((w.saturating_add(ms), g));
                    }
                    for _ in heaviest.len()..n {
                        with.insert((ms, usize::MAX - k));
                    }
                    continue;
                }
                if !((sp == p || (sp == WORK && p == 0)) && b.needs[k] > 0) {
                    continue;
                }
                // a module one group of the shard loads: transformed for that group, on its
                // worker, while it waits (date-fns's `fp` file alone on a shard: the library's
                // modules, which other shards' files load too, as work beside it the model put on
                // the shard's idle worker)
                let owner = (sp == WORK && b.needs[k] == 1).then(|| with.items.iter().position(|&(_, g)| g < self.masks.len() && self.masks[g] >> k & 1 == 1)).flatten();
                match owner {
                    Some(pos) => {
                        let (w, g) = with.remove(pos);
                        with.insert((w.saturating_add(ms), g));
                    }
                    // one worker's load of it on each worker that loads it: as one item of all
                    // their loads it went on one worker (a module every file of a 2-worker shard
                    // loads, 3 s a worker: 6 s on one of them, the shard predicted 1 s over)
                    None if sp == WORK => {
                        for _ in 0..lanes(b.needs[k], self.workers) {
                            with.insert((ms, usize::MAX - k));
                        }
                    }
                    None => with.insert((ms, usize::MAX - k)),
                }
            }
            let floor = if p == 0 { b.floors.last().copied().unwrap_or(0) } else { 0 };
            total += over_workers(&with.items, with.sum, self.workers).max(floor);
        }
        for (k, &(sp, ms)) in self.setups.iter().enumerate() {
            if sp == SERIAL && b.needs[k] > 0 {
                total += ms;
            }
        }
        total + self.cold.of(b.groups)
    }
}

/// Assigns the groups (`weights[id]`, each needing the setups of `group_masks[id]`) to
/// `s.shard_count` shards with the phases model of the module doc.
///
/// Of LPT by the model (improved), the groups of each kind kept together ([`consecutive`],
/// improved), each kind that needs a setup on shards of its own with the others spread beside
/// them ([`kinds_apart`], improved), the plan that ignores the setups (improved, and as it was),
/// the one with the lowest predicted makespan (ties: the first). A greedy start by the model can
/// gather dependents early and be left with heavy groups that fit nowhere.
pub(super) fn assign(weights: &[u64], group_masks: Vec<u64>, setups: &[Setup], starts: &[Start], s: &Settings) -> Assignment {
    let m = Model::new(group_masks, setups, starts, s);
    let mut by_model: Vec<SBin> = (0..s.shard_count).map(|_| m.empty()).collect();
    for (w, g) in lpt_order(weights) {
        onto_least(&m, &mut by_model, w, g);
    }
    improve(&m, &mut by_model);
    let mut together = consecutive(&m, weights, s.shard_count as usize);
    improve(&m, &mut together);
    let mut apart = kinds_apart(&m, weights, s.shard_count as usize, setups.len());
    improve(&m, &mut apart);
    let mut blind_start: Vec<SBin> = (0..s.shard_count).map(|_| m.empty()).collect();
    for (g, &shard) in super::assign::assign(weights, s, None, None).shard_of_group.iter().enumerate() {
        m.apply(&mut blind_start[shard as usize], Delta::Add(weights[g], g));
    }
    let mut blind = blind_start.clone();
    // the improvement lowers the planning cost, which may (rarely) raise the predicted one
    improve(&m, &mut blind);
    // each start with its predicted shard costs, computed once; the first of the lowest makespan kept
    let with_costs = |bins: Vec<SBin>| {
        let costs: Vec<u64> = bins.iter().map(|b| m.predicted(b)).collect();
        (bins, costs)
    };
    let (mut bins, mut costs) = with_costs(by_model);
    for other in [together, apart, blind, blind_start] {
        let (other, other_costs) = with_costs(other);
        if other_costs.iter().max() < costs.iter().max() {
            (bins, costs) = (other, other_costs);
        }
    }
    let mut shard_of_group = vec![0u32; weights.len()];
    for (i, b) in bins.iter().enumerate() {
        for bin in &b.phases {
            for &(_, g) in &bin.items {
                shard_of_group[g] = i as u32;
            }
        }
    }
    Assignment { shard_of_group, costs }
}

/// Per shard, the predicted time of a given assignment of the groups (`shard_of_group`, 0-based)
/// by the phases model: a runner's own split, to set beside the plan.
pub(super) fn costs_of(weights: &[u64], group_masks: Vec<u64>, setups: &[Setup], starts: &[Start], s: &Settings, shard_of_group: &[u32]) -> Vec<u64> {
    let m = Model::new(group_masks, setups, starts, s);
    let mut bins: Vec<SBin> = (0..s.shard_count).map(|_| m.empty()).collect();
    for (w, g) in lpt_order(weights) {
        m.apply(&mut bins[shard_of_group[g] as usize], Delta::Add(w, g));
    }
    bins.iter().map(|b| m.predicted(b)).collect()
}

/// A start that keeps the groups of each kind together: the groups by their setups and start
/// costs (their mask), heaviest first within each, cut into consecutive runs, each the longest
/// whose cost stays within `t`, with the least `t` (by bisection) that fits the shards. LPT
/// spreads a kind's groups over every shard while each is cheaper started afresh: each shard
/// then pays every start (a Playwright shard of three projects starts three sets of workers).
/// The runner's own split is consecutive too, and keeps its projects apart as this does.
fn consecutive(m: &Model, weights: &[u64], shards: usize) -> Vec<SBin> {
    // by mask, heaviest first within each (buckets by the masks' rank: no sort of its own)
    let mut masks: Vec<u64> = m.masks.clone();
    masks.sort_unstable();
    masks.dedup();
    let mut buckets: Vec<Vec<(u64, usize)>> = vec![Vec::new(); masks.len()];
    for (w, g) in lpt_order(weights) {
        if let Ok(r) = masks.binary_search(&m.masks[g]) {
            buckets[r].push((w, g));
        }
    }
    let order: Vec<(u64, usize)> = buckets.concat();
    let fill = |t: u64| -> Option<Vec<SBin>> {
        let mut bins = vec![m.empty()];
        for &(w, g) in &order {
            let last = bins.len() - 1;
            if bins[last].groups > 0 && m.cost_after(&bins[last], Delta::Add(w, g)) > t {
                if bins.len() >= shards {
                    return None;
                }
                bins.push(m.empty());
            }
            let last = bins.len() - 1;
            m.apply(&mut bins[last], Delta::Add(w, g));
        }
        bins.resize(shards.max(1), m.empty());
        Some(bins)
    };
    let mut hi = fill(u64::MAX).map_or(0, |bins| m.cost_after(&bins[0], Delta::None));
    let mut lo = 0u64;
    // about 30 halvings at most (a cost below 2^34 ms); a bound that fits is kept
    for _ in 0..30 {
        if lo >= hi {
            break;
        }
        let mid = lo + (hi - lo) / 2;
        if fill(mid).is_some() {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    fill(hi).unwrap_or_else(|| (0..shards.max(1)).map(|_| m.empty()).collect())
}

/// A start that gives each kind of groups needing a setup (their mask) shards of its own, and
/// spreads the groups needing none beside them: a kind is cut into as many consecutive pieces
/// (heaviest group first, near equal) as its weight needs shards of an even split, the pieces go
/// heaviest first each onto the shard it costs least, then the other groups, heaviest first,
/// likewise (all by the model). So a shard pays one kind's setups and start, and the groups
/// needing no setup fill its first phase beside them: Playwright's `app` and `admin` need a
/// login, `public` none; over 2 shards app + public and admin + public start two projects'
/// workers each, where the kinds cut in a row ([`consecutive`]) leave a shard app + admin, its
/// second worker idle while it logs in. As [`consecutive`] without setups.
fn kinds_apart(m: &Model, weights: &[u64], shards: usize, setups: usize) -> Vec<SBin> {
    let shards = shards.max(1);
    let bits = if setups >= 64 { u64::MAX } else { (1u64 << setups) - 1 };
    let mut masks: Vec<u64> = m.masks.iter().copied().filter(|x| x & bits != 0).collect();
    masks.sort_unstable();
    masks.dedup();
    let order = lpt_order(weights);
    let kind = |g: usize| masks.binary_search(&m.masks[g]).ok();
    let share = (weights.iter().sum::<u64>() / shards as u64).max(1);
    let mut kind_sum = vec![0u64; masks.len()];
    for &(w, g) in &order {
        if let Some(r) = kind(g) {
            kind_sum[r] += w;
        }
    }
    // kind r's pieces are first[r]..first[r + 1]; a group goes to its kind's lightest piece
    let mut first = vec![0usize];
    for &sum in &kind_sum {
        first.push(first[first.len() - 1] + (sum.div_ceil(share) as usize).clamp(1, shards));
    }
    let pieces = first[masks.len()];
    let mut piece_sum = vec![0u64; pieces];
    let mut piece_of = vec![usize::MAX; weights.len()];
    for &(w, g) in &order {
        if let Some(r) = kind(g) {
            let mut lightest = first[r];
            for i in first[r]..first[r + 1] {
                if piece_sum[i] < piece_sum[lightest] {
                    lightest = i;
                }
            }
            piece_sum[lightest] += w;
            piece_of[g] = lightest;
        }
    }
    let mut bins: Vec<SBin> = (0..shards).map(|_| m.empty()).collect();
    // the pieces, heaviest first (ties: the first), each onto the shard it costs least
    let mut placed = vec![false; pieces];
    for _ in 0..pieces {
        let mut p = usize::MAX;
        for i in 0..pieces {
            if !placed[i] && (p == usize::MAX || piece_sum[i] > piece_sum[p]) {
                p = i;
            }
        }
        placed[p] = true;
        let mut best = (u64::MAX, u64::MAX, 0usize);
        for (i, b) in bins.iter().enumerate() {
            let mut with = b.clone();
            for &(w, g) in order.iter().filter(|x| piece_of[x.1] == p) {
                m.apply(&mut with, Delta::Add(w, g));
            }
            best = best.min((m.cost_after(&with, Delta::None), b.sum, i));
        }
        for &(w, g) in order.iter().filter(|x| piece_of[x.1] == p) {
            m.apply(&mut bins[best.2], Delta::Add(w, g));
        }
    }
    for &(w, g) in order.iter().filter(|x| piece_of[x.1] == usize::MAX) {
        onto_least(m, &mut bins, w, g);
    }
    bins
}

/// Group `g` (weight `w`) onto the shard whose cost after taking it is least (ties: the lighter
/// by weight, then the first): LPT's step by the model.
fn onto_least(m: &Model, bins: &mut [SBin], w: u64, g: usize) {
    let mut best = (u64::MAX, u64::MAX, 0usize);
    for (i, b) in bins.iter().enumerate() {
        best = best.min((m.cost_after(b, Delta::Add(w, g)), b.sum, i));
    }
    m.apply(&mut bins[best.2], Delta::Add(w, g));
}

/// Positions of a shard's groups worth trying to move: all of them in a small shard, else per
/// phase those nearest `target` and the lightest and heaviest.
fn candidates(b: &SBin, target: u64) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (p, bin) in b.phases.iter().enumerate() {
        let n = bin.items.len();
        if b.groups <= 48 {
            out.extend((0..n).map(|pos| (p, pos)));
            continue;
        }
        let at = bin.items.partition_point(|x| x.0 < target);
        // ascending, without repeats: the lightest, those nearest the target, the heaviest
        for pos in [0, at.saturating_sub(1), at, n.saturating_sub(1)] {
            if pos < n && out.last().is_none_or(|&(q, last)| q != p || last < pos) {
                out.push((p, pos));
            }
        }
    }
    out
}

/// Moves and swaps off the heaviest shard while one lowers it and keeps the other shard below
/// it, then among the shards below it ([`settle`]); every step lowers the sorted vector of shard
/// costs, so the pass ends; bounded by
/// [`MAX_IMPROVEMENT_STEPS`] and [`MAX_EVALUATIONS`].
fn improve(m: &Model, bins: &mut [SBin]) {
    let mut evaluations = 0usize;
    let mut costs: Vec<u64> = bins.iter().map(|b| m.cost_after(b, Delta::None)).collect();
    let mut lighter: Vec<usize> = Vec::with_capacity(bins.len());
    let mut settled = vec![false; bins.len()];
    for _ in 0..MAX_IMPROVEMENT_STEPS {
        let Some((h, top)) = heaviest(&costs, &settled, &mut lighter) else { break };
        // (new max, target, from (phase, pos), to (phase, pos) for a swap)
        let mut best: Option<(u64, usize, (usize, usize), Option<(usize, usize)>)> = None;
        for (rank, &to) in lighter.iter().enumerate() {
            let half = (top - costs[to]) / 2;
            for (p, pos) in candidates(&bins[h], half) {
                let (w, g) = bins[h].phases[p].items[pos];
                let new_max = m.cost_after(&bins[h], Delta::Remove(p, pos)).max(m.cost_after(&bins[to], Delta::Add(w, g)));
                evaluations += 1;
                if new_max < top && best.is_none_or(|b| (new_max, to, (p, pos)) < (b.0, b.1, b.2)) {
                    best = Some((new_max, to, (p, pos), None));
                }
                if rank >= SWAP_TARGETS || w <= half {
                    continue;
                }
                for (q, qpos) in candidates(&bins[to], w - half) {
                    let (v, f) = bins[to].phases[q].items[qpos];
                    if v >= w {
                        continue;
                    }
                    let new_max = m.cost_after(&bins[h], Delta::Swap(p, pos, v, f)).max(m.cost_after(&bins[to], Delta::Swap(q, qpos, w, g)));
                    evaluations += 1;
                    if new_max < top && best.is_none_or(|b| (new_max, to, (p, pos)) < (b.0, b.1, b.2)) {
                        best = Some((new_max, to, (p, pos), Some((q, qpos))));
                    }
                }
            }
            if evaluations >= MAX_EVALUATIONS {
                break;
            }
        }
        let Some((_, to, (p, pos), back)) = best else {
            if settle(&mut settled, h, &costs) {
                continue;
            }
            break;
        };
        let (w, g) = bins[h].phases[p].items[pos];
        match back {
            None => {
                m.apply(&mut bins[h], Delta::Remove(p, pos));
                m.apply(&mut bins[to], Delta::Add(w, g));
            }
            Some((q, qpos)) => {
                let (v, f) = bins[to].phases[q].items[qpos];
                m.apply(&mut bins[h], Delta::Swap(p, pos, v, f));
                m.apply(&mut bins[to], Delta::Swap(q, qpos, w, g));
            }
        }
        for i in [h, to] {
            costs[i] = m.cost_after(&bins[i], Delta::None);
        }
        if evaluations >= MAX_EVALUATIONS {
            break;
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
#[path = "setups_tests.rs"]
mod tests;
