// Node additions over the shared API: attachments given by `path` are opened as file-backed
// Blobs (`fetch` streams them from disk), text attachments are Brotli-compressed by Node's zlib
// in its thread pool (what to compress, and how, is decided in Rust), and `shardGroupKeyFor`
// takes the CI run's id from the environment when none is given.
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { brotliCompress, brotliCompressSync, constants } from 'node:zlib';
import { uploadReport as uploadReportCore, shardGroupKeyFor as shardGroupKeyForCore } from '../wasm/shardwise.js';

import { runIdFromEnv } from './runner/options.mjs';

export * from './api.js';
export { __wasmMemoryBytes } from '../wasm/shardwise.js';

/** The host's files and compressor, for the upload exchange (src/bindings/exchange.rs, JsFiles). */
const host = {
  async openFile(path) {
    // stat first: its error names the problem (ENOENT, EACCES), openAsBlob's does not
    if (!(await stat(path)).isFile()) throw new Error(`${path} is not a file`);
    return openAsBlob(path);
  },
  /** Brotli in text mode, in zlib's thread pool. */
  async compress(body, quality) {
    const bytes = body instanceof Uint8Array ? body : new Uint8Array(await body.arrayBuffer());
    return new Promise((resolve, reject) => brotliCompress(bytes, brotliOptions(bytes, quality), (e, out) => (e ? reject(e) : resolve(out))));
  },
  /** The same at once (the report, which every later step waits for). */
  compressSync(bytes, quality) {
    return brotliCompressSync(bytes, brotliOptions(bytes, quality));
  },
};

const brotliOptions = (bytes, quality) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: quality,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
  },
});

export function uploadReport(opts) {
  return uploadReportCore(opts !== null && typeof opts === 'object' ? { ...opts, __host: host } : opts);
}

export function shardGroupKeyFor(opts) {
  const runId = opts?.runId ?? runIdFromEnv();
  return shardGroupKeyForCore(runId === undefined ? opts : { ...opts, runId });
}
