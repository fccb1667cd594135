// Limits of the local service: the service contract's (docs/service-contract.md §6, lifetimes
// §3), and this service's own where the contract leaves them open (§8). Keep every limit here,
// nowhere else. The contract's limits are also the client's, in the Rust core (src/limits.rs of
// the repository): js-tests/limits.test.mjs there holds both equal, so change both together.
export const SHARD_GROUP_KEY_PATTERN = /^[a-zA-Z0-9_-]+$/;
export const SHARD_GROUP_KEY_MAX_LEN = 250;
export const DURATIONS_TOKEN_TTL_MS = 10 * 60 * 1000;
export const UPLOAD_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
export const DOWNLOAD_URL_TTL_MS = 60 * 60 * 1000;
/** Presigned upload URL lifetime: left open by the contract (§8); the local service uses 1 hour. */
export const UPLOAD_URL_TTL_MS = 60 * 60 * 1000;
export const MAX_ATTACHMENT_IDS = 1000;
export const MAX_ATTACHMENT_ID_LEN = 256;
export const ATTACHMENT_ENCODINGS = ['deflate', 'br', 'gzip'];
/** Largest body the local service accepts (left open by the contract, §8). */
export const MAX_BODY_BYTES = 256 * 1024 * 1024;
/** Largest JSON body of an /api/ call (the attachments call's 1000 ids of 256 characters fit). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
/** Largest decoded (Brotli-decompressed) report or test list: beyond it, 413 (a Brotli bomb stops here). */
export const MAX_DECODED_BYTES = 256 * 1024 * 1024;
/** Longest commitId accepted by create (it travels inside the durations token). */
export const MAX_COMMIT_ID_LEN = 256;
/** A connection silent this long (headers or body) is answered 408 and closed. Option idleTimeoutMs. */
export const IDLE_TIMEOUT_MS = 60 * 1000;
/** A request whose body takes longer than this as a whole is answered 408 (slow uploads of 256 MB fit). */
export const REQUEST_TIMEOUT_MS = 15 * 60 * 1000;
/** Newest finished reports kept (their blobs and the list); older ones are deleted. 0 keeps all. */
export const KEEP_REPORTS = 0;
