// Every code block of README.md runs, in order, the way a new user would run it: the package is
// packed from pkg/ and installed into a fresh project, the config blocks become the project's
// config files, the shell blocks run in bash against a local service, the API blocks run in
// Node and (the browser block) in headless Chromium. pkg-template/README.md (the npm README) is
// generated from README.md: the test checks it is up to date, so its blocks are these blocks.
//
// A block says how it runs in its info string (GitHub shows only the language):
//   ```sh run=install    `npm install` (the package name becomes the packed tarball: not published from here)
//   ```sh dir=<runner>   bash in the project's <runner>/ folder (npx resolves the runners from the
//                        repository's dev dependencies, shardwise from the project's install)
//   ```sh run=serve      started in the background; its preview page and API must answer
//   ```sh run=script     npm scripts of this repository (`npm test` is CI itself, `npm run demo`
//                        is demo.test.mjs): the test checks they exist
//   ```js file=<name>    written to the project; *.config.mjs into its runner's folder, api.* run by node
//   ```js browser        a module in a page of headless Chromium, with `shardwise/browser` mapped
//                        to the installed package
//   ```ts file=<name>    a TypeScript config: type-checked (tsc, module nodenext) as .mts and .cts
//   ```<lang> bundler=<names>  a file or the build of a bundler recipe ("Browsers and bundlers"):
//                        js-tests/bundlers.test.mjs builds and runs each recipe; here: it runs that name
//   ```yaml run=ci       a CI workflow: checked for the shard matrix, the saved folders and the
//                        final verify job (js-tests/shards-agree.test.mjs runs verify for real);
//                        runner=node-test: its shards run `shardwise node-test`, not Playwright
//   ```yaml run=rerun    its job re-running the failures (js-tests/rerun-failed.test.mjs runs it for real)
//   ```yaml run=ci-steps a shard job's steps of that workflow for another runner: checked for its
//                        `shardwise run` and its saved folder (js-tests/run-junit.test.mjs runs it)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from '../pkg/server/index.mjs';
import { npmReadme, SOURCE, TARGET } from '../scripts/readme.mjs';
import { serveStatic } from './helpers/static-server.mjs';
import { launchChromium } from './helpers/chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = path.join(root, 'js-tests/.out/readme');
const project = path.join(work, 'project');
const readme = fs.readFileSync(SOURCE, 'utf8');

/** Fenced blocks: `{ lang, attrs, code, line }`. */
export function codeBlocks(markdown) {
  const blocks = [];
  const re = /^```(\S*)([^\n]*)\n([\s\S]*?)^```$/gm;
  for (let m; (m = re.exec(markdown));) {
    const attrs = Object.fromEntries(m[2].trim().split(/\s+/).filter(Boolean).map((a) => {
      const [k, v = true] = a.split('=');
      return [k, v];
    }));
    blocks.push({ lang: m[1], info: `${m[1]}${m[2]}`.trim(), attrs, code: m[3], line: markdown.slice(0, m.index).split('\n').length });
  }
  return blocks;
}

// Small test files for each runner: durations differ so that the plan has something to balance.
const WAITS = { alpha: 400, bravo: 50, charlie: 200, delta: 100 };
const testFiles = {
  playwright: Object.entries(WAITS).map(([name, ms]) => [`tests/${name}.spec.mjs`,
    `import { test } from '@playwright/test';\n`
    + `test('${name} waits', async () => { await new Promise((r) => setTimeout(r, ${ms})); });\n`
    + `test('${name} is quick', () => {});\n`]),
  jest: Object.entries(WAITS).map(([name, ms]) => [`${name}.test.js`,
    `test('${name} waits', () => new Promise((r) => setTimeout(r, ${ms})));\n`]),
  vitest: Object.entries(WAITS).map(([name, ms]) => [`${name}.test.mjs`,
    `import { test } from 'vitest';\ntest('${name} waits', () => new Promise((r) => setTimeout(r, ${ms})));\n`]),
  'node-test': Object.entries(WAITS).map(([name, ms]) => [`test/${name}.test.mjs`,
    `import { test } from 'node:test';\ntest('${name} waits', () => new Promise((r) => setTimeout(r, ${ms})));\n`]),
};

const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

let service;
let env;

before(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'readme-project', private: true }, null, 2));
  for (const [runner, files] of Object.entries(testFiles)) {
    for (const [rel, text] of files) {
      fs.mkdirSync(path.dirname(path.join(project, runner, rel)), { recursive: true });
      fs.writeFileSync(path.join(project, runner, rel), text);
    }
  }
  service = await createServer({ dataDir: path.join(work, 'service'), computeDelayMs: 50 });
  env = {
    ...process.env,
    SERVICE_URL: service.baseUrl,
    SERVICE_TOKEN: service.accessToken,
    SHARDWISE_RUN_ID: `readme-${process.pid}`,
    CI: '1',
    FORCE_COLOR: '0',
  };
  // NODE_TEST_CONTEXT: this file runs under node --test; a `node --test` of a block must not take
  // itself for one of its files' processes
  for (const k of ['SHARDWISE_BASE_URL', 'SHARDWISE_ACCESS_TOKEN', 'SHARDWISE_TIMINGS_FILE', 'GITHUB_RUN_ID', 'NODE_TEST_CONTEXT']) delete env[k];
});

after(async () => {
  await service?.close();
});

// `npx <bin>` as the user's project would resolve it: its own install first, then (standing in for
// the runners the user already has) the repository's dev dependencies.
const bashPrelude = `set -euo pipefail
npx() { local bin="$1"; shift
  if [ -x "${project}/node_modules/.bin/$bin" ]; then "${project}/node_modules/.bin/$bin" "$@"
  else "${root}node_modules/.bin/$bin" "$@"; fi; }
`;

// The shell blocks run as one terminal session: what one block exports, the next sees.
const session = () => path.join(work, 'session.sh');
function bash(code, cwd) {
  const script = `${bashPrelude}[ -f '${session()}' ] && source '${session()}'\n${code}\nexport -p > '${session()}'\n`;
  return runAsync('bash', ['-c', script], { cwd, env });
}

// Asynchronous: the local service runs in this process and must keep answering meanwhile.
function runAsync(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill(), 180_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, out: `${stdout}\n${stderr}` });
    });
  });
}

const blocks = codeBlocks(readme);

test('the npm README is README.md\'s user part, up to date', () => {
  assert.equal(fs.readFileSync(TARGET, 'utf8'), npmReadme(readme),
    'pkg-template/README.md is out of date: run node scripts/readme.mjs');
  const npmBlocks = codeBlocks(fs.readFileSync(TARGET, 'utf8')).map((b) => b.code);
  assert.ok(npmBlocks.length >= 10);
  for (const code of npmBlocks) assert.ok(blocks.some((b) => b.code === code));
});

test('README blocks run in order, as a new user would', async (t) => {
  // Every block, in document order, has exactly one way to run.
  for (const b of blocks) {
    const where = `README.md:${b.line} (\`\`\`${b.info})`;
    await t.test(where, async () => {
      if (typeof b.attrs.bundler === 'string') {
        const bundlers = fs.readFileSync(path.join(root, 'js-tests/bundlers.test.mjs'), 'utf8');
        for (const name of b.attrs.bundler.split(',')) assert.match(bundlers, new RegExp(`appFor\\('${name}'\\)`), `bundlers.test.mjs runs the ${name} recipe`);
      } else if (b.lang === 'sh' && b.attrs.run === 'install') {
        const packDir = path.join(work, 'pack');
        fs.mkdirSync(packDir, { recursive: true });
        const tgz = execFileSync('npm', ['pack', path.join(root, 'pkg'), '--pack-destination', packDir, '--silent'],
          { env, encoding: 'utf8' }).trim().split('\n').pop();
        const code = b.code.replace(/\bshardwise\b/, path.join(packDir, tgz));
        const r = await bash(code.replace(/^npm install/m, 'npm install --no-audit --no-fund --offline'), project);
        assert.equal(r.status, 0, r.out);
        const installed = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8'));
        assert.ok(installed.devDependencies?.shardwise, 'saved as a dev dependency');
        for (const f of ['wasm/shardwise_bg.wasm', 'node.cjs', 'index.d.ts', 'README.md', 'LICENSE', 'bin/shardwise.mjs'])
          assert.ok(fs.existsSync(path.join(project, 'node_modules/shardwise', f)), `the package ships ${f}`);
        assert.equal(fs.readFileSync(path.join(project, 'node_modules/shardwise/README.md'), 'utf8'), fs.readFileSync(TARGET, 'utf8'));
      } else if (b.lang === 'js' && /\.config\.mjs$/.test(b.attrs.file ?? '')) {
        const runner = b.attrs.file.split('.')[0];
        assert.ok(testFiles[runner], `no test project for ${b.attrs.file}`);
        fs.writeFileSync(path.join(project, runner, b.attrs.file), b.code);
      } else if (b.lang === 'sh' && b.attrs.dir) {
        const r = await bash(b.code, path.join(project, b.attrs.dir));
        assert.equal(r.status, 0, r.out);
        for (const m of b.code.matchAll(/--shard=(\d+)\/(\d+)/g)) {
          const fp = new RegExp(`\\[shardwise\\] shard ${m[1]}/${m[2]}: predicted .* fingerprint [0-9a-f]{16}`);
          assert.match(r.out, fp, `the shard line of ${m[0]}`);
          assert.doesNotMatch(r.out, /estimates only/, 'durations came from the service or the timings file');
        }
        if (/shardwise upload/.test(b.code)) assert.match(r.out, /\/preview\/|reportUrl|uploaded/i);
        if (/shardwise durations/.test(b.code)) assert.ok(fs.existsSync(path.join(project, b.attrs.dir, 'shardwise-timings.json')));
        if (/shardwise[/ ]node-test/.test(b.code)) assert.match(r.out, /^\[shardwise\] report (uploaded|saved)/m, 'the node:test reporter saved its report');
        assert.doesNotMatch(r.out, new RegExp(service.accessToken), 'the token is never printed');
      } else if (b.lang === 'sh' && b.attrs.run === 'serve') {
        const port = await freePort();
        const cmd = b.code.trim().replace('--port 8787', `--port ${port}`);
        const child = spawn('bash', ['-c', bashPrelude + cmd], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
        try {
          let out = '';
          await new Promise((resolve, reject) => {
            child.stdout.on('data', (d) => { out += d; if (/access token: \S+/.test(out)) resolve(); });
            child.on('exit', (c) => reject(new Error(`serve exited ${c}: ${out}`)));
          });
          assert.match(out, new RegExp(`listening on http://127\\.0\\.0\\.1:${port}`));
          const preview = await fetch(`http://127.0.0.1:${port}/preview/`);
          assert.equal(preview.status, 200);
          assert.match(await preview.text(), /<html/i);
          assert.ok(fs.existsSync(path.join(project, '.shardwise-service')), 'the data folder is used');
        } finally {
          process.kill(-child.pid);
        }
      } else if (b.lang === 'js' && /^api\.(mjs|cjs)$/.test(b.attrs.file ?? '')) {
        fs.writeFileSync(path.join(project, b.attrs.file), b.code);
        const r = await runAsync(process.execPath, [b.attrs.file], {
          cwd: project, env: { ...env, SHARDWISE_BASE_URL: service.baseUrl, SHARDWISE_ACCESS_TOKEN: service.accessToken },
        });
        assert.equal(r.status, 0, r.stderr);
        assert.doesNotMatch(r.stderr, /Assertion failed/, r.stderr);
        if (b.attrs.file === 'api.mjs') assert.match(r.stdout, /uploaded: http:\/\/127\.0\.0\.1:\d+\//);
      } else if (b.lang === 'ts' && /\.config\.ts$/.test(b.attrs.file ?? '')) {
        // a TypeScript config: type-checked in the runner's folder against the installed package,
        // as an ES module and as CommonJS (module nodenext: .mts and .cts)
        const runner = b.attrs.file.split('.')[0];
        const dir = path.join(project, runner, 'ts');
        fs.mkdirSync(dir, { recursive: true });
        const files = ['mts', 'cts'].map((ext) => path.join(dir, b.attrs.file.replace(/\.ts$/, `.${ext}`)));
        for (const f of files) fs.writeFileSync(f, b.code);
        const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
        const r = await runAsync(process.execPath, [tsc, '--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext',
          '--target', 'es2022', '--types', 'node', '--typeRoots', path.join(root, 'node_modules/@types'), ...files], { cwd: dir, env });
        assert.equal(r.status, 0, r.out);
      } else if (b.lang === 'yaml' && b.attrs.run === 'ci') {
        // a CI workflow: the shard matrix runs the README's shard command and keeps each shard's
        // saved folder, and a final job, after every shard (also failed ones), verifies them
        assert.match(b.code, /matrix: \{ shard: \[1, 2, 3\] \}/);
        // the runner's shard command (runner=node-test: `shardwise node-test`; else Playwright's)
        const shardCommand = b.attrs.runner === 'node-test' ? 'npx shardwise node-test --shard=${{ matrix.shard }}/3' : 'npx playwright test --shard=${{ matrix.shard }}/3';
        assert.ok(b.code.includes(`run: ${shardCommand}`), `the shard matrix runs ${shardCommand}`);
        assert.match(b.code, /upload-artifact@v4\n\s+if: always\(\)\n\s+with: \{ name: "shard-\$\{\{ matrix\.shard \}\}", path: shardwise-report \}/);
        assert.match(b.code, /verify:\n\s+needs: test\n\s+if: always\(\)/);
        assert.match(b.code, /download-artifact@v4\n\s+with: \{ path: shards \}\n\s+- run: npx shardwise verify shards\n/);
        assert.doesNotMatch(b.code, /\t/);
      } else if (b.lang === 'yaml' && b.attrs.run === 'rerun') {
        // the re-run of failures: a job of the workflow above, after its shards, only when one
        // failed, over as many shards, reading their artifacts as the timings file
        // (js-tests/rerun-failed.test.mjs runs this shape with real shards)
        assert.match(b.code, /^ {2}rerun-failed:\n\s+needs: test\n\s+if: failure\(\)\n\s+strategy: \{ fail-fast: false, matrix: \{ shard: \[1, 2, 3\] \} \}/);
        assert.match(b.code, /env: \{ SHARDWISE_RERUN: failed, SHARDWISE_TIMINGS_FILE: previous \}/);
        assert.match(b.code, /download-artifact@v4\n\s+with: \{ path: previous \}\n\s+- run: npx playwright test --shard=\$\{\{ matrix\.shard \}\}\/3 --pass-with-no-tests\n/);
        assert.doesNotMatch(b.code, /\t/);
      } else if (b.lang === 'yaml' && b.attrs.run === 'ci-steps') {
        // a shard job's steps (the matrix and the verify job are the workflow's above): the shard
        // runs `shardwise run` and keeps its saved folder, also when its tests failed
        assert.match(b.code, /npx shardwise run --shard=\$\{\{ matrix\.shard \}\}\/3 --files "[^"]+"\s+--junit (\S+) [^]*--reporter-options mochaFile=\1/);
        assert.match(b.code, /upload-artifact@v4\n\s+if: always\(\)\n\s+with: \{ name: "shard-\$\{\{ matrix\.shard \}\}", path: shardwise-report \}/);
        assert.doesNotMatch(b.code, /\t/);
      } else if (b.lang === 'js' && b.attrs.browser) {
        await runInBrowser(b.code);
      } else if (b.lang === 'sh' && b.attrs.run === 'script') {
        const scripts = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;
        for (const line of b.code.trim().split('\n')) {
          const name = /^npm (?:run (\S+)|(test))$/.exec(line.trim());
          assert.ok(name, `not an npm script: ${line}`);
          assert.ok(scripts[name[1] ?? name[2]], `package.json has no script ${line}`);
        }
        const runBy = { 'npm test': '.ci/run', 'npm run demo': 'js-tests/demo.test.mjs' }[b.code.trim()];
        assert.ok(runBy && fs.readFileSync(path.join(root, runBy), 'utf8').includes(runBy === '.ci/run' ? 'npm test' : 'demo'));
      } else {
        assert.fail(`${where}: no way to run this block; give it one of the info-string attributes above`);
      }
    });
  }
});

async function runInBrowser(code) {
  const app = path.join(work, 'browser');
  fs.mkdirSync(app, { recursive: true });
  // A report of a run above, as a page would fetch it.
  const saved = path.join(project, 'playwright/shardwise-report/report.json.br');
  fs.copyFileSync(saved, path.join(app, 'report.json.br'));
  fs.writeFileSync(path.join(app, 'block.mjs'), code);
  fs.writeFileSync(path.join(app, 'index.html'), `<!doctype html><html><head>
<script type="importmap">{"imports": {"shardwise/browser": "/pkg/browser.mjs"}}</script>
<script type="module" src="block.mjs"></script></head><body>loading</body></html>`);
  const server = await serveStatic({ '/app/': app, '/pkg/': path.join(project, 'node_modules/shardwise') });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e));
    await page.goto(`${server.url}/app/index.html`);
    await page.waitForFunction(() => /\d+ suites/.test(document.body.textContent), null, { timeout: 20_000 })
      .catch((e) => { throw errors[0] ?? e; });
    assert.deepEqual(errors, []);
    assert.match(await page.textContent('body'), /^[1-9]\d* suites$/);
  } finally {
    await browser.close();
    await server.close();
  }
}
