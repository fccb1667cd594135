// A test's history in the preview, in headless Chromium against the local service: five runs of a
// suite uploaded through the upload exchange (a test that fails from run 3, one flaky in runs 1, 3
// and 5, one that slows down from run 4, one whose title is markup); its page shows the status
// per run with commits, the run it first failed in, its flaky rate and its duration trend; the
// #history page lists the flakiest and most slowed-down tests, linking to their pages. Served
// without the service, the section says the history needs `shardwise serve`. Nothing from a
// report runs as HTML.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { spawn, execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from 'shardwise';
import { createServer } from '../pkg/server/index.mjs';
import { keyOf } from '../pkg/src/tests.js';
import { launchChromium, pageWithErrors } from './helpers/chromium.mjs';
import { serveStatic } from './helpers/static-server.mjs';

const PKG = fileURLToPath(new URL('../pkg/', import.meta.url));
const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));
const FILE = 'tests/checkout.spec.ts';
const MARKUP = 'renders <img src=x onerror=alert(1)>';
const commit = (i) => `${i}`.repeat(40).slice(0, 40).replace(/\d/g, (d) => 'abcdef0123456789'[Number(d) + 5]);
const key = (title) => keyOf(`${FILE} › checkout › ${title}`);
let srv, browser;
const runs = {}; // run number -> report id
let reportBytes;

function run(i) {
  const b = new api.ReportBuilder({ category: 'playwright', commitId: commit(i), startTimestamp: Date.UTC(2026, 10, 20 + i, 9, 30), title: `nightly ${i}` });
  const env = b.addEnvironment({ name: 'chromium' });
  const add = (title, ...attempts) => {
    const t = b.addTest({ titlePath: ['checkout', title], file: FILE });
    for (const [status, duration] of attempts) b.addAttempt(t, { environmentIdx: env, status, startTimestamp: 1, duration });
  };
  add('pays', ['passed', 120]);
  add('breaks', [i >= 3 ? 'failed' : 'passed', 80]);
  add('flaky', ...(i % 2 ? [['failed', 40], ['passed', 40]] : [['passed', 40]]));
  add('slows', ['passed', i >= 4 ? 900 : 300]);
  add(MARKUP, ['passed', 10]);
  return b.build();
}

before(async () => {
  srv = await createServer({ staticDir: PKG, computeDelayMs: 0, snapshotEvery: 2 });
  browser = await launchChromium();
  for (let i = 1; i <= 5; i++) {
    const report = api.encodeReport(run(i));
    if (i === 5) reportBytes = report;
    const up = await api.uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report });
    runs[i] = up.webUrl.split('/').pop();
  }
});
after(async () => {
  await browser?.close();
  await srv?.close();
});

const testPage = (id, k) => `${srv.baseUrl}/preview/?url=${encodeURIComponent(`/api/reports/${id}/report.json.br`)}#test=${k}`;
const readHistory = (page) => page.evaluate(() => {
  const h = document.getElementById('test-history');
  return {
    state: h.dataset.state,
    text: h.textContent,
    statuses: [...h.querySelectorAll('ol.timeline li')].map((li) => li.dataset.status),
    commits: [...h.querySelectorAll('ol.timeline .commit')].map((c) => c.textContent),
    links: [...h.querySelectorAll('ol.timeline a')].map((a) => a.getAttribute('href')),
    firstFailed: h.querySelector('.first-failed')?.textContent,
    firstFailedHref: h.querySelector('.first-failed a')?.getAttribute('href'),
    flakyRate: h.querySelector('.flaky-rate')?.textContent,
    dots: [...h.querySelectorAll('svg.trend circle')].map((c) => c.getAttribute('class')),
    trendTitles: [...h.querySelectorAll('svg.trend circle title')].map((t) => t.textContent),
  };
});

/** The colour at the middle of a screenshot of `locator`, read back from its PNG in the page. */
async function colourOf(page, locator) {
  const png = await locator.screenshot();
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    return [...g.getImageData(Math.floor(img.width / 2), 2, 1, 1).data].slice(0, 3);
  }, png.toString('base64'));
}

test('a test\'s page shows its status per run with commits, the run it first failed in, its flaky rate and duration trend', async () => {
  const page = await pageWithErrors(browser);
  await page.goto(testPage(runs[5], key('breaks')));
  await page.waitForSelector('#test-history[data-state="ready"]', { timeout: 30_000 });
  const h = await readHistory(page);
  assert.deepEqual(h.statuses, ['passed', 'passed', 'failed', 'failed', 'failed']);
  assert.deepEqual(h.commits, [1, 2, 3, 4, 5].map((i) => commit(i).slice(0, 10)));
  assert.match(h.firstFailed, new RegExp(`Failing since nightly 3 · commit ${commit(3).slice(0, 10)} · 2026-11-23 09:30 \\(3 runs in a row\\)`));
  assert.ok(h.firstFailedHref.includes(encodeURIComponent(`/api/reports/${runs[3]}/report.json.br`)) && h.firstFailedHref.endsWith(`#test=${key('breaks')}`), 'links to the test in run 3');
  assert.equal(h.flakyRate, 'flaky rate 0%');
  assert.deepEqual(h.dots, ['dot passed', 'dot passed', 'dot failed', 'dot failed', 'dot failed']);
  // the timeline's failed runs are red on screen
  const red = await colourOf(page, page.locator('#test-history ol.timeline li[data-status="failed"] a').first());
  assert.ok(red[0] > 150 && red[1] < 80 && red[2] < 80, `a failed run is red, got rgb(${red})`);
  const green = await colourOf(page, page.locator('#test-history ol.timeline li[data-status="passed"] a').first());
  assert.ok(green[1] > 90 && green[0] < 80, `a passed run is green, got rgb(${green})`);
  await page.screenshot({ path: `${ARTIFACTS}preview-history-test.png`, fullPage: true });

  // a run's link opens the test in that run's report
  await page.click('#test-history .first-failed a');
  await page.waitForFunction((id) => document.getElementById('test-detail')?.dataset.key && location.search.includes(id), runs[3], { timeout: 30_000 });
  await page.waitForSelector('#test-history[data-state="ready"]', { timeout: 30_000 });
  assert.match(await page.textContent('#meta, #title'), /nightly 3|playwright/);

  await page.goto(testPage(runs[5], key('flaky')));
  await page.waitForSelector('#test-history[data-state="ready"]', { timeout: 30_000 });
  const f = await readHistory(page);
  assert.deepEqual(f.statuses, ['flaky', 'passed', 'flaky', 'passed', 'flaky']);
  assert.equal(f.flakyRate, 'flaky rate 60%');
  assert.match(f.text, /flaky in 3 of the 5 runs it ran in/);
  assert.match(f.firstFailed, /Not failing/);

  await page.goto(testPage(runs[5], key('slows')));
  await page.waitForSelector('#test-history[data-state="ready"]', { timeout: 30_000 });
  const s = await readHistory(page);
  assert.equal(s.dots.length, 5);
  assert.match(s.trendTitles[4], /^900 ms · passed · nightly 5/);

  await page.goto(testPage(runs[5], key(MARKUP)));
  await page.waitForSelector('#test-history[data-state="ready"]', { timeout: 30_000 });
  assert.equal(await page.locator('#test-detail img').count(), 0, 'a title is text');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('#history lists the flakiest and most slowed-down tests over the last N runs, linking to their pages', async () => {
  const page = await pageWithErrors(browser);
  await page.goto(`${srv.baseUrl}/preview/#history`);
  await page.waitForSelector('#history-page[data-state="ready"]', { timeout: 30_000 });
  const read = () => page.evaluate(() => ({
    summary: document.getElementById('history-summary').textContent,
    flaky: [...document.querySelectorAll('#history-flaky tbody tr')].map((tr) => [...tr.children].map((td) => td.textContent)),
    slow: [...document.querySelectorAll('#history-slow tbody tr')].map((tr) => [...tr.children].map((td) => td.textContent)),
    flakyHref: document.querySelector('#history-flaky tbody a')?.getAttribute('href'),
    imgs: document.querySelectorAll('#history-page img').length,
  }));
  const all = await read();
  assert.match(all.summary, /^5 runs, from nightly 1/);
  assert.deepEqual(all.flaky, [[`${FILE} › checkout › flaky`, '60%', '3 / 5', 'flaky']]);
  assert.deepEqual(all.slow[0], [`${FILE} › checkout › slows`, '300 ms', '700 ms', '+400 ms']);
  assert.equal(all.imgs, 0);
  await page.screenshot({ path: `${ARTIFACTS}preview-history-page.png`, fullPage: true });

  // the last 2 runs: the flaky test was flaky in one of them
  await page.fill('#history-runs', '2');
  await page.locator('#history-runs').evaluate((e) => e.blur()); // its change event
  await page.waitForFunction(() => document.getElementById('history-summary').textContent.startsWith('2 runs'));
  await page.waitForFunction(() => document.querySelector('#history-flaky tbody tr td:nth-child(2)')?.textContent === '50%');

  await page.click('#history-flaky tbody a');
  await page.waitForSelector('#test-history[data-state="ready"]', { timeout: 30_000 });
  assert.equal(await page.evaluate(() => document.getElementById('test-detail').dataset.key), key('flaky'));
  assert.ok(page.url().includes(encodeURIComponent(`/api/reports/${runs[5]}/report.json.br`)), 'in the newest report that ran it');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a report read from disk asks nothing of the service until its history is asked for', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sw-history-file-'));
  writeFileSync(join(dir, 'report.json.br'), reportBytes);
  try {
    const page = await pageWithErrors(browser);
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${srv.baseUrl}/preview/`);
    await page.setInputFiles('#file', join(dir, 'report.json.br'));
    await page.waitForSelector('#status[data-state="ready"]', { timeout: 30_000 });
    await page.evaluate((k) => { location.hash = `#test=${k}`; }, key('breaks'));
    await page.waitForSelector('#test-history[data-state="ask"]', { timeout: 30_000 });
    assert.ok(!requests.some((u) => u.includes('/api/history/')), 'nothing asked');
    await page.click('#test-history button.history-ask');
    await page.waitForSelector('#test-history[data-state="ready"]', { timeout: 30_000 });
    assert.deepEqual((await readHistory(page)).statuses, ['passed', 'passed', 'failed', 'failed', 'failed']);
    assert.deepEqual(page.errors, []);
    await page.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without the service, the history section says it needs shardwise serve', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sw-history-static-'));
  mkdirSync(join(dir, 'r'));
  writeFileSync(join(dir, 'r', 'report.json.br'), reportBytes);
  const stat = await serveStatic({ '/pkg/': PKG, '/r/': join(dir, 'r') });
  try {
    const page = await pageWithErrors(browser);
    await page.goto(`${stat.url}/pkg/preview/index.html?url=/r/report.json.br#test=${key('breaks')}`);
    await page.waitForSelector('#test-history[data-state="no-service"]', { timeout: 30_000 });
    assert.match(await page.textContent('#test-history'), /needs `shardwise serve`/);
    // the static server answers the history route 404 (not JSON): reported as such, not as an error of the page
    assert.deepEqual(page.errors.filter((e) => !/404/.test(e)), []);
    await page.close();
  } finally {
    await stat.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

// Real runner runs: three runs of a Jest project (a git repository, one commit a run) report to
// their own service through the shardwise reporter; a test that fails from run 2, one that fails
// its first attempt and passes its retry in runs 1 and 3 (Jest's retryTimes), one skipped. The
// test page of the last run shows each as Jest ran it.
test('real Jest runs: the history shows the runs as Jest ran them (failing since run 2, flaky in runs 1 and 3 by retries, skipped)', { timeout: 240_000 }, async () => {
  const ROOT = fileURLToPath(new URL('..', import.meta.url));
  const dir = join(ROOT, 'js-tests', '.out', 'history-jest');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'jest.config.cjs'), `module.exports = { rootDir: __dirname, testMatch: ['**/*.test.cjs'], reporters: ['default', ['shardwise/jest', { outputFolder: 'shardwise-report' }]] };\n`);
  writeFileSync(join(dir, 'cart.test.cjs'), `const fs = require('fs');
const run = Number(process.env.HISTORY_RUN);
jest.retryTimes(1);
describe('cart', () => {
  test('adds', () => { expect(1 + 1).toBe(2); });
  test('breaks', () => { expect(run >= 2 ? 'a broken total' : 'total').toBe('total'); });
  test('flaky', () => {
    const marker = __dirname + '/.tried-' + run;
    if (run !== 2 && !fs.existsSync(marker)) { fs.writeFileSync(marker, ''); throw new Error('the first attempt times out'); }
  });
  test.skip('later', () => {});
});
`);
  const git = (...args) => execFileSync('git', args, { cwd: dir, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' } }).toString().trim();
  git('init', '-q');
  git('add', '-A');
  const own = await createServer({ staticDir: PKG, computeDelayMs: 0 });
  try {
    const ids = [];
    const commits = [];
    for (const i of [1, 2, 3]) {
      git('commit', '-q', '--allow-empty', '-m', `run ${i}`);
      commits.push(git('rev-parse', 'HEAD'));
      const env = { ...process.env, HISTORY_RUN: String(i), SHARDWISE_BASE_URL: own.baseUrl, SHARDWISE_ACCESS_TOKEN: own.accessToken, FORCE_COLOR: '0', NO_COLOR: '1', CI: '' };
      for (const k of Object.keys(env)) if (/^SHARDWISE_(COMMIT_ID|RUN_ID|TIMINGS_FILE)$/.test(k) || k.startsWith('GITHUB_')) delete env[k];
      const child = spawn(process.execPath, [join(ROOT, 'node_modules/jest/bin/jest.js'), '--config', join(dir, 'jest.config.cjs')], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (d) => { text += d; });
      child.stderr.on('data', (d) => { text += d; });
      const code = await new Promise((resolve) => child.on('close', resolve));
      assert.equal(code, i >= 2 ? 1 : 0, text);
      const link = /^\[shardwise\] report uploaded: (\S+)/m.exec(text);
      assert.ok(link, text);
      ids.push(link[1].split('/').pop());
    }
    const jestKey = (title) => keyOf(`cart.test.cjs › cart › ${title}`);
    const page = await pageWithErrors(browser);
    const open = async (title) => {
      await page.goto(`${own.baseUrl}/preview/?url=${encodeURIComponent(`/api/reports/${ids[2]}/report.json.br`)}#test=${jestKey(title)}`);
      await page.waitForSelector('#test-history[data-state="ready"]', { timeout: 30_000 });
      return readHistory(page);
    };
    const breaks = await open('breaks');
    assert.deepEqual(breaks.statuses, ['passed', 'failed', 'failed']);
    assert.deepEqual(breaks.commits, commits.map((c) => c.slice(0, 10)));
    assert.match(breaks.firstFailed, new RegExp(`Failing since .*commit ${commits[1].slice(0, 10)}.*\\(2 runs in a row\\)`));
    const flaky = await open('flaky');
    assert.deepEqual(flaky.statuses, ['flaky', 'passed', 'flaky']);
    assert.equal(flaky.flakyRate, 'flaky rate 66.7%');
    const skipped = await open('later');
    assert.deepEqual(skipped.statuses, ['skipped', 'skipped', 'skipped']);
    await page.screenshot({ path: `${ARTIFACTS}preview-history-jest.png`, fullPage: true });
    assert.deepEqual(page.errors, []);
    await page.close();
  } finally {
    await own.close();
  }
});
