// A test's history in `shardwise serve` at scale: R runs of a T-test suite (default 1,000 x
// 20,000; --quick 100 x 2,000) stored in a real service (pkg/server, in this process), then its
// history routes timed over HTTP on 127.0.0.1 after a restart (the runs read back from disk).
//
// The runs go in through the store's own path (`store.addReport`, each an fsync'd journal line,
// a chunk written at each snapshot as in production) with their history rows generated, since a
// real upload of a 20,000-test report costs about 0.4 s (bench:serve) and 1,000 of them would
// take most of this benchmark; a few real uploads of a 20,000-test report through the upload
// exchange are timed at the end (their `finish` reads the report's tests with the package's wasm).
// The suite: ~2% of tests flaky at various rates, 50 failing from a run on, 200 slowing down in
// the second half, 1% skipped; the rest pass with noisy durations.
//
// Prints: the time to store the runs, restart, the timings of GET /api/history/tests/<key> (20
// tests: median and max) and of the flakiest / most slowed-down pages over the last 100 and
// 1,000 runs (first ask, and again: answered from the figures kept), and the history's size on
// disk. Goals (on 2 cores): a test's history under 50 ms, a page over 1,000 runs under 2 s cold.
//
// Usage: node bench/history.mjs [--quick]    (npm run bench:history)
import { mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID, randomBytes } from 'node:crypto';
import { uploadReport, encodeReport } from 'shardwise';
import { createServer } from '../pkg/server/index.mjs';
import { historyRows } from '../pkg/server/history.mjs';
import { keyOf } from '../pkg/src/tests.js';
import { suite, reportOf } from '../js-tests/helpers/serve-process.mjs';

const QUICK = process.argv.includes('--quick');
const RUNS = QUICK ? 100 : 1000;
const TESTS = QUICK ? 2000 : 20000;
const REAL_UPLOADS = 3;

const mb = (n) => `${(n / (1 << 20)).toFixed(1)} MB`;
function du(p) {
  const s = statSync(p);
  if (!s.isDirectory()) return s.size;
  let n = 0;
  for (const e of readdirSync(p)) n += du(join(p, e));
  return n;
}
let seed = 42;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const tests = suite(TESTS);
const unitIds = tests.map((t) => `${t.file} › ${t.title}`);
const keys = unitIds.map((u) => keyOf(u));
// each test's character: 0 stable, 1 flaky (rate in flakyRate), 2 fails from failFrom on, 3 slows down, 4 skipped
const kind = new Uint8Array(TESTS);
const flakyRate = new Float64Array(TESTS);
const failFrom = new Uint32Array(TESTS);
const base = new Uint32Array(TESTS);
for (let i = 0; i < TESTS; i++) {
  base[i] = 20 + Math.floor(rnd() * 2000);
  const x = rnd();
  if (x < 0.02) { kind[i] = 1; flakyRate[i] = 0.02 + rnd() * 0.4; } else if (x < 0.0225) { kind[i] = 2; failFrom[i] = Math.floor(rnd() * RUNS); } else if (x < 0.0325) kind[i] = 3;
  else if (x < 0.0425) kind[i] = 4;
}

function rowsOf(run) {
  const status = new Uint8Array(TESTS);
  const durations = new Uint32Array(TESTS);
  for (let i = 0; i < TESTS; i++) {
    let s = 1;
    let d = base[i] * (0.9 + rnd() * 0.2);
    if (kind[i] === 1 && rnd() < flakyRate[i]) { s = 3; d *= 2; } else if (kind[i] === 2 && run >= failFrom[i]) s = 2;
    else if (kind[i] === 3 && run >= RUNS / 2) d *= 1.5 + rnd();
    else if (kind[i] === 4) { s = 4; d = 0; }
    status[i] = s;
    durations[i] = Math.round(d);
  }
  return { keys, unitIds, status, durations };
}

async function time(fn) {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
}

const dataDir = mkdtempSync(join(tmpdir(), 'sw-bench-history-'));
try {
  console.log(`bench:history, ${new Date().toISOString()}: ${RUNS} runs x ${TESTS} tests`);
  let srv = await createServer({ dataDir });
  const t0 = performance.now();
  for (let run = 0; run < RUNS; run++) {
    const commitId = randomBytes(20).toString('hex');
    await srv.store.addReport({ id: randomUUID(), finishedAt: Date.now(), category: 'playwright', commitId, attachmentIds: [], sha256: randomBytes(32).toString('hex') }, {}, rowsOf(run));
    if ((run + 1) % (RUNS / 10) === 0) process.stdout.write(`  stored ${run + 1} runs, ${((performance.now() - t0) / 1000).toFixed(1)} s\r`);
  }
  const storeMs = performance.now() - t0;
  console.log(`\nstored ${RUNS} runs through the store's path in ${(storeMs / 1000).toFixed(1)} s (${(storeMs / RUNS).toFixed(1)} ms per run: journal line, history rows folded, a chunk per 64 runs)`);
  const [closeMs] = await time(() => srv.close());
  const [openMs, s2] = await time(() => createServer({ dataDir }));
  srv = s2;
  console.log(`close (snapshot) ${closeMs.toFixed(0)} ms; restart ${openMs.toFixed(0)} ms; service heap ${mb(process.memoryUsage().heapUsed)}, RSS ${mb(process.memoryUsage().rss)}`);

  const get = async (path) => {
    const t = performance.now();
    const res = await fetch(srv.baseUrl + path);
    const body = await res.json();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    return { ms: performance.now() - t, app: Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing'))?.[1]), body };
  };
  const picks = Array.from({ length: 20 }, () => Math.floor(rnd() * TESTS));
  const one = [];
  for (const i of picks) one.push(await get(`/api/history/tests/${keys[i]}?runs=${RUNS}`));
  console.log(`GET /api/history/tests/<key>?runs=${RUNS} (${one[0].body.runs.length} runs each), 20 tests: median ${median(one.map((x) => x.ms)).toFixed(1)} ms, max ${Math.max(...one.map((x) => x.ms)).toFixed(1)} ms (service's own time median ${median(one.map((x) => x.app)).toFixed(1)} ms)`);
  const failing = keys.findIndex((_, i) => kind[i] === 2);
  const f = (await get(`/api/history/tests/${keys[failing]}?runs=${RUNS}`)).body;
  console.log(`  a test failing from run ${failFrom[failing] + 1}: first failed in run seq ${f.firstFailed?.seq} (streak ${f.firstFailed?.streak})`);
  for (const n of [100, RUNS]) {
    for (const sort of ['flaky', 'slowdown']) {
      const a = await get(`/api/history/tests?runs=${n}&sort=${sort}&limit=50`);
      const b = await get(`/api/history/tests?runs=${n}&sort=${sort}&limit=50&offset=50`);
      console.log(`GET /api/history/tests?runs=${n}&sort=${sort}: ${a.ms.toFixed(1)} ms (own ${a.app.toFixed(1)}), next page ${b.ms.toFixed(1)} ms; ${a.body.total} tests, top: ${a.body.tests[0]?.unitId} (${sort === 'flaky' ? `rate ${a.body.tests[0]?.flakyRate}` : `+${a.body.tests[0]?.slowdownMs} ms`})`);
    }
  }
  // a new run invalidates the kept figures: the next page is computed again
  await srv.store.addReport({ id: randomUUID(), finishedAt: Date.now(), category: 'playwright', commitId: randomBytes(20).toString('hex'), attachmentIds: [], sha256: randomBytes(32).toString('hex') }, {}, rowsOf(RUNS));
  const again = await get(`/api/history/tests?runs=${RUNS}&sort=flaky`);
  console.log(`after one more run (runs since the snapshot in memory): flakiest over ${RUNS} runs ${again.ms.toFixed(1)} ms`);

  const doc = reportOf(tests.map((t, i) => ({ ...t, ms: base[i] })), { title: 'real upload' });
  const bytes = encodeReport(doc);
  const up = [];
  for (let i = 0; i < REAL_UPLOADS; i++) up.push((await time(() => uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report: bytes.slice() })))[0]);
  console.log(`real uploads of a ${TESTS}-test report (${mb(bytes.length)} Brotli) through the upload exchange: ${up.map((x) => x.toFixed(0)).join(', ')} ms`);
  const rowsMs = [];
  for (let i = 0; i < 3; i++) rowsMs.push((await time(() => historyRows(bytes)))[0]);
  console.log(`  of which the read of the report at finish (historyRows: __decodeReportTests, its tests' keys, outcomes; its document is also what the predictions read): ${rowsMs.map((x) => x.toFixed(0)).join(', ')} ms`);

  await srv.close();
  const hist = du(join(dataDir, 'history'));
  console.log(`on disk: history/ ${mb(hist)} (${readdirSync(join(dataDir, 'history')).length} chunks, ${(hist / ((RUNS + 1) * TESTS)).toFixed(2)} bytes per test and run), state.json ${mb(du(join(dataDir, 'state.json')))}, blobs ${mb(du(join(dataDir, 'blobs')))}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
