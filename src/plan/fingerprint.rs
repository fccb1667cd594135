//! The plan fingerprint: lowercase hex SHA-1 (40 characters) of a canonical encoding of the
//! input and the plan, so two runs (or two CI shards) can check they computed the same plan.
//!
//! The encoding (version 4): SHA-1 of
//! 1. the header, compact JSON: `{"v":4,"shardCount":N,"unit":"test"|"file","defaultDurationMs":D,
//!    "perShardOverheadMs":O,"workers":W,"files":[...],"groups":[...]}` with the distinct files and
//!    groups sorted (bytewise UTF-8), and `"costs":{"perWorkerMs":..,"perFileMs":..,"perTestMs":..,
//!    "files":{..}}` after them when any cost is set (so a plan without costs keeps its fingerprint),
//!    and `"setups":[{"id":..,"durationMs":..,"level":..,"teardown":..}]` last when there are setups;
//! 2. then the 16 bytes (little-endian) of a [`Lanes`] digest of, per unit in canonical order
//!    (see [`super::units`]), the 64-bit words: the id's [`hash128`] (two words), `file index |
//!    group index << 32` (each `0xFFFFFFFF` when absent), `knownMs` (`u64::MAX` when unknown) and
//!    the unit's 1-based shard; then, with setups, per unit its setups' mask (bit `k`: the `k`-th
//!    setup by id); then the number of units.
//!
//! The ids are hashed once (the canonical order sorts by those hashes too), so the fingerprint of
//! 100,000 units costs a few multiplications per unit and one SHA-1 block or two.

use super::options::{Settings, UnitKind};
use super::units::Canon;

/// Two 64-bit multiply-xorshift lanes over 64-bit words, each finished with the SplitMix64
/// finalizer. Not cryptographic: only accidental collisions matter here (the ids of one plan, or
/// two plans that should agree), and 128 bits make those negligible.
struct Lanes {
    a: u64,
    b: u64,
}

impl Lanes {
    fn new() -> Self {
        Lanes { a: 0x9e37_79b9_7f4a_7c15, b: 0xc2b2_ae3d_27d4_eb4f }
    }

    #[inline]
    fn step(&mut self, w: u64) {
        self.a = (self.a ^ w).wrapping_mul(0x9fb2_1c65_1e98_df25);
        self.a ^= self.a >> 29;
        self.b = (self.b ^ w.rotate_left(31)).wrapping_mul(0xd6e8_feb8_6659_fd93);
        self.b ^= self.b >> 32;
    }

    fn finish(&self) -> [u64; 2] {
        fn fmix(mut z: u64) -> u64 {
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        [fmix(self.a ^ self.b.rotate_left(17)), fmix(self.b ^ self.a.rotate_left(41))]
    }
}

/// The 128-bit hash of `bytes`: [`Lanes`] over its little-endian 8-byte words (the last one
/// zero-padded), then its length.
pub(super) fn hash128(bytes: &[u8]) -> [u64; 2] {
    let mut lanes = Lanes::new();
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        lanes.step(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
    }
    let mut last = [0u8; 8];
    last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    lanes.step(u64::from_le_bytes(last));
    lanes.step(bytes.len() as u64);
    lanes.finish()
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Header<'a> {
    v: u32,
    shard_count: u32,
    unit: UnitKind,
    default_duration_ms: u64,
    per_shard_overhead_ms: u64,
    workers: u32,
    files: &'a [&'a str],
    groups: &'a [&'a str],
    /// Only when a cost is set, so plans without costs keep their fingerprints.
    #[serde(skip_serializing_if = "Option::is_none")]
    costs: Option<&'a super::cost::Costs>,
    /// Only with setups (sorted by id, without their units), so plans without keep their fingerprints.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    setups: &'a [super::setups::Setup],
}

/// `shard_of[i]`: the 1-based shard of canonical unit `i`; `masks[i]`: its setups (all 0 without).
pub(super) fn fingerprint(canon: &Canon, s: &Settings, shard_of: &[u32], masks: &[u64]) -> String {
    let header = Header {
        v: 4,
        shard_count: s.shard_count,
        unit: s.unit,
        default_duration_ms: s.default_duration_ms,
        per_shard_overhead_ms: s.per_shard_overhead_ms,
        workers: s.workers,
        files: &canon.files,
        groups: &canon.groups,
        costs: (!s.costs.is_zero()).then_some(&s.costs),
        setups: &s.setups,
    };
    let mut sha = sha1_smol::Sha1::new();
    // Serializing strings, integers and sequences cannot fail.
    sha.update(&serde_json::to_vec(&header).unwrap_or_default());
    let mut lanes = Lanes::new();
    for ((u, h), &shard) in canon.units.iter().zip(&canon.id_hashes).zip(shard_of) {
        lanes.step(h[0]);
        lanes.step(h[1]);
        lanes.step(u.file as u64 | (u.group as u64) << 32);
        lanes.step(u.known_ms.unwrap_or(u64::MAX));
        lanes.step(shard as u64);
    }
    if !s.setups.is_empty() {
        for &m in masks {
            lanes.step(m);
        }
    }
    lanes.step(canon.units.len() as u64);
    let [x, y] = lanes.finish();
    sha.update(&x.to_le_bytes());
    sha.update(&y.to_le_bytes());
    sha.digest().to_string()
}
