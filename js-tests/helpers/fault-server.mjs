/**
 * A programmable fault-injecting proxy in front of the real local service, for client tests.
 *
 *   const fx = await createFaultServer({ script: { create: [503, 503], download: [{ status: 404, times: Infinity }] } });
 *   // ... point the client at fx.baseUrl with fx.accessToken ...
 *   fx.requestsTo('create').length   // 3: two 503s, then the real answer
 *   await fx.close();
 *
 * Routes (names used in scripts and records): create, submit, start, attachments, finish,
 * putTestList, download, putReport, putAttachment, other.
 * A script maps a route to a list of steps consumed one per matching request; when the list is
 * exhausted requests pass through to the real service. A step is one of:
 *   - a number N, or { status: N, body?, headers? }: answer N (default body: the service's JSON error shape);
 *     with `echo: true` the body echoes the request line and headers, credentials included (as storage
 *     error bodies do with signatures);
 *   - 'pass' or { pass: true }: forward to the real service;
 *   - { delayMs: N }: wait N ms, then forward (add `status` to answer instead);
 *   - { reset: true }: destroy the connection without answering;
 *   - { resetAfterBytes: N }: forward, send the headers and the first N body bytes, then destroy;
 *   - { malformedJson: true }: answer 200 with `{"not json` (Content-Type application/json);
 *   - { truncateBody: N }: forward, then send only the first N bytes of the real body (length adjusted),
 *     e.g. a truncated Brotli download.
 * Any step may carry `times` (default 1; Infinity = forever).
 * Every request is recorded in `requests`: { route, method, path, query (object), headers, body (Buffer), status,
 * at (Date.now() on arrival) }. `maxInFlight(route)` is the most requests of a route handled at once;
 * `idle(route)` resolves once none is being handled (answered, or its connection closed by the client).
 * Presigned URLs in JSON answers are rewritten to point at the proxy, so storage calls are scripted too.
 * `prefix: '/some/path'` serves everything under that path prefix (baseUrl includes it; presigned URLs too):
 * a request outside the prefix is answered 404 and recorded with route 'outsidePrefix'.
 * `tls: true` serves HTTPS (baseUrl https://127.0.0.1:port) with the self-signed certificate of
 * fixtures/tls/ (`tlsCertFile`: what a client trusts through NODE_EXTRA_CA_CERTS).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createServer } from '../../pkg/server/index.mjs';
import { until } from './until.mjs';

export function routeOf(method, path) {
  const api = { '/api/testDurations/create': 'create', '/api/testDurations/submit': 'submit', '/api/upload/start': 'start', '/api/upload/attachments': 'attachments', '/api/upload/finish': 'finish' };
  if (method === 'POST' && api[path]) return api[path];
  if (path.startsWith('/storage/durations/')) return method === 'PUT' ? 'putTestList' : 'download';
  if (method === 'PUT' && /^\/storage\/reports\/[^/]+\/report\.json\.br$/.test(path)) return 'putReport';
  if (method === 'PUT' && path.startsWith('/storage/reports/')) return 'putAttachment';
  return 'other';
}

const errBody = (status) => JSON.stringify({ error: { code: 'injected', message: `injected status ${status}` } });

/** Starts the real service (options passed through) and a proxy in front of it. */
/** The certificate a `tls: true` fault server presents. */
export const tlsCertFile = new URL('../fixtures/tls/cert.pem', import.meta.url).pathname;

export async function createFaultServer({ script = {}, prefix = '', tls = false, ...serviceOptions } = {}) {
  const service = await createServer({ computeDelayMs: 0, ...serviceOptions });
  const steps = new Map();
  const requests = [];
  const inFlight = new Map(); // route -> [now, max]
  let baseUrl;

  const take = (route) => {
    const list = steps.get(route);
    if (!list?.length) return { pass: true };
    const s = list[0];
    if (--s.left <= 0) list.shift();
    return s.step;
  };

  /** Forwards a request to the real service and returns its raw answer (bytes untouched, except URL rewriting in plain JSON). */
  function forward(req, body, url) {
    return new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: new URL(service.baseUrl).host, 'content-length': body.length };
      const up = http.request(service.baseUrl + url, { method: req.method, headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          let out = Buffer.concat(chunks);
          const h = { ...res.headers };
          delete h['content-length']; delete h['transfer-encoding']; delete h.connection; delete h['keep-alive'];
          if (!h['content-encoding'] && /json/.test(h['content-type'] ?? '')) out = Buffer.from(out.toString('utf8').replaceAll(service.baseUrl, baseUrl));
          resolve({ status: res.statusCode, headers: h, body: out });
        });
      });
      up.on('error', reject);
      up.end(body);
    });
  }

  const keys = tls ? { key: readFileSync(new URL('../fixtures/tls/key.pem', import.meta.url)), cert: readFileSync(tlsCertFile) } : null;
  const server = (tls ? https.createServer.bind(null, keys) : http.createServer)(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    const u = new URL(req.url, 'http://x');
    const inside = u.pathname.startsWith(prefix + '/');
    const path = inside ? u.pathname.slice(prefix.length) : u.pathname;
    const route = inside ? routeOf(req.method, path) : 'outsidePrefix';
    const rec = { route, method: req.method, path, query: Object.fromEntries(u.searchParams), headers: req.headers, body, status: null, at: Date.now() };
    requests.push(rec);
    if (!inside) { rec.status = 404; res.writeHead(404, { 'content-type': 'application/json' }); return res.end(errBody(404)); }
    const step = take(route);
    const count = inFlight.get(route) ?? [0, 0];
    inFlight.set(route, count);
    count[0]++; count[1] = Math.max(count[1], count[0]);
    res.on('close', () => count[0]--);
    try {
      if (step.delayMs) await new Promise((ok) => setTimeout(ok, step.delayMs));
      if (step.reset) { rec.status = 'reset'; return req.socket.destroy(); }
      if (step.malformedJson) { rec.status = 200; res.writeHead(200, { 'content-type': 'application/json' }); return res.end('{"not json'); }
      if (step.status) {
        rec.status = step.status;
        const b = step.echo ? `${req.method} ${req.url} ${JSON.stringify(req.headers)}` : step.body ?? errBody(step.status);
        res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
        return res.end(b);
      }
      const up = await forward(req, body, path + u.search);
      rec.status = up.status;
      let out = up.body;
      if (step.truncateBody !== undefined) out = out.subarray(0, step.truncateBody);
      if (step.resetAfterBytes !== undefined) {
        res.writeHead(up.status, { ...up.headers, 'content-length': up.body.length });
        res.write(out.subarray(0, step.resetAfterBytes));
        rec.status = 'reset';
        return setImmediate(() => res.socket?.destroy());
      }
      res.writeHead(up.status, { ...up.headers, 'content-length': out.length });
      res.end(out);
    } catch (e) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'bad_gateway', message: String(e?.message ?? e) } }));
    }
  });

  const api = {
    get baseUrl() { return baseUrl; },
    accessToken: service.accessToken,
    service,
    requests,
    /** Appends steps for a route (see the module comment). */
    script(route, list) {
      const q = steps.get(route) ?? [];
      for (const s of list) {
        const step = typeof s === 'number' ? { status: s } : s === 'pass' ? { pass: true } : s;
        q.push({ step, left: step.times ?? 1 });
      }
      steps.set(route, q);
      return api;
    },
    /** Clears every script and the request log. */
    reset() { steps.clear(); requests.length = 0; inFlight.clear(); },
    requestsTo: (route) => requests.filter((r) => r.route === route),
    maxInFlight: (route) => inFlight.get(route)?.[1] ?? 0,
    /** Resolves `true` once no request of `route` is being handled, `false` if some still is after `timeoutMs`. */
    idle: async (route, timeoutMs = 10_000) => !!(await until(() => (inFlight.get(route)?.[0] ?? 0) === 0, { timeoutMs })),
    /** Every credential a client used so far: the access token, Bearer tokens, presigned query strings and signatures. */
    secretsSeen() {
      const out = new Set([service.accessToken]);
      for (const r of requests) {
        const m = /^Bearer (.+)$/.exec(r.headers.authorization ?? '');
        if (m) out.add(m[1]);
        if (r.query.sig) { out.add(r.query.sig); out.add(new URLSearchParams(r.query).toString()); }
      }
      return [...out];
    },
    close: async () => { server.closeAllConnections?.(); await new Promise((ok) => server.close(ok)); await service.close(); },
  };
  for (const [route, list] of Object.entries(script)) api.script(route, list);
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  baseUrl = `${tls ? 'https' : 'http'}://127.0.0.1:${server.address().port}${prefix}`;
  return api;
}
