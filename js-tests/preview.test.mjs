// The browser report preview, for real: the local service with the preview (as `shardwise serve`
// runs it), a report uploaded through the package's ReportBuilder + uploadReport, and the page in
// headless Chromium. The numbers on the page are checked against the rows the report was built
// from; the shard chart against the same plan computed in Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as api from 'shardwise';
import { createServer } from '../pkg/server/index.mjs';
import { addShardPlan, saveReport } from '../pkg/src/runner/report.mjs';
import { planAsRun } from '../pkg/src/runner/timings.mjs';
import { launchChromium, pageWithErrors } from './helpers/chromium.mjs';
import { runRows, expectedOf, buildReport, reportDocument, COMMIT } from './helpers/reports.mjs';

const PKG = fileURLToPath(new URL('../pkg/', import.meta.url));
const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));
const OUT = fileURLToPath(new URL('./.out/preview/', import.meta.url));

let srv, browser;
const small = { rows: runRows(60, 3, { failed: 0.08, flaky: 0.12, skipped: 0.08 }) };

before(async () => {
  mkdirSync(OUT, { recursive: true });
  srv = await createServer({ staticDir: PKG, computeDelayMs: 0 });
  browser = await launchChromium();
  small.report = buildReport(api, small.rows);
  small.expected = expectedOf(small.rows);
  const up = await api.uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report: small.report });
  small.id = up.webUrl.split('/').pop();
});

after(async () => {
  await browser?.close();
  await srv?.close();
});

/** A page that fails the test on any uncaught page error or console error. */
const newPage = () => pageWithErrors(browser);

const ready = (page, timeout = 30_000) => page.waitForSelector('#status[data-state="ready"]', { timeout });
const planned = (page, n, timeout = 30_000) => page.waitForSelector(`#chart[data-shards="${n}"]:not([aria-busy])`, { timeout });

/** Everything the page shows, read from the DOM. */
const readPage = (page) => page.evaluate(() => {
  const q = (s) => [...document.querySelectorAll(s)];
  return {
    status: document.getElementById('status').textContent,
    totals: Object.fromEntries(q('#totals [data-total]').map((c) => [c.dataset.total, Number(c.dataset.value)])),
    flaky: q('#flaky li[data-title]').map((li) => li.dataset.title),
    flakyCount: document.getElementById('flaky-count').textContent,
    envs: q('#environments tr[data-env]').map((tr) => ({ name: tr.dataset.env, ms: Number(tr.dataset.ms) })),
    slowest: q('#slowest tr[data-title]').map((tr) => ({ title: tr.dataset.title, ms: Number(tr.dataset.ms), file: tr.children[2].textContent })),
    bars: q('#chart .bar').map((b) => ({ index: Number(b.dataset.shard), ms: Number(b.dataset.ms), tests: Number(b.dataset.tests) })),
    planSummary: document.getElementById('plan-summary').textContent,
    recent: q('#recent option').map((o) => o.value).filter(Boolean),
  };
});

/** The plan `shardwise plan <report>` makes: as the report's runner would plan its run (its costs, workers and unit). */
const asRunPlan = (report, shardCount) => api.planShards({ ...planAsRun(report, api).options(), shardCount });

/** The bars must be exactly the plan Node computes from the same report, as its run. */
function assertBarsArePlan(bars, report, n) {
  const plan = asRunPlan(report, n);
  assert.equal(bars.length, n);
  assert.deepEqual(bars, plan.shards.map((s) => ({ index: s.index, ms: s.predictedMs, tests: s.units.length })));
  return plan;
}

test('preview: /preview/ opens an uploaded report by ?url= and shows its totals, flaky, environments, slowest and a 4-shard plan', async () => {
  const page = await newPage();
  const url = `/api/reports/${small.id}/report.json.br`;
  await page.goto(`${srv.baseUrl}/preview/?url=${encodeURIComponent(url)}`);
  assert.match(page.url(), /\/pkg\/preview\/\?url=/);
  await ready(page);
  await planned(page, 4);
  const shown = await readPage(page);
  const { expected } = small;

  assert.deepEqual(shown.totals, expected.totals);
  assert.deepEqual(shown.flaky.sort(), expected.flaky.sort());
  assert.equal(shown.flakyCount, `(${expected.flaky.length})`);
  assert.deepEqual(shown.envs, [{ name: 'chromium', ms: expected.envMs[0] }, { name: 'firefox', ms: expected.envMs[1] }]);
  assert.equal(shown.slowest.length, 20, 'the slowest list starts capped at 20 rows');
  assert.deepEqual(shown.slowest, expected.tests.slice(0, 20).map((t) => ({ title: t.title, ms: t.ms, file: t.file })));

  // Shard bars: N of them, together exactly the report's test time (every test has a duration).
  const plan = assertBarsArePlan(shown.bars, small.report, 4);
  // the shards pay the tests' own time and more (start-up, workers, files)
  assert.ok(shown.bars.reduce((s, b) => s + b.ms, 0) >= expected.totalMs);
  assert.equal(shown.bars.reduce((s, b) => s + b.tests, 0), small.rows.length);
  assert.ok(shown.planSummary.includes(plan.fingerprint.slice(0, 12)), shown.planSummary);
  assert.doesNotMatch(shown.planSummary, /estimated/);
  assert.ok(shown.recent.includes(url), `the uploaded reports list offers ${url}: ${shown.recent}`);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}preview.png`, fullPage: true });

  // N is adjustable: 7 shards, then 1.
  await page.fill('#shards', '7');
  await planned(page, 7);
  let bars = (await readPage(page)).bars;
  assertBarsArePlan(bars, small.report, 7);
  await page.fill('#shards', '1');
  await planned(page, 1);
  bars = (await readPage(page)).bars;
  assertBarsArePlan(bars, small.report, 1);

  // "show more" reveals the next rows of the same order.
  await page.click('#slowest-more');
  const more = (await readPage(page)).slowest;
  assert.deepEqual(more, expected.tests.slice(0, 60).map((t) => ({ title: t.title, ms: t.ms, file: t.file })));
  assert.equal(await page.isHidden('#slowest-more'), true, 'every test is shown: no more button');

  assert.deepEqual(page.errors, []);
  await page.close();
});

test('preview: a shard\'s report says which shard it is, the list tells it from whole runs, a bar lists its shard\'s tests, "1 test"; the bars are drawn to scale', async () => {
  // What a reporter of shard 2 of 3 uploads: its report's title says so.
  const b = new api.ReportBuilder({ category: 'playwright', commitId: COMMIT, startTimestamp: 1_700_000_000_000, title: 'shard 2/3' });
  b.addEnvironment({ name: 'chromium' });
  const rows = [['a.spec.ts', ['login', 'slow'], 5000], ['b.spec.ts', ['quick one'], 100], ['b.spec.ts', ['<img src=x onerror="window.pwned=1">'], 120]];
  for (const [file, titlePath, duration] of rows)
    b.addAttempt(b.addTest({ titlePath, file, line: 1, column: 1 }), { environmentIdx: 0, status: 'passed', startTimestamp: 1_700_000_000_000, duration });
  const report = b.build();
  report.duration = 6000;
  const up = await api.uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report });
  const url = `/api/reports/${up.webUrl.split('/').pop()}/report.json.br`;

  const page = await newPage();
  await page.goto(`${srv.baseUrl}/preview/?url=${encodeURIComponent(url)}`);
  await ready(page);
  await page.fill('#shards', '2');
  await planned(page, 2);
  const label = `playwright · shard 2/3 · commit ${COMMIT.slice(0, 10)}`;
  assert.equal(await page.textContent('#title'), label);
  assert.match(await page.textContent('#status'), /, 3 tests, /);
  const options = await page.$$eval('#recent option', (os) => os.map((o) => ({ value: o.value, text: o.textContent })));
  assert.ok(options.some((o) => o.value === url && o.text.startsWith(`${label} · `)), JSON.stringify(options));
  assert.ok(options.some((o) => o.value !== url && o.value && !o.text.includes('shard')), 'a whole run reads without a shard');

  const plan = asRunPlan(report, 2);
  const values = await page.$$eval('#chart .bar .value', (vs) => vs.map((v) => v.textContent));
  assert.deepEqual(values.map((v) => v.split(' · ')[1]), plan.shards.map((s) => `${s.units.length} test${s.units.length === 1 ? '' : 's'}`));
  assert.ok(values.some((v) => v.endsWith(' · 1 test')), values.join(' | '));
  assert.match(await page.textContent('#plan-summary'), /^2 shards: /);

  // Selecting a bar lists exactly that shard's tests (the plan's ids), as text; again closes it.
  for (const s of plan.shards) {
    await page.click(`#chart .bar[data-shard="${s.index}"]`);
    await page.waitForSelector(`#shard-tests-list[data-shown="${s.units.length}"]`);
    assert.deepEqual(await page.$$eval('#shard-tests-list li', (ls) => ls.map((l) => l.textContent)), s.units);
    assert.match(await page.textContent('#shard-tests-title'), new RegExp(`^shard ${s.index} of 2: ${s.units.length} tests?, [\\d.]+ m?s predicted$`));
    assert.equal(await page.getAttribute(`#chart .bar[data-shard="${s.index}"]`, 'aria-expanded'), 'true');
  }
  assert.equal(await page.$$eval('#shard-tests-list img', (i) => i.length), 0, 'a title is text, never markup');
  // a listed test links to its page
  await page.click('#shard-tests-list li:first-child a');
  const unit = await page.textContent('#shard-tests-list li:first-child');
  await page.waitForFunction((t) => document.querySelector('#test-detail .test-title')?.textContent === t, unit.split(' › ').slice(1).join(' › '));
  assert.equal(await page.evaluate(() => window.pwned), undefined);

  // The screenshot, read back pixel by pixel: each bar's blue fill is as long as its predicted time
  // relative to the longest, on the same track width.
  const boxes = await page.$$eval('#chart .bar', (bars) => bars.map((b) => {
    const c = b.closest('.chart').getBoundingClientRect();
    const t = b.querySelector('.track').getBoundingClientRect();
    return { x: t.left - c.left, y: t.top - c.top + t.height / 2, width: t.width, ms: Number(b.dataset.ms) };
  }));
  const png = await page.locator('#chart').screenshot();
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(`${ARTIFACTS}preview-shards.png`, png);
  const reader = await browser.newPage();
  const filled = await reader.evaluate(async ({ b64, boxes }) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const g = new OffscreenCanvas(img.width, img.height).getContext('2d');
    g.drawImage(img, 0, 0);
    const { data, width } = g.getImageData(0, 0, img.width, img.height);
    // pixels of the fill's colour (#3f6ad8) along the middle line of each track
    return boxes.map((b) => {
      let n = 0;
      const y = Math.round(b.y);
      for (let x = Math.floor(b.x); x < Math.ceil(b.x + b.width); x++) {
        const i = (y * width + x) * 4;
        if (Math.abs(data[i] - 0x3f) < 24 && Math.abs(data[i + 1] - 0x6a) < 24 && Math.abs(data[i + 2] - 0xd8) < 24) n++;
      }
      return n;
    });
  }, { b64: png.toString('base64'), boxes });
  await reader.close();
  const max = Math.max(...boxes.map((b) => b.ms));
  for (const [i, b] of boxes.entries()) {
    const want = (b.width * b.ms) / max;
    assert.ok(Math.abs(filled[i] - want) <= 4, `bar ${i + 1}: ${filled[i]} px of fill drawn, ${want.toFixed(1)} px for ${b.ms} ms of ${max} on a ${b.width} px track`);
  }
  assert.ok(Math.max(...filled) > 100 && Math.min(...filled) < Math.max(...filled) / 2, `the bars differ as their times do: ${filled}`);

  await page.fill('#shards', '1');
  await planned(page, 1);
  assert.match(await page.textContent('#plan-summary'), /^1 shard: /);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('preview: a Jest run\'s report is planned as Jest runs it (each file whole on one shard, its workers, its costs), the plan `shardwise plan <report>` makes', async () => {
  const rows = runRows(160, 9, { failed: 0.05, flaky: 0.05, skipped: 0.05 });
  const report = buildReport(api, rows, 'jest run');
  report.category = 'jest';
  report.duration = 40_000;
  const files = [...new Set(rows.map((r) => r.file))].sort();
  assert.equal(files.length, 8);
  // what each file cost beyond its tests, as the Jest reporter records it (a cold first file on each worker)
  const costs = Object.fromEntries(files.map((f, i) => [f, i < 2 ? 2500 : 300 + 40 * i]));
  report.sources = [...(report.sources ?? []), { filePath: '.shardwise/costs.json', text: JSON.stringify({ runner: 'jest', workers: 2, files: costs }), contentType: 'application/json' }];
  const up = await api.uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report });

  const page = await newPage();
  await page.goto(`${srv.baseUrl}/preview/?url=${encodeURIComponent(`/api/reports/${up.webUrl.split('/').pop()}/report.json.br`)}`);
  await ready(page);
  await page.fill('#shards', '3');
  await planned(page, 3);
  const plan = asRunPlan(report, 3);
  const shown = await readPage(page);
  assert.deepEqual(shown.bars, plan.shards.map((s) => ({ index: s.index, ms: s.predictedMs, tests: s.units.length })));
  assert.deepEqual(plan.shards.flatMap((s) => s.units).sort(), files, 'the units are the files, each on one shard');
  assert.match(shown.planSummary, /; as the run: 2 workers a shard, each file whole on one shard, costs learned from a run: 8 files' costs measured/);
  assert.match(await page.textContent('#chart .bar[data-shard="1"] .value'), / · \d+ files?$/);
  await page.click('#chart .bar[data-shard="1"]');
  await page.waitForSelector(`#shard-tests-list[data-shown="${plan.shards[0].units.length}"]`);
  assert.deepEqual(await page.$$eval('#shard-tests-list li', (ls) => ls.map((l) => l.textContent)), plan.shards[0].units);
  assert.equal(await page.$$eval('#shard-tests-list a', (a) => a.length), 0, 'a file is listed as text: it is not a test');
  assert.match(await page.textContent('#shard-tests-title'), /^shard 1 of 3: \d+ files?, /);

  // the CLI plans the same report the same way: the same fingerprint
  const file = `${OUT}jest-run.json`;
  writeFileSync(file, JSON.stringify(report));
  const cli = spawn(process.execPath, [`${PKG}bin/shardwise.mjs`, 'plan', file, '--shards', '3', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  cli.stdout.on('data', (c) => { out += c; });
  assert.equal(await new Promise((resolve) => cli.on('close', resolve)), 0);
  assert.equal(JSON.parse(out).fingerprint, plan.fingerprint);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('preview: the shard view of a sharded run, from the service and from its output folder: each shard\'s tests, predicted against actual, the plan\'s fingerprint, equal to the plan', async () => {
  const XSS = '<img src=x onerror="window.pwned=1">';
  const rows = runRows(30, 21, { failed: 0.1, flaky: 0.1, skipped: 0.05 });
  rows[3].titlePath = [XSS, 'shown as text'];
  const commit = 'b'.repeat(40);
  const whole = buildReport(api, rows);
  const n = 3;
  const plan = api.planShards({ report: whole, shardCount: n });
  const idOf = (r) => [r.file, ...r.titlePath].join(' › ');
  const folder = `${OUT}sharded/`;
  const urls = [];
  // in the folder, shard 3 also ran a test of shard 1 (a shard that did not keep to the plan)
  const extra = rows.find((r) => idOf(r) === plan.shards[0].units[0]);
  const shardReport = (s, more = []) => {
    // what shard i's reporter writes: its tests, titled "shard i/3", its part of the plan carried along
    const mine = new Set(s.units);
    const report = buildReport(api, [...rows.filter((r) => mine.has(idOf(r))), ...more], `shard ${s.index}/${n}`);
    report.commitId = commit;
    report.duration = s.predictedMs + 4000; // a wall time: the tests and a start-up
    addShardPlan(report, { record: { fingerprint: plan.fingerprint, shardIndex: s.index, shardCount: n, assigned: s.units }, predictedMs: s.predictedMs, unit: 'test' });
    return api.encodeReport(report);
  };
  for (const s of plan.shards) {
    const bytes = shardReport(s);
    saveReport(`${folder}shard-${s.index}-of-${n}/`, s.index === 3 ? shardReport(s, [extra]) : bytes, []);
    const up = await api.uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report: bytes });
    urls.push(`/api/reports/${up.webUrl.split('/').pop()}/report.json.br`);
  }
  const want = plan.shards.map((s) => ({ shard: s.index, tests: s.units.length, planned: s.units.length, predicted: s.predictedMs, fingerprint: plan.fingerprint }));
  const readShardRun = (page) => page.evaluate(() => ({
    summary: document.getElementById('shard-run-summary').textContent,
    rows: [...document.querySelectorAll('#shard-run-table tr[data-shard]')].map((tr) => ({
      shard: Number(tr.dataset.shard), tests: Number(tr.dataset.tests), planned: Number(tr.dataset.planned), predicted: Number(tr.dataset.predicted), fingerprint: tr.dataset.fingerprint,
      span: Number(tr.dataset.span), cells: [...tr.children].map((c) => c.textContent),
      // a cell whose text does not fit it (issue 33: the "off by" column was cut to `+26.7 s (+158…`)
      cut: [...tr.children].filter((c) => {
        const text = document.createRange();
        text.selectNodeContents(c);
        return text.getBoundingClientRect().right > c.getBoundingClientRect().right + 1 || c.scrollWidth > c.clientWidth + 1;
      }).map((c) => c.textContent),
    })),
    tests: Object.fromEntries([...document.querySelectorAll('#shard-run-tests details')].map((d) => [d.dataset.shard, [...d.querySelectorAll('li a')].map((a) => a.textContent)])),
    twice: [...document.querySelectorAll('#shard-run-twice:not([hidden]) li')].map((li) => li.textContent),
  }));
  const check = (shown, overlap = false) => {
    const ran = (s) => [...rows.filter((r) => s.units.includes(idOf(r))), ...(overlap && s.index === 3 ? [extra] : [])];
    assert.deepEqual(shown.rows.map(({ span, cells, cut, ...r }) => r), want.map((w) => ({ ...w, tests: ran(plan.shards[w.shard - 1]).length })));
    for (const r of shown.rows) assert.deepEqual(r.cut, [], `shard ${r.shard}: cells shown cut`);
    for (const r of shown.rows) {
      assert.ok(r.span > 0 && r.span <= r.predicted + 4000, `shard ${r.shard}: its tests took ${r.span} ms`);
      assert.match(r.cells[5], /^[+−]/, 'off by: actual against predicted');
    }
    assert.match(shown.summary, new RegExp(`^3 shards of 3 · plan fingerprint ${plan.fingerprint}, the same on every shard · predicted makespan `));
    const title = extra.titlePath.join(' › ');
    assert.deepEqual(shown.twice, overlap ? [`${title} (shards 1, 3)`] : []);
    assert.equal(shown.summary.endsWith(' · 1 test ran on more than one shard'), overlap, shown.summary);
    for (const s of plan.shards) {
      const titles = ran(s).map((r) => r.titlePath.join(' › '));
      assert.deepEqual([...shown.tests[s.index]].sort(), titles.sort(), `shard ${s.index}'s tests`);
    }
  };

  // From the service: the open shard report offers its run's shards.
  const page = await newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${srv.baseUrl}/preview/?url=${encodeURIComponent(urls[1])}`);
  await ready(page);
  await page.waitForSelector('#shard-run-open:not([hidden])');
  const two = plan.shards[1];
  assert.ok((await page.textContent('#meta')).endsWith(` · planned as shard 2/3: ${two.units.length} tests, predicted ${(two.predictedMs / 1000).toFixed(1)} s, plan fingerprint ${plan.fingerprint.slice(0, 12)}`), await page.textContent('#meta'));
  assert.equal(await page.textContent('#shard-run-open'), 'Shard view of this run (3 of 3 shards uploaded)');
  await page.click('#shard-run-open');
  await page.waitForSelector('#shard-run[data-state="ready"]');
  check(await readShardRun(page));
  // on a narrow window too (a laptop's half screen): the table scrolls, no cell is cut
  const wide = page.viewportSize();
  await page.setViewportSize({ width: 560, height: 800 });
  check(await readShardRun(page));
  await page.setViewportSize(wide);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.locator('#shard-run').screenshot({ path: `${ARTIFACTS}preview-shard-run.png` });
  assert.equal(await page.$$eval('#shard-run img', (i) => i.length), 0, 'a title is text, never markup');
  // a test of another shard opens in that shard's report
  const xssShard = plan.shards.find((s) => s.units.includes(idOf(rows[3]))).index;
  await page.click(`#shard-run-tests details[data-shard="${xssShard}"] summary`);
  await page.locator(`#shard-run-tests details[data-shard="${xssShard}"] li a`).getByText(`${XSS} › shown as text`, { exact: true }).click();
  await page.waitForFunction((t) => document.querySelector('#test-detail .test-title')?.textContent === t, `${XSS} › shown as text`);
  assert.equal(new URL(page.url()).searchParams.get('url'), urls[xssShard - 1]);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.ok(requests.every((u) => u.startsWith(`${srv.baseUrl}/`) || u.startsWith('blob:') || u.startsWith('data:')), `no other origin: ${requests.join('\n')}`);
  assert.deepEqual(page.errors, []);

  // From the run's output folder (every shard-i-of-n/ in it), nothing requested.
  await page.goto(`${srv.baseUrl}/preview/`);
  await page.waitForLoadState('networkidle');
  const before = requests.length;
  await page.setInputFiles('#folder', folder);
  await page.waitForSelector('#shard-run[data-state="ready"]');
  await ready(page);
  check(await readShardRun(page), true);
  assert.deepEqual(await page.$$eval('#folder-reports option', (os) => os.map((o) => o.textContent)), [1, 2, 3].map((i) => `sharded/shard-${i}-of-3/report.json.br`));
  const other = plan.shards.find((s) => s.index !== 1 && s.units.length);
  const title = rows.find((r) => r.titlePath.length && other.units.includes(idOf(r))).titlePath.join(' › ');
  await page.click(`#shard-run-tests details[data-shard="${other.index}"] summary`);
  await page.locator(`#shard-run-tests details[data-shard="${other.index}"] li a`).getByText(title, { exact: true }).click();
  await page.waitForFunction((t) => document.querySelector('#test-detail .test-title')?.textContent === t, title);
  assert.equal(await page.inputValue('#folder-reports'), `shard-${other.index}-of-3/`);
  assert.equal(await page.isVisible('#shard-run'), true, 'the shard view stays while its shards are opened');
  assert.ok(requests.slice(before).every((u) => u.startsWith('blob:')), requests.slice(before).join('\n'));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('preview: a test\'s link key comes from the planner\'s own id of it (file, suites, title), so the shard lists link to the right tests', async () => {
  const { keyedTests, keyOf, withTestIds } = await import('../pkg/preview/summary.mjs');
  const { __decodeReportTests } = await import('../pkg/wasm/shardwise.js');
  const at = (duration) => [{ environmentIdx: 0, status: 'passed', startTimestamp: 1, duration }];
  const doc = {
    category: 'playwright', commitId: COMMIT, startTimestamp: 1, duration: 100, environments: [{ name: 'e' }],
    tests: [{ title: 'top level', location: { file: 'top.spec.ts', line: 1, column: 1 }, attempts: at(1) }],
    suites: [
      { type: 'file', title: 'a.spec.ts', location: { file: 'a.spec.ts', line: 1, column: 1 }, tests: [{ title: 'in the file', attempts: at(2) }], suites: [
        { type: 'suite', title: 'login', tests: [{ title: 'works', attempts: at(3) }, { title: 'works', attempts: at(4) }], suites: [
          { type: 'anonymous suite', title: '', tests: [{ title: 'deep', attempts: at(5) }] },
          { type: 'suite', title: 'inner', location: { file: 'elsewhere.ts', line: 1, column: 1 }, tests: [{ title: 'own file', location: { file: 'b.spec.ts', line: 3, column: 1 }, attempts: at(6) }] },
        ] },
      ] },
      { type: 'suite', title: 'no file suite', location: { file: 'c.spec.ts', line: 1, column: 1 }, suites: [{ type: 'suite', title: 'nested', tests: [{ title: 't', attempts: at(7) }] }] },
    ],
  };
  const read = withTestIds(__decodeReportTests(api.encodeReport(doc)));
  const ids = keyedTests(read).map((t) => t.unitId);
  assert.deepEqual(keyedTests(read).map((t) => t.file), ['top.spec.ts', 'a.spec.ts', 'a.spec.ts', 'a.spec.ts', 'a.spec.ts', 'b.spec.ts', 'c.spec.ts']);
  const plan = api.planShards({ report: doc, shardCount: 1 });
  assert.deepEqual([...new Set(ids)].sort(), [...plan.shards[0].units].sort());
  const keys = keyedTests(read).map((t) => t.key);
  assert.equal(new Set(keys).size, keys.length, 'two tests sharing an id get two keys');
  assert.equal(keys[ids.indexOf('a.spec.ts › login › works')], keyOf('a.spec.ts › login › works'), 'the first of them is the plan unit\'s');
});

test('preview: a .json file from the file picker shows the same figures; a bad file says why', async () => {
  const page = await newPage();
  await page.goto(`${srv.baseUrl}/preview/`);
  const file = `${OUT}run.json`;
  writeFileSync(file, JSON.stringify(small.report));
  await page.setInputFiles('#file', file);
  await ready(page);
  await planned(page, 4);
  const shown = await readPage(page);
  assert.deepEqual(shown.totals, small.expected.totals);
  assertBarsArePlan(shown.bars, small.report, 4);
  assert.match(shown.status, /^run\.json: /);

  // A .json.br file is Brotli: decoded by the package's wasm in the page.
  writeFileSync(`${OUT}run.json.br`, api.encodeReport(small.report));
  await page.setInputFiles('#file', `${OUT}run.json.br`);
  await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('run.json.br: '));
  await planned(page, 4);
  const fromBr = await readPage(page);
  assert.deepEqual(fromBr.totals, small.expected.totals);
  assert.deepEqual(fromBr.slowest, shown.slowest);
  assertBarsArePlan(fromBr.bars, small.report, 4);

  writeFileSync(`${OUT}bad.json.br`, 'not brotli, not json');
  await page.setInputFiles('#file', `${OUT}bad.json.br`);
  await page.waitForSelector('#status[data-state="error"]');
  assert.match(await page.textContent('#status'), /Cannot open bad\.json\.br: [A-Z_]+: /);
  assert.equal(await page.isHidden('#report'), true);

  assert.deepEqual(page.errors, []);

  // An unknown report id: the server's 404, said plainly.
  await page.fill('#url', '/api/reports/nope/report.json.br');
  await page.click('#open button[type=submit]');
  await page.waitForSelector('#status[data-state="error"]');
  assert.match(await page.textContent('#status'), /HTTP 404/);
  assert.ok(new URL(page.url()).search.includes('url='), 'the opened URL is kept in the address, to share');
  await page.close();
});

test('preview: a 50,000-test report loads within a generous bound and the page stays interactive', { timeout: 300_000 }, async () => {
  const rows = runRows(50_000, 99);
  const expected = expectedOf(rows);
  const doc = reportDocument(rows);
  const up = await api.uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report: api.encodeReport(doc) });
  const url = `/api/reports/${up.webUrl.split('/').pop()}/report.json.br`;

  const page = await newPage();
  // Long tasks on the page's main thread, from the very start.
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push(Math.round(e.duration)); }).observe({ type: 'longtask', buffered: true });
  });
  const t0 = Date.now();
  await page.goto(`${srv.baseUrl}/preview/?url=${encodeURIComponent(url)}`);
  // While the worker decodes, the page answers at once.
  await page.waitForSelector('#status[data-state="loading"]');
  const probes = [];
  while (await page.getAttribute('#status', 'data-state') === 'loading') {
    const p0 = Date.now();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
    probes.push(Date.now() - p0);
    await new Promise((r) => setTimeout(r, 50));
  }
  await ready(page, 120_000);
  await planned(page, 4, 120_000);
  const loadMs = Date.now() - t0;

  const shown = await readPage(page);
  assert.deepEqual(shown.totals, expected.totals);
  assert.equal(shown.flaky.length, 20, 'the flaky list starts capped');
  assert.equal(shown.flakyCount, `(${expected.flaky.length.toLocaleString('en-US')})`);
  assert.deepEqual(shown.slowest.map((t) => t.ms), expected.tests.slice(0, 20).map((t) => t.ms));
  assert.equal(shown.bars.length, 4);
  assert.ok(shown.bars.reduce((s, b) => s + b.ms, 0) >= expected.totalMs);
  assert.equal(shown.bars.reduce((s, b) => s + b.tests, 0), 50_000);
  const domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);

  // Interactive afterwards: a new shard count re-plans (no decode) and "show more" renders at once.
  const t1 = Date.now();
  await page.fill('#shards', '16');
  await planned(page, 16, 60_000);
  const replanMs = Date.now() - t1;
  const bars = (await readPage(page)).bars;
  assert.equal(bars.length, 16);
  assert.equal(bars.reduce((s, b) => s + b.tests, 0), 50_000);
  const t2 = Date.now();
  await page.click('#flaky-more');
  assert.equal((await readPage(page)).flaky.length, 70);
  const moreMs = Date.now() - t2;
  // Past the rows the page holds, "show more" pages the next ones in from the worker.
  for (let i = 0; i < 4; i++) await page.click('#slowest-more');
  await page.waitForFunction(() => document.querySelectorAll('#slowest tr[data-title]').length === 220);
  assert.deepEqual((await readPage(page)).slowest.map((t) => t.ms), expected.tests.slice(0, 220).map((t) => t.ms));
  const longTasks = await page.evaluate(() => window.__longTasks);
  const maxProbe = Math.max(0, ...probes);
  console.log(`50,000 tests: loaded and planned in ${loadMs} ms (${shown.status}); re-plan for 16 shards ${replanMs} ms; `
    + `show more ${moreMs} ms; ${domNodes} DOM elements; main-thread frame probes while decoding: ${probes.length}, max ${maxProbe} ms; `
    + `long tasks on the main thread: ${longTasks.length ? longTasks.join(', ') + ' ms' : 'none'}`);

  // Generous bounds (a shared 2-core machine): the work is in the worker, the DOM stays small.
  assert.ok(loadMs < 90_000, `loaded in ${loadMs} ms`);
  assert.ok(domNodes < 2_000, `${domNodes} DOM elements: lists must stay capped`);
  assert.ok(probes.length === 0 || maxProbe < 1_500, `a frame took ${maxProbe} ms while decoding`);
  assert.ok(Math.max(0, ...longTasks) < 2_000, `main-thread long tasks: ${longTasks}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('preview: `shardwise serve` serves the preview and the package files it imports, nothing else of the package', async () => {
  const child = spawn(process.execPath, [`${PKG}bin/shardwise.mjs`, 'serve', '--data', `${OUT}serve-data`], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let out = '';
    const url = await new Promise((resolve, reject) => {
      child.stdout.on('data', (c) => { out += c; const m = out.match(/report preview: (\S+)/); if (m) resolve(m[1]); });
      child.on('close', () => reject(new Error(`serve exited: ${out}`)));
    });
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/preview\/$/);
    const page = await fetch(`${url}?url=/x`);
    assert.equal(page.status, 200);
    assert.match(page.url, /\/pkg\/preview\/\?url=\/x$/, 'the query survives the redirect');
    assert.match(await page.text(), /<title>shardwise report preview<\/title>/);
    const base = new URL(page.url);
    for (const [p, type] of [['../browser.mjs', 'text/javascript'], ['../wasm/shardwise_bg.wasm', 'application/wasm'], ['worker.mjs', 'text/javascript'], ['preview.css', 'text/css'], ['../src/runner/timings.mjs', 'text/javascript']]) {
      const res = await fetch(new URL(p, base));
      assert.equal(res.status, 200, p);
      assert.equal(res.headers.get('content-type'), type, p);
    }
    for (const p of ['../server/index.mjs', '../package.json', '../cli/serve.mjs', '..%2fserver%2findex.mjs', '../src/../package.json', '../src/runner/durations.mjs'])
      assert.equal((await fetch(new URL(p, base))).status, 404, p);
  } finally {
    child.kill('SIGTERM');
  }
  const code = await new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on('close', resolve)));
  assert.equal(code, 0);
});
