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

/// Distinct strings sorted, and each input's index among them.
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
    let mut order: Vec<u32> = (0..distinct.len() as u32).collect();
    order.sort_unstable_by_key(|&i| distinct[i as usize]);
    let mut rank = vec![0u32; distinct.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i as usize] = r as u32;
    }
    let sorted = order.iter().map(|&i| distinct[i as usize]).collect();
    (sorted, raw.into_iter().map(|i| if i == NONE { NONE } else { rank[i as usize] }).collect())
}

/// Checks the units (non-empty, unique ids; finite durations) and sorts them by id, the total
/// key that makes the plan independent of input order.
pub(super) fn canonical<'a>(input: &'a [Unit<'_>]) -> Result<Canon<'a>> {
    let mut known = Vec::with_capacity(input.len());
    for (i, u) in input.iter().enumerate() {
        if u.id.is_empty() {
            return Err(Error::invalid_input(format!("units[{i}].id is empty; every unit needs a unique id")));
        }
        known.push(to_ms(u.duration_ms, &u.id)?);
    }
    let mut keyed: Vec<(&str, u32)> = input.iter().enumerate().map(|(i, u)| (&*u.id, i as u32)).collect();
    if !keyed.is_sorted() {
        keyed.sort_unstable();
    }
    let order: Vec<u32> = keyed.iter().map(|k| k.1).collect();
    for w in keyed.windows(2) {
        let (a, b) = (w[0].1 as usize, w[1].1 as usize);
        if w[0].0 == w[1].0 {
            return Err(Error::invalid_input(format!(
                "unit id {:?} appears twice (units[{}] and units[{}]); ids must be unique",
                input[a].id,
                a.min(b),
                a.max(b)
            )));
        }
    }
    let sorted = || order.iter().map(|&i| &input[i as usize]);
    let (files, file_ix) = intern(sorted().map(|u| u.file.as_deref()));
    let (groups, group_ix) = intern(sorted().map(|u| u.group.as_deref()));
    let units = order
        .iter()
        .enumerate()
        .map(|(k, &i)| CanonUnit {
            id: &input[i as usize].id,
            file: file_ix[k],
            group: group_ix[k],
            known_ms: known[i as usize],
        })
        .collect();
    Ok(Canon { units, files, groups })
}
