// Node additions over the shared API: attachments given by `path` are opened as file-backed
// Blobs (`fetch` streams them from disk), text attachments are Brotli-compressed by Node's zlib
// in its thread pool (what to compress, and how, is decided in Rust), and `shardGroupKeyFor`
// takes the CI run's id from the environment when none is given.
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { setMaxListeners } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { brotliCompress, brotliCompressSync, brotliDecompressSync, constants, gunzipSync, inflateSync } from 'node:zlib';
import { uploadReport as uploadReportCore, shardGroupKeyFor as shardGroupKeyForCore } from '../wasm/shardwise.js';

import { runIdFromEnv } from './runner/options.mjs';

export * from './api.js';
export { __wasmMemoryBytes } from '../wasm/shardwise.js';
// Internals the runners reach through their injectable `api` (src/runner/files.mjs, timings.mjs,
// durations.mjs).
export { __discoverTests, __discoverImports, __testDurations, __readTimings, __readTimingsRuns, __timingsOf, __mergeRuns, __maxSetupsAndStarts, __runnerSplitMargin, __chargesModules } from '../wasm/shardwise.js';

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

/**
 * The upload's HTTP in Node when no `fetch` is given: `http`/`https` requests with keep-alive, the
 * subset of `fetch` the exchange uses (method, headers, a Uint8Array or Blob body, signal; status,
 * `headers.get`, `arrayBuffer()`). Node's `fetch` spends about 4x the CPU per request (its
 * streams, Request and Response objects), and an upload of hundreds of attachments is bound by
 * this thread (bench/upload.mjs). Failures reject as `fetch` does: `TypeError('fetch failed')`
 * with the cause (a Blob that cannot be read: `NotReadableError`).
 */
const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };
const signals = new WeakSet();
function lightFetch(url, init = {}, redirects = 0) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const agent = agents[u.protocol];
    if (!agent) return reject(new TypeError(`fetch failed: unsupported protocol ${u.protocol}`));
    const body = init.body;
    const headers = { ...init.headers };
    if (body !== undefined) headers['content-length'] = String(body instanceof Uint8Array ? body.byteLength : body.size);
    const fail = (e) => reject(e?.name === 'AbortError' ? e : new TypeError('fetch failed', { cause: e }));
    // the exchange's own signal, on every request in flight (64 and more): no leak warning
    if (init.signal && !signals.has(init.signal)) { signals.add(init.signal); setMaxListeners(0, init.signal); }
    const req = (u.protocol === 'https:' ? https : http).request(u, { method: init.method ?? 'GET', headers, agent, signal: init.signal }, (res) => {
      // redirects as fetch follows them (storage may answer 307 while a bucket's name spreads):
      // the same request again (the body is bytes or a Blob: it can be sent again), 303 a GET
      const location = res.headers.location;
      if ([301, 302, 303, 307, 308].includes(res.statusCode) && location && redirects < 20) {
        res.resume();
        const next = res.statusCode === 303 ? { ...init, method: 'GET', body: undefined } : init;
        return resolve(lightFetch(new URL(location, u), next, redirects + 1));
      }
      const chunks = [];
      res.on('data', (d) => chunks.push(d));
      res.on('error', fail);
      res.on('end', () => {
        let bytes = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        try {
          if (encoding === 'br') bytes = brotliDecompressSync(bytes);
          else if (encoding === 'gzip') bytes = gunzipSync(bytes);
          else if (encoding === 'deflate') bytes = inflateSync(bytes);
        } catch (e) { return fail(e); }
        const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
        resolve({ status: res.statusCode, headers: { get: (name) => res.headers[name.toLowerCase()] ?? null }, arrayBuffer: async () => buffer });
      });
    });
    req.on('error', fail);
    if (body === undefined) req.end();
    else if (body instanceof Uint8Array) req.end(body);
    else pipeline(Readable.fromWeb(body.stream()), req).catch((e) => { req.destroy(); fail(e); });
  });
}

/** Internal: the upload's own transport, for js-tests/exchange-stop.test.mjs. */
export { lightFetch as __uploadFetch };

/**
 * `fetch`'s path configured by the process, which the upload must keep to: a dispatcher other
 * than undici's plain `Agent` set for it (a `ProxyAgent`, `EnvHttpProxyAgent`, `MockAgent`, by
 * `setGlobalDispatcher`), `NODE_USE_ENV_PROXY` (Node's fetch then honours HTTP(S)_PROXY), or
 * `globalThis.fetch` replaced since this module loaded (an instrumented fetch). Then the upload
 * goes through `globalThis.fetch`; else through `lightFetch`.
 */
const loadedFetch = globalThis.fetch;
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');
function fetchIsConfigured() {
  const dispatcher = globalThis[GLOBAL_DISPATCHER];
  return (dispatcher !== undefined && dispatcher?.constructor?.name !== 'Agent')
    || !!process.env.NODE_USE_ENV_PROXY || globalThis.fetch !== loadedFetch;
}

export function uploadReport(opts) {
  if (opts === null || typeof opts !== 'object') return uploadReportCore(opts);
  return uploadReportCore({ ...opts, fetch: opts.fetch ?? (fetchIsConfigured() ? globalThis.fetch : lightFetch), __host: host });
}

export function shardGroupKeyFor(opts) {
  const runId = opts?.runId ?? runIdFromEnv();
  return shardGroupKeyForCore(runId === undefined ? opts : { ...opts, runId });
}
