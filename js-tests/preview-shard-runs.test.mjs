// The preview's shard view groups the shards of one run (issue 31): two CI runs of the same commit
// (run ids A and B) and a re-run of one shard of run A, uploaded to the local service; opening a
// shard of run A shows run A's three shards only, the re-run shard's latest attempt, and says so;
// no false "ran on more than one shard". In headless Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import * as api from 'shardwise';
import { createServer, shardOf } from '../pkg/server/index.mjs';
import { addShardPlan } from '../pkg/src/runner/report.mjs';
import { launchChromium, pageWithErrors } from './helpers/chromium.mjs';
import { runRows, buildReport } from './helpers/reports.mjs';

const PKG = fileURLToPath(new URL('../pkg/', import.meta.url));
const COMMIT = 'c'.repeat(40);
let srv, browser;

before(async () => {
  srv = await createServer({ staticDir: PKG, computeDelayMs: 0 });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await srv?.close();
});

test('the shard view shows one run\'s shards, the latest attempt of a re-run shard, and says so', async () => {
  const rows = runRows(24, 5, { failed: 0, flaky: 0, skipped: 0 });
  const idOf = (r) => [r.file, ...r.titlePath].join(' › ');
  const whole = buildReport(api, rows);
  const plan = api.planShards({ report: whole, shardCount: 3 });
  const upload = async (s, run) => {
    const mine = new Set(s.units);
    const report = buildReport(api, rows.filter((r) => mine.has(idOf(r))), `shard ${s.index}/3`);
    report.commitId = COMMIT;
    report.duration = s.predictedMs + 1000;
    report.startTimestamp = Date.now(); // each upload its own report (different bytes)
    addShardPlan(report, { record: { fingerprint: plan.fingerprint, shardIndex: s.index, shardCount: 3, assigned: s.units }, predictedMs: s.predictedMs, unit: 'test', run });
    const up = await api.uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report });
    return up.webUrl.split('/').pop();
  };
  const runA = {};
  for (const s of plan.shards) runA[s.index] = await upload(s, { id: 'A', attempt: 1 });
  for (const s of plan.shards) await upload(s, { id: 'B', attempt: 1 }); // a later run of the same commit
  const rerun = await upload(plan.shards[1], { id: 'A', attempt: 2 }); // shard 2 of run A, run again

  const listed = await (await fetch(`${srv.baseUrl}/api/reports`)).json();
  assert.deepEqual(listed.find((r) => r.id === rerun).shard, { index: 2, count: 3, fingerprint: plan.fingerprint, runId: 'A', attempt: 2 });

  const page = await pageWithErrors(browser);
  await page.goto(`${srv.baseUrl}/reports/${runA[1]}`);
  await page.waitForSelector('#status[data-state="ready"]', { timeout: 30_000 });
  await page.waitForSelector('#shard-run-open:not([hidden])');
  assert.equal(await page.textContent('#shard-run-open'), 'Shard view of this run (3 of 3 shards uploaded; run A)');
  await page.click('#shard-run-open');
  await page.waitForSelector('#shard-run[data-state="ready"]');
  const summary = await page.textContent('#shard-run-summary');
  assert.match(summary, new RegExp(`^3 shards of 3 · plan fingerprint ${plan.fingerprint}, the same on every shard · `));
  assert.doesNotMatch(summary, /more than one shard/, 'no false alarm from the other run');
  assert.match(summary, / · shard 2 ran 2 times: attempt 2 shown$/);
  // the shards shown are run A's, shard 2's second attempt
  const opened = await page.$$eval('#shard-run-tests a.open-shard', (as) => as.map((a) => new URLSearchParams(a.getAttribute('href').slice(1)).get('url')));
  assert.deepEqual(opened, [runA[1], rerun, runA[3]].map((id) => `/api/reports/${id}/report.json.br`));
  await page.close();

  // a shard report whose plan names no run (outside CI, or an older shardwise): the list entry
  // has its place without a run, and the view falls back to the commit's newest shards
  assert.deepEqual(shardOf({ sources: [{ filePath: '.shardwise/shard.json', text: JSON.stringify({ shardIndex: 1, shardCount: 3, fingerprint: 'f' }) }] }), { index: 1, count: 3, fingerprint: 'f' });
  assert.equal(shardOf({ sources: [{ filePath: '.shardwise/shard.json', text: 'not json' }] }), undefined);
  assert.equal(shardOf({}), undefined);
});
