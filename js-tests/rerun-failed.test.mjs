// Re-run only what failed, balanced (issue 32 item 4; README "Re-run only what failed"): a sharded
// run with failures, its shards' saved folders downloaded into one folder as CI's
// download-artifact does (`previous/shard-<i>/shard-<i>-of-3/`), then the re-run's shards with
// SHARDWISE_RERUN and that folder as the timings file. Real Jest (a file is the unit: a failed
// test re-runs its file) and Playwright (a test is the unit: only the failed tests run again),
// each shard a separate process. Every shard of the re-run picks the same units from the previous
// run's reports, plans them alone over the shards by their measured durations (one fingerprint),
// each runs exactly once (`shardwise verify` on the re-run), a shard left with nothing passes, and
// `failed,flaky` adds what passed only on a retry. A re-run with nothing to pick from stops.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from 'shardwise';
import { rerunSelection, testKey } from '../pkg/src/runner/timings.mjs';
import { outcomeOf } from '../pkg/src/tests.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = path.join(ROOT, 'js-tests', '.out', 'rerun');
const CLI = path.join(ROOT, 'pkg/bin/shardwise.mjs');

// Six files of two tests. While SW_FAIL is set: b's t1 and e's t0 fail, and c's t0 fails its
// first attempt and passes its retry (flaky). In the re-run (SW_FAIL unset) all pass.
const FILES = ['a', 'b', 'c', 'd', 'e', 'f'];
const FAILS = { b: 't1', e: 't0' };
const sleep = 'const sleep = (ms) => new Promise((r) => setTimeout(r, ms));\n';
const body = (name, kind) => {
  const fail = (t) => (FAILS[name] === t ? `if (process.env.SW_FAIL) throw new Error('${name} ${t} broke');` : '');
  const flaky = name === 'c'
    ? (kind === 'jest' ? 'globalThis.tries = (globalThis.tries ?? 0) + 1; if (process.env.SW_FAIL && globalThis.tries === 1) throw new Error(\'c t0 flaked\');'
      : 'if (process.env.SW_FAIL && testInfo.retry === 0) throw new Error(\'c t0 flaked\');')
    : '';
  const args = kind === 'jest' ? '' : '{}, testInfo';
  return `describe('${name}', () => {\n`
    + `  test('t0', async (${args}) => { await sleep(${50 + 30 * FILES.indexOf(name)}); ${fail('t0')} ${flaky} });\n`
    + `  test('t1', async (${args}) => { await sleep(20); ${fail('t1')} });\n});\n`;
};

const PROJECTS = {
  jest: {
    files: (dir) => FILES.map((n) => [path.join(dir, `${n}.spec.cjs`), `${sleep}${n === 'c' ? 'jest.retryTimes(1);\n' : ''}${body(n, 'jest')}`]),
    config: (dir) => [path.join(dir, 'jest.config.mjs'), `export default {
  rootDir: import.meta.dirname, testMatch: ['**/*.spec.cjs'], maxWorkers: 1,
  testSequencer: 'shardwise/jest/sequencer',
  reporters: ['default', ['shardwise/jest', { outputFolder: process.env.SW_OUTPUT }]],
};\n`],
    argv: (dir, shard, json) => [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--config', path.join(dir, 'jest.config.mjs'), '--json', `--outputFile=${json}`, '--passWithNoTests', `--shard=${shard}`],
    /** "file > test" of every test that ran */
    ran: (json) => (json.testResults ?? []).flatMap((f) => (f.assertionResults ?? []).filter((a) => a.status !== 'pending')
      .map((a) => `${path.basename(f.name)[0]} > ${a.title}`)),
  },
  playwright: {
    files: (dir) => FILES.map((n) => [path.join(dir, `${n}.pw.js`), `import { test } from '@playwright/test';\n${sleep}const describe = test.describe;\n${body(n, 'pw')}`]),
    config: (dir) => [path.join(dir, 'playwright.config.mjs'), `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: '.', testMatch: '**/*.pw.js', workers: 1, fullyParallel: true, retries: 1,
  reporter: [['json', { outputFile: process.env.SW_JSON }], ['shardwise/playwright', { outputFolder: process.env.SW_OUTPUT }]],
  outputDir: process.env.SW_OUTPUT + '-artifacts',
});\n`],
    argv: (dir, shard) => [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', path.join(dir, 'playwright.config.mjs'), '--pass-with-no-tests', `--shard=${shard}`],
    ran: (json) => {
      const out = [];
      const walk = (s) => {
        for (const spec of s.specs ?? []) for (const t of spec.tests ?? []) if ((t.results ?? []).length) out.push(`${path.basename(spec.file)[0]} > ${spec.title}`);
        for (const c of s.suites ?? []) walk(c);
      };
      for (const s of json.suites ?? []) walk(s);
      return out;
    },
  },
};

// What a re-run picks is Rust's outcome per environment (`__testDurations`); the preview and the
// local service's history read a test's outcome with `outcomeOf` (src/tests.js). The two must
// agree: reports of random sizes (0 to 4,000 tests, 1 to 3 environments, 1 to 3 attempts of any
// status, some expected to fail), each test's environments checked against `outcomeOf` of that
// environment's attempts alone.
test('a re-run picks exactly the tests the preview calls failed (and flaky), on reports of random sizes up to thousands of tests', () => {
  let seed = 7;
  const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const STATUSES = ['passed', 'failed', 'timedOut', 'skipped', 'interrupted'];
  for (const size of [0, 1, 17, 400, 4000]) {
    const envs = 1 + rand(3);
    const tests = Array.from({ length: size }, (_, i) => ({
      title: `t${i}`,
      location: { file: `f${i % 23}.spec.ts`, line: 1 + i, column: 1 },
      attempts: Array.from({ length: 1 + rand(3) }, () => {
        const a = { environmentIdx: rand(envs), duration: rand(500), status: STATUSES[rand(STATUSES.length)] };
        if (rand(10) === 0) a.expectedStatus = 'failed';
        return a;
      }),
    }));
    const report = {
      category: 'playwright', commitId: 'a'.repeat(40), startTimestamp: 1, duration: 1,
      environments: Array.from({ length: envs }, (_, i) => ({ name: `env${i}` })),
      suites: [{ type: 'file', title: 'all', location: { file: 'all.spec.ts', line: 0, column: 0 }, tests }],
    };
    for (const flaky of [false, true]) {
      const picked = rerunSelection(report, api, { flaky });
      const expected = new Set();
      const files = new Set();
      for (const t of tests) {
        for (let e = 0; e < envs; e++) {
          const attempts = t.attempts.filter((a) => a.environmentIdx === e);
          if (!attempts.length) continue;
          const { outcome } = outcomeOf({ attempts });
          if (outcome === 'failed' || (flaky && outcome === 'flaky')) {
            expected.add(testKey(`env${e}`, t.location.file, [t.title]));
            files.add(t.location.file);
          }
        }
      }
      assert.deepEqual([...picked.tests].sort(), [...expected].sort(), `${size} tests, ${envs} environments, flaky ${flaky}`);
      assert.deepEqual([...picked.files].sort(), [...files].sort());
      if (size >= 400) assert.ok(expected.size > size / 10, 'the case has failures to pick');
    }
  }
});

for (const [name, project] of Object.entries(PROJECTS)) {
  describe(`${name}: re-run only what failed`, { concurrency: false }, () => {
    const dir = path.join(OUT, name);

    function run(label, shard, env2 = {}) {
      const json = path.join(dir, 'out', `${label}.json`);
      const output = path.join(dir, 'out', label);
      const env = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', SW_JSON: json, SW_OUTPUT: output };
      for (const k of Object.keys(env)) if (k.startsWith('SHARDWISE_') || k === 'CI' || k.startsWith('GITHUB_') || k === 'SW_FAIL') delete env[k];
      Object.assign(env, { SHARDWISE_RUN_ID: `rerun-${name}-${label}` }, env2);
      return new Promise((resolve) => {
        execFile(process.execPath, project.argv(dir, shard, json), { cwd: ROOT, env, maxBuffer: 64 << 20, timeout: 180_000 }, (e, stdout, stderr) => {
          let ran = [];
          try { ran = project.ran(JSON.parse(readFileSync(json, 'utf8'))); } catch { /* asserted by the callers */ }
          resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, text: `${stdout}\n${stderr}`, ran });
        });
      });
    }
    const shards = (label, env2) => Promise.all([1, 2, 3].map((i) => run(`${label}-${i}`, `${i}/3`, env2)));
    const previous = path.join(dir, 'out', 'previous');
    const planLine = (r) => r.text.match(/^\[shardwise\] shard \d\/3: .*fingerprint (\S+)/m);

    let first;
    before(async () => {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(path.join(dir, 'out'), { recursive: true });
      for (const [file, text] of [...project.files(dir), project.config(dir)]) writeFileSync(file, text);
      first = await shards('first', { SW_FAIL: '1' });
      // CI's download-artifact: each shard's artifact (its saved folder) in a folder of its name
      for (const i of [1, 2, 3]) cpSync(path.join(dir, 'out', `first-${i}`), path.join(previous, `shard-${i}`), { recursive: true });
    });

    test('the first run fails where its tests failed', () => {
      const all = first.flatMap((r) => r.ran).sort();
      assert.equal(all.length, 12, first.map((r) => r.text).join('\n'));
      assert.ok(first.some((r) => r.code !== 0), 'a shard with a failed test fails');
    });

    test('SHARDWISE_RERUN=failed: the failed tests (Jest: their files) alone, balanced over the 3 shards, each once; verify passes; an empty shard passes', async () => {
      const rerun = await shards('rerun', { SHARDWISE_RERUN: 'failed', SHARDWISE_TIMINGS_FILE: previous });
      const expected = name === 'jest' ? ['b > t0', 'b > t1', 'e > t0', 'e > t1'] : ['b > t1', 'e > t0'];
      assert.deepEqual(rerun.flatMap((r) => r.ran).sort(), expected, rerun.map((r) => r.text).join('\n'));
      const units = name === 'jest' ? '2 of 6 files' : '2 of 12 tests';
      for (const [i, r] of rerun.entries()) {
        assert.equal(r.code, 0, `shard ${i + 1} (the failures pass now):\n${r.text}`);
        assert.match(r.text, new RegExp(`^\\[shardwise\\] re-running ${units}: those that failed in the run the timings file holds$`, 'm'), r.text);
        assert.match(r.text, /\(durations: timings file \S+ \(3 shard reports, read as one run\)/, r.text);
      }
      const prints = rerun.map((r) => planLine(r)?.[1]);
      assert.ok(prints[0] && prints.every((p) => p === prints[0]), `one plan on every shard: ${prints}`);
      // two units over three shards: one shard has none, and passes having run nothing
      assert.equal(rerun.filter((r) => r.ran.length === 0).length, 1);
      const verify = spawnSync(process.execPath, [CLI, 'verify', ...[1, 2, 3].map((i) => path.join(dir, 'out', `rerun-${i}`))], { encoding: 'utf8' });
      assert.equal(verify.status, 0, `${verify.stdout}${verify.stderr}`);
      assert.match(verify.stdout, /each of 2 planned units ran exactly once/, verify.stdout);
    });

    test('SHARDWISE_RERUN=failed,flaky also runs what passed only on a retry', async () => {
      const rerun = await shards('flaky', { SHARDWISE_RERUN: 'failed,flaky', SHARDWISE_TIMINGS_FILE: previous });
      const expected = name === 'jest'
        ? ['b > t0', 'b > t1', 'c > t0', 'c > t1', 'e > t0', 'e > t1']
        : ['b > t1', 'c > t0', 'e > t0'];
      assert.deepEqual(rerun.flatMap((r) => r.ran).sort(), expected, rerun.map((r) => r.text).join('\n'));
      for (const r of rerun) assert.match(r.text, /those that failed or were flaky in the run/, r.text);
    });

    // the same code for every runner (planThisShard): checked on the quicker one
    test('a re-run with no previous run to pick from, or an unknown kind, stops every shard with what to do', { skip: name !== 'jest' && 'the same planThisShard as Jest\'s' }, async () => {
      const none = await run('none', '1/3', { SHARDWISE_RERUN: 'failed' });
      assert.notEqual(none.code, 0, none.text);
      assert.match(none.text, /^\[shardwise\] shard 1\/3 stopped: a re-run of the failed (files|tests) \(rerun: failed\) needs the run that failed: give its saved report, or the folder of its shards' reports, as the timings file \(SHARDWISE_TIMINGS_FILE\), so this shard runs nothing and fails$/m, none.text);
      assert.deepEqual(none.ran, []);
      const odd = await run('odd', '2/3', { SHARDWISE_RERUN: 'broken', SHARDWISE_TIMINGS_FILE: previous });
      assert.notEqual(odd.code, 0, odd.text);
      assert.match(odd.text, /^\[shardwise\] shard 2\/3 stopped: rerun "broken" \(SHARDWISE_RERUN\) is neither "failed" nor "failed,flaky"/m, odd.text);
    });
  });
}
