//! Indivisible groups: units joined by the same `group`, and with `unit: 'file'` by the same
//! file, transitively (union-find), so neither a group nor a file is ever split.

use super::options::UnitKind;
use super::units::{Canon, NONE};

/// Units that always share a shard. `units` are canonical indices, ascending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Group {
    pub units: Vec<usize>,
    pub weight: u64,
    /// Index in the vector [`build`] returns (groups are ordered by their first unit).
    pub id: usize,
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

/// Groups in order of their first unit; `Group::id` is the index in the returned vector.
pub(super) fn build(canon: &Canon, ms: &[u64], kind: UnitKind) -> Vec<Group> {
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
    let mut group_of_root = vec![usize::MAX; n];
    let mut groups: Vec<Group> = Vec::new();
    for (i, &w) in ms.iter().enumerate().take(n) {
        let root = find(&mut parent, i);
        if group_of_root[root] == usize::MAX {
            group_of_root[root] = groups.len();
            groups.push(Group { units: Vec::new(), weight: 0, id: groups.len() });
        }
        let g = &mut groups[group_of_root[root]];
        g.units.push(i);
        g.weight = g.weight.saturating_add(w);
    }
    groups
}
