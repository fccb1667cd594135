//! The plan fingerprint: lowercase hex SHA-1 (40 characters) of a canonical encoding of the
//! input and the plan, so two runs (or two CI shards) can check they computed the same plan.
//!
//! The encoding (version 3), all integers little-endian:
//! 1. the header, compact JSON: `{"v":3,"shardCount":N,"unit":"test"|"file","defaultDurationMs":D,
//!    "perShardOverheadMs":O,"workers":W,"files":[...],"groups":[...]}` with the distinct files and
//!    groups sorted (bytewise UTF-8);
//! 2. per unit, in id order: the 128-bit hash ([`unit_hashes`]) of `id, 0xFF, file index (u32, or
//!    0xFFFFFFFF), group index (u32, or 0xFFFFFFFF), knownMs (u64, or u64::MAX when unknown)`
//!    (`0xFF` never occurs in UTF-8, so the id ends there), then the unit's 1-based shard (u32).
//!
//! Hashing each unit first keeps the SHA-1 input at 20 bytes per unit whatever the id lengths,
//! which makes the fingerprint of 100,000 units a few milliseconds.

use super::options::{Settings, UnitKind};
use super::units::{Canon, CanonUnit};

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
}

/// Two 64-bit multiply-xorshift lanes over little-endian 8-byte words (the last one zero-padded),
/// the length mixed in, each lane finished with the SplitMix64 finalizer. Not cryptographic:
/// only accidental collisions matter here, and 128 bits make those negligible.
fn hash128(bytes: &[u8]) -> [u8; 16] {
    fn fmix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    let (mut a, mut b) = (0x9e37_79b9_7f4a_7c15u64, 0xc2b2_ae3d_27d4_eb4fu64);
    let mut step = |w: u64| {
        a = (a ^ w).wrapping_mul(0x9fb2_1c65_1e98_df25);
        a ^= a >> 29;
        b = (b ^ w.rotate_left(31)).wrapping_mul(0xd6e8_feb8_6659_fd93);
        b ^= b >> 32;
    };
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        step(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
    }
    let mut last = [0u8; 8];
    last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    step(u64::from_le_bytes(last));
    step(bytes.len() as u64);
    let (x, y) = (fmix(a ^ b.rotate_left(17)), fmix(b ^ a.rotate_left(41)));
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&x.to_le_bytes());
    out[8..].copy_from_slice(&y.to_le_bytes());
    out
}

/// The 128-bit hash of each unit's canonical bytes (see the module documentation), in the
/// units' order. [`Canon`] has them for its units in input order, where the ids lie in memory
/// one after another (in id order, reading them is mostly cache misses).
pub(super) fn unit_hashes(units: &[CanonUnit]) -> Vec<[u8; 16]> {
    let mut buf = Vec::new();
    units
        .iter()
        .map(|u| {
            buf.clear();
            buf.extend_from_slice(u.id.as_bytes());
            buf.push(0xff);
            buf.extend_from_slice(&u.file.to_le_bytes());
            buf.extend_from_slice(&u.group.to_le_bytes());
            buf.extend_from_slice(&u.known_ms.unwrap_or(u64::MAX).to_le_bytes());
            hash128(&buf)
        })
        .collect()
}

/// `shard_of[i]`: the 1-based shard of canonical unit `i`.
pub(super) fn fingerprint(canon: &Canon, s: &Settings, shard_of: &[u32]) -> String {
    let header = Header {
        v: 3,
        shard_count: s.shard_count,
        unit: s.unit,
        default_duration_ms: s.default_duration_ms,
        per_shard_overhead_ms: s.per_shard_overhead_ms,
        workers: s.workers,
        files: &canon.files,
        groups: &canon.groups,
    };
    let mut sha = sha1_smol::Sha1::new();
    // Serializing strings, integers and sequences cannot fail.
    sha.update(&serde_json::to_vec(&header).unwrap_or_default());
    let mut block = Vec::with_capacity(20 * 1024);
    for (&i, &shard) in canon.order.iter().zip(shard_of) {
        block.extend_from_slice(&canon.hashes[i as usize]);
        block.extend_from_slice(&shard.to_le_bytes());
        if block.len() >= 20 * 1024 {
            sha.update(&block);
            block.clear();
        }
    }
    sha.update(&block);
    sha.digest().to_string()
}
