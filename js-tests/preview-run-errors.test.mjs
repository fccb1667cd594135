// Errors in the preview, in headless Chromium against the local service: a run that failed
// outside its tests (files that failed to load: the report's `unattributedErrors`) shows the
// errors first, each message once with its file; a report without any shows no such section.
// A failing test's errors and output with terminal styles (as Playwright, Jest and Vitest write
// them) are rendered as colours, never as escape codes; its message once; its snippet's line
// marked; long output folded behind its size.
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

const ESC = '\u001b';
const PW_MESSAGE = `Error: ${ESC}[2mexpect(${ESC}[22m${ESC}[31mlocator${ESC}[39m${ESC}[2m).${ESC}[22mtoHaveText${ESC}[2m(${ESC}[22m${ESC}[32mexpected${ESC}[39m${ESC}[2m)${ESC}[22m failed\n\nExpected: ${ESC}[32m"$${ESC}[7m999${ESC}[27m.00"${ESC}[39m\nReceived: ${ESC}[31m"$${ESC}[7m899${ESC}[27m.00"${ESC}[39m`;
const SNIPPET = [
  `${ESC}[90m  91 |${ESC}[39m   ${ESC}[36mawait${ESC}[39m page${ESC}[33m.${ESC}[39mgoto(${ESC}[32m'/cart'${ESC}[39m)`,
  `> 92 |   ${ESC}[36mawait${ESC}[39m expect(total)${ESC}[33m.${ESC}[39mtoHaveText(${ESC}[32m'$999.00'${ESC}[39m)`,
  `${ESC}[90m  93 |${ESC}[39m })`,
].join('\n');

test('a failing test\'s styled error and output: colours, not codes; the message once; the snippet\'s line marked; long output folded', async () => {
  const b = new api.ReportBuilder({ category: 'playwright', commitId: COMMIT, startTimestamp: 1 });
  const env = b.addEnvironment({ name: 'chromium' });
  const long = Array.from({ length: 400 }, (_, i) => `${ESC}[2mline ${i}${ESC}[22m\n`).join('');
  b.addAttempt(b.addTest({ titlePath: ['cart', 'shows the total'], file: 'tests/cart.spec.ts', line: 90, column: 1, tags: ['@video', 'smoke'] }), {
    environmentIdx: env, status: 'failed', startTimestamp: 1, duration: 1200,
    errors: [{ message: PW_MESSAGE, stack: `${PW_MESSAGE}\n    at /repo/tests/cart.spec.ts:92:23`, snippet: SNIPPET, location: { file: 'tests/cart.spec.ts', line: 92, column: 23 } }],
    stdio: [{ stream: 1, text: `${ESC}[32mready${ESC}[39m\n` }, { stream: 2, text: long }],
  });
  const up = await api.uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report: b.build() });
  const page = await pageWithErrors(browser);
  await page.goto(`${srv.baseUrl}/preview/?url=${encodeURIComponent(`/api/reports/${up.webUrl.split('/').pop()}/report.json.br`)}`);
  await page.waitForSelector('#status[data-state="ready"]', { timeout: 30_000 });
  // served Brotli-compressed: the status gives what came over the wire and what it decoded to
  assert.match(await page.textContent('#status'), /report\.json\.br: [\d,]+ bytes downloaded \([\d,]+ decoded\), 1 test, decoded in \d+ ms$/);
  await page.click('#tests a, #tests [data-key]');
  await page.waitForSelector('#test-detail .error .message', { timeout: 30_000 });
  const seen = await page.evaluate(() => {
    const d = document.getElementById('test-detail');
    const color = (node) => getComputedStyle(node).color;
    const spanWith = (root, text) => [...root.querySelectorAll('span')].find((s) => s.textContent === text);
    const message = d.querySelector('.error .message');
    return {
      text: d.innerText,
      locatorColor: color(spanWith(message, 'locator')),
      plainColor: color(message),
      inverse: spanWith(message, '999') && getComputedStyle(spanWith(message, '999')).backgroundColor,
      stack: d.querySelector('.error .stack')?.textContent,
      marked: d.querySelector('.snippet .marked')?.textContent,
      folded: d.querySelector('details.long-output > summary')?.textContent,
      foldedOpen: d.querySelector('details.long-output')?.open,
      meta: d.querySelector('.meta')?.textContent,
    };
  });
  assert.doesNotMatch(seen.text, /\u001b|\[\d+(;\d+)*m/, 'no escape code shows');
  assert.equal(seen.locatorColor, 'rgb(192, 38, 45)', 'red is red');
  assert.notEqual(seen.plainColor, seen.locatorColor);
  assert.equal(seen.inverse, 'rgb(211, 241, 220)', 'inverse green: a green highlight');
  assert.equal((seen.text.match(/toHaveText\(expected\) failed/g) ?? []).length, 1, 'the message once (the stack repeats it)');
  assert.equal(seen.stack, '    at /repo/tests/cart.spec.ts:92:23');
  assert.equal(seen.marked, "> 92 |   await expect(total).toHaveText('$999.00')");
  assert.match(seen.folded, /^output: 402 lines, [\d,]+ bytes \(show\)$/);
  assert.equal(seen.foldedOpen, false);
  assert.match(seen.meta, /@video @smoke$/, 'a tag written with its @ keeps one');
  await page.screenshot({ path: fileURLToPath(new URL('./artifacts/preview-styled-error.png', import.meta.url)), fullPage: true });
  await page.close();
});
