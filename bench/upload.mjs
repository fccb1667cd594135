// Upload benchmark: shardwise's `uploadReport` against `@flakiness/sdk`'s, on the same workload,
// against the same strict service emulator (a worker thread of this process, so each client's
// event loop is its own), each upload in a fresh child process (its peak RSS is its own).
//
//   node bench/upload.mjs [--runs N] [--latency 0,25]    speed: SDK and shardwise alternating
//   node bench/upload.mjs --memory                        memory: 2 GB of attachments by path, and
//                                                         a 100,000-test report (shardwise only)
//
// Speed workload (issue 21): a 5,000-test report and 500 attachments, 250 text logs of 20 KB and
// 250 images/videos of 200 KB; attachment ids are the SHA-1 of the content (as the SDK makes them).
// The emulator checks the exchange as docs/service-contract.md §5 states it (batches of at most
// 1,000 ids, no Authorization on storage, the report's and attachments' headers, finish only after
// every PUT, nothing after finish), counts the bytes PUT to storage and, after each upload (off the
// clock), decodes every stored body and checks it against its id's hash. Storage answers each PUT
// after `--latency` ms. Printed: wall time (median of the runs), bytes sent, peak RSS, and last the
// shardwise / SDK ratio of wall time per latency.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import zlib from 'node:zlib';
import { peakRss } from './peak-rss.mjs';

const TOKEN = 'bench-access-token-0123456789';
const MB = (n) => (n / 1e6).toFixed(1);
const MB3 = (n) => (n / 1e6).toFixed(3);
const self = fileURLToPath(import.meta.url);

function parseArgs(argv) {
  const o = { runs: 3, latency: [0, 25], memory: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') o.runs = Number(argv[++i]);
    else if (argv[i] === '--latency') o.latency = argv[++i].split(',').map(Number);
    else if (argv[i] === '--memory') o.memory = true;
    else throw new Error(`unknown argument ${argv[i]} (usage: node bench/upload.mjs [--runs N] [--latency 0,25] [--memory])`);
  }
  return o;
}

// ---------------------------------------------------------------------------------------------
// Workloads (built the same way in every client process, before the clock starts)

/** xorshift32 */
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 0x100000000; };
}
const sha1 = (b) => createHash('sha1').update(b).digest('hex');

/** A test log of `n` bytes: timestamped lines of a browser test (compresses about 6-10x, like real logs). */
function textLog(n, seed) {
  const r = rng(seed);
  const verbs = ['navigating to', 'clicking', 'waiting for', 'filling', 'expect toBeVisible', 'response 200 from', 'console.log'];
  const things = ['"/checkout?step=2"', 'locator(\'button#submit\')', 'getByRole(\'link\', { name: \'Settings\' })', '"https://app.test/api/cart"', 'text="Order placed"'];
  let s = '';
  let t = 1_760_000_000_000 + seed * 1000;
  while (s.length < n) {
    t += (r() * 40) | 0;
    s += `${new Date(t).toISOString()} [worker ${(r() * 4) | 0}] pw:api ${verbs[(r() * verbs.length) | 0]} ${things[(r() * things.length) | 0]} (${(r() * 900) | 0}ms)\n`;
  }
  return Buffer.from(s.slice(0, n));
}

async function speedWorkload() {
  const { runRows, reportDocument } = await import('../js-tests/helpers/reports.mjs');
  const report = reportDocument(runRows(5000), 'bench upload');
  const attachments = [];
  for (let i = 0; i < 500; i++) {
    const text = i % 2 === 0;
    const data = text ? textLog(20_000, i + 1) : randomBytes(200_000);
    attachments.push({ id: sha1(data), contentType: text ? 'text/plain' : (i % 4 === 1 ? 'image/png' : 'video/webm'), data, name: text ? 'log' : 'screenshot' });
  }
  // every attachment referenced by an attempt of one of the first 500 tests
  let k = 0;
  for (const file of report.suites) for (const d of file.suites) for (const t of d.tests) {
    if (k >= attachments.length) break;
    const a = attachments[k++];
    t.attempts[0].attachments = [{ name: a.name, contentType: a.contentType, id: a.id }];
  }
  return { report, attachments };
}

// ---------------------------------------------------------------------------------------------
// A client: one upload in this process; prints one JSON line

async function client(args) {
  let report, attachments;
  if (args.workload === 'speed') ({ report, attachments } = await speedWorkload());
  else if (args.workload === 'paths') {
    attachments = args.files.map((f, i) => ({ id: f.id, contentType: i % 2 ? 'application/zip' : 'video/webm', path: f.path }));
    report = { category: 'playwright', commitId: 'c0ffee'.padEnd(40, '0'), startTimestamp: 1, duration: 1, environments: [{ name: 'chromium' }],
      tests: attachments.map((a, i) => ({ title: `t${i}`, attempts: [{ environmentIdx: 0, status: 'passed', startTimestamp: 1, duration: 1, attachments: [{ name: 'video', contentType: a.contentType, id: a.id }] }] })) };
  } else if (args.reportFile) {
    // as the runners and `shardwise upload` pass it: the saved report.json.br (made by the driver)
    report = new Uint8Array(readFileSync(args.reportFile));
    attachments = [];
  } else {
    const { runRows, reportDocument } = await import('../js-tests/helpers/reports.mjs');
    report = reportDocument(runRows(args.tests), 'bench big report');
    attachments = [];
  }
  const jsonBytes = args.workload === 'big' ? args.jsonBytes ?? Buffer.byteLength(JSON.stringify(report)) : 0;
  // the clients' modules are loaded before the clock starts: the upload is timed
  const lib = args.client === 'sdk' ? await import('@flakiness/sdk') : args.client === 'before' ? await import(process.env.BENCH_BEFORE) : await import('shardwise');
  if (globalThis.gc) globalThis.gc();
  const rssBefore = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  let bytes, wasm;
  if (args.client === 'sdk') {
    const { uploadReport } = lib;
    const quiet = { log() {}, warn() {}, error: (...a) => console.error(...a) };
    const sdkAttachments = attachments.map((a) => (a.data ? { type: 'buffer', contentType: a.contentType, id: a.id, body: a.data } : { type: 'file', contentType: a.contentType, id: a.id, path: a.path }));
    const r = await uploadReport(report, sdkAttachments, { flakinessAccessToken: TOKEN, flakinessEndpoint: args.baseUrl, throwOnFailure: true, logger: quiet });
    if (r.status !== 'success') throw new Error(`sdk upload: ${JSON.stringify(r)}`);
  } else {
    const sw = lib;
    const opts = { baseUrl: args.baseUrl, accessToken: TOKEN, report, timeoutMs: 600_000,
      attachments: attachments.map((a) => (a.data ? { id: a.id, contentType: a.contentType, data: a.data } : { id: a.id, contentType: a.contentType, path: a.path })) };
    // BENCH_TRACE=1: when each step's calls ended, to stderr
    const trace = {};
    if (process.env.BENCH_TRACE) opts.onEvent = (e) => { const t = performance.now() - t0; (trace[e.step] ??= [t, t, 0]); trace[e.step][1] = t; trace[e.step][2]++; };
    if (args.concurrency) opts.concurrency = args.concurrency;
    const r = await sw.uploadReport(opts);
    bytes = r.bytes;
    if (process.env.BENCH_TRACE) console.error(Object.entries(trace).map(([k, [a, b, n]]) => `${k} x${n} ${a.toFixed(0)}-${b.toFixed(0)} ms`).join(', '));
    wasm = typeof sw.__wasmMemoryBytes === 'function' ? sw.__wasmMemoryBytes() : undefined;
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const elu = performance.eventLoopUtilization(elu0).utilization;
  const peak = peakRss();
  console.log(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, elu, bytes, wasm, rssBefore, peak, jsonBytes }));
}

// ---------------------------------------------------------------------------------------------
// The strict emulator (a worker thread): service endpoints plus presigned storage

function emulator() {
  let latencyMs = 0;
  let seq = 0;
  const sessions = new Map(); // upload token -> session
  const problems = [];
  let requests = 0;
  const problem = (s) => { if (problems.length < 20) problems.push(s); };
  const json = (res, status, v) => { const b = Buffer.from(JSON.stringify(v)); res.writeHead(status, { 'content-type': 'application/json', 'content-length': b.length }); res.end(b); };
  const readAll = (req) => new Promise((resolve, reject) => { const c = []; req.on('data', (d) => c.push(d)); req.on('end', () => resolve(Buffer.concat(c))); req.on('error', reject); });
  let base;
  const server = createServer(async (req, res) => {
    requests++;
    const u = new URL(req.url, base);
    try {
      if (u.pathname.startsWith('/storage/')) return await storage(req, res, u);
      const auth = req.headers.authorization ?? '';
      const body = await readAll(req);
      if (req.method !== 'POST') return json(res, 405, { error: 'method' });
      if (u.pathname === '/api/upload/start') {
        if (auth !== `Bearer ${TOKEN}`) { problem('start without the access token'); return json(res, 401, { error: 'token' }); }
        const id = ++seq;
        const s = { id, token: `ut-${id}-${randomBytes(8).toString('hex')}`, sig: randomBytes(16).toString('hex'), requested: new Set(), stored: new Map(), report: null, finished: false, bytes: 0, puts: 0 };
        sessions.set(s.token, s);
        return json(res, 200, { uploadToken: s.token, webUrl: `/reports/${id}`, presignedReportUrl: `${base}/storage/${id}/report.json.br?sig=${s.sig}` });
      }
      const s = sessions.get(auth.replace(/^Bearer /, ''));
      if (!s) { problem(`${u.pathname} with an unknown upload token`); return json(res, 401, { error: 'token' }); }
      if (s.finished) problem(`${u.pathname} after finish`);
      if (u.pathname === '/api/upload/attachments') {
        if (!/^application\/json/.test(req.headers['content-type'] ?? '')) problem('attachments without Content-Type: application/json');
        const ids = JSON.parse(body.toString()).attachmentIds;
        if (!Array.isArray(ids) || ids.length > 1000) { problem(`attachments: ${ids?.length} ids in one request`); return json(res, 400, { error: 'ids' }); }
        for (const a of ids) { if (typeof a !== 'string' || !a.length || a.length > 256) problem('bad attachment id'); s.requested.add(a); }
        return json(res, 200, ids.map((a) => ({ attachmentId: a, presignedUrl: `${base}/storage/${s.id}/att/${encodeURIComponent(a)}?sig=${s.sig}` })));
      }
      if (u.pathname === '/api/upload/finish') {
        const missing = [...s.requested].filter((a) => !s.stored.has(a));
        if (!s.report || missing.length) { problem(`finish before ${missing.length} attachment(s)${s.report ? '' : ' and the report'} were stored`); return json(res, 409, { error: 'order' }); }
        s.finished = true;
        return json(res, 200, {});
      }
      return json(res, 404, { error: 'route' });
    } catch (e) {
      problem(`emulator: ${e.message}`);
      if (!res.headersSent) json(res, 500, { error: e.message });
    }
  });

  async function storage(req, res, u) {
    const m = /^\/storage\/(\d+)\/(report\.json\.br|att\/(.+))$/.exec(u.pathname);
    const s = m && [...sessions.values()].find((x) => x.id === Number(m[1]));
    if (!s || u.searchParams.get('sig') !== s.sig || req.method !== 'PUT') { problem(`bad storage request ${req.method} ${u.pathname}`); await readAll(req); return json(res, 403, { error: 'sig' }); }
    if (s.finished) problem('storage PUT after finish');
    if (req.headers.authorization !== undefined) problem('storage PUT with an Authorization header');
    const enc = req.headers['content-encoding'];
    const isReport = m[3] === undefined;
    if (isReport && (enc !== 'br' || !/^application\/json/.test(req.headers['content-type'] ?? ''))) problem('report PUT without Content-Type: application/json and Content-Encoding: br');
    if (!isReport && enc !== undefined && !['br', 'gzip', 'deflate'].includes(enc)) problem(`attachment Content-Encoding ${enc}`);
    // encoded bodies are kept (decoded after the upload, off the clock); plain ones hashed as they come
    const hash = createHash('sha1');
    const chunks = [];
    let n = 0;
    for await (const d of req) { n += d.length; if (enc) chunks.push(d); else hash.update(d); }
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) !== n) problem(`Content-Length ${declared} but ${n} bytes`);
    s.bytes += n; s.puts++;
    const entry = enc ? { enc, body: Buffer.concat(chunks), n } : { sha1: hash.digest('hex'), n };
    if (isReport) s.report = entry; else s.stored.set(decodeURIComponent(m[3]), entry);
    if (latencyMs) await new Promise((r) => setTimeout(r, latencyMs));
    res.writeHead(200, { 'content-length': 0 }); res.end();
  }

  const decode = (e) => (e.enc === 'br' ? zlib.brotliDecompressSync(e.body) : e.enc === 'gzip' ? zlib.gunzipSync(e.body) : e.enc === 'deflate' ? zlib.inflateSync(e.body) : e.body);
  parentPort.on('message', (msg) => {
    if (msg.type === 'latency') { latencyMs = msg.ms; parentPort.postMessage({ ok: true }); return; }
    if (msg.type === 'verify') {
      // every session since the last verify: finished, the report a JSON object, each attachment its content
      const out = { sessions: sessions.size, bytes: 0, puts: 0, requests, problems: [...problems] };
      for (const s of sessions.values()) {
        out.bytes += s.bytes; out.puts += s.puts;
        if (!s.finished) out.problems.push(`upload ${s.id} never finished`);
        try { const doc = JSON.parse(decode(s.report).toString()); out.tests = countTests(doc); } catch (e) { out.problems.push(`report of upload ${s.id}: ${e.message}`); }
        for (const [id, e] of s.stored) {
          const got = e.enc ? sha1(decode(e)) : e.sha1;
          if (got !== id) out.problems.push(`attachment ${id} arrived altered`);
        }
      }
      sessions.clear(); problems.length = 0; requests = 0;
      parentPort.postMessage(out);
    }
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => { base = `http://127.0.0.1:${server.address().port}`; parentPort.postMessage({ baseUrl: base }); });
}

function countTests(doc) {
  let n = (doc.tests ?? []).length;
  const walk = (s) => { n += (s.tests ?? []).length; (s.suites ?? []).forEach(walk); };
  (doc.suites ?? []).forEach(walk);
  return n;
}

// ---------------------------------------------------------------------------------------------
// The driver

async function main(o) {
  const worker = new Worker(self, { workerData: { role: 'emulator' } });
  const next = () => new Promise((resolve) => worker.once('message', resolve));
  const { baseUrl } = await next();
  const ask = (msg) => { const p = next(); worker.postMessage(msg); return p; };
  try {
    if (o.memory) await memory(baseUrl, ask, o);
    else await speed(baseUrl, ask, o);
  } finally {
    await worker.terminate();
  }
}

async function upload(ask, args) {
  const out = await runChild(args);
  const v = await ask({ type: 'verify' });
  if (v.sessions !== 1 || v.problems.length) throw new Error(`${args.client}: ${v.sessions} upload(s), problems: ${v.problems.join('; ') || 'none'}`);
  return { ...out, sent: v.bytes, puts: v.puts, requests: v.requests, tests: v.tests };
}

async function speed(baseUrl, ask, o) {
  const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[(s.length - 1) >> 1]; };
  // BENCH_BEFORE=<path of another build's node.mjs>: that build too, as a third client
  const clients = process.env.BENCH_BEFORE ? ['sdk', 'shardwise', 'before'] : ['sdk', 'shardwise'];
  const summary = [];
  console.log(`upload: 5,000-test report + 500 attachments (250 text logs of 20 KB, 250 images/videos of 200 KB), strict emulator on 127.0.0.1 (worker thread), each upload a fresh process, median of ${o.runs} runs, alternating`);
  console.log('latency  client            wall ms (runs)                 sent MB  PUTs  peak RSS MB  CPU ms  main thread busy');
  for (const latency of o.latency) {
    await ask({ type: 'latency', ms: latency });
    const rows = Object.fromEntries(clients.map((c) => [c, []]));
    for (let i = 0; i < o.runs; i++) {
      for (const c of i % 2 ? [...clients].reverse() : clients) rows[c].push(await upload(ask, { client: c, workload: 'speed', baseUrl }));
    }
    for (const c of clients) {
      const r = rows[c];
      const runs = r.map((x) => x.ms.toFixed(0)).join(' ');
      console.log(`${String(latency).padStart(4)} ms  ${c.padEnd(16)}  ${median(r.map((x) => x.ms)).toFixed(0).padStart(6)} (${runs})`.padEnd(63) +
        `${MB3(median(r.map((x) => x.sent))).padStart(7)}  ${String(r[0].puts ?? '').padStart(4)}  ${MB(median(r.map((x) => x.peak))).padStart(10)}` +
        `  ${median(r.map((x) => x.cpuMs)).toFixed(0).padStart(6)}  ${(100 * median(r.map((x) => x.elu))).toFixed(0).padStart(3)}%` +
        (c !== 'sdk' ? `   (result.bytes ${MB3(r[0].bytes)} MB)` : ''));
    }
    const ms = (c) => median(rows[c].map((x) => x.ms));
    summary.push({ latency, ratio: ms('shardwise') / ms('sdk'), before: rows.before && ms('before') / ms('sdk'),
      bytes: median(rows.shardwise.map((x) => x.sent)) / median(rows.sdk.map((x) => x.sent)) });
  }
  for (const s of summary) {
    console.log(`ratio shardwise/SDK at ${s.latency} ms storage latency: wall time ${s.ratio.toFixed(2)}x (goal <= 0.80)` +
      (s.before ? ` (before: ${s.before.toFixed(2)}x)` : '') + `, bytes sent ${s.bytes.toFixed(3)}x (goal <= 1)`);
  }
}

async function memory(baseUrl, ask, o) {
  const dir = mkdtempSync(join(tmpdir(), 'shardwise-bench-upload-'));
  try {
    // 100 files of 20 MB (videos and traces: incompressible)
    const files = [];
    for (let i = 0; i < 100; i++) {
      const path = join(dir, `attachment-${i}.bin`);
      const hash = createHash('sha1');
      const ws = createWriteStream(path);
      for (let k = 0; k < 20; k++) {
        const chunk = randomBytes(1_000_000);
        hash.update(chunk);
        if (!ws.write(chunk)) await new Promise((r) => ws.once('drain', r));
      }
      await new Promise((resolve, reject) => ws.end((e) => (e ? reject(e) : resolve())));
      files.push({ path, id: hash.digest('hex') }); // the id is the content's hash, as the report format wants
    }
    await ask({ type: 'latency', ms: 0 });
    const r = await upload(ask, { client: 'shardwise', workload: 'paths', baseUrl, files });
    console.log(`memory: 2 GB of attachments by path (100 files x 20 MB), shardwise, fresh process, 0 ms latency`);
    console.log(`  wall ${(r.ms / 1000).toFixed(1)} s, sent ${MB(r.sent)} MB in ${r.puts} PUTs`);
    console.log(`  peak RSS ${MB(r.peak)} MB (goal < 300; RSS before the upload ${MB(r.rssBefore)} MB); wasm memory ${r.wasm === undefined ? 'n/a' : MB(r.wasm)} MB (goal < 64)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const { runRows, reportDocument } = await import('../js-tests/helpers/reports.mjs');
  const { encodeReport } = await import('shardwise');
  const doc = reportDocument(runRows(100_000), 'bench big report');
  const reportFile = join(tmpdir(), `shardwise-bench-report-${process.pid}.json.br`);
  writeFileSync(reportFile, encodeReport(doc));
  const jsonBytes = Buffer.byteLength(JSON.stringify(doc));
  for (const asBytes of [false, true]) {
    // peak RSS moves by a few MB from run to run (V8 compiles the hot wasm functions again in
    // background threads in each fresh process): the median of `runs`, and the range
    const runs = [];
    for (let i = 0; i < o.runs; i++) runs.push(await upload(ask, { client: 'shardwise', workload: 'big', baseUrl, tests: 100_000, ...(asBytes ? { reportFile, jsonBytes } : {}) }));
    runs.sort((a, b) => a.peak - b.peak);
    const big = runs[(runs.length - 1) >> 1];
    console.log(`memory: a 100,000-test report (${big.tests} tests arrived) given as ${asBytes ? 'its saved Brotli bytes (as the runners and `shardwise upload` pass it)' : 'a document (an object)'}, shardwise, fresh process, median of ${runs.length}`);
    console.log(`  report JSON ${MB(big.jsonBytes)} MB, sent ${MB(big.sent)} MB, wall ${(big.ms / 1000).toFixed(1)} s`);
    console.log(`  peak RSS ${MB(big.peak)} MB = ${(big.peak / big.jsonBytes).toFixed(2)}x the JSON (goal < 2x; runs ${runs.map((r) => MB(r.peak)).join(', ')} MB); RSS before the upload ${MB(big.rssBefore)} MB, growth during the upload ${MB(big.peak - big.rssBefore)} MB; wasm memory ${big.wasm === undefined ? 'n/a' : MB(big.wasm)} MB`);
  }
  rmSync(reportFile, { force: true });
}

/** Runs one upload in a child process; resolves with its JSON line. */
function runChild(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), self, '--client', JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${args.client} client exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}

if (!isMainThread && workerData?.role === 'emulator') emulator();
else if (process.argv[2] === '--client') await client(JSON.parse(process.argv[3]));
else if (isMainThread) await main(parseArgs(process.argv.slice(2)));
