//! Indivisible groups: units joined by the same `group`, and with `unit: 'file'` by the same
//! file, transitively (union-find), so neither a group nor a file is ever split.

use super::options::UnitKind;
use super::units::{Canon, NONE};

/// Units that always share a shard, numbered in order of their first (canonical) unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Groups {
    /// Per group, the sum of its units' durations.
    pub weights: Vec<u64>,
    /// Per canonical unit, its group.
    pub of_unit: Vec<u32>,
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    // the smaller canonical index is the root: the result does not depend on union order
    if ra < rb {
        parent[rb] = ra;
    } else if rb < ra {
        parent[ra] = rb;
    }
}

/// The groups of `canon`'s units (`ms`: their durations).
pub(super) fn build(canon: &Canon, ms: &[u64], kind: UnitKind) -> Groups {
    let n = canon.units.len();
    let mut parent: Vec<usize> = (0..n).collect();
    let mut first_of_group = vec![usize::MAX; canon.groups.len()];
    let mut first_of_file = vec![usize::MAX; if kind == UnitKind::File { canon.files.len() } else { 0 }];
    for (i, u) in canon.units.iter().enumerate() {
        if u.group != NONE {
            let first = &mut first_of_group[u.group as usize];
            if *first == usize::MAX {
                *first = i;
            }
            union(&mut parent, *first, i);
        }
        if kind == UnitKind::File && u.file != NONE {
            let first = &mut first_of_file[u.file as usize];
            if *first == usize::MAX {
                *first = i;
            }
            union(&mut parent, *first, i);
        }
    }
    // a root is its group's first unit (the smallest index), so it comes before its members
    let mut of_unit = vec![0u32; n];
    let mut weights: Vec<u64> = Vec::new();
    for (i, &w) in ms.iter().enumerate().take(n) {
        let root = find(&mut parent, i);
        let g = if root == i {
            weights.push(0);
            weights.len() - 1
        } else {
            of_unit[root] as usize
        };
        of_unit[i] = g as u32;
        weights[g] = weights[g].saturating_add(w);
    }
    Groups { weights, of_unit }
}
