//! Units in canonical order with integer-millisecond predictions, files and groups interned.
//!
//! The canonical order is the order of the ids' 128-bit hashes ([`fingerprint::hash128`]; for
//! distinct ids with equal hashes, which never happens in practice, the ids' bytes decide): a
//! total order on distinct ids that does not depend on the input order, and several times faster
//! to sort than the ids themselves (ids share long prefixes such as a test file's path). It
//! decides the planner's tie-breaks and the fingerprint's order; what the plan returns is sorted
//! by id ([`shard_lists_by_id`]).

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::{fingerprint, Unit, MAX_DURATION_MS};
use crate::error::{Error, Result};

/// "No file" / "no group" in [`Canon::file`] and [`Canon::group`].
pub(super) const NONE: u32 = u32::MAX;

/// A unit after checking (its id is [`Canon::input_ids`] at its input index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct CanonUnit {
    /// Index into [`Canon::files`], or [`NONE`].
    pub file: u32,
    /// Index into [`Canon::groups`], or [`NONE`].
    pub group: u32,
    /// `None`: no usable prediction (missing or zero).
    pub known_ms: Option<u64>,
}

/// The checked units (unique ids) in canonical order, and the distinct files and groups, each
/// sorted, so comparing indices compares the strings.
#[derive(Debug, Clone)]
pub(super) struct Canon<'a> {
    pub units: Vec<CanonUnit>,
    /// `order[i]`: the input index of canonical unit `i`.
    pub order: Vec<u32>,
    pub files: Vec<&'a str>,
    pub groups: Vec<&'a str>,
    /// `id_hashes[i]`: [`fingerprint::hash128`] of canonical unit `i`'s id.
    pub id_hashes: Vec<[u64; 2]>,
    /// The ids in input order (the order they lie in memory).
    pub input_ids: Vec<&'a str>,
}

/// A prediction in whole milliseconds: positive values round to the nearest millisecond (half
/// away from zero) but never below 1 (a measured test is never free); zero is unknown (what the
/// service gives a test it has no data for). A negative, NaN or infinite value is an error: a
/// caller's bug, not a prediction.
pub(super) fn to_ms(value: Option<f64>, id: &str) -> Result<Option<u64>> {
    match value {
        None => Ok(None),
        Some(v) if !v.is_finite() || v < 0.0 => Err(Error::invalid_input(format!(
            "unit {id:?}: durationMs must be a finite number >= 0 (0 or absent: unknown), got {v}"
        ))),
        Some(v) if v == 0.0 => Ok(None),
        Some(v) if v > MAX_DURATION_MS as f64 => Err(Error::invalid_input(format!(
            "unit {id:?}: durationMs {v} is above the largest accepted prediction ({MAX_DURATION_MS} ms)"
        ))),
        Some(v) => Ok(Some((v.round() as u64).max(1))),
    }
}

/// A fast non-cryptographic hasher (rustc's Fx) for interning: only lookups depend on it, never
/// an order, so the plan does not either.
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        }
        for &b in chunks.remainder() {
            self.add(b as u64);
        }
    }
    fn write_u8(&mut self, b: u8) {
        self.add(b as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

impl Fx {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Units as columns, strings borrowed: each file and group name listed once, and per unit the
/// index of its name, or [`NONE`]. What the bindings' fast path builds without a [`Unit`].
#[derive(Debug, Clone, Default)]
pub struct UnitColumns<'a> {
    pub ids: Vec<&'a str>,
    pub durations: Vec<Option<f64>>,
    pub file_names: Vec<&'a str>,
    pub file_of: Vec<u32>,
    pub group_names: Vec<&'a str>,
    pub group_of: Vec<u32>,
}

/// Distinct strings in order of first appearance, and each input's index among them.
fn intern<'a>(values: impl Iterator<Item = Option<&'a str>>) -> (Vec<&'a str>, Vec<u32>) {
    let mut index: HashMap<&'a str, u32, BuildHasherDefault<Fx>> = HashMap::default();
    let mut distinct: Vec<&'a str> = Vec::new();
    let raw: Vec<u32> = values
        .map(|v| match v {
            None => NONE,
            Some(s) => *index.entry(s).or_insert_with(|| {
                distinct.push(s);
                distinct.len() as u32 - 1
            }),
        })
        .collect();
    (distinct, raw)
}

/// `names` sorted without repeats, and each name's index in that list.
pub(super) fn rank<'a>(names: &[&'a str]) -> (Vec<&'a str>, Vec<u32>) {
    let mut order: Vec<u32> = (0..names.len() as u32).collect();
    order.sort_unstable_by_key(|&i| names[i as usize]);
    let mut sorted: Vec<&'a str> = Vec::with_capacity(names.len());
    let mut ranks = vec![0u32; names.len()];
    for &i in &order {
        let name = names[i as usize];
        if sorted.last() != Some(&name) {
            sorted.push(name);
        }
        ranks[i as usize] = sorted.len() as u32 - 1;
    }
    (sorted, ranks)
}

/// Checks the units (non-empty, unique ids; finite durations) and puts them in canonical order,
/// which makes the plan independent of input order.
pub(super) fn canonical<'a>(input: &'a [Unit<'_>]) -> Result<Canon<'a>> {
    // interned in input order (memory order: fewer cache misses than id order)
    let (file_names, file_of) = intern(input.iter().map(|u| u.file.as_deref()));
    let (group_names, group_of) = intern(input.iter().map(|u| u.group.as_deref()));
    canonical_columns(&UnitColumns {
        ids: input.iter().map(|u| &*u.id).collect(),
        durations: input.iter().map(|u| u.duration_ms).collect(),
        file_names,
        file_of,
        group_names,
        group_of,
    })
}

/// [`canonical`] for units as columns (`file_of` and `group_of` must index their name lists).
pub(super) fn canonical_columns<'a>(c: &UnitColumns<'a>) -> Result<Canon<'a>> {
    let (files, file_rank) = rank(&c.file_names);
    let (groups, group_rank) = rank(&c.group_names);
    let at = |ranks: &[u32], i: u32| if i == NONE { NONE } else { ranks[i as usize] };
    // each unit in input order (reading the columns one after another), then gathered into
    // canonical order below: one random read a unit instead of four
    let mut by_input = Vec::with_capacity(c.ids.len());
    for (i, (&id, &d)) in c.ids.iter().zip(&c.durations).enumerate() {
        if id.is_empty() {
            return Err(Error::invalid_input(format!("units[{i}].id is empty; every unit needs a unique id")));
        }
        by_input.push(CanonUnit {
            file: at(&file_rank, c.file_of[i]),
            group: at(&group_rank, c.group_of[i]),
            known_ms: to_ms(d, id)?,
        });
    }
    // in input order: the order the ids lie in memory
    let hashes: Vec<[u64; 2]> = c.ids.iter().map(|id| fingerprint::hash128(id.as_bytes())).collect();
    let order = hash_order(&c.ids, &hashes)?;
    let units = order.iter().map(|&i| by_input[i as usize]).collect();
    let id_hashes = order.iter().map(|&i| hashes[i as usize]).collect();
    Ok(Canon { units, order, files, groups, id_hashes, input_ids: c.ids.clone() })
}

/// Input indices in canonical order (see the module documentation), or the error for an id given
/// more than once (of those, the one whose first place comes first, with its first two places).
/// A counting pass on the top bits of the (uniform) hashes leaves about one index per bucket,
/// and buckets are sorted by comparison.
fn hash_order(ids: &[&str], hashes: &[[u64; 2]]) -> Result<Vec<u32>> {
    let n = ids.len();
    if n < 2 {
        return Ok((0..n as u32).collect());
    }
    let bits = (usize::BITS - 1 - n.leading_zeros()).min(HASH_BUCKET_BITS_MAX);
    let bucket = |i: usize| (hashes[i][0] >> (u64::BITS - bits)) as usize;
    let mut starts = vec![0u32; (1 << bits) + 1];
    for i in 0..n {
        starts[bucket(i) + 1] += 1;
    }
    for b in 1..starts.len() {
        starts[b] += starts[b - 1];
    }
    let mut next = starts.clone();
    let mut order = vec![0u32; n];
    for i in 0..n {
        let at = &mut next[bucket(i)];
        order[*at as usize] = i as u32;
        *at += 1;
    }
    // equal ids have equal hashes: duplicates end up next to each other, in index order
    let cmp = |&a: &u32, &b: &u32| {
        let (a, b) = (a as usize, b as usize);
        hashes[a].cmp(&hashes[b]).then_with(|| ids[a].cmp(ids[b])).then(a.cmp(&b))
    };
    let mut twice: Option<(u32, u32)> = None;
    for w in starts.windows(2).filter(|w| w[1] - w[0] > 1) {
        let run = &mut order[w[0] as usize..w[1] as usize];
        if run.len() == 2 {
            // the usual run (a bucket holds about one index): one comparison
            if cmp(&run[0], &run[1]) == Ordering::Greater {
                run.swap(0, 1);
            }
        } else {
            run.sort_unstable_by(cmp);
        }
        for p in run.windows(2) {
            let (a, b) = (p[0], p[1]);
            if hashes[a as usize] == hashes[b as usize] && ids[a as usize] == ids[b as usize] && twice.is_none_or(|t| a < t.0) {
                twice = Some((a, b));
            }
        }
    }
    if let Some((a, b)) = twice {
        // `a` is the lowest index of its id, as the run is in index order among equal ids
        return Err(Error::invalid_input(format!(
            "unit id {:?} appears twice (units[{a}] and units[{b}]); ids must be unique",
            ids[a as usize]
        )));
    }
    Ok(order)
}

/// At most `2^20` buckets (4 MiB of counts) however many units.
const HASH_BUCKET_BITS_MAX: u32 = 20;

/// Every shard's units sorted by id, for the lists a plan returns: `shard_of[i]` is the 0-based
/// shard of input unit `i` (`ids[i]`, unique); returns the input indices shard after shard, and
/// where each shard's end (`ends[s]..ends[s + 1]`, `ends[0] = 0`).
///
/// The first key of every id (past the prefix all ids share) is read in one pass in input order,
/// where the ids lie one after another in memory, while scattering them to their shards; each
/// shard then sorts its keys, and only ids whose keys tie are read again.
pub(super) fn shard_lists_by_id(ids: &[&str], shard_of: &[u32], shards: usize) -> (Vec<u32>, Vec<u32>) {
    let mut ends = vec![0u32; shards + 1];
    for &s in shard_of {
        ends[s as usize + 1] += 1;
    }
    for s in 0..shards {
        ends[s + 1] += ends[s];
    }
    let depth = match ids.split_first() {
        // most ids start with the prefix found so far: one comparison of it, mostly
        Some((first, rest)) => rest.iter().fold(first.len(), |len, id| {
            let prefix = &first.as_bytes()[..len];
            if id.as_bytes().starts_with(prefix) {
                len
            } else {
                common_len(prefix, id.as_bytes())
            }
        }),
        None => 0,
    };
    let mut next: Vec<u32> = ends[..shards].to_vec();
    let mut keys = vec![Keyed::ZERO; ids.len()];
    // and each id's second key, read now in input order as well: ids whose first keys tie
    // (often tests of one file, which share the path) are told apart by it without reading the
    // ids again in shard order, which is mostly cache misses
    let mut second = vec![[0u64; KEY_WORDS]; ids.len()];
    for (i, (&id, &s)) in ids.iter().zip(shard_of).enumerate() {
        let at = &mut next[s as usize];
        keys[*at as usize] = Keyed { key: radix_key(id, depth), at: i as u32 };
        *at += 1;
        if id.len() > depth + KEY_BYTES {
            second[i] = radix_key(id, depth + KEY_BYTES);
        }
    }
    let mut spare: Vec<Keyed> = Vec::new();
    for s in 0..shards {
        let run = &mut keys[ends[s] as usize..ends[s + 1] as usize];
        // in input order so far (`at` ascending), as `radix_sort` needs
        if run.len() >= RADIX_SORT_MIN {
            spare.resize(run.len(), Keyed::ZERO);
            radix_sort(run, &mut spare[..run.len()]);
        } else {
            run.sort_unstable();
        }
        let mut at = 0;
        while let Some(range) = next_full_tie(run, at) {
            at = range.end;
            // the same 23 bytes: the second keys decide, and if those tie too, the rest
            let tied = &mut run[range];
            let depth = depth + 2 * KEY_BYTES;
            let rest = |k: &Keyed| ids[k.at as usize].as_bytes().get(depth..).unwrap_or_default();
            let order = |a: &Keyed, b: &Keyed| {
                let (x, y) = (&second[a.at as usize], &second[b.at as usize]);
                let full = key_count(x) == KEY_BYTES;
                x.cmp(y).then_with(|| if full { rest(a).cmp(rest(b)) } else { Ordering::Equal }).then(a.at.cmp(&b.at))
            };
            if tied.len() == 2 {
                if order(&tied[0], &tied[1]) == Ordering::Greater {
                    tied.swap(0, 1);
                }
            } else {
                sort_tied(tied, ids, &second, depth - 2 * KEY_BYTES);
            }
        }
    }
    (keys.iter().map(|k| k.at).collect(), ends)
}

/// The first run, at or after `from`, of two or more equal keys that are full (ids alike over
/// all 23 bytes, so later bytes decide), as a range of `run`, which is sorted.
fn next_full_tie(run: &[Keyed], from: usize) -> Option<std::ops::Range<usize>> {
    let mut start = from;
    while start < run.len() {
        let end = start + run[start..].iter().take_while(|k| k.key == run[start].key).count();
        if end - start > 1 && run[start].count() == KEY_BYTES {
            return Some(start..end);
        }
        start = end;
    }
    None
}

/// Sorts `run`, whose keys at `depth` are equal and full, by the ids' bytes from `depth + 23`,
/// then `at`: the next keys (`second`'s first, then read from the ids) take the place of the
/// keys, which the sort then compares as it holds them (no look-up per comparison), and only
/// ids whose next keys tie too go a key further, as long as they do.
fn sort_tied(run: &mut [Keyed], ids: &[&str], second: &[[u64; KEY_WORDS]], depth: usize) {
    let mut todo = vec![(0, run.len(), depth + KEY_BYTES)];
    while let Some((from, to, depth_now)) = todo.pop() {
        let part = &mut run[from..to];
        for k in part.iter_mut() {
            let at = k.at as usize;
            k.key = if depth_now == depth + KEY_BYTES { second[at] } else { radix_key(ids[at], depth_now) };
        }
        part.sort_unstable();
        let mut at = 0;
        while let Some(tie) = next_full_tie(part, at) {
            at = tie.end;
            todo.push((from + tie.start, from + tie.end, depth_now + KEY_BYTES));
        }
    }
}

/// The length of the common prefix of `a` and `b`.
fn common_len(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// 64-bit words of a radix key.
const KEY_WORDS: usize = 3;
/// Bytes of an id one radix key covers: 23 of its bytes and, in the 24th, how many of them
/// exist. The longer the key, the fewer ids tie and are read again.
const KEY_BYTES: usize = 8 * KEY_WORDS - 1;

/// The radix key of `s` at `depth` as big-endian words: bytes `depth..depth + 23` (zero-padded
/// past the end), then `min(len - depth, 23)`. Among ids that share their first `depth` bytes,
/// comparing keys compares the ids' next bytes exactly (a zero pad only ties with a real zero
/// byte, and then the count puts the shorter id, a prefix of the other, first); equal keys with
/// a count below 23 are equal ids, and with 23 the bytes from `depth + 23` decide.
fn radix_key(s: &str, depth: usize) -> [u64; KEY_WORDS] {
    let b = s.as_bytes();
    if let Some(w) = b.get(depth..depth + 8 * KEY_WORDS) {
        // the common case, three loads: the last byte is not the id's, the count is 23
        let mut key = big_endian(w);
        key[KEY_WORDS - 1] = (key[KEY_WORDS - 1] & !0xff) | KEY_BYTES as u64;
        return key;
    }
    let rest = b.get(depth..).unwrap_or_default();
    let mut w = [0u8; 8 * KEY_WORDS];
    let n = rest.len().min(KEY_BYTES);
    w[..n].copy_from_slice(&rest[..n]);
    w[KEY_BYTES] = n as u8;
    big_endian(&w)
}

/// The big-endian words of `w` (24 bytes).
#[inline]
fn big_endian(w: &[u8]) -> [u64; KEY_WORDS] {
    let le = |i: usize| u64::from_le_bytes(w[8 * i..8 * i + 8].try_into().unwrap_or_default());
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        // wasm has no byte swap instruction (a swap is some twenty shifts and masks): one
        // shuffle reverses the bytes of both words of a vector
        use core::arch::wasm32::{i8x16_shuffle, u64x2, u64x2_extract_lane};
        let swap = |v| i8x16_shuffle::<7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8>(v, v);
        let (a, b) = (swap(u64x2(le(0), le(1))), swap(u64x2(le(2), 0)));
        [u64x2_extract_lane::<0>(a), u64x2_extract_lane::<1>(a), u64x2_extract_lane::<0>(b)]
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        std::array::from_fn(|i| le(i).swap_bytes())
    }
}

/// One element being sorted: an id's [`radix_key`] and the item's position in its run.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Keyed {
    key: [u64; KEY_WORDS],
    at: u32,
}

impl Keyed {
    const ZERO: Keyed = Keyed { key: [0; KEY_WORDS], at: 0 };

    fn count(&self) -> usize {
        key_count(&self.key)
    }
}

/// How many bytes of the id a [`radix_key`] holds: below [`KEY_BYTES`], the id ends there.
fn key_count(key: &[u64; KEY_WORDS]) -> usize {
    (key[KEY_WORDS - 1] & 0xff) as usize
}

/// Buckets at most this long are sorted by comparison; longer ones by a radix pass.
const COMPARISON_SORT_MAX: usize = 64;

/// Shards with at least this many units sort their keys by [`radix_sort`], smaller ones by
/// comparison (both sort plain integers; for a few thousand of them, comparison is faster).
const RADIX_SORT_MIN: usize = 4096;

/// Sorts `keys` (by `key`, then `at`), given that they start in `at` order: a stable
/// most-significant-byte radix sort, each bucket going on from the first byte on which its keys
/// differ, small buckets sorted by comparison. A pass only reads the cached keys, and a key takes
/// part only until its bucket is small, which for ids (long shared prefixes, then a few
/// distinguishing bytes) is a few passes. `spare` is scratch as long as `keys`.
fn radix_sort(keys: &mut [Keyed], spare: &mut [Keyed]) {
    if keys.len() <= COMPARISON_SORT_MAX {
        keys.sort_unstable();
        return;
    }
    let first = keys[0].key;
    let mut differ = [0u64; KEY_WORDS];
    for k in keys.iter() {
        for w in 0..KEY_WORDS {
            differ[w] |= k.key[w] ^ first[w];
        }
    }
    // the most significant byte that differs, if any
    let Some(word) = differ.iter().position(|&d| d != 0) else {
        return; // equal keys, still in `at` order
    };
    let shift = 56 - 8 * (differ[word].leading_zeros() / 8);
    let digit = |k: &Keyed| ((k.key[word] >> shift) & 0xff) as usize;
    let mut counts = [0u32; 256];
    for k in keys.iter() {
        counts[digit(k)] += 1;
    }
    let mut next = [0u32; 256];
    let mut sum = 0;
    for (n, &c) in next.iter_mut().zip(&counts) {
        (*n, sum) = (sum, sum + c);
    }
    let starts = next;
    for k in keys.iter() {
        let at = &mut next[digit(k)];
        spare[*at as usize] = *k;
        *at += 1;
    }
    keys.copy_from_slice(spare);
    for (&start, &count) in starts.iter().zip(&counts).filter(|(_, &c)| c > 1) {
        let (start, end) = (start as usize, (start + count) as usize);
        radix_sort(&mut keys[start..end], &mut spare[start..end]);
    }
}

/// `s` cut into the `n` pieces that each end at a NUL, or `None` when it holds another number of
/// NULs (a piece holds one), does not end with one, or holds U+FFFD (`EF BF BD`: what a lone
/// surrogate becomes on its way from JavaScript; the JSON path tells them apart). One pass,
/// eight bytes at a time, looking for NUL and for `EF`, which is rare in ids and paths (the
/// lead byte of U+F000..U+FFFF), and only then an exact search for U+FFFD. The bindings' glue
/// sends ids, files and groups this way (a string holding a NUL takes the JSON path).
pub fn split_nul_terminated(s: &str, n: usize) -> Option<Vec<&str>> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(n);
    let (mut start, mut pos, mut lead) = (0usize, 0usize, false);
    let mut cut = |at: usize, start: &mut usize| {
        out.push(s.get(*start..at));
        *start = at + 1;
    };
    while let Some(w) = b.get(pos..pos + 8) {
        let w = u64::from_le_bytes(w.try_into().unwrap_or_default());
        // the lowest flagged byte of the classic has-zero-byte test is exactly the first zero
        let zero = w.wrapping_sub(ONES) & !w & HIGH;
        let x = w ^ (0xef * ONES);
        lead |= x.wrapping_sub(ONES) & !x & HIGH != 0;
        if zero == 0 {
            pos += 8;
        } else {
            let at = pos + (zero.trailing_zeros() / 8) as usize;
            cut(at, &mut start);
            pos = at + 1;
        }
    }
    for (at, &c) in b.iter().enumerate().skip(pos) {
        lead |= c == 0xef;
        if c == 0 {
            cut(at, &mut start);
        }
    }
    if start != b.len() || out.len() != n || (lead && s.contains(char::REPLACEMENT_CHARACTER)) {
        return None;
    }
    out.into_iter().collect()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod sort_tests {
    use proptest::prelude::*;

    proptest! {
        /// The radix sort of keys gives exactly the order of `sort_unstable`, on the keys of ids
        /// with long shared prefixes, zero bytes, duplicates and prefixes of each other.
        #[test]
        fn radix_sort_matches_the_comparison_sort(ids in prop::collection::vec(prop::sample::select(vec![
            "", "a", "a\0", "a\0\0", "tests/", "tests/a.spec.ts", "tests/a.spec.ts \u{203a} x", "tests/b", "\u{ff}", "zz",
            "tests/a/long/shared/prefix/of/many/ids/",
        ]).prop_flat_map(|p| (Just(p), "[a\\x00\\u{203a}0-9]{0,20}")).prop_map(|(p, s)| format!("{p}{s}")), 0..600)) {
            let mut keys: Vec<super::Keyed> = ids.iter().enumerate().map(|(i, s)| {
                super::Keyed { key: super::radix_key(s, 0), at: i as u32 }
            }).collect();
            let mut want = keys.clone();
            want.sort_unstable();
            let mut spare = keys.clone();
            super::radix_sort(&mut keys, &mut spare);
            prop_assert!(keys == want, "radix_sort differs from sort_unstable");
        }

        /// Every shard's list holds its units in the order of `sort_unstable` on `(id, index)`.
        #[test]
        fn shard_lists_are_sorted_by_id(units in prop::collection::vec((prop::sample::select(vec![
            "", "a", "a\0", "tests/a.spec.ts \u{203a} x", "tests/a.spec.ts \u{203a} x \u{203a} y", "tests/b",
            // longer than two keys: ties of first and second keys, decided by the rest
            "tests/a/long/shared/prefix/of/many/ids/and/more/of/it \u{203a} ",
            // ties over several keys more
            "tests/a/long/shared/prefix/of/many/ids/and/more/of/it/and/yet/more/of/it/still/going/on/and/on/and/on \u{203a} ",
        ]).prop_flat_map(|p| (Just(p), "[a\x00\u{203a}0-9]{0,3}", "[a\x00\u{203a}0-9]{0,20}")).prop_map(|(p, s, t)| format!("{s}{p}{t}")), 0u32..4), 0..300)) {
            let ids: Vec<&str> = units.iter().map(|u| u.0.as_str()).collect();
            let shard_of: Vec<u32> = units.iter().map(|u| u.1).collect();
            let (list, ends) = super::shard_lists_by_id(&ids, &shard_of, 4);
            for s in 0..4 {
                let mut want: Vec<(&str, u32)> = (0..ids.len() as u32).filter(|&i| shard_of[i as usize] == s).map(|i| (ids[i as usize], i)).collect();
                want.sort_unstable();
                let got = &list[ends[s as usize] as usize..ends[s as usize + 1] as usize];
                prop_assert_eq!(got, want.iter().map(|w| w.1).collect::<Vec<_>>());
            }
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod split_tests {
    use proptest::prelude::*;

    proptest! {
        /// The fast scan agrees with `contains` on text made of ASCII, U+FFFD, its neighbours and
        /// other characters with the same lead byte.
        #[test]
        fn the_nul_split_refuses_exactly_every_u_fffd(s in "[a\u{fffc}\u{fffd}\u{fffe}\u{f000}\u{203a}]{0,40}") {
            prop_assert_eq!(super::split_nul_terminated(&format!("{s}\0"), 1).is_none(), s.contains('\u{fffd}'));
        }

        /// Pieces each ending with a NUL come back exactly, whatever their lengths (the eight-byte
        /// steps and the byte tail); a NUL inside a piece, a missing last NUL or a U+FFFD is refused.
        #[test]
        fn split_nul_terminated_cuts_at_each_nul(pieces in prop::collection::vec("[a\u{e9}\u{203a}\u{f000}\u{1f600}]{0,20}", 0..20), at in 0usize..20) {
            let text: String = pieces.iter().map(|p| format!("{p}\0")).collect();
            let want: Vec<&str> = pieces.iter().map(String::as_str).collect();
            prop_assert_eq!(super::split_nul_terminated(&text, pieces.len()), Some(want));
            prop_assert_eq!(super::split_nul_terminated(&text, pieces.len() + 1), None);
            if !pieces.is_empty() {
                prop_assert_eq!(super::split_nul_terminated(&text[..text.len() - 1], pieces.len()), None);
                let i = at % pieces.len();
                let mut inner = pieces.clone();
                inner[i].push('\0');
                let text: String = inner.iter().map(|p| format!("{p}\0")).collect();
                prop_assert_eq!(super::split_nul_terminated(&text, pieces.len()), None);
                inner[i].pop();
                inner[i].push(char::REPLACEMENT_CHARACTER);
                let text: String = inner.iter().map(|p| format!("{p}\0")).collect();
                prop_assert_eq!(super::split_nul_terminated(&text, pieces.len()), None);
            }
        }
    }
}
