//! Estimates for units without a prediction, in this order:
//! 1. the mean of the known units of the same file (rounded half up),
//! 2. else the median of all known units (the mean of the two middle ones, rounded half up,
//!    for an even count),
//! 3. else `defaultDurationMs`.

use super::units::{Canon, NONE};

/// Every unit's duration (known or estimated) and how many were estimated.
pub(super) struct Resolved {
    pub ms: Vec<u64>,
    pub estimated: u32,
}

fn mean_half_up(sum: u64, count: u64) -> u64 {
    (sum + count / 2) / count
}

pub(super) fn resolve(canon: &Canon, default_ms: u64) -> Resolved {
    let mut per_file: Vec<(u64, u64)> = vec![(0, 0); canon.files.len()];
    let mut known: Vec<u64> = Vec::with_capacity(canon.units.len());
    for u in &canon.units {
        if let Some(ms) = u.known_ms {
            known.push(ms);
            if u.file != NONE {
                let e = &mut per_file[u.file as usize];
                e.0 += ms;
                e.1 += 1;
            }
        }
    }
    let n = known.len();
    let median = match n {
        0 => None,
        _ => {
            let (below, &mut upper, _) = known.select_nth_unstable(n / 2);
            if n % 2 == 1 {
                Some(upper)
            } else {
                let lower = below.iter().copied().max().unwrap_or(upper);
                Some(mean_half_up(lower + upper, 2))
            }
        }
    };
    let mut estimated = 0u32;
    let ms = canon
        .units
        .iter()
        .map(|u| {
            u.known_ms.unwrap_or_else(|| {
                estimated += 1;
                let file = (u.file != NONE).then(|| per_file[u.file as usize]).filter(|&(_, count)| count > 0);
                file.map(|(sum, count)| mean_half_up(sum, count)).or(median).unwrap_or(default_ms)
            })
        })
        .collect();
    Resolved { ms, estimated }
}
