//! Assigning groups to shards: LPT (longest processing time first), then a deterministic
//! improvement pass of moves and swaps between the heaviest shard and the lighter ones (and,
//! once the heaviest can go no lower, among the shards below it: [`settle`]), bounded by
//! [`MAX_IMPROVEMENT_STEPS`] (never by wall-clock time).
//!
//! A shard's cost (without the overhead) is `max(ceil(sum / workers), largest group)`; with one
//! worker, its sum; plus its cold cost, which grows with its number of groups ([`ColdOf`]), and
//! what it pays again for the files it shares with another shard ([`Split`]). Its reported prediction with several workers is the makespan of its groups
//! over them ([`over_workers`]), which that cost bounds from below. LPT alone guarantees `makespan <= (4/3 - 1/(3N)) * optimum` for one worker
//! (Graham, 1969); the improvement pass only ever lowers the heaviest shard, so the bound holds.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::cost::ColdOf;
use super::options::Settings;

/// Upper bound on improvement steps (one applied move or swap each).
pub(super) const MAX_IMPROVEMENT_STEPS: usize = 1000;
/// Upper bound on the candidate changes the whole pass evaluates (a count, so the plan does not
/// depend on the speed of the host).
pub(super) const MAX_EVALUATIONS: usize = 400_000;
/// Swaps are tried with this many of the lightest shards (moves with every lighter shard).
pub(super) const SWAP_TARGETS: usize = 8;

/// Where the groups went.
pub(super) struct Assignment {
    /// Per group, its shard (0-based).
    pub shard_of_group: Vec<u32>,
    /// Per shard, its predicted time (without the per-shard overhead): with one worker its sum;
    /// with more, the makespan of its groups over the workers, longest first ([`over_workers`]);
    /// plus its cold cost.
    pub costs: Vec<u64>,
}

/// A shard being built: `(weight, group id)` sorted ascending, and their sum.
#[derive(Default, Clone)]
pub(super) struct Bin {
    pub items: Vec<(u64, usize)>,
    pub sum: u64,
}

impl Bin {
    pub(super) fn largest(&self) -> u64 {
        self.items.last().map_or(0, |i| i.0)
    }
    /// The largest weight without the item at `pos`.
    pub(super) fn largest_without(&self, pos: usize) -> u64 {
        let n = self.items.len();
        if n <= 1 {
            0
        } else if pos == n - 1 {
            self.items[n - 2].0
        } else {
            self.items[n - 1].0
        }
    }
    pub(super) fn insert(&mut self, item: (u64, usize)) {
        let at = self.items.partition_point(|x| *x < item);
        self.items.insert(at, item);
        self.sum += item.0;
    }
    pub(super) fn remove(&mut self, pos: usize) -> (u64, usize) {
        let item = self.items.remove(pos);
        self.sum -= item.0;
        item
    }
}

pub(super) fn cost(sum: u64, largest: u64, workers: u64) -> u64 {
    sum.div_ceil(workers).max(largest)
}

/// `max(ceil(total / (shards * workers)), largest group, floor) + overhead` (and one group's cold
/// cost), or 0 without groups; `floor`: the heaviest group with every module it loads
/// ([`super::setups::largest_floor`]).
pub(super) fn lower_bound(weights: &[u64], s: &Settings, floor: u64) -> u64 {
    if weights.is_empty() {
        return 0;
    }
    let total: u64 = weights.iter().copied().fold(0, u64::saturating_add);
    let largest = weights.iter().copied().max().unwrap_or(0);
    let slots = s.shard_count as u64 * s.workers as u64;
    // the heaviest shard holds a group at least: at least one group's cold cost (with modules,
    // which a group may load few of, none)
    let cold = s.costs.cold_of_groups().of(1);
    total.div_ceil(slots).max(largest).max(floor).saturating_add(s.per_shard_overhead_ms).saturating_add(s.costs.per_worker_ms).saturating_add(cold)
}

/// The order in which a runner that does not run longest first (node:test: by file name) hands a
/// shard's groups to its workers: each group's rank in it (dense, 0-based).
pub(super) struct InOrder {
    pub rank: Vec<u32>,
}

impl InOrder {
    /// Groups by the name of their first file (`first_file[g]`: its index among the files sorted
    /// by name, [`super::units::NONE`] without one: after those with), ties by group id.
    pub(super) fn by_first_file(first_file: &[u32]) -> InOrder {
        let mut keys: Vec<u64> = first_file.iter().enumerate().map(|(g, &f)| (f as u64) << 32 | g as u64).collect();
        keys.sort_unstable();
        let mut rank = vec![0u32; keys.len()];
        for (r, &k) in keys.iter().enumerate() {
            rank[k as u32 as usize] = r as u32;
        }
        InOrder { rank }
    }

    /// A shard's groups (`items`, by weight) in this order: `(rank, weight)`.
    fn sorted(&self, items: &[(u64, usize)]) -> Vec<(u32, u64)> {
        // each item's rank above its position in `items`: sorted, the items in this order
        let mut keys: Vec<u64> = items.iter().enumerate().map(|(i, x)| (self.rank[x.1] as u64) << 32 | i as u64).collect();
        keys.sort_unstable();
        keys.into_iter().map(|k| ((k >> 32) as u32, items[k as u32 as usize].0)).collect()
    }

    /// A shard's time over `workers` when its groups (`items`, by weight) are handed out in this
    /// order, each to the worker that is free first (ties: the lower worker).
    pub(super) fn makespan(&self, items: &[(u64, usize)], workers: u64) -> u64 {
        handed_out(&self.sorted(items), None, None, workers)
    }
}

/// The time of `order` (`(rank, weight)`, by rank) handed out to `workers`, each group to the
/// worker that is free first: without the group of rank `out`, with `into` at its rank.
fn handed_out(order: &[(u32, u64)], out: Option<u32>, into: Option<(u32, u64)>, workers: u64) -> u64 {
    let slots = (workers.max(1) as usize).min(order.len() + 1);
    let mut free: BinaryHeap<Reverse<(u64, usize)>> = (0..slots).map(|w| Reverse((0, w))).collect();
    let mut hand = |weight: u64| {
        let Reverse((load, w)) = free.pop().unwrap_or(Reverse((0, 0)));
        free.push(Reverse((load + weight, w)));
    };
    let mut pending = into;
    for &(r, weight) in order {
        if Some(r) == out {
            continue;
        }
        if let Some((_, w)) = pending.filter(|p| p.0 < r) {
            hand(w);
            pending = None;
        }
        hand(weight);
    }
    if let Some((_, w)) = pending {
        hand(w);
    }
    free.into_iter().map(|Reverse((load, _))| load).max().unwrap_or(0)
}

/// Upper bound on the work of the pass for a runner's own order ([`improve_in_order`]): the
/// groups its evaluated changes hand out, summed (a count, so the plan does not depend on the
/// speed of the host).
pub(super) const MAX_ORDER_WORK: usize = 8_000_000;

/// The groups' files, for a plan that keeps a file's groups on one shard ([`by_file`]) and charges
/// each shard that runs part of a file the rest of its fixed cost ([`Split`]).
pub(super) struct Files {
    /// Per group, its first file (its index in name order; [`super::units::NONE`] for none).
    pub first: Vec<u32>,
    /// Per group, its units in its first file when that file has a fixed cost, else 0.
    units: Vec<u64>,
    /// Per file, the units of the groups it is the first file of (in it), and its fixed cost
    /// ([`super::cost::Costs::file_fixed`]).
    file_units: Vec<u64>,
    fixed: Vec<u64>,
}

impl Files {
    /// `unit_files`: each unit's `(file, group)`; `fixed`: per file, its fixed cost.
    pub(super) fn new(first: Vec<u32>, unit_files: impl Iterator<Item = (u32, u32)>, fixed: Vec<u64>) -> Files {
        let mut units = vec![0u64; first.len()];
        let mut file_units = vec![0u64; fixed.len()];
        for (f, g) in unit_files {
            if f != super::units::NONE && f == first[g as usize] && fixed[f as usize] > 0 {
                units[g as usize] += 1;
                file_units[f as usize] += 1;
            }
        }
        Files { first, units, file_units, fixed }
    }

    /// What a shard that runs `k` of file `f`'s units pays for it beyond the shares its groups'
    /// weights carry: the fixed cost is spread over the file's `n` units, and a shard that runs
    /// some of them pays it whole (it loads the file, runs its `beforeAll`): `fixed × (n − k) / n`.
    fn extra(&self, f: u32, k: u64) -> u64 {
        let n = self.file_units[f as usize];
        if k == 0 || k >= n {
            return 0;
        }
        (self.fixed[f as usize] as u128 * (n - k) as u128 / n as u128) as u64
    }
}

/// Per shard, its units of each file with a fixed cost and what it pays again for the files it
/// shares with another shard ([`Files::extra`]); kept as groups move. Empty without such files.
struct Split<'a> {
    files: Option<&'a Files>,
    /// Per shard, `(file, units)` by file.
    counts: Vec<Vec<(u32, u64)>>,
    pub extra: Vec<u64>,
}

/// `counts[file] += by` in a list of `(file, units)` sorted by file.
fn add(counts: &mut Vec<(u32, u64)>, file: u32, by: i64) {
    match counts.binary_search_by_key(&file, |x| x.0) {
        Ok(at) => counts[at].1 = counts[at].1.wrapping_add_signed(by),
        Err(at) => counts.insert(at, (file, by as u64)),
    }
}

impl<'a> Split<'a> {
    fn new(files: Option<&'a Files>, bins: &[Bin]) -> Split<'a> {
        let files = files.filter(|f| f.units.iter().any(|&k| k > 0));
        let mut split = Split { files, counts: vec![Vec::new(); bins.len()], extra: vec![0; bins.len()] };
        if let Some(f) = files {
            for (i, b) in bins.iter().enumerate() {
                for &(_, g) in &b.items {
                    if f.units[g] > 0 {
                        add(&mut split.counts[i], f.first[g], f.units[g] as i64);
                    }
                }
                split.extra[i] = split.counts[i].iter().map(|&(file, k)| f.extra(file, k)).sum();
            }
        }
        split
    }

    /// Shard `i`'s extra after it gives group `out` and takes group `into`.
    fn after(&self, i: usize, out: Option<usize>, into: Option<usize>) -> u64 {
        let Some(f) = self.files else { return 0 };
        let counts = &self.counts[i];
        let count = |file: u32| counts.binary_search_by_key(&file, |x| x.0).map_or(0, |at| counts[at].1);
        // each file the change touches, its units here before and after (a swap within one
        // file: one entry)
        let mut touched: [(u32, u64, u64); 2] = [(u32::MAX, 0, 0); 2];
        for (g, sign) in [(out, -1i64), (into, 1)] {
            let Some(g) = g.filter(|&g| f.units[g] > 0) else { continue };
            let file = f.first[g];
            let at = if touched[0].0 == file || touched[0].0 == u32::MAX { 0 } else { 1 };
            if touched[at].0 != file {
                let k = count(file);
                touched[at] = (file, k, k);
            }
            touched[at].2 = touched[at].2.wrapping_add_signed(sign * f.units[g] as i64);
        }
        let mut extra = self.extra[i];
        for (file, before, now) in touched.into_iter().filter(|t| t.0 != u32::MAX) {
            extra = extra - f.extra(file, before) + f.extra(file, now);
        }
        extra
    }

    fn apply(&mut self, i: usize, out: Option<usize>, into: Option<usize>) {
        let Some(f) = self.files else { return };
        self.extra[i] = self.after(i, out, into);
        if let Some(a) = out.filter(|&g| f.units[g] > 0) {
            add(&mut self.counts[i], f.first[a], -(f.units[a] as i64));
        }
        if let Some(b) = into.filter(|&g| f.units[g] > 0) {
            add(&mut self.counts[i], f.first[b], f.units[b] as i64);
        }
    }
}

/// Per shard, its predicted time: its groups over the workers (in the runner's order, if it has
/// one), its cold cost, and what it pays again for the files it shares ([`Split`], over the
/// workers).
fn shard_costs(bins: &[Bin], workers: u64, cold: &ColdOf, in_order: Option<&InOrder>, split: &[u64]) -> Vec<u64> {
    bins.iter()
        .zip(split)
        .map(|(b, &x)| in_order.map_or_else(|| over_workers(&b.items, b.sum, workers), |o| o.makespan(&b.items, workers)) + cold.of(b.items.len()) + x.div_ceil(workers.max(1)))
        .collect()
}

/// Assigns the groups (`weights[id]`) to `shard_count` shards; `in_order`: the runner hands a
/// shard's groups to its workers in that order, not longest first; `files`: the groups' files,
/// whose groups LPT keeps together ([`by_file`]) when that plan is no slower, counting what a
/// shard pays again for a file it shares ([`Split`]).
pub(super) fn assign(weights: &[u64], s: &Settings, in_order: Option<&InOrder>, files: Option<&Files>) -> Assignment {
    let workers = s.workers as u64;
    let cold = ColdOf::new(s.costs.cold_ms);
    let shards = s.shard_count as usize;
    let order = lpt_order(weights);
    let files = files.filter(|_| !s.costs.is_zero());

    let mut bins = vec![Bin::default(); shards];
    lpt(&order, &mut bins, workers, &cold);
    improve(&mut bins, workers, &cold, files);
    if let Some(f) = files {
        // the same groups with each light file's kept whole: kept when no slower (fewer files
        // loaded twice), counting on both what each shard pays again for the files it shares
        let mut whole = vec![Bin::default(); shards];
        if by_file(weights, &order, &f.first, &mut whole, workers, &cold) {
            ascending(&mut whole);
            improve(&mut whole, workers, &cold, files);
            let slowest = |b: &[Bin]| shard_costs(b, workers, &cold, None, &Split::new(files, b).extra).into_iter().max().unwrap_or(0);
            if slowest(&whole) <= slowest(&bins) {
                bins = whole;
            }
        }
    }
    let in_order = in_order.filter(|_| workers > 1);
    if let Some(order) = in_order {
        improve_in_order(&mut bins, workers, &cold, order);
    }

    let mut shard_of_group = vec![0u32; weights.len()];
    for (i, b) in bins.iter().enumerate() {
        for &(_, g) in &b.items {
            shard_of_group[g] = i as u32;
        }
    }
    let costs = shard_costs(&bins, workers, &cold, in_order, &Split::new(files, &bins).extra);
    Assignment { shard_of_group, costs }
}

/// Per shard, the predicted time (as [`Assignment::costs`]) of a given assignment of the groups
/// (`shard_of_group`, 0-based): a runner's own split, to set beside the plan.
pub(super) fn costs_of(weights: &[u64], shard_of_group: &[u32], s: &Settings, in_order: Option<&InOrder>, files: Option<&Files>) -> Vec<u64> {
    let workers = s.workers as u64;
    let cold = ColdOf::new(s.costs.cold_ms);
    let mut bins = vec![Bin::default(); s.shard_count as usize];
    for (g, (&w, &shard)) in weights.iter().zip(shard_of_group).enumerate() {
        bins[shard as usize].items.push((w, g));
        bins[shard as usize].sum += w;
    }
    for b in &mut bins {
        b.items.sort_unstable();
    }
    let files = files.filter(|_| !s.costs.is_zero());
    shard_costs(&bins, workers, &cold, in_order.filter(|_| workers > 1), &Split::new(files, &bins).extra)
}

/// LPT: heaviest group first (ties: lower id), onto the shard whose cost after adding it is
/// least (ties: the smaller sum, then the lower index). Weights are >= 1, so an empty shard (sum
/// 0) always wins a tie: no shard stays empty while another holds two groups (a cold cost only
/// grows with a shard's groups). Each shard's groups end ascending, as [`Bin`] keeps them.
fn lpt(order: &[(u64, usize)], bins: &mut [Bin], workers: u64, cold: &ColdOf) {
    if workers == 1 && cold.of(usize::MAX) == 0 {
        // cost = sum, so the least cost after adding is the least sum
        if !lpt_by_tree(order, bins) {
            lpt_by_heap(order, bins);
        }
    } else {
        for &(w, id) in order {
            // items arrive heaviest first: a bin's first item is its largest
            let i = least_after(bins.iter().map(|b| (b.sum, b.items.first().map_or(0, |x| x.0), b.items.len())), (w, w, 1), workers, cold);
            let b = &mut bins[i];
            b.items.push((w, id));
            b.sum += w;
        }
    }
    ascending(bins);
}

/// Each shard's groups, pushed in LPT order (weight descending, id ascending), put ascending by
/// (weight, id), as [`Bin`] keeps them: reversed, then each run of one weight reversed back.
fn ascending(bins: &mut [Bin]) {
    for b in bins {
        b.items.reverse();
        for run in b.items.chunk_by_mut(|x, y| x.0 == y.0) {
            run.reverse();
        }
    }
}

/// [`improve`] again for a runner that hands out a shard's groups in its own order: the pass
/// above planned with `max(ceil(sum / workers), largest)`, which a long group handed out last
/// exceeds (two workers, 1 s of small files first, then a 3 s file: 3.5 s, not 3 s). Each step
/// applies the change that lowers the slowest shard's time in that order most, keeping both
/// shards below it: among the moves of its groups of the weight that would close the gap to a
/// faster shard (the two nearest), and the swaps of those with the groups of one of the
/// [`SWAP_TARGETS`] fastest that leave that much; when none of those helps, among every move;
/// when no move helps, the same among the shards below it ([`settle`]). Stops when none is left to level, or after
/// [`MAX_IMPROVEMENT_STEPS`] steps or [`MAX_ORDER_WORK`]. Each step strictly lowers the sorted
/// vector of shard times, so the pass cannot cycle.
fn improve_in_order(bins: &mut [Bin], workers: u64, cold: &ColdOf, order: &InOrder) {
    let mut orders: Vec<Vec<(u32, u64)>> = bins.iter().map(|b| order.sorted(&b.items)).collect();
    let mut costs: Vec<u64> = orders.iter().map(|o| handed_out(o, None, None, workers) + cold.of(o.len())).collect();
    let mut lighter: Vec<usize> = Vec::with_capacity(bins.len());
    let mut work = 0usize;
    let mut settled = vec![false; bins.len()];
    for _ in 0..MAX_IMPROVEMENT_STEPS {
        let Some((h, top)) = heaviest(&costs, &settled, &mut lighter) else { break };
        // (new max, shard, group moved, group back, position moved, position back): the least wins
        let mut best = (top, 0, 0, 0, 0, usize::MAX);
        for every in [false, true] {
            for (rank, &to) in lighter.iter().enumerate() {
                // a group of weight w moved from one shard to the other shortens the one and
                // lengthens the other by about w / workers each: the gap closes at w = gap x workers / 2
                let half = top.saturating_sub(costs[to]).saturating_mul(workers) / 2;
                let moves: Vec<usize> = if every { (0..bins[h].items.len()).collect() } else { near(&bins[h].items, half).collect() };
                for a in moves {
                    let (wa, ga) = bins[h].items[a];
                    let backs: Vec<usize> = if every || rank >= SWAP_TARGETS { Vec::new() } else { near(&bins[to].items, wa.saturating_sub(half)).collect() };
                    for b in backs.into_iter().map(Some).chain([None]) {
                        if work >= MAX_ORDER_WORK {
                            break;
                        }
                        work += orders[h].len() + orders[to].len();
                        let back = b.map(|p| bins[to].items[p]);
                        let (hn, tn) = if back.is_some() { (orders[h].len(), orders[to].len()) } else { (orders[h].len() - 1, orders[to].len() + 1) };
                        let h_time = handed_out(&orders[h], Some(order.rank[ga]), back.map(|(w, g)| (order.rank[g], w)), workers) + cold.of(hn);
                        let t_time = handed_out(&orders[to], back.map(|(_, g)| order.rank[g]), Some((order.rank[ga], wa)), workers) + cold.of(tn);
                        let key = (h_time.max(t_time), to, ga, back.map_or(usize::MAX, |x| x.1), a, b.unwrap_or(usize::MAX));
                        if key < best {
                            best = key;
                        }
                    }
                }
            }
            if best.0 < top {
                break;
            }
        }
        if best.0 >= top {
            if settle(&mut settled, h, &costs) {
                continue;
            }
            break;
        }
        let (_, to, _, _, a, b) = best;
        let item = bins[h].remove(a);
        if b != usize::MAX {
            let back = bins[to].remove(b);
            bins[h].insert(back);
        }
        bins[to].insert(item);
        for i in [h, to] {
            orders[i] = order.sorted(&bins[i].items);
            costs[i] = handed_out(&orders[i], None, None, workers) + cold.of(orders[i].len());
        }
        if work >= MAX_ORDER_WORK {
            break;
        }
    }
}

/// LPT that keeps a file's groups together (`files[group]`): each file of several groups that
/// weigh at most half an even shard is placed whole, as one item of their summed weight, heaviest
/// first among the groups of the other files (each placed alone), onto the shard whose cost after
/// taking it is least ([`least_after`]); each shard's groups are then pushed in LPT order, as the
/// other LPT paths push them. The improvement pass after it moves single groups, so a file is
/// split only where that lowers the slowest shard. False, with `bins` untouched, when no file is
/// placed whole (every file one group, as Jest's and Vitest's): plain LPT then.
///
/// A runner pays a file's fixed cost on every shard (and every worker) that runs one of its
/// tests: Playwright runs a file's `beforeAll` in each worker that runs a test of it. On the
/// bench's fully parallel suite (30 files) over 4 shards, LPT by test put 26-28 files on every
/// shard, and its shards took 8% more in all than the runner's own split of 8-9 files a shard.
/// [`assign`] keeps this plan only when, counting what each shard pays again for the files it
/// shares ([`Split`]), it is no slower than LPT by test: where files cost little (the demo's
/// example, 40 ms a file) whole files leave shards uneven.
fn by_file(weights: &[u64], order: &[(u64, usize)], files: &[u32], bins: &mut [Bin], workers: u64, cold: &ColdOf) -> bool {
    let none = super::units::NONE;
    let n = files.iter().filter(|&&f| f != none).map(|&f| f as usize + 1).max().unwrap_or(0);
    let (mut file_sum, mut file_groups) = (vec![0u64; n], vec![0usize; n]);
    for (&f, &w) in files.iter().zip(weights) {
        if f != none {
            file_sum[f as usize] += w;
            file_groups[f as usize] += 1;
        }
    }
    let half = weights.iter().sum::<u64>() / (2 * bins.len() as u64).max(1);
    let whole = |f: u32| f != none && file_groups[f as usize] > 1 && file_sum[f as usize] <= half;
    if !files.iter().any(|&f| whole(f)) {
        return false;
    }
    // the items, by their first group in LPT order: a whole file (its summed weight, its
    // heaviest group, its count of groups), or a group alone
    let (mut item_w, mut item_largest, mut item_groups) = (Vec::new(), Vec::new(), Vec::new());
    let mut item_of_file = vec![usize::MAX; n];
    let mut item_of_group = vec![0usize; weights.len()];
    for &(w, g) in order {
        let f = files[g];
        if whole(f) && item_of_file[f as usize] != usize::MAX {
            item_of_group[g] = item_of_file[f as usize];
            continue;
        }
        if whole(f) {
            item_of_file[f as usize] = item_w.len();
        }
        item_of_group[g] = item_w.len();
        item_w.push(if whole(f) { file_sum[f as usize] } else { w });
        item_largest.push(w);
        item_groups.push(if whole(f) { file_groups[f as usize] } else { 1 });
    }
    let mut shard_of_item = vec![0usize; item_w.len()];
    let (mut largest, mut count) = (vec![0u64; bins.len()], vec![0usize; bins.len()]);
    for (w, it) in lpt_order(&item_w) {
        let i = least_after(bins.iter().zip(&largest).zip(&count).map(|((b, &l), &n)| (b.sum, l, n)), (w, item_largest[it], item_groups[it]), workers, cold);
        bins[i].sum += w;
        largest[i] = largest[i].max(item_largest[it]);
        count[i] += item_groups[it];
        shard_of_item[it] = i;
    }
    // each shard's groups pushed in LPT order, as the other paths push them
    for &(w, g) in order {
        bins[shard_of_item[item_of_group[g]]].items.push((w, g));
    }
    true
}

/// LPT's step: the shard (of `bins`: each one's sum, largest group and count of groups) whose
/// cost after taking `item` (its weight, its largest group, its count of groups) is least (ties:
/// the smaller sum, then the lower index).
fn least_after(bins: impl Iterator<Item = (u64, u64, usize)>, item: (u64, u64, usize), workers: u64, cold: &ColdOf) -> usize {
    let (w, largest, groups) = item;
    let mut best = (u64::MAX, u64::MAX, 0usize);
    for (i, (sum, l, n)) in bins.enumerate() {
        let c = (cost(sum + w, l.max(largest), workers) + cold.of(n + groups), sum, i);
        if c < best {
            best = c;
        }
    }
    best.2
}

/// LPT with one worker: each group to the least (sum, index), from a heap of them.
fn lpt_by_heap(order: &[(u64, usize)], bins: &mut [Bin]) {
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = (0..bins.len()).map(|i| Reverse((0, i))).collect();
    for &(w, id) in order {
        // the least (sum, index) gets the group: updated in place (one sift instead of a pop and
        // a push; the entries are distinct, so the order of choices is the same)
        let Some(mut top) = heap.peek_mut() else { break };
        let Reverse((sum, i)) = *top;
        bins[i].items.push((w, id));
        bins[i].sum = sum + w;
        *top = Reverse((sum + w, i));
    }
}

/// LPT with one worker when every sum fits beside a shard index in 64 bits (`sum << bits |
/// index`, which orders as `(sum, index)`): each group goes to the least key, the root of a
/// tournament tree (each node the least of its two children), and only the path above the
/// shard that took it is replayed. The same choices as the heap, in a third of the time: one
/// integer comparison a level. Returns false, with `bins` untouched, when the sums do not fit.
fn lpt_by_tree(order: &[(u64, usize)], bins: &mut [Bin]) -> bool {
    let n = bins.len();
    let bits = u64::BITS - (n as u64).leading_zeros();
    let total = order.iter().fold(0u64, |t, &(w, _)| t.saturating_add(w));
    if n == 0 || total.checked_shr(u64::BITS - bits).unwrap_or(0) != 0 {
        return false;
    }
    let size = n.next_power_of_two();
    // leaves at size..2 * size (past the shards: MAX, never least); node i is the least of 2i, 2i + 1
    let mut tree = vec![u64::MAX; 2 * size];
    for i in 0..n {
        tree[size + i] = i as u64;
    }
    for i in (1..size).rev() {
        tree[i] = tree[2 * i].min(tree[2 * i + 1]);
    }
    let mask = (1u64 << bits) - 1;
    for &(w, id) in order {
        let top = tree[1];
        let i = (top & mask) as usize;
        bins[i].items.push((w, id));
        // up from its leaf, each node the least of the new value and the sibling's
        let (mut at, mut least) = (size + i, top + (w << bits));
        tree[at] = least;
        while at > 1 {
            least = least.min(tree[at ^ 1]);
            at /= 2;
            tree[at] = least;
        }
    }
    for b in bins.iter_mut() {
        b.sum = b.items.iter().map(|x| x.0).sum();
    }
    true
}

/// A shard's predicted time over `workers`: each group, longest first, goes to the worker that
/// is free first (ties: the lower worker), as a runner hands its next file or serial group to
/// the next free worker. The assignment plans with `cost` (`max(ceil(sum / workers), largest)`,
/// a lower bound of this) and the shard then reports this, at least that: three files of 2, 1.8
/// and 1.2 s over two workers take 3 s, not 2.5 s. `items` ascending, `sum` their total.
pub(super) fn over_workers(items: &[(u64, usize)], sum: u64, workers: u64) -> u64 {
    if workers <= 1 || items.len() <= 1 {
        return if workers <= 1 { sum } else { items.last().map_or(0, |i| i.0) };
    }
    let slots = (workers as usize).min(items.len());
    let mut free: BinaryHeap<Reverse<(u64, usize)>> = (0..slots).map(|w| Reverse((0, w))).collect();
    for &(weight, _) in items.iter().rev() {
        let Reverse((load, w)) = free.pop().unwrap_or(Reverse((0, 0)));
        free.push(Reverse((load + weight, w)));
    }
    free.into_iter().map(|Reverse((load, _))| load).max().unwrap_or(0)
}

/// `(weight, id)` of every group, heaviest first (ties: lower id). Sorted as one integer per
/// group, `(largest - weight) << bits | id` with `bits` enough for any id, which sorts faster
/// than pairs, when that fits in 64 bits (unless the heaviest group is `2^(64 - bits)` ms or
/// more: over 500 years at a million groups).
pub(super) fn lpt_order(weights: &[u64]) -> Vec<(u64, usize)> {
    let largest = weights.iter().copied().max().unwrap_or(0);
    let bits = u64::BITS - (weights.len() as u64).leading_zeros();
    if largest.checked_shr(u64::BITS - bits).unwrap_or(0) != 0 {
        let mut order: Vec<(u64, usize)> = weights.iter().copied().zip(0..).collect();
        order.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        return order;
    }
    let mut keys: Vec<u64> = weights.iter().enumerate().map(|(id, &w)| (largest - w) << bits | id as u64).collect();
    let key_bits = bits + (u64::BITS - largest.leading_zeros());
    radix_sort_u64(&mut keys, key_bits);
    let mask = (1u64 << bits) - 1;
    keys.into_iter().map(|k| (largest - (k >> bits), (k & mask) as usize)).collect()
}

/// Sorts integers below `2^key_bits`: least-significant-digit radix, 11 bits a pass (a 16 KiB
/// count table), so the keys of 100,000 groups (about 30 bits) take three passes.
fn radix_sort_u64(keys: &mut Vec<u64>, key_bits: u32) {
    const DIGIT_BITS: u32 = 11;
    if keys.len() < 256 {
        keys.sort_unstable();
        return;
    }
    let mut spare = vec![0u64; keys.len()];
    let mut shift = 0;
    while shift < key_bits {
        let digit = |k: u64| ((k >> shift) & ((1 << DIGIT_BITS) - 1)) as usize;
        let mut next = vec![0u32; 1 << DIGIT_BITS];
        for &k in keys.iter() {
            next[digit(k)] += 1;
        }
        let mut sum = 0;
        for n in next.iter_mut() {
            (*n, sum) = (sum, sum + *n);
        }
        for &k in keys.iter() {
            let at = &mut next[digit(k)];
            spare[*at as usize] = k;
            *at += 1;
        }
        std::mem::swap(keys, &mut spare);
        shift += DIGIT_BITS;
    }
}

/// The heaviest shard not yet `settled` (the first of equals) and its cost; `lighter` gets the
/// unsettled shards below it, by (cost, index): where an improvement pass looks for a move.
/// `None` when every shard is settled.
pub(super) fn heaviest(costs: &[u64], settled: &[bool], lighter: &mut Vec<usize>) -> Option<(usize, u64)> {
    let mut h = None;
    for (i, &c) in costs.iter().enumerate() {
        if !settled[i] && h.is_none_or(|(_, top)| c > top) {
            h = Some((i, c));
        }
    }
    let top = h?.1;
    lighter.clear();
    lighter.extend((0..costs.len()).filter(|&i| !settled[i] && costs[i] < top));
    lighter.sort_unstable_by_key(|&i| (costs[i], i));
    h
}

/// Whether an improvement pass whose heaviest shard `h` can no longer be lowered goes on with the
/// others (`settled` marks `h`): it levels the shards below the slowest, while the unsettled ones
/// are more than `1 / LEVEL_WITHIN` of `h`'s cost apart. Where one long file sets the slowest
/// shard, a plan that stopped there left the others as LPT filled them up to it (jest-slow's 4
/// shards: 11.1, 11.0 and 7.2 s beside the 6 s file's 11.2 s), and a prediction of that shard a
/// little high made another the slowest (12.3 s against its 11.0 s, the 6 s file's shard 10.0 s).
/// Each settled shard keeps its cost; the others only go down.
pub(super) fn settle(settled: &mut [bool], h: usize, costs: &[u64]) -> bool {
    settled[h] = true;
    let (mut lo, mut hi, mut open) = (u64::MAX, 0, 0);
    for (&c, _) in costs.iter().zip(settled.iter()).filter(|(_, s)| !**s) {
        (lo, hi, open) = (lo.min(c), hi.max(c), open + 1);
    }
    open >= 2 && hi - lo > costs[h] / LEVEL_WITHIN
}

/// Shards below the slowest are levelled ([`settle`]) until they are within `1 / LEVEL_WITHIN`
/// of its cost of each other (2%): a plan of many shards that LPT filled evenly is left as it is
/// (levelling 100 shards of 100,000 units that were already even took a fifth longer).
const LEVEL_WITHIN: u64 = 50;

/// A candidate change: move the item at `a` of the heaviest shard to shard `to`, and, for a
/// swap, the item at `b` of `to` back.
#[derive(Clone, Copy)]
struct Change {
    new_max: u64,
    to: usize,
    a: usize,
    b: Option<usize>,
    /// Group ids, for a total tie-break.
    key: (usize, usize),
}

impl Change {
    fn better_than(&self, other: &Change) -> bool {
        (self.new_max, self.to, self.key) < (other.new_max, other.to, other.key)
    }
}

/// Positions in `items` whose weight is nearest `target` (at most two).
fn near(items: &[(u64, usize)], target: u64) -> impl Iterator<Item = usize> {
    let at = items.partition_point(|x| x.0 < target);
    let lo = at.checked_sub(1);
    let hi = (at < items.len()).then_some(at);
    lo.into_iter().chain(hi)
}

fn evaluate(bins: &[Bin], h: usize, to: usize, a: usize, b: Option<usize>, workers: u64, cold: &ColdOf, split: &Split) -> Change {
    let (hb, sb) = (&bins[h], &bins[to]);
    let (wa, ga) = hb.items[a];
    let (wb, gb) = b.map_or((0, usize::MAX), |p| sb.items[p]);
    let back = b.map(|_| gb);
    let (h_split, s_split) = (split.after(h, Some(ga), back).div_ceil(workers.max(1)), split.after(to, back, Some(ga)).div_ceil(workers.max(1)));
    // a move changes both shards' numbers of groups (and their cold costs), a swap neither
    let (h_cold, s_cold) = match b {
        None => (cold.of(hb.items.len() - 1), cold.of(sb.items.len() + 1)),
        Some(_) => (cold.of(hb.items.len()), cold.of(sb.items.len())),
    };
    let new_max = if workers == 1 {
        // one worker: a shard's cost is its sum (every item is at most the sum)
        (hb.sum - wa + wb + h_cold + h_split).max(sb.sum - wb + wa + s_cold + s_split)
    } else {
        let h_cost = cost(hb.sum - wa + wb, hb.largest_without(a).max(wb), workers) + h_cold + h_split;
        let s_largest = b.map_or(sb.largest(), |p| sb.largest_without(p));
        let s_cost = cost(sb.sum - wb + wa, s_largest.max(wa), workers) + s_cold + s_split;
        h_cost.max(s_cost)
    };
    Change { new_max, to, a, b, key: (ga, gb) }
}

/// Repeatedly applies the best move or swap that lowers the heaviest shard's cost while keeping
/// both shards involved below it; where none exists, the same among the shards below it
/// ([`settle`]); stops when none is left to level or after the step or evaluation bound.
/// Each step strictly lowers the sorted vector of shard costs, so the pass cannot cycle.
///
/// With gap `g` between the heaviest shard and a lighter one, the ideal change moves `g / 2`.
/// Moves try the heaviest shard's items nearest `g / 2`; swaps pair each item `a` heavier than
/// `g / 2` (a lighter `a` is better moved than swapped) with the items of the other shard
/// nearest `a - g / 2`.
fn improve(bins: &mut [Bin], workers: u64, cold: &ColdOf, files: Option<&Files>) {
    let mut evaluations = 0usize;
    let mut split = Split::new(files, bins);
    let w = workers.max(1);
    let mut costs: Vec<u64> = bins.iter().zip(&split.extra).map(|(b, &x)| cost(b.sum, b.largest(), workers) + cold.of(b.items.len()) + x.div_ceil(w)).collect();
    let mut lighter: Vec<usize> = Vec::with_capacity(bins.len());
    let mut settled = vec![false; bins.len()];
    for _ in 0..MAX_IMPROVEMENT_STEPS {
        let Some((h, top)) = heaviest(&costs, &settled, &mut lighter) else { break };
        let mut best: Option<Change> = None;
        let mut consider = |c: Change| {
            if c.new_max < top && best.as_ref().is_none_or(|b| c.better_than(b)) {
                best = Some(c);
            }
        };
        for (rank, &to) in lighter.iter().enumerate() {
            let gap = bins[h].sum.saturating_sub(bins[to].sum);
            let half = gap / 2;
            for a in near(&bins[h].items, half) {
                consider(evaluate(bins, h, to, a, None, workers, cold, &split));
                evaluations += 1;
            }
            if rank >= SWAP_TARGETS {
                continue;
            }
            let hs = &bins[h].items;
            let ts = &bins[to].items;
            // the targets `hs[a].0 - half` only grow with `a`: `at` (what `near` would find by
            // binary search) only moves forward
            let mut at = 0;
            for a in hs.partition_point(|x| x.0 <= half)..hs.len() {
                if evaluations >= MAX_EVALUATIONS {
                    break;
                }
                if a > 0 && hs[a - 1].0 == hs[a].0 {
                    continue; // same weight as the previous item: same outcomes
                }
                let target = hs[a].0 - half;
                while at < ts.len() && ts[at].0 < target {
                    at += 1;
                }
                if at > 0 {
                    consider(evaluate(bins, h, to, a, Some(at - 1), workers, cold, &split));
                    evaluations += 1;
                }
                if at < ts.len() {
                    consider(evaluate(bins, h, to, a, Some(at), workers, cold, &split));
                    evaluations += 1;
                }
            }
        }
        let Some(c) = best else {
            if settle(&mut settled, h, &costs) {
                continue;
            }
            break;
        };
        let item = bins[h].remove(c.a);
        let back = c.b.map(|b| bins[c.to].remove(b));
        if let Some(back) = back {
            bins[h].insert(back);
        }
        bins[c.to].insert(item);
        split.apply(h, Some(item.1), back.map(|x| x.1));
        split.apply(c.to, back.map(|x| x.1), Some(item.1));
        for i in [h, c.to] {
            costs[i] = cost(bins[i].sum, bins[i].largest(), workers) + cold.of(bins[i].items.len()) + split.extra[i].div_ceil(w);
        }
        if evaluations >= MAX_EVALUATIONS {
            break;
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod order_tests {
    use proptest::prelude::*;

    proptest! {
        /// The LPT order is exactly "weight descending, then id ascending", by radix or not.
        #[test]
        fn lpt_order_is_weight_descending_then_id(weights in prop::collection::vec(prop_oneof![1u64..50, 1u64..1 << 40], 0..2000)) {
            let mut want: Vec<(u64, usize)> = weights.iter().copied().zip(0..).collect();
            want.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            prop_assert_eq!(super::lpt_order(&weights), want);
        }

        /// The tournament tree makes the heap's choices, group by group, whenever the sums fit.
        #[test]
        fn lpt_by_tree_is_lpt_by_heap(weights in prop::collection::vec(prop_oneof![1u64..50, 1u64..1 << 40], 0..500), shards in 1usize..40) {
            let order = super::lpt_order(&weights);
            let mut by_heap = vec![super::Bin::default(); shards];
            super::lpt_by_heap(&order, &mut by_heap);
            let mut by_tree = vec![super::Bin::default(); shards];
            prop_assert!(super::lpt_by_tree(&order, &mut by_tree));
            for (h, t) in by_heap.iter().zip(&by_tree) {
                prop_assert_eq!(&h.items, &t.items);
                prop_assert_eq!(h.sum, t.sum);
            }
        }

        /// What a shard pays again for the files it shares, kept as groups move and swap, is
        /// what it pays counted afresh: `fixed × (n − k) / n` for each file of which it runs
        /// `k` of `n` units, `0 < k < n`.
        #[test]
        fn a_shards_split_files_cost_kept_through_moves_is_counted_afresh(
            groups in prop::collection::vec((0u32..6, 1u64..4, 0usize..4), 2..60),
            fixed in prop::collection::vec(prop_oneof![Just(0u64), 1u64..5000], 6),
            changes in prop::collection::vec((any::<prop::sample::Index>(), 0usize..4, any::<bool>(), any::<prop::sample::Index>()), 0..30),
        ) {
            // per group: its file, its units (all in that file), its shard
            let first: Vec<u32> = groups.iter().map(|g| g.0).collect();
            let unit_files = groups.iter().enumerate().flat_map(|(g, &(f, n, _))| std::iter::repeat_n((f, g as u32), n as usize));
            let files = super::Files::new(first, unit_files, fixed.clone());
            let mut bins = vec![super::Bin::default(); 4];
            for (g, &(_, _, s)) in groups.iter().enumerate() {
                bins[s].insert((1 + g as u64, g));
            }
            let afresh = |bins: &[super::Bin]| {
                (0..bins.len()).map(|i| {
                    (0..6u32).map(|f| {
                        let n: u64 = groups.iter().filter(|g| g.0 == f).map(|g| g.1).sum();
                        let k: u64 = bins[i].items.iter().filter(|x| groups[x.1].0 == f).map(|x| groups[x.1].1).sum();
                        if k == 0 || k == n || fixed[f as usize] == 0 { 0 } else { fixed[f as usize] * (n - k) / n }
                    }).sum::<u64>()
                }).collect::<Vec<u64>>()
            };
            let mut split = super::Split::new(Some(&files), &bins);
            prop_assert_eq!(&split.extra, &afresh(&bins));
            for (from, to, swap, back) in changes {
                let pick = from;
                let from = (0..4).map(|k| (pick.index(4) + k) % 4).find(|&i| !bins[i].items.is_empty()).unwrap();
                if to == from { continue; }
                let a = pick.index(bins[from].items.len());
                let b = (swap && !bins[to].items.is_empty()).then(|| back.index(bins[to].items.len()));
                let ga = bins[from].items[a].1;
                let gb = b.map(|p| bins[to].items[p].1);
                let (h_after, t_after) = (split.after(from, Some(ga), gb), split.after(to, gb, Some(ga)));
                let item = bins[from].remove(a);
                if let Some(p) = b { let x = bins[to].remove(p); bins[from].insert(x); }
                bins[to].insert(item);
                split.apply(from, Some(ga), gb);
                split.apply(to, gb, Some(ga));
                let want = afresh(&bins);
                prop_assert_eq!((h_after, t_after), (want[from], want[to]));
                prop_assert_eq!(&split.extra, &want);
            }
        }

        #[test]
        fn radix_sort_u64_sorts(mut keys in prop::collection::vec(any::<u64>(), 0..3000), bits in 1u32..=64) {
            let mask = if bits == 64 { u64::MAX } else { (1 << bits) - 1 };
            for k in keys.iter_mut() {
                *k &= mask;
            }
            let mut want = keys.clone();
            want.sort_unstable();
            super::radix_sort_u64(&mut keys, bits);
            prop_assert_eq!(keys, want);
        }
    }
}
