//! Estimates for units without a prediction, in this order:
//! 1. the mean of the known units of the same file (rounded half up),
//! 2. else the median of all known units (the mean of the two middle ones, rounded half up,
//!    for an even count),
//! 3. else `defaultDurationMs`.

use std::collections::BTreeMap;

use super::units::CanonUnit;

/// Every unit's duration (known or estimated) and how many were estimated.
pub(super) struct Resolved {
    pub ms: Vec<u64>,
    pub estimated: u32,
}

fn mean_half_up(sum: u64, count: u64) -> u64 {
    (sum + count / 2) / count
}

pub(super) fn resolve(units: &[CanonUnit], default_ms: u64) -> Resolved {
    let mut per_file: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    let mut known: Vec<u64> = Vec::new();
    for u in units {
        if let Some(ms) = u.known_ms {
            known.push(ms);
            if let Some(f) = &u.file {
                let e = per_file.entry(f.as_str()).or_insert((0, 0));
                e.0 += ms;
                e.1 += 1;
            }
        }
    }
    known.sort_unstable();
    let median = match known.len() {
        0 => None,
        n if n % 2 == 1 => Some(known[n / 2]),
        n => Some(mean_half_up(known[n / 2 - 1] + known[n / 2], 2)),
    };
    let mut estimated = 0u32;
    let ms = units
        .iter()
        .map(|u| {
            u.known_ms.unwrap_or_else(|| {
                estimated += 1;
                u.file
                    .as_deref()
                    .and_then(|f| per_file.get(f))
                    .map(|&(sum, count)| mean_half_up(sum, count))
                    .or(median)
                    .unwrap_or(default_ms)
            })
        })
        .collect();
    Resolved { ms, estimated }
}
