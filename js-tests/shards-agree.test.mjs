// No test silently lost (issue 19): real Playwright, Jest and Vitest shards, as separate
// processes, against the local service, where one shard cannot get durations (its token is
// refused), one gets them too late (past its budget), or one plans from another timings file.
// In every case either every test runs exactly once, or the run fails loudly: the shard that
// could not plan as the others fails with one line, and `shardwise verify` names exactly the
// tests that ran on no shard or on several (checked against the runners' own JSON reports). A
// re-run of one shard runs the same tests, also after newer runs and a restart of the service;
// a shard with nothing to run fails unless allowed.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from 'shardwise';
import { createServer } from '../pkg/server/index.mjs';
import { COSTS_SOURCE } from '../pkg/src/sources.js';
import { createFaultServer } from './helpers/fault-server.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = path.join(ROOT, 'js-tests', '.out', 'agree');
const BIN = path.join(ROOT, 'pkg', 'bin', 'shardwise.mjs');
const rel = (file) => path.relative(ROOT, path.resolve(file)).split(path.sep).join('/');

// Six files of two or three short tests each, so a shard's part is a few files.
const FILES = [['a', [40, 30]], ['b', [200, 10, 10]], ['c', [60, 60]], ['d', [10, 10, 150]], ['e', [120, 5]], ['f', [80, 20]]];

const PROJECTS = {
  playwright: {
    files: (dir) => FILES.map(([name, ms]) => [path.join(dir, `${name}.pw.js`),
      `import { test } from '@playwright/test';\nconst sleep = (ms) => new Promise((r) => setTimeout(r, ms));\ntest.describe('${name}', () => {\n${ms.map((m, i) => `  test('t${i}', async () => { await sleep(${m}); });`).join('\n')}\n});\n`]),
    config: (dir) => [path.join(dir, 'playwright.config.mjs'), `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: '.', testMatch: '**/*.pw.js', workers: 1, fullyParallel: false,
  reporter: [['dot'], ['json', { outputFile: process.env.SW_JSON }], ['shardwise/playwright', { outputFolder: process.env.SW_OUTPUT }]],
  outputDir: process.env.SW_OUTPUT + '-artifacts',
});\n`],
    argv: (dir, shard, extra = []) => [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', path.join(dir, 'playwright.config.mjs'), ...(shard ? [`--shard=${shard}`] : []), ...extra],
    /** Playwright JSON -> the planner's ids of the tests that ran (JSON.stringify([project, file, ...titles])). */
    ran: (json, dir) => {
      const out = new Set();
      const walk = (suite, titles) => {
        for (const spec of suite.specs ?? []) {
          for (const t of spec.tests ?? []) if ((t.results ?? []).length) out.add(JSON.stringify([t.projectName ?? '', rel(path.join(dir, spec.file)), ...titles, spec.title]));
        }
        for (const s of suite.suites ?? []) walk(s, s.file === s.title ? titles : [...titles, s.title]);
      };
      for (const s of json.suites ?? []) walk(s, []);
      return out;
    },
  },
  jest: {
    files: (dir) => FILES.map(([name, ms]) => [path.join(dir, `${name}.spec.cjs`),
      `const sleep = (ms) => new Promise((r) => setTimeout(r, ms));\ndescribe('${name}', () => {\n${ms.map((m, i) => `  test('t${i}', async () => { await sleep(${m}); });`).join('\n')}\n});\n`]),
    config: (dir) => [path.join(dir, 'jest.config.mjs'), `export default {
  rootDir: import.meta.dirname, testMatch: ['**/*.spec.cjs'], maxWorkers: 1,
  testSequencer: 'shardwise/jest/sequencer',
  reporters: ['default', ['shardwise/jest', { outputFolder: process.env.SW_OUTPUT }]],
};\n`],
    argv: (dir, shard, extra = []) => [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--config', path.join(dir, 'jest.config.mjs'), '--json', `--outputFile=${process.env.SW_JSON_PLACEHOLDER ?? ''}`, ...(shard ? [`--shard=${shard}`] : []), ...extra],
    ran: (json) => new Set((json.testResults ?? []).filter((f) => (f.assertionResults ?? []).length).map((f) => rel(f.name))),
  },
  vitest: {
    files: (dir) => FILES.map(([name, ms]) => [path.join(dir, `${name}.spec.js`),
      `import { describe, test } from 'vitest';\nconst sleep = (ms) => new Promise((r) => setTimeout(r, ms));\ndescribe('${name}', () => {\n${ms.map((m, i) => `  test('t${i}', async () => { await sleep(${m}); });`).join('\n')}\n});\n`]),
    config: (dir) => [path.join(dir, 'vitest.config.mjs'), `import { defineConfig } from 'vitest/config';
import ShardwiseSequencer from 'shardwise/vitest/sequencer';
export default defineConfig({
  test: {
    root: import.meta.dirname, include: ['**/*.spec.js'], fileParallelism: false, isolate: false,
    reporters: ['default', ['json', { outputFile: process.env.SW_JSON }], ['shardwise/vitest', { outputFolder: process.env.SW_OUTPUT }]],
    sequence: { sequencer: ShardwiseSequencer },
  },
});\n`],
    argv: (dir, shard, extra = []) => [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', path.join(dir, 'vitest.config.mjs'), ...(shard ? [`--shard=${shard}`] : []), ...extra],
    ran: (json) => new Set((json.testResults ?? []).filter((f) => (f.assertionResults ?? []).length).map((f) => rel(f.name))),
  },
};

/** Runs a process without blocking this one (the service answers from here). */
function exec(argv, env) {
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd: ROOT, env, maxBuffer: 64 << 20, timeout: 180_000 }, (e, stdout, stderr) => {
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, text: `${stdout}\n${stderr}` });
    });
  });
}

let fx;
let service;
before(async () => {
  rmSync(OUT, { recursive: true, force: true });
  // one service for every shard; the proxy in front of it holds `create` back (a slow service)
  fx = await createFaultServer({ computeDelayMs: 20, script: { create: [{ delayMs: 6000, times: Infinity }] } });
  service = fx.service;
});
after(() => fx?.close());

for (const [name, project] of Object.entries(PROJECTS)) {
  describe(`${name}: shards that cannot agree do not pass`, { concurrency: false }, () => {
    const dir = path.join(OUT, name);
    const runId = `agree-${name}-${process.pid}`;
    const all = () => project.ran(JSON.parse(readFileSync(path.join(dir, 'out', 'seed.json'), 'utf8')), dir);

    /** One invocation: `label` names its output folder and JSON; `env` overrides. */
    async function run(label, { shard, env = {}, extra = [], keep = false } = {}) {
      const json = path.join(dir, 'out', `${label}${keep ? '-again' : ''}.json`);
      const output = path.join(dir, 'out', label);
      rmSync(json, { force: true });
      if (!keep) rmSync(output, { recursive: true, force: true });
      const base = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', SW_JSON: json, SW_OUTPUT: output };
      for (const k of Object.keys(base)) if (k.startsWith('SHARDWISE_') || k === 'CI' || k.startsWith('GITHUB_')) delete base[k];
      Object.assign(base, { SHARDWISE_BASE_URL: service.baseUrl, SHARDWISE_ACCESS_TOKEN: service.accessToken, SHARDWISE_RUN_ID: runId }, env);
      const argv = project.argv(dir, shard, extra).map((a) => (a === '--outputFile=' ? `--outputFile=${json}` : a));
      const r = await exec(argv, base);
      const ran = existsSync(json) ? project.ran(JSON.parse(readFileSync(json, 'utf8')), dir) : new Set();
      return { ...r, ran, output, fingerprint: r.text.match(/\[shardwise\] shard \d+\/\d+: .*fingerprint (\S+)/)?.[1] };
    }
    // as CI gives them: the folders of the shards that saved one (a stopped shard saves none)
    const verify = async (...folders) => {
      const r = await exec([BIN, 'verify', ...folders.filter(existsSync), '--json'], process.env);
      return { code: r.code, v: JSON.parse(r.text.slice(0, r.text.lastIndexOf('}') + 1)), text: r.text };
    };
    const human = async (...folders) => exec([BIN, 'verify', ...folders.filter(existsSync)], process.env);
    /** What the runners' own reports say about a set of shard runs: units run on none, on several. */
    function oracle(runs) {
      const on = new Map();
      runs.forEach((r, i) => { for (const u of r.ran) on.set(u, [...(on.get(u) ?? []), i + 1]); });
      return {
        missing: [...all()].filter((u) => !on.has(u)).sort(),
        doubled: [...on].filter(([, s]) => s.length > 1).map(([unit, shards]) => ({ unit, shards })).sort((a, b) => (a.unit < b.unit ? -1 : 1)),
      };
    }

    before(async () => {
      mkdirSync(dir, { recursive: true });
      for (const [file, text] of [...project.files(dir), project.config(dir)]) writeFileSync(file, text);
      const seed = await run('seed');
      assert.equal(seed.code, 0, seed.text);
      assert.equal(all().size, name === 'playwright' ? 14 : 6);
    });

    test('one shard refused (401), one past its budget: both fail with one line; verify names exactly what ran nowhere', async () => {
      const [ok, refused, slow] = await Promise.all([
        run('ab-1', { shard: '1/3' }),
        run('ab-2', { shard: '2/3', env: { SHARDWISE_ACCESS_TOKEN: 'swat_refused' } }),
        run('ab-3', { shard: '3/3', env: { SHARDWISE_BASE_URL: fx.baseUrl, SHARDWISE_DURATIONS_TIMEOUT_MS: '1500' } }),
      ]);
      assert.equal(ok.code, 0, ok.text);
      assert.match(ok.text, /durations: service/);
      for (const [r, why] of [[refused, /HTTP_STATUS: .*401/], [slow, /TIMEOUT: .*timeoutMs=1500/]]) {
        assert.notEqual(r.code, 0, r.text);
        assert.match(r.text, /\[shardwise\] shard \d\/3 stopped: durations unavailable \(/);
        assert.match(r.text, why);
        assert.match(r.text, /Re-run this shard: the same commit and run id give the same plan\./);
        assert.equal(r.ran.size, 0, `a stopped shard runs nothing: ${[...r.ran]}`);
        assert.doesNotMatch(r.text, /estimates only, the same plan on every shard/, 'never the false claim');
      }
      const { code, v } = await verify(ok.output, refused.output, slow.output);
      assert.equal(code, 1);
      assert.deepEqual(v.missingShards, [2, 3]);
      const expected = oracle([ok, refused, slow]);
      assert.deepEqual(v.missing, expected.missing);
      assert.ok(v.missing.length > 0 && v.missing.length + ok.ran.size === all().size);
      assert.deepEqual(v.doubled, []);
      const text = (await human(ok.output, refused.output, slow.output)).text;
      assert.match(text, /^shards NOT whole: 3 shards, 1 fingerprint/);
      assert.match(text, /missing shards: 2, 3/);
    });

    test('one shard with another timings file: every shard passes, and verify names exactly the missing and doubled', async () => {
      const seedReport = api.decodeReport(new Uint8Array(readFileSync(path.join(dir, 'out', 'seed', 'report.json.br'))));
      // Two plans that must differ, whatever this machine measured: each test at its nominal
      // duration, and no cost beyond the tests (the seed run's measured costs are of the order of
      // these tests and on a loaded machine flatten both plans into one).
      const nominal = (s, file) => {
        const f = s.location?.file ?? (s.type === 'file' ? s.title : file);
        const ms = FILES.find(([n]) => n === path.basename(f ?? '')[0])?.[1];
        for (const t of s.tests ?? []) for (const a of t.attempts) a.duration = ms[Number(/t(\d+)$/.exec(t.title)[1])];
        for (const c of s.suites ?? []) nominal(c, f);
      };
      nominal(seedReport);
      seedReport.sources = [...(seedReport.sources ?? []).filter((s) => s.filePath !== COSTS_SOURCE),
        { filePath: COSTS_SOURCE, contentType: 'application/json', text: JSON.stringify({ runner: name, workers: 1, files: {}, fittedFiles: {}, perShardMs: 0, perWorkerMs: 0, perFileMs: 0, perTestMs: 0 }) }];
      const t1 = path.join(dir, 'out', 'timings-1.json');
      writeFileSync(t1, JSON.stringify(seedReport));
      // the same tests with other durations: the slow ones fast, the fast ones slow
      const turned = JSON.parse(JSON.stringify(seedReport, (k, v) => (k === 'duration' && typeof v === 'number' ? 10_000 - Math.min(v, 9_000) * 7 % 9_000 : v)));
      const t2 = path.join(dir, 'out', 'timings-2.json');
      writeFileSync(t2, JSON.stringify(turned));
      // balanced plans both (a Jest or Vitest shard may keep the runner's own split, which two
      // timings files give alike)
      const runs = await Promise.all([1, 2, 3].map((i) => run(`c-${i}`, { shard: `${i}/3`, env: { SHARDWISE_TIMINGS_FILE: i === 2 ? t2 : t1, SHARDWISE_ALWAYS_BALANCE: '1' } })));
      for (const r of runs) {
        assert.equal(r.code, 0, r.text);
        assert.match(r.text, /durations: timings file /);
      }
      assert.notEqual(runs[1].fingerprint, runs[0].fingerprint, 'the timings files differ enough to plan differently');
      assert.equal(runs[2].fingerprint, runs[0].fingerprint);
      const { code, v } = await verify(...runs.map((r) => r.output));
      assert.equal(code, 1);
      assert.deepEqual(v.fingerprints.map((f) => f.shards), [[1, 3], [2]]);
      const expected = oracle(runs);
      assert.ok(expected.missing.length + expected.doubled.length > 0, 'the plans left something out or doubled');
      assert.deepEqual(v.missing, expected.missing);
      assert.deepEqual(v.doubled, expected.doubled);
      assert.deepEqual(v.missingShards, []);
      assert.match((await human(...runs.map((r) => r.output))).text, /the shards planned differently/);
    });

    test('shards that agree verify whole; a re-run of one shard runs the same tests after newer runs and a restart of the service', async () => {
      const runs = await Promise.all([1, 2, 3].map((i) => run(`d-${i}`, { shard: `${i}/3` })));
      for (const r of runs) assert.equal(r.code, 0, r.text);
      assert.equal(new Set(runs.map((r) => r.fingerprint)).size, 1);
      const whole = await verify(path.join(dir, 'out', 'd-1'), path.join(dir, 'out', 'd-2'), path.join(dir, 'out', 'd-3'));
      assert.equal(whole.code, 0, whole.text);
      assert.deepEqual([whole.v.ok, whole.v.planned, whole.v.missing, whole.v.doubled], [true, all().size, [], []]);
      assert.match((await human(...runs.map((r) => r.output))).text, /^shards whole: 3 of 3 planned alike/);
      // newer history: a report of the same tests with other durations, then the service restarts
      const seedReport = api.decodeReport(new Uint8Array(readFileSync(path.join(dir, 'out', 'seed', 'report.json.br'))));
      const newer = JSON.parse(JSON.stringify(seedReport, (k, v) => (k === 'duration' && typeof v === 'number' ? v * 13 % 997 + 1 : v)));
      await api.uploadReport({ baseUrl: service.baseUrl, accessToken: service.accessToken, report: newer });
      const restarted = await createServer({ dataDir: service.dataDir, computeDelayMs: 20 });
      try {
        const again = await run('d-2-rerun', { shard: '2/3', env: { SHARDWISE_BASE_URL: restarted.baseUrl, SHARDWISE_ACCESS_TOKEN: restarted.accessToken } });
        assert.equal(again.code, 0, again.text);
        assert.equal(again.fingerprint, runs[1].fingerprint, 'the same plan');
        assert.deepEqual([...again.ran].sort(), [...runs[1].ran].sort(), 'the same tests');
        // and a run under a new run id does take the newer history (the cache is per run, not forever)
        const fresh = await run('d-fresh', { shard: '2/3', env: { SHARDWISE_BASE_URL: restarted.baseUrl, SHARDWISE_ACCESS_TOKEN: restarted.accessToken, SHARDWISE_RUN_ID: `${runId}-next` } });
        assert.equal(fresh.code, 0, fresh.text);
        assert.notEqual(fresh.fingerprint, runs[1].fingerprint);
      } finally {
        await restarted.close();
      }
    });

    test('listing the tests runs, saves and sends nothing: the saved report stays the last real run\'s', { skip: name !== 'playwright' && 'Playwright\'s --list' }, async () => {
      const saved = path.join(dir, 'out', 'seed', 'report.json.br');
      const before = readFileSync(saved);
      const reports = async () => (await (await fetch(`${service.baseUrl}/api/reports`)).json()).length;
      const uploaded = await reports();
      const listed = await run('seed', { keep: true, extra: ['--list'] });
      assert.equal(listed.code, 0, listed.text);
      assert.match(listed.text, /Total: 14 tests in 6 files/);
      assert.doesNotMatch(listed.text, /\[shardwise\]/);
      assert.ok(readFileSync(saved).equals(before), 'the saved report is untouched');
      assert.equal(await reports(), uploaded, 'nothing uploaded');
    });

    test('more shards than indivisible groups: an empty shard fails with one line, unless allowed', async () => {
      // six files kept whole on eight shards: two shards get nothing
      const runs = await Promise.all([7, 8].map((i) => run(`e-${i}`, { shard: `${i}/8` })));
      if (name === 'vitest') {
        // Vitest refuses more shards than files itself, before any sequencer: loud already
        for (const r of runs) {
          assert.notEqual(r.code, 0, r.text);
          assert.match(r.text, /must be a smaller than count of test files/);
        }
        return;
      }
      const empty = runs.filter((r) => /this shard has nothing to run/.test(r.text));
      assert.ok(empty.length >= 1, runs.map((r) => r.text).join('\n---\n'));
      for (const r of empty) {
        assert.notEqual(r.code, 0, r.text);
        assert.match(r.text, /fails rather than pass having run nothing \(allowEmptyShards: true lets it pass\)/);
      }
      const i = runs.indexOf(empty[0]) + 7;
      const passWithNoTests = name === 'playwright' ? ['--pass-with-no-tests'] : ['--passWithNoTests'];
      const allowed = await run(`e-${i}-allowed`, { shard: `${i}/8`, env: { SHARDWISE_ALLOW_EMPTY_SHARDS: '1' }, extra: passWithNoTests });
      assert.equal(allowed.code, 0, allowed.text);
      assert.match(allowed.text, /this shard has nothing to run/);
    });
  });
}
