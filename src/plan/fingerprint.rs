//! The plan fingerprint: lowercase hex SHA-1 of a canonical serialization of the input and the
//! plan, so two runs (or two CI shards) can check they computed the same plan.
//!
//! The serialization (version 1) is the compact JSON of
//! `{"v":1,"shardCount":N,"unit":"test"|"file","defaultDurationMs":D,"perShardOverheadMs":O,
//! "workers":W,"units":[[id,file,group,knownMs],...],"shards":[[unitId,...],...]}` where units are
//! sorted by id, absent `file`/`group`/`knownMs` are `null`, `knownMs` is the prediction in whole
//! milliseconds (null when unknown), and each shard lists its unit ids sorted. serde_json writes
//! it with fields in this order and no whitespace, so it is the same on every host.

use serde::Serialize;

use super::options::{Settings, UnitKind};
use super::units::CanonUnit;
use super::Shard;

/// `[id, file, group, knownMs]`.
type CanonicalUnit<'a> = (&'a str, Option<&'a str>, Option<&'a str>, Option<u64>);

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Canonical<'a> {
    v: u32,
    shard_count: u32,
    unit: UnitKind,
    default_duration_ms: u64,
    per_shard_overhead_ms: u64,
    workers: u32,
    units: Vec<CanonicalUnit<'a>>,
    shards: Vec<&'a [String]>,
}

pub(super) fn fingerprint(units: &[CanonUnit], s: &Settings, shards: &[Shard]) -> String {
    let canonical = Canonical {
        v: 1,
        shard_count: s.shard_count,
        unit: s.unit,
        default_duration_ms: s.default_duration_ms,
        per_shard_overhead_ms: s.per_shard_overhead_ms,
        workers: s.workers,
        units: units.iter().map(|u| (u.id.as_str(), u.file.as_deref(), u.group.as_deref(), u.known_ms)).collect(),
        shards: shards.iter().map(|sh| sh.units.as_slice()).collect(),
    };
    // Serializing plain strings, integers and sequences cannot fail.
    let bytes = serde_json::to_vec(&canonical).unwrap_or_default();
    sha1_smol::Sha1::from(bytes).digest().to_string()
}
