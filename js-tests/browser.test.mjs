// The browser entry in real headless Chromium: loaded as ESM from a local static server,
// initialised with `await init()`, round-tripping data with Node's native Brotli.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { serveStatic } from './helpers/static-server.mjs';
import { launchChromium } from './helpers/chromium.mjs';

const pkgDir = fileURLToPath(new URL('../pkg/', import.meta.url));
let server, browser, page;

before(async () => {
  server = await serveStatic({ '/pkg/': pkgDir });
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e));
  await page.goto(`${server.url}/pkg/package.json`);
  await page.evaluate(async () => {
    const mod = await import('/pkg/browser.mjs');
    await mod.default();
    globalThis.shardwise = mod;
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('browser: compress in Chromium, decompress with Node zlib', async () => {
  const text = JSON.stringify({ tests: Array.from({ length: 3000 }, (_, i) => ({ title: `test ${i}`, duration: i * 7 })) });
  const b64 = await page.evaluate((t) => {
    const c = globalThis.shardwise.compress(t);
    return btoa(String.fromCharCode(...c));
  }, text);
  assert.equal(zlib.brotliDecompressSync(Buffer.from(b64, 'base64')).toString(), text);
});

test('browser: decompress what Node zlib compressed, streaming and one-shot', async () => {
  const text = 'shardwise '.repeat(50_000);
  const b64 = zlib.brotliCompressSync(text).toString('base64');
  const out = await page.evaluate((b) => {
    const { decompress, Decompressor } = globalThis.shardwise;
    const bytes = Uint8Array.from(atob(b), (c) => c.charCodeAt(0));
    const one = new TextDecoder().decode(decompress(bytes));
    const d = new Decompressor();
    let streamed = '';
    const dec = new TextDecoder();
    for (let i = 0; i < bytes.length; i += 7) streamed += dec.decode(d.push(bytes.subarray(i, i + 7)), { stream: true });
    d.finish();
    return { one, same: one === streamed + dec.decode() };
  }, b64);
  assert.equal(out.one, text);
  assert.ok(out.same);
});

test('browser: errors are ShardwiseError instances with a code', async () => {
  const e = await page.evaluate(() => {
    const { decompress, ShardwiseError } = globalThis.shardwise;
    try { decompress(new TextEncoder().encode('{"plain":"json"}')); } catch (err) {
      return { isClass: err instanceof ShardwiseError, isError: err instanceof Error, code: err.code, name: err.name };
    }
    return null;
  });
  assert.deepEqual(e, { isClass: true, isError: true, code: 'BROTLI_CORRUPT', name: 'ShardwiseError' });
});
