// A Playwright trace opens in Playwright's trace viewer from the preview, for real: a failing test
// run by real Playwright with `trace: 'on'` and Debian's Chromium, its report uploaded by the
// shardwise reporter to the local service (in this process, serving the preview and the trace
// viewer from this repository's own playwright-core, as `shardwise serve` does from a user's
// project); in headless Chromium the test's page links the trace, and the trace viewer opened
// from that link shows the test's actions. A service with no playwright-core to hand says what to
// install instead. The run keeps its terminal colours (FORCE_COLOR=1): its error's codes are
// rendered as colours on the test's page, never printed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { createServer } from '../pkg/server/index.mjs';
import { launchChromium, pageWithErrors } from './helpers/chromium.mjs';
import { runPlaywright, killRuns } from '../scripts/lib/playwright-runs.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PKG = path.join(ROOT, 'pkg');
const OUT = path.join(ROOT, 'js-tests', '.out', 'preview-trace');
const COMMIT = '7ace000000000000000000000000000000000000';

let srv, bare, browser;
before(async () => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  srv = await createServer({ staticDir: PKG, computeDelayMs: 0, traceViewerFrom: ROOT });
  bare = await createServer({ staticDir: PKG, computeDelayMs: 0, traceViewerFrom: mkdtempDir() });
  browser = await launchChromium();
});
after(async () => {
  killRuns();
  await browser?.close();
  await srv?.close();
  await bare?.close();
});

function mkdtempDir() {
  const d = path.join(tmpdir(), `shardwise-no-playwright-${process.pid}`);
  mkdirSync(d, { recursive: true });
  return d;
}

test('a failing Playwright test\'s trace opens in the trace viewer from its page in the preview', { timeout: 180_000 }, async () => {
  writeFileSync(path.join(OUT, 'cart.spec.mjs'), `import { test, expect } from '@playwright/test';
test('the cart shows its total', async ({ page }) => {
  await page.setContent('<h1>Cart</h1><button id="buy">Buy now</button><p id="total">$899.00</p>');
  await page.getByRole('button', { name: 'Buy now' }).click();
  await expect(page.locator('#total')).toHaveText('$999.00', { timeout: 500 });
});
`);
  writeFileSync(path.join(OUT, 'playwright.config.mjs'), `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: '.', testMatch: '*.spec.mjs', workers: 1, retries: 0,
  reporter: [['json', { outputFile: process.env.SW_JSON }], ['shardwise/playwright', { outputFolder: 'shardwise-report' }]],
  outputDir: 'test-results',
  use: { trace: 'on', browserName: 'chromium', launchOptions: { executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] } },
});
`);
  const run = await runPlaywright({
    config: path.join(OUT, 'playwright.config.mjs'), json: path.join(OUT, 'pw.json'), timeoutMs: 150_000,
    // colours on, as on a developer's terminal and in CI logs that keep them: the error carries ANSI codes
    env: { SHARDWISE_COMMIT_ID: COMMIT, SHARDWISE_BASE_URL: srv.baseUrl, SHARDWISE_ACCESS_TOKEN: srv.accessToken, FORCE_COLOR: '1', NO_COLOR: undefined },
  });
  assert.equal(run.code, 1, run.text);
  const link = /\[shardwise\] report uploaded: (\S+) \((\d+) attachments?/.exec(run.text);
  assert.ok(link && Number(link[2]) >= 1, run.text);

  const page = await pageWithErrors(browser);
  await page.goto(link[1]);
  await page.waitForSelector('#status[data-state="ready"]', { timeout: 30_000 });
  await page.click('#tests [data-key]');
  const href = await (await page.waitForSelector('#test-detail .trace-link a', { timeout: 30_000 })).getAttribute('href');
  assert.match(href, new RegExp(`^${srv.baseUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/trace/index\\.html\\?trace=`));
  assert.equal(await page.textContent('#test-detail .trace-link a'), 'open in the trace viewer');
  // the real error's terminal colours: rendered, not printed
  const error = await page.evaluate(() => ({
    text: document.querySelector('#test-detail .error').innerText,
    coloured: [...document.querySelectorAll('#test-detail .error .message span[class*="ansi-fg-"]')].map((s) => [s.textContent, getComputedStyle(s).color]),
  }));
  assert.match(error.text, /toHaveText/);
  assert.doesNotMatch(error.text, /\u001b|\[\d+(;\d+)*m/, 'no escape code shows');
  assert.ok(error.coloured.length > 0, 'coloured spans from the runner\'s codes');
  await page.close();

  // the trace viewer, as the link opens it (its own page: a service worker of its own scope)
  const viewer = await browser.newPage();
  await viewer.goto(href);
  await viewer.waitForFunction(() => /Buy now/.test(document.body.innerText) && /toHaveText/.test(document.body.innerText), null, { timeout: 60_000 });
  const shown = await viewer.evaluate(() => document.body.innerText);
  assert.match(shown, /Click/i, 'the click is among the actions');
  await viewer.screenshot({ path: fileURLToPath(new URL('./artifacts/trace-viewer.png', import.meta.url)) });
  await viewer.close();

  // a service that has no playwright-core to hand: the link says what to install
  const res = await fetch(`${bare.baseUrl}/api/trace-viewer`);
  assert.deepEqual(await res.json(), { available: false, hint: 'to open traces here, install @playwright/test (or playwright-core) in the project shardwise serve runs from' });
  assert.equal((await fetch(`${bare.baseUrl}/trace/index.html`)).status, 404);
  assert.equal((await fetch(`${srv.baseUrl}/trace/..%2Fpackage.json`)).status, 404, 'only the viewer\'s own files');
});
