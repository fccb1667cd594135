//! Estimates for units without a prediction: the mean (rounded half up) of the known units
//! nearest them in the file tree, in this order:
//! 1. the known units of the same file,
//! 2. else those of the nearest enclosing directory that has any (`a/b/c.ts`: `a/b/`, then
//!    `a/`; `/` and `\` both separate), files below it included,
//! 3. else all known units,
//! 4. else `defaultDurationMs`.
//!
//! Means, not medians: the planner adds estimates up, and a mean is what a sum of unknown units
//! is expected to be; a median of a heavy-tailed suite (most tests fast, a few slow) undercounts a
//! new spec file several times over. On `bench:plan`'s drift pairs (plan with an older durations
//! file, run the newer one) this rule took the mean makespan / lower bound from 1.216 (file
//! mean, else the median of all known units) to 1.186.

use super::units::{Canon, NONE};

/// Every unit's duration (known or estimated) and how many were estimated.
pub(super) struct Resolved {
    pub ms: Vec<u64>,
    pub estimated: u32,
}

fn mean_half_up(sum: u64, count: u64) -> u64 {
    (sum + count / 2) / count
}

/// The mean of the known units under `dir` (ending in a separator) and below, if any. Files are
/// sorted by name, so those under `dir` (starting with it) are one range of them, and `acc`
/// (prefix sums of the files' `(sum, count)` of known units) gives their sum and count.
fn directory_mean(files: &[&str], acc: &[(u64, u64)], dir: &str) -> Option<u64> {
    let lo = files.partition_point(|x| *x < dir);
    let hi = lo + files[lo..].partition_point(|x| x.starts_with(dir));
    let (sum, count) = (acc[hi].0 - acc[lo].0, acc[hi].1 - acc[lo].1);
    (count > 0).then(|| mean_half_up(sum, count))
}

/// The enclosing directories of a file name, nearest first, each with its trailing separator.
fn directories(name: &str) -> impl Iterator<Item = &str> {
    name.bytes().enumerate().rev().filter(|&(_, b)| b == b'/' || b == b'\\').map(move |(i, _)| &name[..=i])
}

pub(super) fn resolve(canon: &Canon, default_ms: u64) -> Resolved {
    let mut per_file: Vec<(u64, u64)> = vec![(0, 0); canon.files.len()];
    let (mut sum, mut count) = (0u64, 0u64);
    for u in &canon.units {
        if let Some(ms) = u.known_ms {
            sum += ms;
            count += 1;
            if u.file != NONE {
                let e = &mut per_file[u.file as usize];
                e.0 += ms;
                e.1 += 1;
            }
        }
    }
    let overall = if count > 0 { mean_half_up(sum, count) } else { default_ms };
    // per file, the estimate for its unknown units: the file's mean, else its directories'
    let mut of_file: Vec<Option<u64>> = per_file.iter().map(|&(s, c)| (c > 0).then(|| mean_half_up(s, c))).collect();
    let mut needs_directory = vec![false; canon.files.len()];
    for u in &canon.units {
        if u.known_ms.is_none() && u.file != NONE && of_file[u.file as usize].is_none() {
            needs_directory[u.file as usize] = true;
        }
    }
    if needs_directory.contains(&true) {
        let mut acc: Vec<(u64, u64)> = Vec::with_capacity(per_file.len() + 1);
        acc.push((0, 0));
        for (i, &(s, c)) in per_file.iter().enumerate() {
            acc.push((acc[i].0 + s, acc[i].1 + c));
        }
        // in name order, files of one directory come together: the last answer is reused
        let mut last: Option<(&str, u64)> = None;
        for f in (0..canon.files.len()).filter(|&f| needs_directory[f]) {
            let name = canon.files[f];
            let nearest = directories(name).next();
            let ms = match (nearest, last) {
                (Some(dir), Some((seen, ms))) if dir == seen => ms,
                _ => {
                    let ms = directories(name).find_map(|d| directory_mean(&canon.files, &acc, d)).unwrap_or(overall);
                    last = nearest.map(|d| (d, ms));
                    ms
                }
            };
            of_file[f] = Some(ms);
        }
    }
    let mut estimated = 0u32;
    let ms = canon
        .units
        .iter()
        .map(|u| {
            u.known_ms.unwrap_or_else(|| {
                estimated += 1;
                of_file.get(u.file as usize).copied().flatten().unwrap_or(overall)
            })
        })
        .collect();
    Resolved { ms, estimated }
}
