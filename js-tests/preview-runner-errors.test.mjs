// Real Jest and Vitest failures, with the runners' colours on (FORCE_COLOR=1, as a developer's
// terminal and CI logs that keep colours), uploaded by shardwise's reporters to the local service
// and opened in the preview in headless Chromium: the error's terminal styles are rendered as
// coloured spans, no escape code shows, the message appears once (the stack without it), and a
// screenshot read back has the runner's red in it. (Playwright's: js-tests/preview-trace.test.mjs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawn, execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from '../pkg/server/index.mjs';
import { launchChromium, pageWithErrors } from './helpers/chromium.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PKG = path.join(ROOT, 'pkg/');
const OUT = path.join(ROOT, 'js-tests', '.out', 'runner-errors');
const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));
const COMMIT = 'e'.repeat(40);

// one failing assertion with a diff (the runner colours expected and received), one passing test
const BODY = `describe('totals', () => {
  test('adds the tax', () => { expect({ net: 100, tax: 21, total: 121 }).toEqual({ net: 100, tax: 20, total: 120 }); });
  test('adds nothing', () => { expect(1).toBe(1); });
});
`;
const RUNNERS = {
  jest: {
    files: { 'jest.config.cjs': "module.exports = { rootDir: __dirname, testMatch: ['**/*.test.cjs'], reporters: ['default', ['shardwise/jest', { outputFolder: 'shardwise-report' }]] };\n", 'totals.test.cjs': BODY },
    argv: (dir) => [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--config', path.join(dir, 'jest.config.cjs')],
  },
  vitest: {
    files: {
      'vitest.config.mjs': "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { root: import.meta.dirname, include: ['**/*.test.mjs'], reporters: [['shardwise/vitest', { outputFolder: 'shardwise-report' }], 'default'] } });\n",
      'totals.test.mjs': `import { describe, test, expect } from 'vitest';\n${BODY}`,
    },
    argv: (dir) => [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', path.join(dir, 'vitest.config.mjs')],
  },
};

let srv, browser;
before(async () => {
  srv = await createServer({ staticDir: PKG, computeDelayMs: 0 });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await srv?.close();
});

function run(dir, argv) {
  const env = { ...process.env, SHARDWISE_COMMIT_ID: COMMIT, SHARDWISE_BASE_URL: srv.baseUrl, SHARDWISE_ACCESS_TOKEN: srv.accessToken, FORCE_COLOR: '1', CI: '' };
  delete env.NO_COLOR;
  for (const k of Object.keys(env)) if (/^SHARDWISE_(RUN_ID|TIMINGS_FILE)$/.test(k) || k.startsWith('GITHUB_')) delete env[k];
  const child = spawn(process.execPath, argv, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (d) => { text += d; });
  child.stderr.on('data', (d) => { text += d; });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, text })));
}

for (const [name, runner] of Object.entries(RUNNERS)) {
  test(`${name}: a real failure with the runner's colours reads as text with colours, its message once`, { timeout: 180_000 }, async () => {
    const dir = path.join(OUT, name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const [f, text] of Object.entries(runner.files)) writeFileSync(path.join(dir, f), text);
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const r = await run(dir, runner.argv(dir));
    assert.equal(r.code, 1, r.text);
    const link = /\[shardwise\] report uploaded: (\S+)/.exec(r.text.replace(/\u001b\[[\d;]*m/g, ''));
    assert.ok(link, r.text);

    const page = await pageWithErrors(browser);
    await page.goto(link[1]);
    await page.waitForSelector('#status[data-state="ready"]', { timeout: 30_000 });
    await page.click('#tests [data-key]:has-text("adds the tax")');
    await page.waitForSelector('#test-detail .error', { timeout: 30_000 });
    const error = await page.evaluate(() => {
      const e = document.querySelector('#test-detail .error');
      const spans = [...e.querySelectorAll('span[class*="ansi-fg-"]')];
      return {
        text: e.innerText,
        coloured: spans.map((s) => [s.textContent, getComputedStyle(s).color]),
        message: e.querySelector('.message')?.innerText ?? '',
      };
    });
    assert.doesNotMatch(error.text, /\u001b|\[\d+(;\d+)*m/, 'no escape code shows');
    assert.ok(error.coloured.length >= 2, `coloured spans from ${name}'s codes: ${JSON.stringify(error.coloured)}`);
    assert.ok(new Set(error.coloured.map(([, c]) => c)).size >= 2, 'expected and received in two colours');
    assert.match(error.text, /tax/);
    // the message once: the stack below it does not begin with it again
    const first = error.message.split('\n')[0].trim();
    assert.ok(first.length > 0, error.text);
    assert.equal(error.text.split(first).length - 1, 1, `"${first}" shown once in:\n${error.text}`);
    mkdirSync(ARTIFACTS, { recursive: true });
    const png = await page.locator('#test-detail .error').screenshot({ path: `${ARTIFACTS}preview-${name}-error.png` });
    // the screenshot, read back: some pixels are the preview's red or green (the diff's colours)
    const tinted = await page.evaluate(async (b64) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = new OffscreenCanvas(img.width, img.height).getContext('2d');
      c.drawImage(img, 0, 0);
      const { data } = c.getImageData(0, 0, img.width, img.height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
        if ((r > 150 && g < 90 && b < 90) || (g > 110 && r < 90 && b < 110)) n++;
      }
      return n;
    }, png.toString('base64'));
    assert.ok(tinted > 20, `red or green pixels in the error: ${tinted}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}
