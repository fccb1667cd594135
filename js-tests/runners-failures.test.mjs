// Runs that fail outside their tests, for real: Jest, Vitest and Playwright projects written into
// js-tests/.out/runners-failures/ with a syntax error, a missing import, a throw at a file's top
// level, and (each run apart) a global set-up that throws, run by the real runners against the
// local service. The saved and uploaded report must say what failed (`unattributedErrors`), the
// closing line how many files failed to load; a run is never an empty green report. Also: a
// balanced Vitest shard whose `--reporter` flag dropped shardwise's reporter says so.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from 'shardwise';
import { createServer } from '../pkg/server/index.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = path.join(ROOT, 'js-tests', '.out', 'runners-failures');
const COMMIT = 'fa11ed0000000000000000000000000000000000';

let service;
before(async () => {
  rmSync(OUT, { recursive: true, force: true });
  service = await createServer({ dataDir: path.join(OUT, 'service'), computeDelayMs: 0 });
});
after(() => service?.close());

/** A project of its own (a git repository: report paths are relative to it). */
function write(dir, files) {
  rmSync(dir, { recursive: true, force: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  execFileSync('git', ['init', '-q'], { cwd: dir });
}

/** Runs `argv` in `cwd` (stdout and stderr in one text, as a CI log shows them). */
function run(cwd, argv, env = {}) {
  const child = spawn(process.execPath, argv, {
    cwd,
    env: { ...process.env, SHARDWISE_COMMIT_ID: COMMIT, SHARDWISE_BASE_URL: service.baseUrl, SHARDWISE_ACCESS_TOKEN: service.accessToken, FORCE_COLOR: '0', NO_COLOR: '1', CI: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000,
  });
  let text = '';
  child.stdout.on('data', (d) => { text += d; });
  child.stderr.on('data', (d) => { text += d; });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, text })));
}

/** The saved report of a run, and the one the service got (the link its line printed). */
async function reports(folder, text) {
  const saved = api.decodeReport(new Uint8Array(readFileSync(path.join(folder, 'report.json.br'))));
  const link = /\[shardwise\] report uploaded: (\S+)/.exec(text)?.[1];
  assert.ok(link, `uploaded: ${text}`);
  const id = link.split('/').pop();
  const res = await fetch(`${service.baseUrl}/api/reports/${id}/report.json.br`);
  assert.equal(res.status, 200);
  const uploaded = api.decodeReport(new Uint8Array(await res.arrayBuffer()));
  return { saved, uploaded };
}

const countTests = (r) => {
  let n = (r.tests ?? []).length;
  const walk = (s) => { n += (s.tests ?? []).length; for (const c of s.suites ?? []) walk(c); };
  for (const s of r.suites ?? []) walk(s);
  return n;
};

const BROKEN = {
  jest: {
    'package.json': '{"name":"broken-jest","private":true,"type":"commonjs"}\n',
    'tests/ok.test.js': "test('fine', () => expect(1).toBe(1));\ntest('also fine', () => expect(2).toBe(2));\n",
    'tests/syntax.test.js': "test('broken', () => { expect(1).toBe(1) ;\n",
    'tests/missing.test.js': "const x = require('./does-not-exist');\ntest('uses x', () => expect(x).toBeDefined());\n",
    'tests/throws.test.js': "throw new Error('top-level boom');\n",
    'global-setup.cjs': "module.exports = async () => { throw new Error('global setup failed: database unreachable'); };\n",
    'jest.config.cjs': `module.exports = {
  testMatch: ['**/tests/**/*.test.js'],
  ...(process.env.GS ? { globalSetup: './global-setup.cjs' } : {}),
  reporters: ['default', ['shardwise/jest', { outputFolder: process.env.SW_OUTPUT }]],
};
`,
  },
  vitest: {
    'package.json': '{"name":"broken-vitest","private":true,"type":"module"}\n',
    'tests/ok.test.ts': "import { test, expect } from 'vitest';\ntest('fine', () => expect(1).toBe(1));\ntest('also fine', () => expect(2).toBe(2));\n",
    'tests/syntax.test.ts': "import { test, expect } from 'vitest';\ntest('broken', () => { expect(1).toBe(1) ;\n",
    'tests/missing.test.ts': "import { test, expect } from 'vitest';\nimport x from './does-not-exist';\ntest('uses x', () => expect(x).toBeDefined());\n",
    'tests/throws.test.ts': "throw new Error('top-level boom');\n",
    'global-setup.mjs': "export default async () => { throw new Error('global setup failed: database unreachable'); };\n",
    'vitest.config.mjs': `import { defineConfig } from 'vitest/config';
import ShardwiseSequencer from 'shardwise/vitest/sequencer';
export default defineConfig({ test: {
  include: ['tests/**/*.test.ts'],
  globalSetup: process.env.GS ? ['./global-setup.mjs'] : [],
  // shardwise's first: Vitest 5 wants Node >= 22.12, and on Node 20 its default reporter throws
  // (Map.groupBy) while summing up failed files, before the reporters after it end
  reporters: [['shardwise/vitest', { outputFolder: process.env.SW_OUTPUT }], 'default'],
  sequence: { sequencer: ShardwiseSequencer },
} });
`,
  },
  playwright: {
    'package.json': '{"name":"broken-playwright","private":true,"type":"module"}\n',
    'tests/ok.spec.mjs': "import { test, expect } from '@playwright/test';\ntest('fine', () => expect(1).toBe(1));\n",
    'tests/syntax.spec.mjs': "import { test, expect } from '@playwright/test';\ntest('broken', () => { expect(1).toBe(1) ;\n",
    'global-setup.mjs': "export default async () => { throw new Error('global setup failed: database unreachable'); };\n",
    'playwright.config.mjs': `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: 'tests',
  ...(process.env.GS ? { globalSetup: './global-setup.mjs' } : {}),
  reporter: [['list'], ['shardwise/playwright', { outputFolder: process.env.SW_OUTPUT }]],
});
`,
  },
};

/** A project of 5 passing files, balanced by shardwise's sequencer. */
function passingProject(runner) {
  const files = { ...BROKEN[runner] };
  const ext = runner === 'jest' ? 'js' : 'ts';
  for (const k of Object.keys(files)) if (/^tests\/(syntax|missing|throws)\./.test(k)) delete files[k];
  for (let i = 0; i < 4; i++) {
    files[`tests/more-${i}.test.${ext}`] = `${runner === 'vitest' ? "import { test, expect } from 'vitest';\n" : ''}test('n${i}', () => expect(${i}).toBe(${i}));\n`;
  }
  if (runner === 'jest') files['jest.config.cjs'] = files['jest.config.cjs'].replace('testMatch:', "testSequencer: 'shardwise/jest/sequencer',\n  testMatch:");
  return files;
}

const ARGV = {
  jest: () => [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--config', 'jest.config.cjs'],
  vitest: (...more) => [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.config.mjs', ...more],
  playwright: () => [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', 'playwright.config.mjs'],
};

describe('a run whose files fail to load', () => {
  for (const runner of ['jest', 'vitest']) {
    test(`${runner}: a syntax error, a missing import, a top-level throw: each in the report with its file, the run failed, the closing line counts 3 files`, async () => {
      const dir = path.join(OUT, runner);
      write(dir, BROKEN[runner]);
      const folder = path.join(dir, 'shardwise-report');
      const r = await run(dir, ARGV[runner](), { SW_OUTPUT: folder });
      assert.notEqual(r.code, 0, r.text);
      assert.match(r.text, /\[shardwise\] 3 test files failed to load \(tests\/(missing|syntax|throws)\.test\.[jt]s, tests\/\S+, tests\/\S+\): the run failed; the errors are in the report\n/);
      const { saved, uploaded } = await reports(folder, r.text);
      for (const rep of [saved, uploaded]) {
        assert.deepEqual(api.validateReport(rep), []);
        const errs = rep.unattributedErrors ?? [];
        assert.deepEqual(errs.map((e) => e.location?.file).sort(), ['missing', 'syntax', 'throws'].map((n) => `tests/${n}.test.${runner === 'jest' ? 'js' : 'ts'}`));
        const byFile = Object.fromEntries(errs.map((e) => [e.location.file.split('/').pop().split('.')[0], e.message]));
        assert.match(byFile.missing, /does-not-exist/);
        assert.match(byFile.throws, /top-level boom/);
        assert.match(byFile.syntax, /Unexpected|PARSE_ERROR|Expected/);
        assert.equal(countTests(rep), 2, 'the tests that ran are kept');
      }
    });

    test(`${runner}: a global set-up that throws: the run's report says the run stopped before its tests`, async () => {
      const dir = path.join(OUT, `${runner}-gs`);
      write(dir, BROKEN[runner]);
      const folder = path.join(dir, 'shardwise-report');
      const r = await run(dir, ARGV[runner](), { SW_OUTPUT: folder, GS: '1' });
      assert.notEqual(r.code, 0, r.text);
      if (runner === 'jest') {
        // Jest calls no reporter method when its globalSetup throws: nothing can be saved, and
        // nothing false is (no green report)
        assert.equal(existsSync(path.join(folder, 'report.json.br')), false);
        return;
      }
      assert.match(r.text, /\[shardwise\] Vitest ended the run as failed before any test file ran .*: the report says so\n/);
      const { uploaded } = await reports(folder, r.text);
      assert.equal(countTests(uploaded), 0);
      assert.match(uploaded.unattributedErrors[0].message, /before any test file ran/);
    });
  }

  test('playwright: a spec with a syntax error ("No tests found") and a throwing global set-up: the error in the report, with its file and line', async () => {
    const dir = path.join(OUT, 'playwright');
    write(dir, BROKEN.playwright);
    const folder = path.join(dir, 'shardwise-report');
    const r = await run(dir, ARGV.playwright(), { SW_OUTPUT: folder });
    assert.notEqual(r.code, 0, r.text);
    assert.match(r.text, /\[shardwise\] an error outside the tests \(SyntaxError: .*syntax\.spec\.mjs: Unexpected token \(3:0\)\): the run failed; the errors are in the report\n/);
    const { uploaded } = await reports(folder, r.text);
    assert.deepEqual(uploaded.unattributedErrors.map((e) => [e.location?.file, e.location?.line]), [['tests/syntax.spec.mjs', 3]]);

    const gs = await run(dir, ARGV.playwright(), { SW_OUTPUT: path.join(dir, 'gs-report'), GS: '1' });
    assert.notEqual(gs.code, 0, gs.text);
    assert.match(gs.text, /\[shardwise\] an error outside the tests \(Error: global setup failed: database unreachable\)/);
    const { uploaded: up2 } = await reports(path.join(dir, 'gs-report'), gs.text);
    assert.equal(up2.unattributedErrors[0].location?.file, 'global-setup.mjs');
  });
});

test('vitest: a balanced shard whose --reporter flag dropped the shardwise reporter says so, once', async () => {
  const dir = path.join(OUT, 'vitest-flag');
  const files = { ...BROKEN.vitest };
  for (const k of ['tests/syntax.test.ts', 'tests/missing.test.ts', 'tests/throws.test.ts']) delete files[k];
  for (let i = 0; i < 4; i++) files[`tests/more-${i}.test.ts`] = `import { test, expect } from 'vitest';\ntest('n${i}', () => expect(${i}).toBe(${i}));\n`;
  write(dir, files);
  const r = await run(dir, ARGV.vitest('--shard=1/2', '--reporter=dot'), { SW_OUTPUT: path.join(dir, 'shardwise-report') });
  assert.equal(r.code, 0, r.text);
  const lines = r.text.split('\n').filter((l) => l.includes('the shardwise reporter is not among'));
  assert.deepEqual(lines, ["[shardwise] shard 1/2: the shardwise reporter is not among Vitest's reporters (a --reporter flag replaces the config's list): this shard is balanced, but saves no report and no shard record, so 'shardwise verify' will count it missing; add --reporter=shardwise/vitest beside the flag"]);
  const kept = await run(dir, ARGV.vitest('--shard=1/2', '--reporter=dot', '--reporter=shardwise/vitest'), { SW_OUTPUT: path.join(dir, 'shardwise-report') });
  assert.equal(kept.code, 0, kept.text);
  assert.doesNotMatch(kept.text, /the shardwise reporter is not among/);
});

test('jest: a balanced shard whose --reporters flag dropped the shardwise reporter says so, once', async () => {
  const dir = path.join(OUT, 'jest-flag');
  const files = { ...BROKEN.jest, 'jest.config.cjs': BROKEN.jest['jest.config.cjs'].replace("testMatch:", "testSequencer: 'shardwise/jest/sequencer',\n  testMatch:") };
  for (const k of ['tests/syntax.test.js', 'tests/missing.test.js', 'tests/throws.test.js']) delete files[k];
  for (let i = 0; i < 4; i++) files[`tests/more-${i}.test.js`] = `test('n${i}', () => expect(${i}).toBe(${i}));\n`;
  write(dir, files);
  const r = await run(dir, [...ARGV.jest(), '--shard=1/2', '--reporters=default'], { SW_OUTPUT: path.join(dir, 'shardwise-report') });
  assert.equal(r.code, 0, r.text);
  const lines = r.text.split('\n').filter((l) => l.includes('the shardwise reporter is not among'));
  assert.deepEqual(lines, ["[shardwise] shard 1/2: the shardwise reporter is not among Jest's reporters (a --reporters flag replaces the config's list): this shard is balanced, but saves no report and no shard record, so 'shardwise verify' will count it missing; add --reporters=shardwise/jest beside the flag"]);
  const kept = await run(dir, [...ARGV.jest(), '--shard=1/2'], { SW_OUTPUT: path.join(dir, 'shardwise-report') });
  assert.equal(kept.code, 0, kept.text);
  assert.doesNotMatch(kept.text, /the shardwise reporter is not among/);
});

for (const runner of ['jest', 'vitest']) {
  test(`${runner}: a shard stopped (its token refused): its line once, no stack, no report of nothing, no earlier run's files left, exit 1`, async () => {
    const dir = path.join(OUT, `${runner}-stopped`);
    write(dir, passingProject(runner));
    const out = path.join(dir, 'stopped-report');
    const shard = path.join(out, 'shard-1-of-2');
    // an earlier run's files in this shard's folder
    mkdirSync(path.join(shard, 'attachments'), { recursive: true });
    for (const f of ['report.json.br', 'shard.json', 'attachments.json', 'uploaded.json', 'attachments/abc']) writeFileSync(path.join(shard, f), 'earlier run');
    const argv = runner === 'jest' ? [...ARGV.jest(), '--shard=1/2'] : ARGV.vitest('--shard=1/2');
    for (const extra of [[], ['--passWithNoTests']]) {
      const r = await run(dir, [...argv, ...extra], { SW_OUTPUT: out, SHARDWISE_ACCESS_TOKEN: 'swat_refused' });
      assert.equal(r.code, 1, `${extra.join(' ')}: ${r.text}`);
      assert.equal(r.text.split('\n').filter((l) => l.includes('[shardwise] shard 1/2 stopped: durations unavailable (HTTP_STATUS:')).length, 1, r.text);
      assert.doesNotMatch(r.text, /Unhandled Error|ShardStop|\n\s+at |npx shardwise upload|\[shardwise\] report saved|report uploaded/, r.text);
      assert.deepEqual(existsSync(shard) ? readdirSync(shard) : [], [], 'nothing of the earlier run, and no report of nothing');
    }
  });
}
