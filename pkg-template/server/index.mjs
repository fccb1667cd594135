// The local service of service-api.md: five endpoints plus presigned storage, on one machine.
import http from 'node:http';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { brotliDecompressSync, brotliCompressSync, constants as zc } from 'node:zlib';
import { mkdtempSync, readFileSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, extname } from 'node:path';
import * as L from './limits.mjs';
import { HttpError, fail, sendJson, sendError } from './errors.mjs';
import { signJwt, verifyJwt } from './jwt.mjs';
import { presign, verifyPresigned } from './presign.mjs';
import { Store } from './store.mjs';
import { durationsOf, annotate } from './predict.mjs';

// The package files a browser needs for the report preview; nothing else of staticDir is served.
const STATIC_FILES = /^(browser\.mjs|src\/\w[\w.-]*\.js|wasm\/\w[\w.-]*\.(js|wasm)|preview\/\w[\w.-]*)$/;
const STATIC_TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png', '.svg': 'image/svg+xml' };

const readBody = (req) => new Promise((resolve, reject) => {
  const chunks = []; let n = 0;
  req.on('data', (c) => { n += c.length; if (n > L.MAX_BODY_BYTES) reject(new HttpError(413, 'payload_too_large', 'body too large')); else chunks.push(c); });
  req.on('end', () => resolve(Buffer.concat(chunks)));
  req.on('error', reject);
});

const bearer = (req) => {
  const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
  if (!m) fail(401, 'unauthorized', 'missing Authorization: Bearer header');
  return m[1];
};

/** Decodes a Brotli JSON report body; throws invalid_body. */
function decodeReport(req, bytes) {
  if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) fail(400, 'invalid_request', 'Content-Type: application/json is required');
  if (req.headers['content-encoding'] !== 'br') fail(400, 'invalid_request', 'Content-Encoding: br is required');
  let doc;
  try { doc = JSON.parse(brotliDecompressSync(bytes).toString('utf8')); } catch { fail(400, 'invalid_body', 'body is not Brotli-compressed JSON'); }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) fail(400, 'invalid_body', 'report must be a JSON object');
  return doc;
}

/**
 * Starts the local service. Options: port (0 = any), host, dataDir (default: a new temp dir),
 * secret (HMAC key for tokens and URLs), now (clock, ms), computeDelayMs (durations computation
 * delay, default 300), accessToken (default: random), staticDir (the package's root directory:
 * its browser files are served under /pkg/ and /preview/ redirects to the report preview there).
 */
export async function createServer(opts = {}) {
  const { port = 0, host = '127.0.0.1', computeDelayMs = 300, staticDir } = opts;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'shardwise-server-'));
  const store = new Store(dataDir);
  const secret = opts.secret ?? store.index.secret ?? randomBytes(32).toString('hex');
  const accessToken = opts.accessToken ?? store.index.accessToken ?? `swat_${randomBytes(24).toString('hex')}`;
  store.index.secret = secret; store.index.accessToken = accessToken; store.save();
  const now = opts.now ?? Date.now;
  const sessions = new Map(); // durations session id / upload id -> state
  const groups = new Map(); // commitId\0shardGroupKey -> Promise<Buffer> (computed once, shared)
  let baseUrl;

  const checkAccess = (req) => { if (bearer(req) !== accessToken) fail(401, 'unauthorized', 'invalid access token'); };
  const jsonBody = (req, bytes) => {
    if (!bytes.length) return {};
    if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) fail(400, 'invalid_request', 'Content-Type: application/json is required');
    try { return JSON.parse(bytes.toString('utf8')); } catch { fail(400, 'invalid_body', 'body is not valid JSON'); }
  };
  const url = (method, key, ttl) => presign(baseUrl, secret, method, key, ttl, now());
  const history = () => store.index.reports.map((r) => r.durations);

  const api = {
    'POST /api/testDurations/create': (req, bytes) => {
      checkAccess(req);
      const b = jsonBody(req, bytes);
      if (typeof b !== 'object' || b === null || Array.isArray(b)) fail(400, 'invalid_body', 'body must be a JSON object');
      if (typeof b.commitId !== 'string' || !b.commitId) fail(400, 'invalid_request', 'commitId is required');
      const k = b.shardGroupKey;
      if (typeof k !== 'string' || k.length < 1 || k.length > L.SHARD_GROUP_KEY_MAX_LEN || !L.SHARD_GROUP_KEY_PATTERN.test(k))
        fail(400, 'invalid_request', `shardGroupKey must match ${L.SHARD_GROUP_KEY_PATTERN} and be 1..${L.SHARD_GROUP_KEY_MAX_LEN} characters`);
      for (const f of ['orgSlug', 'projectSlug']) if (b[f] !== undefined && typeof b[f] !== 'string') fail(400, 'invalid_request', `${f} must be a string`);
      const id = randomUUID();
      sessions.set(id, { kind: 'durations', commitId: b.commitId, shardGroupKey: k });
      return [200, { testDurationsToken: signJwt(secret, { typ: 'durations', sid: id }, L.DURATIONS_TOKEN_TTL_MS, now()), uploadUrl: url('PUT', `durations/${id}/tests.json.br`, L.UPLOAD_URL_TTL_MS) }];
    },
    'POST /api/testDurations/submit': (req) => {
      const { sid } = verifyJwt(secret, bearer(req), 'durations', now());
      const s = sessions.get(sid);
      if (!s) fail(401, 'unauthorized', 'unknown durations session');
      if (!store.has(`durations/${sid}/tests.json.br`)) fail(409, 'out_of_order', 'submit before the test list was uploaded');
      const gk = `${s.commitId}\0${s.shardGroupKey}`;
      if (!groups.has(gk)) {
        // Computed once per commit and shard group key, and kept on disk: every shard of a run,
        // and a re-run of one of its jobs later (after newer reports, after a restart of the
        // service), gets the same predictions, so the same plan and the same tests.
        const key = `groups/${createHash('sha256').update(gk).digest('hex')}.json.br`;
        let out = store.get(key)?.bytes;
        if (!out) {
          const testList = JSON.parse(brotliDecompressSync(store.get(`durations/${sid}/tests.json.br`).bytes));
          out = brotliCompressSync(JSON.stringify(annotate(testList, history())), { params: { [zc.BROTLI_PARAM_QUALITY]: 9 } });
          store.put(key, out);
        }
        groups.set(gk, { out, readyAt: now() + computeDelayMs, at: Date.now() + computeDelayMs });
      }
      s.group = gk; s.submittedAt = Date.now();
      return [200, { downloadUrl: url('GET', `durations/${sid}/result.json.br`, L.DOWNLOAD_URL_TTL_MS) }];
    },
    'POST /api/upload/start': (req) => {
      checkAccess(req);
      const id = randomUUID();
      sessions.set(id, { kind: 'upload', attachments: new Set(), finished: false });
      return [200, { uploadToken: signJwt(secret, { typ: 'upload', uid: id }, L.UPLOAD_TOKEN_TTL_MS, now()), webUrl: `/reports/${id}`, presignedReportUrl: url('PUT', `reports/${id}/report.json.br`, L.UPLOAD_URL_TTL_MS) }];
    },
    'POST /api/upload/attachments': (req, bytes) => {
      const s = uploadSession(req);
      const b = jsonBody(req, bytes);
      const ids = b?.attachmentIds;
      if (!Array.isArray(ids)) fail(400, 'invalid_request', 'attachmentIds must be an array of strings');
      if (ids.length > L.MAX_ATTACHMENT_IDS) fail(400, 'invalid_request', `at most ${L.MAX_ATTACHMENT_IDS} attachmentIds per request`);
      for (const a of ids) if (typeof a !== 'string' || !a.length || a.length > L.MAX_ATTACHMENT_ID_LEN || /[/\\]|^\.\.?$/.test(a))
        fail(400, 'invalid_request', `each attachment id must be a string of 1..${L.MAX_ATTACHMENT_ID_LEN} characters without slashes`);
      for (const a of ids) s.attachments.add(a);
      return [200, ids.map((attachmentId) => ({ attachmentId, presignedUrl: url('PUT', `reports/${s.id}/attachments/${encodeURIComponent(attachmentId)}`, L.UPLOAD_URL_TTL_MS) }))];
    },
    'POST /api/upload/finish': (req) => {
      const s = uploadSession(req);
      const rep = store.get(`reports/${s.id}/report.json.br`);
      if (!rep) fail(409, 'out_of_order', 'finish before the report was uploaded');
      const missing = [...s.attachments].filter((a) => !store.has(`reports/${s.id}/attachments/${encodeURIComponent(a)}`));
      if (missing.length) fail(409, 'out_of_order', `finish before ${missing.length} requested attachment(s) were uploaded`);
      if (!s.finished) {
        s.finished = true;
        const doc = JSON.parse(brotliDecompressSync(rep.bytes));
        store.addReport({ id: s.id, finishedAt: now(), category: doc.category, ...(typeof doc.title === 'string' ? { title: doc.title } : {}), commitId: doc.commitId, attachmentIds: [...s.attachments], durations: durationsOf(doc) });
      }
      return [200, { ok: true }];
    },
  };
  function uploadSession(req) {
    const { uid } = verifyJwt(secret, bearer(req), 'upload', now());
    const s = sessions.get(uid);
    if (!s) fail(401, 'unauthorized', 'unknown upload session');
    s.id = uid;
    return s;
  }

  async function storage(req, res, key, query, bytes) {
    if (req.headers.authorization !== undefined) fail(400, 'forbidden_authorization_header', 'presigned URLs must not carry an Authorization header');
    if (key.split('/').some((p) => p === '..' || p === '')) fail(400, 'invalid_request', 'bad storage key');
    verifyPresigned(secret, req.method, key, query, now());
    if (req.method === 'PUT') {
      if (key.endsWith('.json.br')) decodeReport(req, bytes);
      else { const enc = req.headers['content-encoding']; if (enc !== undefined && !L.ATTACHMENT_ENCODINGS.includes(enc)) fail(400, 'invalid_request', `Content-Encoding must be one of ${L.ATTACHMENT_ENCODINGS.join(', ')}`); }
      store.put(key, bytes, { contentType: req.headers['content-type'] ?? 'application/octet-stream', contentEncoding: req.headers['content-encoding'] });
      res.writeHead(200); res.end(); return;
    }
    // GET: only durations results are readable through presigned URLs.
    const m = /^durations\/([^/]+)\/result\.json\.br$/.exec(key);
    const s = m && sessions.get(m[1]);
    const g = s?.group && groups.get(s.group);
    if (!g || Date.now() < g.at) fail(404, 'not_found', 'result not ready');
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br', 'content-length': g.out.length });
    res.end(g.out);
  }

  function reportsApi(req, res, path) {
    if (path === '/api/reports') return sendJson(res, 200, store.index.reports.map(({ durations, ...r }) => r));
    const m = /^\/api\/reports\/([^/]+)\/report\.json\.br$/.exec(path);
    const r = m && store.index.reports.find((x) => x.id === m[1]);
    const blob = r && store.get(`reports/${r.id}/report.json.br`);
    if (!blob) fail(404, 'not_found', 'no such report');
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br', 'content-length': blob.bytes.length });
    res.end(blob.bytes);
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

  const server = http.createServer(async (req, res) => {
    try {
      const u = new URL(req.url, 'http://x');
      const bytes = await readBody(req);
      if (u.pathname.startsWith('/storage/')) {
        if (req.method !== 'PUT' && req.method !== 'GET') fail(405, 'method_not_allowed', 'storage accepts PUT and GET');
        return await storage(req, res, u.pathname.slice(9), u.searchParams, bytes);
      }
      if (req.method === 'GET' && u.pathname.startsWith('/api/reports')) return reportsApi(req, res, u.pathname);
      // the webUrl `start` hands out: the report's page in the preview
      const page = req.method === 'GET' && /^\/reports\/([^/]+)$/.exec(u.pathname);
      if (page) {
        const id = decodeURIComponent(page[1]);
        if (!store.index.reports.some((r) => r.id === id)) fail(404, 'not_found', `no report ${id} (its upload was not finished)`);
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
        if (Object.keys(api).some((k) => k.endsWith(` ${u.pathname}`))) fail(405, 'method_not_allowed', 'use POST');
        fail(404, 'not_found', `no route ${req.method} ${u.pathname}`);
      }
      const [status, body] = h(req, bytes);
      sendJson(res, status, body);
    } catch (err) { if (!res.headersSent) sendError(res, err); else res.destroy(); }
  });
  await new Promise((resolve, reject) => {
    // a port in use is an error of `createServer` (EADDRINUSE), not an unhandled 'error' event
    server.once('error', reject);
    server.listen(port, host, () => { server.off('error', reject); resolve(); });
  });
  baseUrl = `http://${host}:${server.address().port}`;
  return {
    baseUrl, accessToken, dataDir,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}
