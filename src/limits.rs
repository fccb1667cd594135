//! Every limit and pattern of the service contract (docs/service-contract.md §6) and of the
//! report format (docs/report-format.md §5) that the Rust core checks, in one place: other
//! modules read them from here. The local service keeps its own copy, in its own units
//! (pkg-template/server/limits.mjs); js-tests/limits.test.mjs reads this file as text and holds
//! the two equal, so a change here fails that test until the copy follows.

/// `shardGroupKey`: `^[a-zA-Z0-9_-]+$`, 1 to 250 characters.
pub const SHARD_GROUP_KEY_MAX_LEN: usize = 250;
pub const SHARD_GROUP_KEY_PATTERN: &str = "^[a-zA-Z0-9_-]+$";
/// A report's `commitId`: a lowercase hex git SHA-1.
pub const COMMIT_ID_LEN: usize = 40;
pub const COMMIT_ID_PATTERN: &str = "^[0-9a-f]{40}$";
/// `POST /api/upload/attachments`: ids per request and characters per id.
pub const MAX_ATTACHMENT_IDS_PER_REQUEST: usize = 1000;
pub const MAX_ATTACHMENT_ID_LEN: usize = 256;
/// The published report schema's own bound on an attachment id (looser than the upload API's).
pub const SCHEMA_ATTACHMENT_ID_MAX_LEN: usize = 1024;
/// The largest integer a JavaScript number holds exactly (`Number.MAX_SAFE_INTEGER`): the bound
/// on every timestamp, duration and byte count of a report.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;
/// Token and URL lifetimes, in seconds.
pub const TEST_DURATIONS_TOKEN_LIFETIME_S: u64 = 10 * 60;
pub const DOWNLOAD_URL_LIFETIME_S: u64 = 60 * 60;
pub const UPLOAD_TOKEN_LIFETIME_S: u64 = 24 * 60 * 60;
/// Report `category`: 1 to 100 characters; environment `name`: 1 to 512.
pub const CATEGORY_MAX_LEN: usize = 100;
pub const ENVIRONMENT_NAME_MAX_LEN: usize = 512;
/// Content encodings storage accepts for an attachment (none is also fine).
pub const ATTACHMENT_ENCODINGS: [&str; 3] = ["deflate", "br", "gzip"];

/// Report and test-list uploads: `Content-Type` and `Content-Encoding` (docs/service-contract.md
/// §4.2, §5.2).
pub const REPORT_CONTENT_TYPE: &str = "application/json";
pub const REPORT_CONTENT_ENCODING: &str = "br";

/// Defaults of the public exchange options (README "Limits"): the whole-exchange timeout and the number
/// of attachment uploads in flight at once. Without a `concurrency` option the number adapts:
/// it starts at the default, grows by one with each attachment stored at the first try (so it
/// doubles every round trip, and covers storage latency) up to the adaptive maximum, and halves
/// when a PUT needed a retry (a slow-down answer, a cut connection).
pub const DEFAULT_EXCHANGE_TIMEOUT_MS: u64 = 120_000;
pub const DEFAULT_ATTACHMENT_CONCURRENCY: usize = 8;
pub const MAX_ADAPTIVE_ATTACHMENT_CONCURRENCY: usize = 64;
/// Attachment bytes being read, compressed or sent at once (whatever the concurrency; one larger
/// attachment always may go alone): Node's `fetch` holds a body whole while it sends it, so
/// this bounds the memory of an upload of large files (bench/upload.mjs --memory).
pub const MAX_ATTACHMENT_BYTES_IN_FLIGHT: u64 = 64 << 20;

/// `planShards`' `defaultDurationMs` (pkg-template/types/plan.d.ts): the estimate of last resort
/// for a unit.
pub const DEFAULT_PLAN_DURATION_MS: u64 = 1000;

/// JUnit XML import (`report::junit`): elements nested deeper than this are refused (real reports
/// nest a few levels: suites of suites of tests).
pub const JUNIT_MAX_DEPTH: usize = 1000;

/// True when `key` is a valid `shardGroupKey`.
pub fn is_valid_shard_group_key(key: &str) -> bool {
    (1..=SHARD_GROUP_KEY_MAX_LEN).contains(&key.len())
        && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// True when `id` is a valid report `commitId` (40 lowercase hex characters).
pub fn is_valid_commit_id(id: &str) -> bool {
    id.len() == COMMIT_ID_LEN && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_group_keys() {
        assert!(is_valid_shard_group_key("run-42_a"));
        assert!(is_valid_shard_group_key(&"a".repeat(250)));
        assert!(!is_valid_shard_group_key(&"a".repeat(251)));
        assert!(!is_valid_shard_group_key(""));
        assert!(!is_valid_shard_group_key("a b"));
        assert!(!is_valid_shard_group_key("a/b"));
    }

    #[test]
    fn commit_ids() {
        assert!(is_valid_commit_id(&"0123456789abcdef".repeat(3)[..40]));
        assert!(!is_valid_commit_id(&"A".repeat(40)));
        assert!(!is_valid_commit_id("abc"));
    }
}
