//! Units in canonical order with integer-millisecond predictions, files and groups interned.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::{Unit, MAX_DURATION_MS};
use crate::error::{Error, Result};

/// "No file" / "no group" in [`Canon::file`] and [`Canon::group`].
pub(super) const NONE: u32 = u32::MAX;

/// A unit after checking, borrowing its strings from the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct CanonUnit<'a> {
    pub id: &'a str,
    /// Index into [`Canon::files`], or [`NONE`].
    pub file: u32,
    /// Index into [`Canon::groups`], or [`NONE`].
    pub group: u32,
    /// `None`: no usable prediction (missing, zero or negative).
    pub known_ms: Option<u64>,
}

/// The checked units sorted by id (unique), and the distinct files and groups, each sorted, so
/// comparing indices compares the strings.
#[derive(Debug, Clone)]
pub(super) struct Canon<'a> {
    pub units: Vec<CanonUnit<'a>>,
    /// `order[i]`: the input index of canonical unit `i`.
    pub order: Vec<u32>,
    pub files: Vec<&'a str>,
    pub groups: Vec<&'a str>,
}

/// A prediction in whole milliseconds: positive values round to the nearest millisecond (half
/// away from zero) but never below 1 (a measured test is never free); zero and negative values
/// are unknown.
pub(super) fn to_ms(value: Option<f64>, id: &str) -> Result<Option<u64>> {
    match value {
        None => Ok(None),
        Some(v) if !v.is_finite() => Err(Error::invalid_input(format!("unit {id:?}: durationMs must be a finite number, got {v}"))),
        Some(v) if v <= 0.0 => Ok(None),
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
fn rank<'a>(names: &[&'a str]) -> (Vec<&'a str>, Vec<u32>) {
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

/// Checks the units (non-empty, unique ids; finite durations) and sorts them by id, the total
/// key that makes the plan independent of input order.
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
    let mut known = Vec::with_capacity(c.ids.len());
    for (i, (&id, &d)) in c.ids.iter().zip(&c.durations).enumerate() {
        if id.is_empty() {
            return Err(Error::invalid_input(format!("units[{i}].id is empty; every unit needs a unique id")));
        }
        known.push(to_ms(d, id)?);
    }
    let mut keyed: Vec<(&'a str, u32)> = c.ids.iter().enumerate().map(|(i, &id)| (id, i as u32)).collect();
    // the radix sort sees every pair of equal ids; a sorted input is checked below
    let maybe_twice = keyed.is_sorted() || sort_keyed(&mut keyed);
    let order: Vec<u32> = keyed.iter().map(|k| k.1).collect();
    for w in keyed.windows(2).filter(|_| maybe_twice) {
        let (a, b) = (w[0].1 as usize, w[1].1 as usize);
        if w[0].0 == w[1].0 {
            return Err(Error::invalid_input(format!(
                "unit id {:?} appears twice (units[{}] and units[{}]); ids must be unique",
                c.ids[a],
                a.min(b),
                a.max(b)
            )));
        }
    }
    let (files, file_rank) = rank(&c.file_names);
    let (groups, group_rank) = rank(&c.group_names);
    let at = |ranks: &[u32], i: u32| if i == NONE { NONE } else { ranks[i as usize] };
    let units = keyed
        .iter()
        .map(|&(id, i)| CanonUnit {
            id,
            file: at(&file_rank, c.file_of[i as usize]),
            group: at(&group_rank, c.group_of[i as usize]),
            known_ms: known[i as usize],
        })
        .collect();
    Ok(Canon { units, order, files, groups })
}

/// The 16 bytes of `s` from `depth` as a big-endian integer pair, zero-padded past the end:
/// comparing these compares the strings' bytes at `depth..depth + 16`.
fn chunk(s: &str, depth: usize) -> (u64, u64) {
    let b = s.as_bytes();
    let mut w = [0u8; 16];
    if depth + 16 <= b.len() {
        w.copy_from_slice(&b[depth..depth + 16]);
    } else if depth < b.len() {
        w[..b.len() - depth].copy_from_slice(&b[depth..]);
    }
    let (hi, lo) = w.split_at(8);
    (u64::from_be_bytes(hi.try_into().unwrap_or_default()), u64::from_be_bytes(lo.try_into().unwrap_or_default()))
}

/// Sorts `(id, index)` pairs exactly as `sort_unstable` would (by the id's bytes, then the
/// index), but as a most-significant-digit radix sort on 16-byte chunks: each pass sorts plain
/// integers, so comparisons do not chase string pointers (the cost of a comparison sort of
/// 100,000 ids is mostly cache misses). Returns whether two ids may be equal: `false` proves
/// they are all distinct (equal ids always meet in a comparison, which notes it).
fn sort_keyed(items: &mut [(&str, u32)]) -> bool {
    let mut keys: Vec<(u64, u64, u32)> = Vec::with_capacity(items.len());
    let mut scratch: Vec<(&str, u32)> = Vec::with_capacity(items.len());
    let mut equal = false;
    sort_from(items, 0, &mut keys, &mut scratch, &mut equal);
    equal
}

/// Sorts by the bytes from `depth` (all items share the ones before), then the index; sets
/// `equal` when two ids are the same. Every adjacent pair of the result has been compared, so
/// equal ids are always seen.
fn compare_sort(items: &mut [(&str, u32)], depth: usize, equal: &mut bool) {
    items.sort_unstable_by(|a, b| {
        let o = a.0.as_bytes()[depth.min(a.0.len())..].cmp(&b.0.as_bytes()[depth.min(b.0.len())..]);
        if o == std::cmp::Ordering::Equal {
            *equal = true;
        }
        o.then(a.1.cmp(&b.1))
    });
}

fn sort_from<'a>(
    items: &mut [(&'a str, u32)],
    mut depth: usize,
    keys: &mut Vec<(u64, u64, u32)>,
    scratch: &mut Vec<(&'a str, u32)>,
    equal: &mut bool,
) {
    loop {
        if items.len() <= 32 {
            // all share their first `depth` bytes
            compare_sort(items, depth, equal);
            return;
        }
        keys.clear();
        keys.extend(items.iter().enumerate().map(|(i, it)| {
            let (hi, lo) = chunk(it.0, depth);
            (hi, lo, i as u32)
        }));
        let first = (keys[0].0, keys[0].1);
        if keys.iter().all(|k| (k.0, k.1) == first) {
            // a common chunk: nothing to sort at this depth
            if items.iter().any(|it| it.0.len() < depth + 16) {
                // some end here (equal up to their end, or zero bytes): compare in full
                compare_sort(items, depth, equal);
                return;
            }
            depth += 16;
            continue;
        }
        keys.sort_unstable();
        scratch.clear();
        scratch.extend(keys.iter().map(|k| items[k.2 as usize]));
        items.copy_from_slice(scratch);
        // runs of an equal chunk: the next 16 bytes decide
        let runs: Vec<(usize, usize)> = {
            let mut runs = Vec::new();
            let mut start = 0;
            for i in 1..=keys.len() {
                if i == keys.len() || (keys[i].0, keys[i].1) != (keys[start].0, keys[start].1) {
                    if i - start > 1 {
                        runs.push((start, i));
                    }
                    start = i;
                }
            }
            runs
        };
        for (start, end) in runs {
            let run = &mut items[start..end];
            if run.iter().any(|it| it.0.len() < depth + 16) {
                compare_sort(run, depth, equal);
            } else {
                sort_from(run, depth + 16, keys, scratch, equal);
            }
        }
        return;
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod sort_tests {
    use proptest::prelude::*;

    proptest! {
        /// The radix sort gives exactly the order of `sort_unstable` (bytes, then index), on ids
        /// with long shared prefixes, zero bytes, duplicates and prefixes of each other.
        #[test]
        fn radix_sort_matches_the_comparison_sort(ids in prop::collection::vec(prop::sample::select(vec![
            "", "a", "a\0", "a\0\0", "tests/", "tests/a.spec.ts", "tests/a.spec.ts \u{203a} x", "tests/b", "\u{ff}", "zz",
        ]).prop_flat_map(|p| (Just(p), "[a\\x00\\u{203a}0-9]{0,20}")).prop_map(|(p, s)| format!("{p}{s}")), 0..300)) {
            let mut a: Vec<(&str, u32)> = ids.iter().enumerate().map(|(i, s)| (s.as_str(), i as u32)).collect();
            let mut b = a.clone();
            a.sort_unstable();
            let maybe_twice = super::sort_keyed(&mut b);
            let twice = a.windows(2).any(|w| w[0].0 == w[1].0);
            prop_assert_eq!(a, b);
            prop_assert!(maybe_twice || !twice, "a duplicate went unnoticed");
        }
    }
}
