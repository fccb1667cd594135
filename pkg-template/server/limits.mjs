// Limits of the local service. They mirror /work/shared/spec/service-api.md section 8
// (and the lifetimes of sections 2 and 5). Keep every limit here, nowhere else.
export const SHARD_GROUP_KEY_PATTERN = /^[a-zA-Z0-9_-]+$/;
export const SHARD_GROUP_KEY_MAX_LEN = 250;
export const DURATIONS_TOKEN_TTL_MS = 10 * 60 * 1000;
export const UPLOAD_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
export const DOWNLOAD_URL_TTL_MS = 60 * 60 * 1000;
/** Presigned upload URL lifetime: not given by the spec; the local service uses 1 hour. */
export const UPLOAD_URL_TTL_MS = 60 * 60 * 1000;
export const MAX_ATTACHMENT_IDS = 1000;
export const MAX_ATTACHMENT_ID_LEN = 256;
export const ATTACHMENT_ENCODINGS = ['deflate', 'br', 'gzip'];
/** Largest body the local service accepts (not given by the spec). */
export const MAX_BODY_BYTES = 256 * 1024 * 1024;
