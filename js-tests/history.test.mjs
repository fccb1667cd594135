// A test's history in the local service (pkg/server/history.mjs, history-api.mjs): reports
// uploaded through the real upload exchange to a service on 127.0.0.1, then its history routes:
// a test's status, commit and duration per run, its flaky rate, the run its current failing
// streak began; the flakiest and most slowed-down tests over the last N runs. The answers are the
// same after a clean restart and after kill -9 (runs since the snapshot replayed from the
// journal), and reading them needs the access token beyond loopback as every read does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, readdirSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uploadReport, encodeReport } from 'shardwise';
import { createServer } from '../pkg/server/index.mjs';
import { keyOf } from '../pkg/src/tests.js';
import { startServe, stopServe } from './helpers/serve-process.mjs';

const FILE = 'checkout.spec.ts';
const commit = (i) => String(i).padStart(40, 'c').replace(/c/g, (_, k) => 'abcdef'[k % 6]);
const passed = (ms) => [{ environmentIdx: 0, status: 'passed', startTimestamp: 1_700_000_000_000, duration: ms }];
const failed = (ms) => [{ environmentIdx: 0, status: 'failed', startTimestamp: 1_700_000_000_000, duration: ms, errors: [{ message: 'boom' }] }];
const flaky = (ms) => [...failed(ms), ...passed(ms)];
const skipped = () => [{ environmentIdx: 0, status: 'skipped', expectedStatus: 'skipped', startTimestamp: 1_700_000_000_000, duration: 0 }];

/** Run i (1-based) of a small suite: `breaks` fails from run 3, `flaky` is flaky in runs 1, 3, 5, `slows` triples from run 4, `later` appears in run 4. */
function run(i) {
  const tests = [
    ['stable', passed(100 + (i % 2))],
    ['breaks', i >= 3 ? failed(50) : passed(50)],
    ['flaky', i % 2 ? flaky(30) : passed(30)],
    ['slows', passed(i >= 4 ? 300 : 100)],
    ['skipped', skipped()],
    ...(i >= 4 ? [['later', passed(10)]] : []),
  ];
  return {
    category: 'playwright', commitId: commit(i), startTimestamp: 1_700_000_000_000 + i * 60_000, duration: 1000, title: `run ${i}`,
    environments: [{ name: 'chromium' }],
    suites: [{ type: 'file', title: FILE, location: { file: FILE, line: 1, column: 1 }, suites: [{ type: 'suite', title: 'cart', location: { file: FILE, line: 2, column: 1 },
      tests: tests.map(([title, attempts], k) => ({ title, location: { file: FILE, line: 3 + k, column: 1 }, attempts })) }] }],
  };
}
const key = (title) => keyOf(`${FILE} › cart › ${title}`);
const get = async (srv, path, headers) => {
  const res = await fetch(srv.baseUrl + path, { headers });
  return { status: res.status, body: await res.json() };
};
const ok = async (srv, path, headers) => {
  const { status, body } = await get(srv, path, headers);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
};
async function uploadRuns(srv, from, to) {
  const ids = {};
  for (let i = from; i <= to; i++) {
    await uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report: encodeReport(run(i)) });
    const list = await ok(srv, '/api/reports');
    ids[i] = list[list.length - 1].id;
  }
  return ids;
}
/** What users read of the history: the answers of both routes (report ids and times included). */
async function answers(srv) {
  const out = {};
  for (const t of ['stable', 'breaks', 'flaky', 'slows', 'skipped']) out[t] = await ok(srv, `/api/history/tests/${key(t)}`);
  out.later = await get(srv, `/api/history/tests/${key('later')}`); // 404 before run 4
  out.flakiest = await ok(srv, '/api/history/tests?sort=flaky');
  out.slowest = await ok(srv, '/api/history/tests?sort=slowdown&runs=5');
  return out;
}

test('history: status, commit, duration per run; flaky rate; the run a failing streak began; flakiest and slowed-down pages', async (t) => {
  const srv = await createServer({ snapshotEvery: 2 });
  t.after(() => srv.close());
  const ids = await uploadRuns(srv, 1, 5);

  const breaks = await ok(srv, `/api/history/tests/${key('breaks')}`);
  assert.equal(breaks.unitId, `${FILE} › cart › breaks`);
  assert.deepEqual(breaks.runs.map((r) => r.status), ['passed', 'passed', 'failed', 'failed', 'failed']);
  assert.deepEqual(breaks.runs.map((r) => r.commitId), [1, 2, 3, 4, 5].map(commit));
  assert.deepEqual(breaks.runs.map((r) => r.report), [1, 2, 3, 4, 5].map((i) => ids[i]));
  assert.deepEqual(breaks.runs.map((r) => r.startedAt), [1, 2, 3, 4, 5].map((i) => 1_700_000_000_000 + i * 60_000));
  assert.ok(breaks.runs.every((r) => r.durationMs === 50 && typeof r.finishedAt === 'number'));
  assert.equal(breaks.failing, true);
  assert.equal(breaks.firstFailed.report, ids[3], 'first failed in run 3');
  assert.equal(breaks.firstFailed.commitId, commit(3));
  assert.equal(breaks.firstFailed.streak, 3);
  assert.deepEqual(breaks.counts, { runs: 5, passed: 2, failed: 3, flaky: 0, skipped: 0 });
  assert.equal(breaks.lastReport, ids[5]);

  const fl = await ok(srv, `/api/history/tests/${key('flaky')}`);
  assert.deepEqual(fl.runs.map((r) => r.status), ['flaky', 'passed', 'flaky', 'passed', 'flaky']);
  assert.deepEqual(fl.runs.map((r) => r.durationMs), [60, 30, 60, 30, 60], 'a run\'s duration sums its attempts');
  assert.equal(fl.flakyRate, 0.6);
  assert.equal(fl.failing, false);
  assert.equal(fl.firstFailed, null);

  const sk = await ok(srv, `/api/history/tests/${key('skipped')}`);
  assert.deepEqual(sk.counts, { runs: 5, passed: 0, failed: 0, flaky: 0, skipped: 5 });
  assert.equal(sk.flakyRate, 0);
  const later = await ok(srv, `/api/history/tests/${key('later')}`);
  assert.deepEqual(later.runs.map((r) => r.report), [ids[4], ids[5]], 'a run without the test is not in its history');

  // the window: the last N runs
  const last2 = await ok(srv, `/api/history/tests/${key('breaks')}?runs=2`);
  assert.deepEqual(last2.runs.map((r) => r.report), [ids[4], ids[5]]);
  assert.equal(last2.window.runs, 2);
  assert.equal(last2.firstFailed.report, ids[3], 'the streak is read over every run held, not only the window');

  const page = await ok(srv, '/api/history/tests?sort=flaky');
  assert.deepEqual(page.tests.map((x) => x.unitId), [`${FILE} › cart › flaky`]);
  assert.equal(page.tests[0].key, key('flaky'));
  assert.equal(page.tests[0].flakyRate, 0.6);
  assert.equal(page.tests[0].lastReport, ids[5]);
  assert.equal(page.window.runs, 5);
  assert.equal(page.window.from.report, ids[1]);
  assert.equal(page.window.to.commitId, commit(5));
  const recent = await ok(srv, '/api/history/tests?sort=flaky&runs=1');
  assert.equal(recent.tests[0].flakyRate, 1, 'over the last run only: flaky in it');

  const slow = await ok(srv, '/api/history/tests?sort=slowdown');
  assert.equal(slow.tests[0].unitId, `${FILE} › cart › slows`);
  // runs 1-2 earlier, 3-5 recent: 100 then (100 + 300 + 300) / 3
  assert.deepEqual([slow.tests[0].earlierMs, slow.tests[0].recentMs, slow.tests[0].slowdownMs], [100, 233, 133]);
  assert.ok(!slow.tests.some((x) => x.unitId.endsWith('breaks')), 'failed runs are not durations');

  // paging
  const a = await ok(srv, '/api/history/tests?sort=slowdown&limit=1');
  const b = await ok(srv, '/api/history/tests?sort=slowdown&limit=1&offset=1');
  assert.equal(a.total, slow.total);
  assert.deepEqual([...a.tests, ...b.tests], slow.tests.slice(0, 2));

  // the same bytes uploaded again are not another run
  await uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report: encodeReport(run(5)) });
  assert.equal((await ok(srv, `/api/history/tests/${key('breaks')}`)).runs.length, 5);

  // refusals say what is wrong
  const unknown = await get(srv, `/api/history/tests/${'0'.repeat(14)}`);
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.error.code, 'not_found');
  for (const bad of ['/api/history/tests/nothex', '/api/history/tests?runs=0', '/api/history/tests?sort=slowest', '/api/history/tests?limit=100000', '/api/history/tests?runs=1e3']) {
    const r = await get(srv, bad);
    assert.equal(r.status, 400, bad);
    assert.equal(r.body.error.code, 'invalid_request');
  }
  assert.equal((await fetch(srv.baseUrl + '/api/history/tests', { method: 'POST' })).status, 405);
});

test('history: the same answers after a clean restart, with chunks on disk and runs since the snapshot', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sw-history-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  let srv = await createServer({ dataDir, snapshotEvery: 2 });
  await uploadRuns(srv, 1, 3);
  const before = await answers(srv);
  await srv.close();
  assert.ok(readdirSync(join(dataDir, 'history')).length >= 2, 'the runs are sealed in chunk files');
  srv = await createServer({ dataDir, snapshotEvery: 2 });
  assert.deepEqual(await answers(srv), before);
  await uploadRuns(srv, 4, 5);
  const after = await answers(srv);
  assert.equal(after.breaks.firstFailed.commitId, commit(3));
  assert.equal(after.flaky.flakyRate, 0.6);
  await srv.close();
  srv = await createServer({ dataDir });
  t.after(() => srv.close());
  assert.deepEqual(await answers(srv), after);
});

test('history: a chunk file no snapshot lists (a crash between the two) is removed at start, not counted; retention keeps the newest runs', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sw-history-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  let srv = await createServer({ dataDir, snapshotEvery: 2 });
  await uploadRuns(srv, 1, 4);
  const before = await answers(srv);
  await srv.close();
  const chunks = readdirSync(join(dataDir, 'history'));
  copyFileSync(join(dataDir, 'history', chunks[0]), join(dataDir, 'history', '5-6.bin'));
  srv = await createServer({ dataDir, snapshotEvery: 2 });
  assert.deepEqual(readdirSync(join(dataDir, 'history')).sort(), chunks.sort());
  assert.deepEqual(await answers(srv), before);
  await srv.close();

  // keep the newest 3 reports: the history holds those runs only
  const kept = await createServer({ keepReports: 3, snapshotEvery: 2 });
  t.after(() => kept.close());
  const ids = await uploadRuns(kept, 1, 6);
  const breaks = await ok(kept, `/api/history/tests/${key('breaks')}`);
  assert.deepEqual(breaks.runs.map((r) => r.report), [ids[4], ids[5], ids[6]]);
  assert.equal(breaks.firstFailed.report, ids[4], 'the streak as far as the kept runs go');
  assert.equal((await ok(kept, '/api/history/tests?sort=flaky')).window.runs, 3);
});

test('history survives kill -9: the sealed chunks are read back, the runs since the snapshot replayed from the journal', { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sw-history-crash-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  let srv = await startServe(['--data', dir], { SHARDWISE_SNAPSHOT_EVERY: '2' });
  t.after(() => srv.child.kill('SIGKILL'));
  await uploadRuns(srv, 1, 5); // runs 1-4 in two chunks, run 5 only in the journal
  const before = await answers(srv);
  srv.child.kill('SIGKILL');
  await srv.exited;
  srv = await startServe(['--data', dir], { SHARDWISE_SNAPSHOT_EVERY: '2' });
  t.after(() => srv.child.kill('SIGKILL'));
  assert.deepEqual(await answers(srv), before);
  assert.equal(before.breaks.runs.length, 5);
  assert.equal(await stopServe(srv), 0);
});

test('history reads need the access token beyond loopback, as every read does', async (t) => {
  const srv = await createServer({ readsNeedToken: true });
  t.after(() => srv.close());
  await uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report: encodeReport(run(1)) });
  await uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report: encodeReport(run(2)) });
  for (const path of ['/api/history/tests', `/api/history/tests/${key('breaks')}`]) {
    const none = await get(srv, path);
    assert.equal(none.status, 401, path);
    assert.equal(none.body.error.code, 'unauthorized');
    assert.doesNotMatch(none.body.error.message, new RegExp(srv.accessToken));
    assert.equal((await get(srv, path, { authorization: 'Bearer swat_wrong' })).status, 401);
    assert.equal((await get(srv, path, { authorization: `Bearer ${srv.accessToken}` })).status, 200);
  }
  const open = await createServer();
  t.after(() => open.close());
  await uploadReport({ baseUrl: open.baseUrl, accessToken: open.accessToken, report: encodeReport(run(1)) });
  assert.equal((await get(open, `/api/history/tests/${key('breaks')}`)).status, 200, 'open on loopback');
});
