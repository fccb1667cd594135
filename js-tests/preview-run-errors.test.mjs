// The preview of a run that failed outside its tests (files that failed to load: the report's
// `unattributedErrors`), in headless Chromium against the local service: the errors come first,
// each message once, its file, its stack folded; a report without any shows no such section.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import * as api from 'shardwise';
import { createServer } from '../pkg/server/index.mjs';
import { launchChromium, pageWithErrors } from './helpers/chromium.mjs';
import { RunErrors } from '../pkg/src/runner/run-errors.mjs';
import { recordFileErrors } from '../pkg/jest/translate.mjs';

const PKG = fileURLToPath(new URL('../pkg/', import.meta.url));
const COMMIT = '0123456789abcdef0123456789abcdef01234567';
let srv, browser;

before(async () => {
  srv = await createServer({ staticDir: PKG, computeDelayMs: 0 });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await srv?.close();
});

/** Uploads a Jest-like report of `passing` tests, with `broken` files that failed to load; returns the preview's URL. */
async function upload({ passing, broken }) {
  const b = new api.ReportBuilder({ category: 'jest', commitId: COMMIT, startTimestamp: 1 });
  const env = b.addEnvironment({ name: 'jest' });
  for (let i = 0; i < passing; i++) b.addAttempt(b.addTest({ titlePath: [`works ${i}`], file: 'tests/ok.test.js' }), { environmentIdx: env, status: 'passed', startTimestamp: 1, duration: 5 });
  const report = b.build();
  const errors = new RunErrors();
  for (let i = 0; i < broken; i++) {
    const message = `Cannot find module './gone-${i}' from 'tests/broken-${i}.test.js'`;
    recordFileErrors(errors, { root: '/repo' }, { testFilePath: `/repo/tests/broken-${i}.test.js`, testResults: [], testExecError: { message, stack: `${message}\n    at Resolver.resolveModule (resolver.js:1:1)\n    at <script> <img src=x onerror=alert(1)>` } });
  }
  errors.addTo(report);
  const up = await api.uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report });
  return `${srv.baseUrl}/preview/?url=${encodeURIComponent(`/api/reports/${up.webUrl.split('/').pop()}/report.json.br`)}`;
}

const read = (page) => page.evaluate(() => {
  const box = document.getElementById('run-errors');
  const items = [...document.querySelectorAll('#run-errors-list > li')];
  return {
    hidden: box.hidden,
    beforeTotals: !!(box.compareDocumentPosition(document.getElementById('totals')) & Node.DOCUMENT_POSITION_FOLLOWING),
    count: document.getElementById('run-errors-count').textContent,
    items: items.map((li) => ({
      where: li.querySelector('.where')?.textContent,
      message: li.querySelector('.message')?.textContent,
      stack: li.querySelector('.stack')?.textContent,
      stackOpen: li.querySelector('details')?.open,
    })),
    scripts: document.querySelectorAll('#run-errors img, #run-errors script').length,
  };
});

test('a run whose files failed to load: the errors first, each message once with its file, the stack folded, nothing of them run as HTML', async () => {
  const page = await pageWithErrors(browser);
  await page.goto(await upload({ passing: 4, broken: 3 }));
  await page.waitForSelector('#status[data-state="ready"]', { timeout: 30_000 });
  const shown = await read(page);
  assert.equal(shown.hidden, false);
  assert.equal(shown.beforeTotals, true, 'above the totals');
  assert.equal(shown.count, '(3)');
  assert.deepEqual(shown.items.map((i) => i.where), ['tests/broken-0.test.js:1', 'tests/broken-1.test.js:1', 'tests/broken-2.test.js:1']);
  assert.equal(shown.items[0].message, "Cannot find module './gone-0' from 'tests/broken-0.test.js'");
  assert.equal(shown.items[0].stack, '    at Resolver.resolveModule (resolver.js:1:1)\n    at <script> <img src=x onerror=alert(1)>', 'the stack without the message it repeats, as text');
  assert.equal(shown.items[0].stackOpen, false);
  assert.equal(shown.scripts, 0);
  await page.screenshot({ path: fileURLToPath(new URL('./artifacts/preview-run-errors.png', import.meta.url)) });
  await page.close();
});

test('a run with many: the count is all of them, the first 50 shown; a clean run shows no such section', async () => {
  const page = await pageWithErrors(browser);
  await page.goto(await upload({ passing: 2, broken: 70 }));
  await page.waitForSelector('#status[data-state="ready"]', { timeout: 30_000 });
  const many = await read(page);
  assert.equal(many.count, '(70, the first 50 shown)');
  assert.equal(many.items.length, 50);
  await page.goto(await upload({ passing: 2, broken: 0 }));
  await page.waitForSelector('#status[data-state="ready"]', { timeout: 30_000 });
  const clean = await read(page);
  assert.equal(clean.hidden, true);
  assert.equal(clean.items.length, 0);
  await page.close();
});
