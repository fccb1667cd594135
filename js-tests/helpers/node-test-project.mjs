// The small node:test project of the node:test tests (node-test.test.mjs records it,
// node-test-shards.test.mjs shards it): describe/it with a failure (a diff), skip, todo, nested
// describes, subtests with a skip and a todo, a 150 ms test, and a file that fails to load.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The project's files, `{path: text}`. `diagnostics`: the tests that call `t.diagnostic()`
 * ('cart › adds an item' once, 'search › finds by title' twice) do; else they only pass.
 */
export function nodeTestProject(name, { diagnostics = false } = {}) {
  const say = (...lines) => (diagnostics ? lines.map((l) => `t.diagnostic('${l}'); `).join('') : '');
  return {
    'package.json': `{"name":"${name}","private":true,"type":"module"}\n`,
    'test/cart.test.mjs': `import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
describe('cart', () => {
  it('adds an item', (t) => { ${say('stock checked')}assert.equal(1 + 1, 2); });
  it('shows the total', () => assert.deepEqual({ total: 999 }, { total: 899 }));
  it.skip('pays by card', () => {});
  it.todo('pays by invoice');
  describe('coupons', () => {
    it('applies one', () => {});
    it('refuses an expired one', () => {});
  });
});
`,
    'test/search.test.mjs': `import { test } from 'node:test';
test('search', async (t) => {
  await t.test('finds by title', (t) => { ${say('index warm', '3 hits')}});
  await t.test('finds nothing', (t) => { t.skip('index not built'); });
  await t.test('ranks by date', (t) => { t.todo('needs dates'); });
});
test('a slow one', async () => { await new Promise((r) => setTimeout(r, 150)); });
`,
    'test/broken.test.mjs': "import gone from './does-not-exist.mjs';\n",
  };
}

/** Writes `files` into `dir` (emptied first) and makes it a git repository: the report's root. */
export function writeProject(dir, files) {
  rmSync(dir, { recursive: true, force: true });
  for (const [f, t] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), t);
  }
  execFileSync('git', ['init', '-q'], { cwd: dir });
}

/**
 * Runs `node args` in `cwd` and resolves `{code, text}` (stdout and stderr together). Without
 * NODE_TEST_CONTEXT: the calling file runs under node --test, and a node --test started with it
 * takes itself for one of its files' processes (it reports to a parent and exits 0). `drop`:
 * more variables of this process's environment to leave out.
 */
export function runNode(args, { cwd, env = {}, drop = [] }) {
  const outer = { ...process.env };
  for (const k of ['NODE_TEST_CONTEXT', ...drop]) delete outer[k];
  const child = spawn(process.execPath, args, { cwd, env: { ...outer, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (d) => { text += d; });
  child.stderr.on('data', (d) => { text += d; });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, text })));
}
