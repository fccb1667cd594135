// The local service of docs/service-contract.md: five endpoints plus presigned storage, on one machine.
import http from 'node:http';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { brotliCompressSync, constants as zc } from 'node:zlib';
import { mkdtempSync, readFileSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, extname } from 'node:path';
import * as L from './limits.mjs';
import { HttpError, fail, sendJson, sendError } from './errors.mjs';
import { signJwt, verifyJwt } from './jwt.mjs';
import { presign, verifyPresigned } from './presign.mjs';
import { Store, decodeBr, readReport, historyWarning } from './store.mjs';
import { historyRoute } from './history-api.mjs';
import { durationsOf, annotate } from './predict.mjs';
import { shardPlanOf } from '../src/sources.js';
import { findTraceViewer, NO_TRACE_VIEWER, TRACE_FILES, TRACE_TYPES } from './trace-viewer.mjs';

// The package files a browser needs for the report preview; nothing else of staticDir is served.
// the preview and what it imports: the browser entry, src/*.js, the wasm, and of the runners' modules
// the one without Node in it that plans a report as its run (src/runner/timings.mjs)
const STATIC_FILES = /^(browser\.mjs|src\/\w[\w.-]*\.js|src\/runner\/timings\.mjs|wasm\/\w[\w.-]*\.(js|wasm)|preview\/\w[\w.-]*)$/;
const STATIC_TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png', '.svg': 'image/svg+xml' };

/**
 * A balanced shard's place in its run, from the plan its report carries (SHARD_PLAN_SOURCE):
 * `{index, count, fingerprint, runId?, attempt?}` for the report list, so the preview's shard view
 * groups the shards of one run (and the latest attempt of a re-run shard); undefined otherwise.
 */
export function shardOf(doc) {
  const p = shardPlanOf(doc);
  if (!p) return undefined;
  const whole = (v) => (Number.isSafeInteger(v) && v >= 1 ? v : undefined);
  const str = (v) => (typeof v === 'string' && v.length && v.length <= 256 ? v : undefined);
  const index = whole(p?.shardIndex);
  const count = whole(p?.shardCount);
  if (!index || !count) return undefined;
  const runId = str(p.run?.id);
  const attempt = whole(p.run?.attempt);
  const fingerprint = str(p.fingerprint);
  return { index, count, ...(fingerprint ? { fingerprint } : {}), ...(runId ? { runId } : {}), ...(attempt ? { attempt } : {}) };
}

/** Reads a JSON-route body of at most `max` bytes (413 beyond, without reading the rest). */
const readBody = (req, max) => new Promise((resolve, reject) => {
  if (Number(req.headers['content-length']) > max) return reject(new HttpError(413, 'payload_too_large', `body larger than ${max} bytes`));
  const chunks = []; let n = 0; let done = false;
  req.on('data', (c) => {
    if (done) return;
    n += c.length;
    if (n > max) { done = true; reject(new HttpError(413, 'payload_too_large', `body larger than ${max} bytes`)); } else chunks.push(c);
  });
  req.on('end', () => { if (!done) resolve(Buffer.concat(chunks)); });
  req.on('error', reject);
});

const bearer = (req) => {
  const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
  if (!m) fail(401, 'unauthorized', 'missing Authorization: Bearer header');
  return m[1];
};

/** Checks the headers of a report or test-list PUT (before its body is read). */
function checkReportHeaders(req) {
  if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) fail(400, 'invalid_request', 'Content-Type: application/json is required');
  if (req.headers['content-encoding'] !== 'br') fail(400, 'invalid_request', 'Content-Encoding: br is required');
}
/** Decodes a Brotli JSON report body; throws invalid_body (413 when it decodes to more than MAX_DECODED_BYTES). */
function decodeReport(bytes) {
  let text;
  try { text = decodeBr(bytes, L.MAX_DECODED_BYTES); } catch (e) {
    if (e?.code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) fail(413, 'payload_too_large', `the report decodes to more than ${L.MAX_DECODED_BYTES} bytes`);
    fail(400, 'invalid_body', 'body is not Brotli-compressed JSON');
  }
  let doc;
  try { doc = JSON.parse(text); } catch { fail(400, 'invalid_body', 'body is not Brotli-compressed JSON'); }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) fail(400, 'invalid_body', 'report must be a JSON object');
  return doc;
}

export const isLoopback = (host) => host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * Starts the local service. Options: port (0 = any), host, dataDir (default: a new temp dir),
 * secret (HMAC key for tokens and URLs), now (clock, ms), computeDelayMs (durations computation
 * delay, default 300), accessToken (default: random), staticDir (the package's root directory:
 * its browser files are served under /pkg/ and /preview/ redirects to the report preview there),
 * readsNeedToken (default: host is not loopback: then reading reports needs the access token),
 * keepReports (newest finished reports kept, 0 = all), idleTimeoutMs, requestTimeoutMs,
 * maxBodyBytes (largest storage PUT), snapshotEvery (reports between two snapshots of the history),
 * traceViewerFrom (the directory Playwright's trace viewer is looked for from, default the current
 * one; null: none is served).
 */
export async function createServer(opts = {}) {
  const { port = 0, host = '127.0.0.1', computeDelayMs = 300, staticDir } = opts;
  const idleTimeoutMs = opts.idleTimeoutMs ?? L.IDLE_TIMEOUT_MS;
  const requestTimeoutMs = opts.requestTimeoutMs ?? L.REQUEST_TIMEOUT_MS;
  const maxBodyBytes = opts.maxBodyBytes ?? L.MAX_BODY_BYTES;
  const readsNeedToken = opts.readsNeedToken ?? !isLoopback(host);
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'shardwise-server-'));
  const store = new Store(dataDir, { keepReports: opts.keepReports ?? L.KEEP_REPORTS, snapshotEvery: opts.snapshotEvery }).open();
  const secret = opts.secret ?? store.config.secret ?? randomBytes(32).toString('hex');
  const accessToken = opts.accessToken ?? store.config.accessToken ?? `swat_${randomBytes(24).toString('hex')}`;
  if (store.config.secret !== secret || store.config.accessToken !== accessToken) store.saveConfig({ secret, accessToken });
  const now = opts.now ?? Date.now;
  // commitId\0shardGroupKey hash -> {out, at}: a computed result, for computeDelayMs "computing", then
  // served from memory a while (every shard polls it at once) and from disk afterwards.
  const groups = new Map();
  let baseUrl;
  // Playwright's trace viewer from the user's own playwright-core, when the preview is served
  const traceViewer = staticDir && opts.traceViewerFrom !== null ? findTraceViewer(opts.traceViewerFrom ?? process.cwd()) : undefined;

  const checkAccess = (req) => { if (bearer(req) !== accessToken) fail(401, 'unauthorized', 'invalid access token'); };
  const checkRead = (req) => {
    if (!readsNeedToken) return;
    if (!req.headers.authorization) fail(401, 'unauthorized', 'this service listens beyond loopback: reading reports needs the access token (Authorization: Bearer)');
    checkAccess(req);
  };
  const jsonBody = (req, bytes) => {
    if (!bytes.length) return {};
    if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) fail(400, 'invalid_request', 'Content-Type: application/json is required');
    try { return JSON.parse(bytes.toString('utf8')); } catch { fail(400, 'invalid_body', 'body is not valid JSON'); }
  };
  // Bound to every interface (0.0.0.0, ::), the URLs handed out use the address the client reached.
  const wildcard = host === '0.0.0.0' || host === '::';
  const base = (req) => (wildcard && /^[\w.:[\]-]+$/.test(req.headers.host ?? '') ? `http://${req.headers.host}` : baseUrl);
  const url = (req, method, key, ttl) => presign(base(req), secret, method, key, ttl, now());
  const groupHash = (commitId, shardGroupKey) => createHash('sha256').update(`${commitId}\0${shardGroupKey}`).digest('hex');
  const requestedKey = (id) => `reports/${id}/requested.json`;
  const requested = (id) => { const b = store.get(requestedKey(id)); return b ? JSON.parse(b.bytes) : []; };

  const api = {
    'POST /api/testDurations/create': (req, bytes) => {
      checkAccess(req);
      const b = jsonBody(req, bytes);
      if (typeof b !== 'object' || b === null || Array.isArray(b)) fail(400, 'invalid_body', 'body must be a JSON object');
      if (typeof b.commitId !== 'string' || !b.commitId || b.commitId.length > L.MAX_COMMIT_ID_LEN) fail(400, 'invalid_request', `commitId is required (a string of 1..${L.MAX_COMMIT_ID_LEN} characters)`);
      const k = b.shardGroupKey;
      if (typeof k !== 'string' || k.length < 1 || k.length > L.SHARD_GROUP_KEY_MAX_LEN || !L.SHARD_GROUP_KEY_PATTERN.test(k))
        fail(400, 'invalid_request', `shardGroupKey must match ${L.SHARD_GROUP_KEY_PATTERN} and be 1..${L.SHARD_GROUP_KEY_MAX_LEN} characters`);
      for (const f of ['orgSlug', 'projectSlug']) if (b[f] !== undefined && typeof b[f] !== 'string') fail(400, 'invalid_request', `${f} must be a string`);
      const id = randomUUID();
      // The session lives in its token: a submit after a restart of the service still works.
      return [200, { testDurationsToken: signJwt(secret, { typ: 'durations', sid: id, g: groupHash(b.commitId, k) }, L.DURATIONS_TOKEN_TTL_MS, now()), uploadUrl: url(req, 'PUT', `durations/${id}/tests.json.br`, L.UPLOAD_URL_TTL_MS) }];
    },
    'POST /api/testDurations/submit': async (req) => {
      const { sid, g: gh } = verifyJwt(secret, bearer(req), 'durations', now());
      if (typeof sid !== 'string' || !/^[0-9a-f]{64}$/.test(gh ?? '')) fail(401, 'unauthorized', 'unknown durations session');
      const listKey = `durations/${sid}/tests.json.br`;
      if (!store.has(listKey)) fail(409, 'out_of_order', 'submit before the test list was uploaded');
      if (!groups.has(gh)) {
        // Computed once per commit and shard group key, and kept on disk: every shard of a run,
        // and a re-run of one of its jobs later (after newer reports, after a restart of the
        // service), gets the same predictions, so the same plan and the same tests. Written whole
        // (fsync + rename) before any shard can read it: "computing" (404) until then.
        const key = `groups/${gh}.json.br`;
        const old = store.get(key)?.bytes;
        const g = { out: old, at: old ? Date.now() + computeDelayMs : Infinity };
        if (!old) {
          // its tests named as the package's wasm lists them: the keys the predictions are kept by
          const list = readReport(store.get(listKey).bytes);
          if (list.error) fail(400, 'invalid_body', `the test list cannot be read as a report (${list.error.code ? `${list.error.code}: ` : ''}${list.error.message}); upload it as the package's fetchDurations does (a report whose tests have no attempts)`);
          g.out = brotliCompressSync(JSON.stringify(annotate(list, store.predictor)), { params: { [zc.BROTLI_PARAM_QUALITY]: 9 } });
          groups.set(gh, g);
          try { await store.putAsync(key, g.out); } catch (e) { groups.delete(gh); throw e; }
          g.at = Date.now() + computeDelayMs;
        }
        groups.set(gh, g);
      }
      return [200, { downloadUrl: url(req, 'GET', `durations/${sid}/${gh}.json.br`, L.DOWNLOAD_URL_TTL_MS) }];
    },
    'POST /api/upload/start': (req) => {
      checkAccess(req);
      const id = randomUUID();
      return [200, { uploadToken: signJwt(secret, { typ: 'upload', uid: id }, L.UPLOAD_TOKEN_TTL_MS, now()), webUrl: `/reports/${id}`, presignedReportUrl: url(req, 'PUT', `reports/${id}/report.json.br`, L.UPLOAD_URL_TTL_MS) }];
    },
    'POST /api/upload/attachments': (req, bytes) => {
      const id = uploadSession(req);
      const b = jsonBody(req, bytes);
      const ids = b?.attachmentIds;
      if (!Array.isArray(ids)) fail(400, 'invalid_request', 'attachmentIds must be an array of strings');
      if (ids.length > L.MAX_ATTACHMENT_IDS) fail(400, 'invalid_request', `at most ${L.MAX_ATTACHMENT_IDS} attachmentIds per request`);
      for (const a of ids) if (typeof a !== 'string' || !a.length || a.length > L.MAX_ATTACHMENT_ID_LEN || /[/\\\0]|^\.\.?$/.test(a))
        fail(400, 'invalid_request', `each attachment id must be a string of 1..${L.MAX_ATTACHMENT_ID_LEN} characters without slashes`);
      if (store.hasReport(id)) fail(409, 'out_of_order', 'this upload is already finished');
      if (ids.length) {
        // kept on disk: a finish after a restart still checks every requested attachment
        const all = new Set(requested(id));
        const before = all.size;
        for (const a of ids) all.add(a);
        if (all.size !== before) store.put(requestedKey(id), JSON.stringify([...all]));
      }
      return [200, ids.map((attachmentId) => ({ attachmentId, presignedUrl: url(req, 'PUT', `reports/${id}/attachments/${encodeURIComponent(attachmentId)}`, L.UPLOAD_URL_TTL_MS) }))];
    },
    'POST /api/upload/finish': async (req) => {
      const id = uploadSession(req);
      if (store.hasReport(id)) return [200, { ok: true }];
      const rep = store.get(`reports/${id}/report.json.br`);
      if (!rep) fail(409, 'out_of_order', 'finish before the report was uploaded');
      const attachmentIds = requested(id);
      const missing = attachmentIds.filter((a) => !store.has(`reports/${id}/attachments/${encodeURIComponent(a)}`));
      if (missing.length) fail(409, 'out_of_order', `finish before ${missing.length} requested attachment(s) were uploaded`);
      // read once, by the package's wasm, for its tests' names in the history and the predictions
      // (the history.mjs reader); a report it refuses is kept and listed, its tests left out of both
      const read = readReport(rep.bytes);
      const doc = read.report ?? decodeReport(rep.bytes);
      // the same report bytes uploaded before: kept at this link too, counted once (no second
      // set of durations in the predictions; `duplicateOf` in the list and in this answer)
      const sha256 = createHash('sha256').update(rep.bytes).digest('hex');
      const first = store.firstWithSha(sha256, id);
      // durable (an fsync'd journal line) before the answer
      try {
        const shard = shardOf(doc);
        const startedAt = Number.isSafeInteger(doc.startTimestamp) && doc.startTimestamp > 0 ? doc.startTimestamp : undefined;
        await store.addReport({ id, finishedAt: now(), ...(startedAt ? { startedAt } : {}), category: doc.category, ...(typeof doc.title === 'string' ? { title: doc.title } : {}), commitId: doc.commitId, attachmentIds, sha256, ...(first ? { duplicateOf: first } : {}), ...(shard ? { shard } : {}) },
          first ? {} : durationsOf(doc, read.tests), first ? undefined : read.rows);
        if (read.error && !first) historyWarning(read.error);
      } catch (e) {
        if (store.bySha.get(sha256) === id) store.bySha.delete(sha256); // not finished: the next upload of these bytes is the first
        throw e;
      }
      return [200, { ok: true, ...(first ? { duplicateOf: `/reports/${first}` } : {}) }];
    },
  };
  function uploadSession(req) {
    const { uid } = verifyJwt(secret, bearer(req), 'upload', now());
    if (typeof uid !== 'string' || !/^[\w-]+$/.test(uid)) fail(401, 'unauthorized', 'unknown upload session');
    return uid;
  }

  // Every shard of a run uploads the same test list: bytes already decoded and found valid are not decoded again.
  const valid = new Set();
  const checkOnce = (bytes) => {
    const h = createHash('sha256').update(bytes).digest('hex');
    if (valid.has(h)) return;
    decodeReport(bytes);
    valid.add(h);
    if (valid.size > 256) valid.delete(valid.values().next().value);
  };

  async function storage(req, res, key, query) {
    if (req.method !== 'PUT' && req.method !== 'GET') fail(405, 'method_not_allowed', 'storage accepts PUT and GET', { allow: 'PUT, GET' });
    if (req.headers.authorization !== undefined) fail(400, 'forbidden_authorization_header', 'presigned URLs must not carry an Authorization header');
    if (key.split('/').some((p) => p === '..' || p === '.' || p === '')) fail(400, 'invalid_request', 'bad storage key');
    verifyPresigned(secret, req.method, key, query, now());
    if (req.method === 'PUT') {
      const isReport = key.endsWith('.json.br');
      if (isReport) checkReportHeaders(req);
      else { const enc = req.headers['content-encoding']; if (enc !== undefined && !L.ATTACHMENT_ENCODINGS.includes(enc)) fail(400, 'invalid_request', `Content-Encoding must be one of ${L.ATTACHMENT_ENCODINGS.join(', ')}`); }
      const up = /^reports\/([^/]+)\//.exec(key);
      if (up && store.hasReport(up[1])) fail(409, 'out_of_order', 'this upload is already finished');
      if (Number(req.headers['content-length']) > maxBodyBytes) fail(413, 'payload_too_large', `body larger than ${maxBodyBytes} bytes`);
      await store.putStream(key, req, maxBodyBytes,
        { contentType: req.headers['content-type'] ?? 'application/octet-stream', contentEncoding: req.headers['content-encoding'] },
        isReport ? checkOnce : undefined);
      res.writeHead(200, { 'content-length': 0 }); res.end(); return;
    }
    // GET: only durations results are readable through presigned URLs.
    const m = /^durations\/[^/]+\/([0-9a-f]{64})\.json\.br$/.exec(key);
    let g = m && groups.get(m[1]);
    if (g && Date.now() < g.at) fail(404, 'not_found', 'result not ready');
    if (m && !g) {
      const out = store.get(`groups/${m[1]}.json.br`)?.bytes; // computed before a restart
      if (out) groups.set(m[1], (g = { out, at: 0 }));
    }
    if (!g) fail(404, 'not_found', 'result not ready');
    g.used = Date.now();
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br', 'content-length': g.out.length });
    res.end(g.out);
  }

  function reportsApi(req, res, path) {
    if (req.method !== 'GET' && req.method !== 'HEAD') fail(405, 'method_not_allowed', 'use GET', { allow: 'GET' });
    checkRead(req);
    if (path === '/api/reports') return sendJson(res, 200, store.reports.map(({ seq, ...r }) => r));
    const m = /^\/api\/reports\/([^/]+)\/(report\.json\.br|attachments\/([^/]+))$/.exec(path);
    const r = m && store.report(m[1]);
    if (!r) fail(404, 'not_found', 'no such report');
    let key = `reports/${r.id}/report.json.br`;
    if (m[3] !== undefined) {
      let att;
      try { att = decodeURIComponent(m[3]); } catch { fail(400, 'invalid_request', 'bad attachment id'); }
      if (!r.attachmentIds.includes(att)) fail(404, 'not_found', 'no such attachment');
      key = `reports/${r.id}/attachments/${encodeURIComponent(att)}`;
    }
    const blob = store.get(key);
    if (!blob) fail(404, 'not_found', 'no such report');
    const headers = m[3] === undefined
      ? { 'content-type': 'application/json', 'content-encoding': 'br' }
      // an uploaded file is shown as data, never run as a page of this origin
      : { 'content-type': blob.meta.contentType ?? 'application/octet-stream', ...(blob.meta.contentEncoding ? { 'content-encoding': blob.meta.contentEncoding } : {}),
          'x-content-type-options': 'nosniff', 'content-security-policy': "sandbox; default-src 'none'" };
    res.writeHead(200, { ...headers, 'content-length': blob.bytes.length, 'cache-control': 'private, no-store' });
    res.end(req.method === 'HEAD' ? undefined : blob.bytes);
  }

  /**
   * GET /api/trace-viewer: whether trace attachments open here (`{available, version?, hint?}`);
   * GET /trace/<file>: the trace viewer's files (`/trace/index.html?trace=<a trace's URL>`).
   */
  function traceViewerRoute(req, res, path) {
    if (req.method !== 'GET' && req.method !== 'HEAD') fail(405, 'method_not_allowed', 'use GET', { allow: 'GET' });
    if (path === '/api/trace-viewer') {
      return sendJson(res, 200, traceViewer ? { available: true, ...(traceViewer.version ? { version: traceViewer.version } : {}) } : { available: false, hint: NO_TRACE_VIEWER });
    }
    if (!traceViewer) fail(404, 'not_found', NO_TRACE_VIEWER);
    let name = path.slice('/trace/'.length) || 'index.html';
    try { name = decodeURIComponent(name); } catch { fail(400, 'invalid_request', 'bad path'); }
    const p = join(traceViewer.dir, ...name.split('/'));
    if (!TRACE_FILES.test(name) || !existsSync(p) || !statSync(p).isFile()) fail(404, 'not_found', `no such file /trace/${name}`);
    const body = readFileSync(p);
    res.writeHead(200, { 'content-type': TRACE_TYPES[extname(p)] ?? 'application/octet-stream', 'content-length': body.length, 'cache-control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /** GET /pkg/<file>: the package's browser files (the preview imports ../browser.mjs, so paths stay relative). */
  function serveStatic(res, rel) {
    let name;
    try { name = decodeURIComponent(rel); } catch { fail(400, 'invalid_request', 'bad path'); }
    if (name.endsWith('/')) name += 'index.html';
    const p = join(staticDir, ...name.split('/'));
    if (!STATIC_FILES.test(name) || !existsSync(p) || !statSync(p).isFile()) fail(404, 'not_found', `no such file /pkg/${rel}`);
    const body = readFileSync(p);
    res.writeHead(200, { 'content-type': STATIC_TYPES[extname(p)] ?? 'application/octet-stream', 'content-length': body.length, 'cache-control': 'no-cache' });
    res.end(body);
  }

  const server = http.createServer({
    headersTimeout: Math.min(idleTimeoutMs, requestTimeoutMs),
    requestTimeout: requestTimeoutMs,
    connectionsCheckingInterval: Math.max(100, Math.min(30_000, idleTimeoutMs / 2)),
  }, async (req, res) => {
    // Server-Timing: the service's own time for the request (bench/serve.mjs reads it)
    const t0 = performance.now();
    const writeHead = res.writeHead;
    res.writeHead = function (...args) { if (!this.headersSent) this.setHeader('server-timing', `app;dur=${(performance.now() - t0).toFixed(1)}`); return writeHead.apply(this, args); };
    req.socket.swRes = res;
    res.on('finish', () => { if (req.socket.swRes === res) req.socket.swRes = undefined; });
    try {
      let u;
      try { u = new URL(req.url, 'http://x'); } catch { fail(400, 'invalid_request', 'bad request target'); }
      if (u.pathname.startsWith('/storage/')) return await storage(req, res, u.pathname.slice(9), u.searchParams);
      if (u.pathname === '/api/reports' || u.pathname.startsWith('/api/reports/')) return reportsApi(req, res, u.pathname);
      if (u.pathname === '/api/history' || u.pathname.startsWith('/api/history/')) {
        if (req.method !== 'GET' && req.method !== 'HEAD') fail(405, 'method_not_allowed', 'use GET', { allow: 'GET' });
        checkRead(req);
        return sendJson(res, 200, historyRoute(store, u.pathname, u.searchParams));
      }
      if (staticDir && (u.pathname === '/api/trace-viewer' || u.pathname === '/trace' || u.pathname.startsWith('/trace/'))) {
        if (u.pathname === '/trace') { res.writeHead(302, { location: `/trace/${u.search}` }); res.end(); return; }
        return traceViewerRoute(req, res, u.pathname);
      }
      // the webUrl `start` hands out: the report's page in the preview
      const page = req.method === 'GET' && /^\/reports\/([^/]+)$/.exec(u.pathname);
      if (page) {
        const id = page[1];
        if (!store.hasReport(id)) fail(404, 'not_found', 'no such report (its upload was not finished)');
        if (!staticDir) fail(404, 'not_found', 'this service does not serve the report preview (--no-preview)');
        res.writeHead(302, { location: `/preview/?url=${encodeURIComponent(`/api/reports/${id}/report.json.br`)}` });
        res.end();
        return;
      }
      if (staticDir && req.method === 'GET' && (u.pathname === '/preview' || u.pathname.startsWith('/preview/'))) {
        res.writeHead(302, { location: `/pkg${u.pathname === '/preview' ? '/preview/' : u.pathname}${u.search}` }); res.end(); return;
      }
      if (staticDir && req.method === 'GET' && u.pathname.startsWith('/pkg/')) return serveStatic(res, u.pathname.slice(5));
      const h = api[`${req.method} ${u.pathname}`];
      if (!h) {
        if (Object.keys(api).some((k) => k.endsWith(` ${u.pathname}`))) fail(405, 'method_not_allowed', 'use POST', { allow: 'POST' });
        fail(404, 'not_found', `no route ${req.method} ${u.pathname}`);
      }
      const bytes = await readBody(req, L.MAX_JSON_BODY_BYTES);
      const [status, body] = await h(req, bytes);
      sendJson(res, status, body);
    } catch (err) {
      if (res.headersSent || req.socket.destroyed) { res.destroy(); return; }
      if (!err?.status || err.status >= 500) process.emitWarning?.(`shardwise serve: ${req.method} ${req.url?.split('?')[0]}: ${err?.stack ?? err}`);
      // a body left unread (413, an early 4xx): answer, then close instead of reading it
      if (!req.complete) res.setHeader('connection', 'close');
      sendError(res, err);
    }
  });
  // A connection silent for idleTimeoutMs: a request waiting for its body is answered 408; then closed.
  server.setTimeout(idleTimeoutMs, (socket) => {
    const res = socket.swRes;
    if (res && !res.headersSent) {
      res.setHeader('connection', 'close');
      sendError(res, new HttpError(408, 'request_timeout', `no data from the client for ${idleTimeoutMs} ms`));
      res.on('finish', () => socket.end());
      setTimeout(() => socket.destroy(), 1000).unref();
    } else socket.destroy();
  });
  server.keepAliveTimeout = Math.min(5000, idleTimeoutMs);
  await new Promise((resolve, reject) => {
    // a port in use is an error of `createServer` (EADDRINUSE), not an unhandled 'error' event
    server.once('error', reject);
    server.listen(port, host, () => { server.off('error', reject); resolve(); });
  }).catch(async (e) => { await store.close(); throw e; });
  const shown = host.includes(':') ? `[${host}]` : host;
  baseUrl = `http://${shown}:${server.address().port}`;

  const sweep = () => {
    const t = Date.now();
    for (const [k, g] of groups) if (t - Math.max(g.at, g.used ?? 0) > GROUP_MEMORY_MS) groups.delete(k);
    try {
      store.sweep({ uploadStaleMs: L.UPLOAD_TOKEN_TTL_MS + 60 * 60 * 1000, durationsStaleMs: L.DOWNLOAD_URL_TTL_MS + L.DURATIONS_TOKEN_TTL_MS, groupTtlMs: GROUP_TTL_MS });
    } catch (e) { process.emitWarning?.(`shardwise serve: sweep: ${e.message}`); }
  };
  sweep();
  const sweeper = setInterval(sweep, 60_000).unref();
  let closing;
  return {
    baseUrl, accessToken, dataDir, readsNeedToken, store,
    close: () => (closing ??= new Promise((resolve) => {
      clearInterval(sweeper);
      server.closeAllConnections?.();
      server.close(() => store.close().then(resolve, (e) => { process.emitWarning?.(`shardwise serve: close: ${e.message}`); resolve(); }));
    })),
  };
}

/** A computed durations result stays in memory this long after its last read (then it is read from disk). */
const GROUP_MEMORY_MS = 10 * 60 * 1000;
/** A durations result is kept on disk this long (a re-run of a job of that run gets the same predictions). */
const GROUP_TTL_MS = 30 * 24 * 60 * 60 * 1000;
