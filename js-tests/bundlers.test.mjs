// README.md's "Browsers and bundlers" recipes, as a new user would follow them: the package is
// packed from pkg/ and installed into a fresh app per recipe, the recipe's blocks (```<lang>
// bundler=<names> file=<path>``` are the app's files, ```sh bundler=<name>``` its build) are
// written and run with the real bundler, and the built app is served and opened in headless
// Chromium. The page and its Web Worker must plan the same shards from a Brotli report (made by
// Node's zlib) as Node does, the .wasm must be emitted exactly once, and nothing may 404.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SOURCE } from '../scripts/readme.mjs';
import { serveStatic } from './helpers/static-server.mjs';
import { launchChromium } from './helpers/chromium.mjs';
import { runRows, reportDocument } from './helpers/reports.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// Outside the repository: the apps find only what they install (the repository's node_modules
// holds shardwise too, as a link to pkg/).
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shardwise-bundlers-'));
const installed = path.join(work, 'shardwise'); // the packed package, as `npm install` unpacks it
const readme = fs.readFileSync(SOURCE, 'utf8');

/** Fenced blocks with their info-string attributes (as readme.test.mjs reads them). */
const blocks = [...readme.matchAll(/^```(\S*)([^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({
  lang: m[1], code: m[3],
  attrs: Object.fromEntries(m[2].trim().split(/\s+/).filter(Boolean).map((a) => [a.split('=')[0], a.split('=')[1] ?? true])),
}));
const recipe = (name) => blocks.filter((b) => typeof b.attrs.bundler === 'string' && b.attrs.bundler.split(',').includes(name));

// `npx <bin>` resolves the bundlers from the repository's dev dependencies, as the user's own
// install would. `npx webpack` is webpack-cli, not installed here: webpack's Node API reads the
// same webpack.config.mjs from the app's folder and builds it, as webpack-cli does.
const webpackCli = path.join(work, 'webpack-cli.mjs');
const bashPrelude = `set -euo pipefail
npx() { local bin="$1"; shift
  if [ "$bin" = webpack ]; then node '${webpackCli}' "$@"; else "${root}node_modules/.bin/$bin" "$@"; fi; }
`;

let browser;
let reportBytes;
let nodePlan; // what the README's code computes, computed by Node

before(async () => {
  fs.mkdirSync(installed, { recursive: true });
  const tgz = execFileSync('npm', ['pack', path.join(root, 'pkg'), '--pack-destination', work, '--silent'], { encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['-xzf', path.join(work, tgz), '-C', installed, '--strip-components=1']);
  fs.writeFileSync(webpackCli, `import webpack from ${JSON.stringify(pathToFileURL(path.join(root, 'node_modules/webpack/lib/index.js')).href)};
const { default: config } = await import(new URL('webpack.config.mjs', 'file://' + process.cwd() + '/'));
webpack(config, (err, stats) => {
  if (err) throw err;
  console.log(stats.toString({ colors: false }));
  if (stats.hasErrors()) process.exitCode = 1;
});
`);
  reportBytes = zlib.brotliCompressSync(JSON.stringify(reportDocument(runRows(300))));
  const { decodeReport, planShards } = await import(pathToFileURL(path.join(installed, 'node.mjs')).href);
  nodePlan = `plan ${planShards({ report: decodeReport(reportBytes), shardCount: 2 }).fingerprint}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** A fresh app with the package installed and the recipe's files written. */
function appFor(name) {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  // as `npm init -y` (npm >= 10.9) writes it: a CommonJS package, which webpack's recipe changes
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `app-${name}`, version: '1.0.0', type: 'commonjs' }, null, 2));
  fs.cpSync(installed, path.join(dir, 'node_modules/shardwise'), { recursive: true });
  const files = recipe(name).filter((b) => b.attrs.file);
  assert.ok(files.some((b) => b.attrs.file === 'src/main.js') && files.some((b) => b.attrs.file === 'src/worker.js'), `the ${name} recipe has src/main.js and src/worker.js`);
  for (const b of files) {
    fs.mkdirSync(path.dirname(path.join(dir, b.attrs.file)), { recursive: true });
    fs.writeFileSync(path.join(dir, b.attrs.file), b.code);
  }
  return dir;
}

/** The recipe's shell block(s), in bash in the app's folder. */
function build(name, dir, code = recipe(name).filter((b) => b.lang === 'sh').map((b) => b.code).join('\n')) {
  assert.ok(code.trim(), `the ${name} recipe has a build command`);
  const r = spawnSync('bash', ['-c', bashPrelude + code], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, `${code}\n${r.stdout}\n${r.stderr}`);
}

/** Every .wasm file under `dir`; asserts there is exactly one, the package's own bytes. */
function emittedWasm(dir) {
  const found = fs.readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.wasm'));
  assert.equal(found.length, 1, `one .wasm emitted, found: ${found.join(', ')}`);
  assert.ok(fs.readFileSync(path.join(dir, found[0])).equals(fs.readFileSync(path.join(installed, 'wasm/shardwise_bg.wasm'))));
  return found[0].split(path.sep).join('/');
}

/** Opens `url`; resolves with what the page and the worker show, or rejects with what went wrong. */
async function open(url) {
  const page = await browser.newPage();
  const problems = [];
  let failed;
  const pageFailed = new Promise((_, reject) => { failed = reject; });
  page.on('pageerror', (e) => { problems.push(e.message); failed(new Error(`page error: ${problems.join('\n')}`)); });
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  try {
    await page.goto(url);
    await Promise.race([pageFailed, page.waitForFunction(() => ['#page', '#worker'].every((s) => document.querySelector(s)?.textContent), null, { timeout: 20_000 })
      .catch(() => { throw new Error(`the page did not finish: ${problems.join('\n') || 'no error reported'}`); })]);
    return {
      page: await page.textContent('#page'), worker: await page.textContent('#worker'),
      errors: problems.filter((p) => !/404 \(Not Found\)/.test(p)), // 404s are counted by the server
    };
  } finally {
    await page.close();
  }
}

/** Serves `dir` and opens its index.html: the page and the worker agree with Node, nothing 404s. */
async function assertRuns(dir, wasm) {
  const answers = [];
  const server = await serveStatic({ '/': dir }, { onResponse: (p, status) => answers.push({ p, status }) });
  try {
    const shown = await open(`${server.url}/index.html`);
    assert.deepEqual(shown, { page: `page: ${nodePlan}`, worker: `worker: ${nodePlan}`, errors: [] });
    // Chromium asks for /favicon.ico on its own; the app has none and asks for nothing else missing.
    assert.deepEqual(answers.filter((a) => a.status !== 200 && a.p !== '/favicon.ico'), []);
    assert.ok(answers.some((a) => a.p === `/${wasm}`), `the page or the worker fetched the emitted /${wasm}`);
  } finally {
    await server.close();
  }
}

test('Vite: page and worker agree with Node; one .wasm; the dev server too', async () => {
  const dir = appFor('vite');
  fs.mkdirSync(path.join(dir, 'public'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'public/report.json.br'), reportBytes);
  build('vite', dir);
  const dist = path.join(dir, 'dist');
  await assertRuns(dist, emittedWasm(dist));

  // `npx vite` while developing: the same code, served from source.
  const { createServer } = await import('vite');
  const failed = [];
  const logFailures = {
    name: 'log-failures',
    configureServer(s) { // before Vite's own middlewares: hears every answer
      s.middlewares.use((req, res, next) => {
        res.on('finish', () => { if (res.statusCode >= 400 && req.url !== '/favicon.ico') failed.push(`${res.statusCode} ${req.url}`); });
        next();
      });
    },
  };
  const server = await createServer({ root: dir, logLevel: 'silent', server: { host: '127.0.0.1', port: 0 }, plugins: [logFailures] });
  try {
    await server.listen();
    const shown = await open(server.resolvedUrls.local[0]);
    assert.deepEqual(shown, { page: `page: ${nodePlan}`, worker: `worker: ${nodePlan}`, errors: [] });
    assert.deepEqual(failed, []);
  } finally {
    await server.close();
  }
});

test('webpack 5: page and worker agree with Node; one .wasm', async () => {
  const dir = appFor('webpack');
  fs.writeFileSync(path.join(dir, 'dist/report.json.br'), reportBytes);
  build('webpack', dir);
  const dist = path.join(dir, 'dist');
  await assertRuns(dist, emittedWasm(dist));
});

test('esbuild, file loader: page and worker agree with Node; one .wasm; the .wasm import type-checks', async () => {
  const dir = appFor('esbuild');
  fs.writeFileSync(path.join(dir, 'dist/report.json.br'), reportBytes);
  build('esbuild', dir);
  const dist = path.join(dir, 'dist');
  await assertRuns(dist, emittedWasm(dist));

  // In TypeScript, the .wasm's import has a type (a string, the emitted file's URL) through the exports.
  const main = fs.readFileSync(path.join(dir, 'src/main.js'), 'utf8');
  const head = main.slice(0, main.indexOf('\n', main.indexOf('await init(')) + 1);
  assert.match(head, /import wasmUrl from 'shardwise\/shardwise_bg\.wasm';/);
  fs.writeFileSync(path.join(dir, 'src/init.ts'), head);
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--module', 'esnext',
    '--moduleResolution', 'bundler', '--target', 'es2022', '--lib', 'es2022,dom', '--types', '', 'src/init.ts'], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('esbuild, copying the .wasm: without the copy init() fails as Troubleshooting says; with it, it works', async () => {
  const dir = appFor('esbuild-copy');
  const dist = path.join(dir, 'dist');
  fs.writeFileSync(path.join(dist, 'report.json.br'), reportBytes);
  const sh = recipe('esbuild-copy').filter((b) => b.lang === 'sh').map((b) => b.code.trim());
  const [bundle, copy, ...rest] = sh.pop().split('\n');
  assert.match(copy, /^cp /);
  assert.deepEqual(rest, []);

  build('esbuild-copy', dir, [...sh, bundle].join('\n')); // everything but the copy
  assert.deepEqual(fs.readdirSync(dist, { recursive: true }).filter((f) => f.endsWith('.wasm')), [], 'esbuild emits no .wasm of its own');
  const server = await serveStatic({ '/': dist });
  try {
    await assert.rejects(open(`${server.url}/index.html`), (e) => {
      assert.match(e.message, /failed to fetch Wasm: 404 Not Found fetching 'http:\/\/127\.0\.0\.1:\d+\/shardwise_bg\.wasm'/);
      assert.match(e.message, /see "Browsers and bundlers" in shardwise's README/, 'the error says where to look');
      return true;
    });
  } finally {
    await server.close();
  }
  const troubleshooting = readme.slice(readme.indexOf('## Troubleshooting'));
  assert.match(troubleshooting, /- \*\*`failed to fetch Wasm: 404`\*\*/, 'Troubleshooting names the message');

  build('esbuild-copy', dir, copy);
  await assertRuns(dist, emittedWasm(dist));
});

test('init: after a failure (a wrong URL) a later init() tries again and loads', async () => {
  const server = await serveStatic({ '/pkg/': installed, '/empty/': work });
  const page = await browser.newPage();
  try {
    await page.goto(`${server.url}/pkg/package.json`);
    const r = await page.evaluate(async () => {
      const message = (p) => p.then(() => 'ok', (e) => e.message);
      const mod = await import('/pkg/browser.mjs');
      const failed = await message(mod.default('/empty/missing.wasm'));
      const retried = await message(mod.default());
      const compressed = mod.compress('hello').length > 0;
      return { failed, retried, compressed };
    });
    assert.match(r.failed, /^failed to fetch Wasm: 404 Not Found fetching 'http:\/\/127\.0\.0\.1:\d+\/empty\/missing\.wasm'$/, 'a URL the app chose gets no hint');
    assert.deepEqual({ retried: r.retried, compressed: r.compressed }, { retried: 'ok', compressed: true });
  } finally {
    await page.close();
    await server.close();
  }
});
