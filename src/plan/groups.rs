//! Indivisible groups: units joined by the same `group`, and with `unit: 'file'` by the same
//! file, transitively (union-find), so neither a group nor a file is ever split.

use std::collections::HashMap;

use super::options::UnitKind;
use super::units::CanonUnit;

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
pub(super) fn build(units: &[CanonUnit], ms: &[u64], kind: UnitKind) -> Vec<Group> {
    let mut parent: Vec<usize> = (0..units.len()).collect();
    let mut by_group: HashMap<&str, usize> = HashMap::new();
    let mut by_file: HashMap<&str, usize> = HashMap::new();
    for (i, u) in units.iter().enumerate() {
        if let Some(g) = &u.group {
            let first = *by_group.entry(g.as_str()).or_insert(i);
            union(&mut parent, first, i);
        }
        if kind == UnitKind::File {
            if let Some(f) = &u.file {
                let first = *by_file.entry(f.as_str()).or_insert(i);
                union(&mut parent, first, i);
            }
        }
    }
    let mut index_of_root: HashMap<usize, usize> = HashMap::new();
    let mut groups: Vec<Group> = Vec::new();
    for (i, &w) in ms.iter().enumerate().take(units.len()) {
        let root = find(&mut parent, i);
        let g = *index_of_root.entry(root).or_insert_with(|| {
            groups.push(Group { units: Vec::new(), weight: 0, id: groups.len() });
            groups.len() - 1
        });
        groups[g].units.push(i);
        groups[g].weight = groups[g].weight.saturating_add(w);
    }
    groups
}
