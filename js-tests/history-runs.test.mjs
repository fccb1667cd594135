// The history's runs and names in the local service (pkg/server/history.mjs, history-api.mjs),
// through the real upload exchange to a service on 127.0.0.1: "the last N runs" count runs, the
// shards of one CI run (the same commit, shard count and run id their `.shardwise/shard.json`
// carries) being one run, on the API and on the preview's #history page (headless Chromium); and retention (--keep-reports) forgets the names of tests no kept run
// has, so the history's dictionary holds the tests of the kept runs, not every test ever seen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uploadReport, encodeReport } from 'shardwise';
import { createServer } from '../pkg/server/index.mjs';
import { keyOf } from '../pkg/src/tests.js';
import { launchChromium, pageWithErrors } from './helpers/chromium.mjs';

const FILE = 'cart.spec.ts';
const commit = (i) => String(i).repeat(40).slice(0, 40);
const passed = (ms) => [{ environmentIdx: 0, status: 'passed', startTimestamp: 1_700_000_000_000, duration: ms }];
const flaky = (ms) => [{ environmentIdx: 0, status: 'failed', startTimestamp: 1_700_000_000_000, duration: ms }, ...passed(ms)];
const key = (title) => keyOf(`${FILE} › ${title}`);
const doc = (commitId, tests, { title, sources } = {}) => ({
  category: 'playwright', commitId, startTimestamp: 1_700_000_000_000, duration: 1000, ...(title ? { title } : {}),
  environments: [{ name: 'chromium' }],
  suites: [{ type: 'file', title: FILE, location: { file: FILE, line: 1, column: 1 },
    tests: tests.map(([t, attempts], k) => ({ title: t, location: { file: FILE, line: 2 + k, column: 1 }, attempts })) }],
  ...(sources ? { sources } : {}),
});
/** Shard `index` of 3 of CI run `run` (its run id in the shard record, as a balanced shard's report carries it; none: `runId` null). */
function shard(run, index, { runId = `ci-${run}` } = {}) {
  const ms = (base) => base * (run >= 3 ? 3 : 1); // `slow ...` tests are three times slower from run 3
  const tests = [
    [[`a${index}`, passed(10)], [`slow ${index}`, passed(ms(100))]],
    [[`b${index}`, run === 1 ? flaky(20) : passed(20)], [`slow ${index}`, passed(ms(100))]],
    [[`c${index}`, passed(30)], [`slow ${index}`, passed(ms(100))]],
  ][index - 1];
  const record = { shardIndex: index, shardCount: 3, fingerprint: 'f'.repeat(16), ...(runId ? { run: { id: runId, attempt: 1 } } : {}) };
  return doc(commit(run), tests, { title: `run ${run} shard ${index}`, sources: [{ filePath: '.shardwise/shard.json', text: JSON.stringify(record), contentType: 'application/json' }] });
}
const up = (srv, d) => uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report: encodeReport(d) });
const ok = async (srv, path) => {
  const res = await fetch(srv.baseUrl + path);
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body;
};

test('the last N runs count runs: the 3 shard reports of a CI run are one run', async (t) => {
  const srv = await createServer({ snapshotEvery: 4, staticDir: join(import.meta.dirname, '..', 'pkg') });
  t.after(() => srv.close());
  for (const i of [1, 2, 3]) await up(srv, shard(1, i));
  for (const i of [1, 2, 3]) await up(srv, shard(2, i));
  // runs 3 and 4 at once: their shards finish interleaved
  for (const i of [1, 2, 3]) { await up(srv, shard(3, i)); await up(srv, shard(4, i)); }
  await up(srv, shard(4, 2)); // the same bytes again: not another report of the run

  const last1 = await ok(srv, '/api/history/tests?sort=slowdown&runs=1');
  assert.equal(last1.window.runs, 1);
  assert.equal(last1.window.reports, 3, 'one run: its 3 shards');
  const last2 = await ok(srv, '/api/history/tests?sort=flaky&runs=2');
  assert.deepEqual([last2.window.runs, last2.window.reports], [2, 6]);
  assert.equal(last2.window.from.commitId, commit(3));
  const all = await ok(srv, '/api/history/tests?sort=flaky&runs=4');
  assert.deepEqual([all.window.runs, all.window.reports], [4, 12]);
  assert.equal(all.window.from.commitId, commit(1));
  assert.deepEqual(all.tests.map((x) => x.unitId), [`${FILE} › b2`], 'flaky in run 1, within the last 4 runs');
  assert.deepEqual((await ok(srv, '/api/history/tests?sort=flaky&runs=3')).tests, [], 'run 1 is not among the last 3 runs');

  // the newer half against the older: runs 3-4 against runs 1-2, every shard's slow test
  const slow = await ok(srv, '/api/history/tests?sort=slowdown&runs=4');
  assert.deepEqual(slow.tests.map((x) => [x.unitId, x.earlierMs, x.recentMs]).sort(), [1, 2, 3].map((i) => [`${FILE} › slow ${i}`, 100, 300]));

  // one test over the last N runs: one report of each run has it
  const one = await ok(srv, `/api/history/tests/${key('slow 2')}?runs=2`);
  assert.deepEqual([one.window.runs, one.window.reports], [2, 6]);
  assert.deepEqual(one.runs.map((r) => r.commitId), [commit(3), commit(4)]);
  assert.deepEqual(one.counts, { runs: 2, passed: 2, failed: 0, flaky: 0, skipped: 0 });

  // without a run id (outside CI), the shards of a commit and shard count are one run; a report that is no shard, a run of its own
  for (const i of [1, 2, 3]) await up(srv, shard(5, i, { runId: null }));
  await up(srv, doc(commit(6), [['a1', passed(10)]], { title: 'a local run' }));
  const newest = await ok(srv, '/api/history/tests?sort=flaky&runs=2');
  assert.deepEqual([newest.window.runs, newest.window.reports], [2, 4]);
  assert.equal(newest.window.from.commitId, commit(5));

  // the #history page says so, in headless Chromium
  const browser = await launchChromium();
  t.after(() => browser.close());
  const page = await pageWithErrors(browser);
  await page.goto(`${srv.baseUrl}/preview/#history`);
  await page.waitForSelector('#history-page[data-state="ready"]', { timeout: 30_000 });
  assert.match(await page.locator('#history-summary').textContent(), /^6 runs \(16 reports: the shards of a run are one run\), from run 1 shard 1 /);
  assert.deepEqual(await page.locator('#history-flaky tbody tr td:first-child').allTextContents(), [`${FILE} › b2`]);
  assert.deepEqual(page.errors, []);
});

test('retention forgets the names of tests no kept run has; the kept tests answer, and new tests take the freed places', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sw-history-runs-'));
  let srv = await createServer({ dataDir, keepReports: 3, snapshotEvery: 2 });
  t.after(async () => { await srv.close(); rmSync(dataDir, { recursive: true, force: true }); });
  const run = (i, extra = []) => doc(commit(i), [['always', passed(100 + i)], [`only in run ${i}`, passed(10)], ...(i <= 2 ? [['early', passed(5)]] : []), ...extra]);
  for (let i = 1; i <= 8; i++) await up(srv, run(i));
  const h = srv.store.history;
  const names = () => h.unitIds.filter((u) => u !== null).sort();
  assert.deepEqual(names(), ['always', 'only in run 6', 'only in run 7', 'only in run 8'].map((x) => `${FILE} › ${x}`), 'the names of the kept runs\' tests only');
  for (const gone of ['early', 'only in run 1', 'only in run 5']) {
    assert.equal(h.indexOf(key(gone)), undefined, gone);
    assert.equal((await fetch(`${srv.baseUrl}/api/history/tests/${key(gone)}`)).status, 404, gone);
  }
  const always = await ok(srv, `/api/history/tests/${key('always')}`);
  assert.deepEqual(always.runs.map((r) => [r.commitId, r.durationMs]), [6, 7, 8].map((i) => [commit(i), 100 + i]));
  assert.deepEqual((await ok(srv, `/api/history/tests/${key('only in run 7')}`)).runs.map((r) => r.commitId), [commit(7)]);

  // new tests take the places of forgotten ones (a kept chunk still holds run 5, of a forgotten test): each has its own runs only
  for (let i = 9; i <= 20; i++) await up(srv, run(i, [[`new in run ${i}`, passed(7)]]));
  // at most the tests of the 3 kept runs and of the 2 runs a snapshot (where retention forgets) may wait for: 1 + 5 x 2; 34 kept otherwise
  assert.ok(h.keys.length <= 11, `the dictionary stays the size of the kept runs' tests (${h.keys.length} places for ${names().length} tests)`);
  assert.equal(names().length, 7);
  for (const i of [18, 19, 20]) {
    const x = await ok(srv, `/api/history/tests/${key(`new in run ${i}`)}`);
    assert.deepEqual(x.runs.map((r) => [r.commitId, r.status, r.durationMs]), [[commit(i), 'passed', 7]]);
  }
  const page = await ok(srv, '/api/history/tests?sort=slowdown');
  assert.equal(page.window.runs, 3);
  assert.deepEqual(page.tests.map((x) => x.unitId), [`${FILE} › always`]);
  const before = await ok(srv, `/api/history/tests/${key('always')}`);
  await srv.close();

  // on disk: the same names; after a restart, the same answers
  const state = JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
  assert.deepEqual(state.history.tests.filter(Boolean).map(([, u]) => u).sort(), names());
  srv = await createServer({ dataDir, keepReports: 3, snapshotEvery: 2 });
  assert.deepEqual(await ok(srv, `/api/history/tests/${key('always')}`), before);
  assert.equal(srv.store.history.unitIds.filter((u) => u !== null).length, names().length);
});
