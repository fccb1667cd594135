// `shardwise serve` benchmark: a real service process (pkg/bin/shardwise.mjs serve) on 127.0.0.1.
//
// 1. History: U uploads of a T-test report (default 1,000 x 20,000; --quick 100 x 5,000), each
//    with its own durations, then a durations request for the whole suite. Per tenth of the
//    uploads: ms per upload, the service's RSS, its data directory on disk; the ratio of the last
//    tenth to the first says whether they stay flat. The durations request's submit (where the
//    prediction is computed) is timed as well.
// 2. Load: 32 shards of a 5,000-test suite at once, each asking for durations of the whole suite
//    and uploading its part, against one service; the shards run in 4 client processes, every
//    request timed through the client's `fetch` option, and the service's own time read from its
//    Server-Timing header. Requests per second and p50/p99 latency, against one shard run alone
//    (baseline, same run). Checks: every shard got byte-identical predictions, every report listed.
//
// Usage: node bench/serve.mjs [--quick] [--load (the load part only)]    (npm run bench:serve)
import { mkdtempSync, rmSync, readFileSync, statSync, readdirSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { uploadReport, fetchDurations, encodeReport } from 'shardwise';
import { startServe, stopServe, suite, reportOf, COMMIT } from '../js-tests/helpers/serve-process.mjs';

const QUICK = process.argv.includes('--quick');
const UPLOADS = QUICK ? 100 : 1000;
const TESTS = QUICK ? 5000 : 20000;
const SHARDS = 32;
const LOAD_TESTS = 5000;
const LOAD_RUNS = QUICK ? 1 : 3;
const ONLY_LOAD = process.argv.includes('--load');
const CLIENT = process.argv.includes('--client');
const CLIENTS = 4;

const mb = (n) => (n / (1 << 20)).toFixed(1);
const rss = (pid) => {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rss: Number(/VmRSS:\s+(\d+)/.exec(s)[1]) * 1024, hwm: Number(/VmHWM:\s+(\d+)/.exec(s)[1]) * 1024 };
};
function du(dir) {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? du(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return n;
}
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]; };
/** A fetch that records each request's latency (ms) and path. */
function timedFetch(log) {
  return async (url, init) => {
    const t = performance.now();
    const res = await fetch(url, init);
    const body = await res.arrayBuffer(); // whole answer received
    const app = /app;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '');
    log.push({ ms: performance.now() - t, app: app ? Number(app[1]) : undefined, path: new URL(url).pathname, status: res.status });
    return new Response(res.status === 204 ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

if (!CLIENT) console.log(`shardwise serve benchmark${QUICK ? ' (--quick)' : ''}: node ${process.version}, ${cpus().length} cores`);

// ---- 1. history ----
if (!ONLY_LOAD && !CLIENT) {
  const dir = mkdtempSync(join(tmpdir(), 'sw-bench-serve-'));
  const srv = await startServe(['--data', dir]);
  const base = { baseUrl: srv.baseUrl, accessToken: srv.accessToken, timeoutMs: 600_000 };
  const tests = suite(TESTS);
  // 8 variants, encoded once (the client's encoding is not the service's cost)
  let seed = 1;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const variants = Array.from({ length: 8 }, () => encodeReport(reportOf(tests.map((x) => ({ ...x, ms: Math.floor(1 + rnd() * rnd() * 20_000) })))));
  for (let i = 0; i < 5; i++) await uploadReport({ ...base, report: variants[i] }); // warm-up, not counted
  console.log(`\n1. history: ${UPLOADS} uploads of a ${TESTS.toLocaleString('en-US')}-test report (${(variants[0].length / 1024).toFixed(0)} KB Brotli each)`);
  console.log('uploads      ms/upload   service RSS   data dir    state.json');
  const rows = [];
  const window = UPLOADS / 10;
  let t = performance.now();
  for (let i = 1; i <= UPLOADS; i++) {
    await uploadReport({ ...base, report: variants[i % variants.length] });
    if (i % window === 0) {
      const now = performance.now();
      const row = { upto: i, ms: (now - t) / window, ...rss(srv.pid), disk: du(dir), state: statSync(join(dir, 'state.json'), { throwIfNoEntry: false })?.size ?? 0 };
      rows.push(row);
      console.log(`${String(i).padStart(5)}   ${row.ms.toFixed(1).padStart(12)}   ${mb(row.rss).padStart(8)} MB   ${mb(row.disk).padStart(7)} MB   ${mb(row.state).padStart(7)} MB`);
      t = performance.now();
    }
  }
  const [first, last] = [rows[0], rows.at(-1)];
  const growth = rows.slice(1).map((r, i) => r.disk - rows[i].disk);
  console.log(`last tenth / first tenth: time per upload x${(last.ms / first.ms).toFixed(2)}, service RSS x${(last.rss / first.rss).toFixed(2)} (peak ${mb(last.hwm)} MB); `
    + `disk added per tenth, last / second: x${(growth.at(-1) / growth[0]).toFixed(2)} (every report is kept: ${(growth.at(-1) / window / 1024).toFixed(0)} KB of blobs per upload); `
    + `state.json ${mb(last.state)} MB for ${TESTS.toLocaleString('en-US')} tests (the history besides the blobs, the same after 100 or 1,000 runs)`);
  const log = [];
  const t0 = performance.now();
  const got = await fetchDurations({ ...base, commitId: COMMIT, shardGroupKey: 'bench-history', report: reportOf(tests), fetch: timedFetch(log) });
  const submit = log.find((r) => r.path.endsWith('/submit'));
  console.log(`durations request after ${UPLOADS} uploads: ${(performance.now() - t0).toFixed(0)} ms in all (the service answers 404 for 300 ms while "computing"), `
    + `submit (the prediction of ${TESTS.toLocaleString('en-US')} tests) ${submit.ms.toFixed(0)} ms; ${got.suites.flatMap((f) => f.tests).filter((x) => x.attempts.length).length} tests predicted`);
  const t1 = performance.now();
  const restart = await (async () => { await stopServe(srv); const again = await startServe(['--data', dir]); await stopServe(again); return performance.now() - t1; })();
  console.log(`close (snapshot) + start + close on that data: ${restart.toFixed(0)} ms`);
  rmSync(dir, { recursive: true, force: true });
}

// ---- 2. load ----
// The 32 shards run in CLIENTS child processes (8 shards each), as shards run on their own
// machines: the clients' own work (encoding, decoding the predictions) is not the service's queue.
async function loadClient({ baseUrl, accessToken, shards, key }) {
  const all = suite(LOAD_TESTS);
  const list = encodeReport(reportOf(all));
  const parts = shards.map((s) => encodeReport(reportOf(all.filter((_, i) => i % SHARDS === s).map((x, i) => ({ ...x, ms: 5 + i })), { title: `shard ${s + 1}/${SHARDS}` })));
  const base = { baseUrl, accessToken, timeoutMs: 300_000 };
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  const log = [];
  const results = await Promise.all(shards.map(async (s, k) => {
    const got = await fetchDurations({ ...base, commitId: COMMIT, shardGroupKey: key, report: list, fetch: timedFetch(log) });
    await uploadReport({ ...base, report: parts[k], fetch: timedFetch(log) });
    return createHash('sha256').update(JSON.stringify(got)).digest('hex');
  }));
  process.stdout.write(JSON.stringify({ log, results }) + '\n');
}

/** One run: the shards split over `clients` processes, started together; resolves with {wall, log, results}. */
async function loadRun(srv, key, shardList, clients) {
  const procs = Array.from({ length: clients }, (_, c) => {
    const shards = shardList.filter((_, i) => i % clients === c);
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--client', JSON.stringify({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, shards, key })], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    const ready = new Promise((resolve) => child.stdout.on('data', (d) => { out += d; if (out.startsWith('ready\n')) resolve(); }));
    const done = new Promise((resolve, reject) => child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.slice(6))) : reject(new Error(`client exited ${code}`)))));
    return { child, ready, done };
  });
  await Promise.all(procs.map((p) => p.ready));
  const t0 = performance.now();
  for (const p of procs) p.child.stdin.end('go\n');
  const outs = await Promise.all(procs.map((p) => p.done));
  return { wall: (performance.now() - t0) / 1000, log: outs.flatMap((o) => o.log), results: outs.flatMap((o) => o.results) };
}

if (CLIENT) {
  await loadClient(JSON.parse(process.argv[process.argv.indexOf('--client') + 1]));
  process.exit(0);
}
{
  const dir = mkdtempSync(join(tmpdir(), 'sw-bench-serve-load-'));
  const srv = await startServe(['--data', dir]);
  const all = suite(LOAD_TESTS);
  await uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report: reportOf(all.map((x, i) => ({ ...x, ms: 1 + (i % 97) * 3 }))) });
  console.log(`\n2. load: ${SHARDS} shards of a ${LOAD_TESTS.toLocaleString('en-US')}-test suite at once (durations of the whole suite + upload of its part; clients in ${CLIENTS} processes), ${LOAD_RUNS} run(s)`);
  const stats = (log) => {
    const ms = log.map((r) => r.ms);
    const app = log.map((r) => r.app).filter((x) => x !== undefined);
    return { p50: pct(ms, 50), p99: pct(ms, 99), max: Math.max(...ms), app50: pct(app, 50), app99: pct(app, 99) };
  };
  const alone = await loadRun(srv, 'alone', [0], 1);
  const a = stats(alone.log);
  console.log(`baseline, one shard alone: ${alone.log.length} requests, latency p50 ${a.p50.toFixed(1)} ms, p99 ${a.p99.toFixed(1)} ms (the service's own time p50 ${a.app50.toFixed(1)}, p99 ${a.app99.toFixed(1)} ms)`);
  let before = (await (await fetch(`${srv.baseUrl}/api/reports`)).json()).length;
  for (let run = 0; run < LOAD_RUNS; run++) {
    const { wall, log, results } = await loadRun(srv, `load-${run}`, Array.from({ length: SHARDS }, (_, s) => s), CLIENTS);
    const listed = (await (await fetch(`${srv.baseUrl}/api/reports`)).json()).length;
    const bad = log.filter((r) => r.status >= 400 && !(r.status === 404 && r.path.startsWith('/storage/durations/')));
    const x = stats(log);
    console.log(`run ${run + 1}: ${log.length} requests in ${wall.toFixed(2)} s = ${(log.length / wall).toFixed(0)} requests/s; latency p50 ${x.p50.toFixed(1)} ms, p99 ${x.p99.toFixed(1)} ms `
      + `(x${(x.p99 / a.p99).toFixed(1)} of alone), max ${x.max.toFixed(0)} ms; the service's own time p50 ${x.app50.toFixed(1)}, p99 ${x.app99.toFixed(1)} ms; `
      + `${new Set(results).size === 1 ? 'identical predictions on every shard' : 'PREDICTIONS DIFFER'}; reports ${listed - before}/${SHARDS} listed; ${bad.length} errors; service RSS ${mb(rss(srv.pid).rss)} MB`);
    const route = (p) => p.replace(/^\/storage\/durations\/[^/]+\/tests.*/, 'PUT test list').replace(/^\/storage\/durations\/.*/, 'GET result')
      .replace(/^\/storage\/reports\/.*/, 'PUT report').replace(/^\/api\//, '');
    const by = new Map();
    for (const r of log) by.set(route(r.path), [...(by.get(route(r.path)) ?? []), r]);
    console.log('  by call (p50 / p99 ms): ' + [...by].map(([k, rs]) => `${k} ${rs.length}x ${pct(rs.map((r) => r.ms), 50).toFixed(0)} / ${pct(rs.map((r) => r.ms), 99).toFixed(0)}`).join('; '));
    if (new Set(results).size !== 1 || listed - before !== SHARDS || bad.length) process.exitCode = 1;
    before = listed;
  }
  await stopServe(srv);
  rmSync(dir, { recursive: true, force: true });
}
