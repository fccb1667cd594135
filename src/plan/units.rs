//! Units in canonical order with integer-millisecond predictions.

use std::collections::HashMap;

use super::{Unit, MAX_DURATION_MS};
use crate::error::{Error, Result};

/// A unit after checking: sorted by `id` (unique), prediction in whole milliseconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CanonUnit {
    pub id: String,
    pub file: Option<String>,
    pub group: Option<String>,
    /// `None`: no usable prediction (missing, zero or negative).
    pub known_ms: Option<u64>,
}

/// A prediction in whole milliseconds: positive values round to the nearest millisecond but
/// never below 1 (a measured test is never free); zero and negative values are unknown.
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

/// Checks the units (non-empty, unique ids; finite durations) and sorts them by id, the total
/// key that makes the plan independent of input order.
pub(super) fn canonical(input: &[Unit]) -> Result<Vec<CanonUnit>> {
    let mut seen: HashMap<&str, usize> = HashMap::with_capacity(input.len());
    let mut out = Vec::with_capacity(input.len());
    for (i, u) in input.iter().enumerate() {
        if u.id.is_empty() {
            return Err(Error::invalid_input(format!("units[{i}].id is empty; every unit needs a unique id")));
        }
        if let Some(first) = seen.insert(&u.id, i) {
            return Err(Error::invalid_input(format!(
                "unit id {:?} appears twice (units[{first}] and units[{i}]); ids must be unique",
                u.id
            )));
        }
        out.push(CanonUnit { id: u.id.clone(), file: u.file.clone(), group: u.group.clone(), known_ms: to_ms(u.duration_ms, &u.id)? });
    }
    out.sort_unstable_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}
