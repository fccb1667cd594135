// The runner integrations run for real: the fixture projects under fixtures/ with the real
// Playwright, Jest and Vitest binaries, as separate processes. For each runner: an unsharded run,
// then 3 shards (balanced by shardwise, using the unsharded run's saved report as timings file),
// then 3 shards with the runner's native sharding for comparison. What ran is read from the
// runner's own JSON report, independent of shardwise.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, mkdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from 'shardwise';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURES = path.join(ROOT, 'js-tests', 'fixtures');
const OUT = path.join(ROOT, 'js-tests', '.out', 'runners');
const SHARDS = 3;

const HAS_PLAN = typeof api.planShards === 'function';
const HAS_REPORT = typeof api.ReportBuilder === 'function' && typeof api.decodeReport === 'function' && typeof api.encodeReport === 'function';
const NO_PLAN = !HAS_PLAN && 'planShards is not in this build yet (the Rust planner lands with the core merge)';
const NO_REPORT = !HAS_REPORT && 'ReportBuilder/encodeReport/decodeReport are not in this build yet (they land with the core merge)';

/** Nominal ms per fixture file, from its first line ("takes about Nms"). */
function nominal(dir, ext) {
  const out = new Map();
  for (const f of readdirSync(dir).filter((x) => x.endsWith(ext)))
    out.set(path.relative(ROOT, path.join(dir, f)).split(path.sep).join('/'), Number(readFileSync(path.join(dir, f), 'utf8').match(/about (\d+)ms/)[1]));
  return out;
}

const rel = (file) => path.relative(ROOT, path.resolve(file)).split(path.sep).join('/');

/** Playwright JSON -> Map "file > titles" -> measured ms (tests that ran). */
function executedPlaywright(json) {
  const out = new Map();
  const walk = (suite, titles, file) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const runs = (t.results ?? []).filter((r) => r.status !== 'skipped');
        if (runs.length) out.set([rel(path.join(FIXTURES, 'playwright', spec.file)), ...titles, spec.title].join(' > '), runs.reduce((a, r) => a + r.duration, 0));
      }
    }
    for (const s of suite.suites ?? []) walk(s, s.file === s.title ? titles : [...titles, s.title], file);
  };
  for (const s of json.suites ?? []) walk(s, [], s.file);
  return out;
}

/** Jest / Vitest JSON (Jest's format) -> the same map. */
function executedJestLike(json) {
  const out = new Map();
  for (const f of json.testResults ?? []) {
    for (const a of f.assertionResults ?? []) {
      if (a.status !== 'passed' && a.status !== 'failed') continue;
      out.set([rel(f.name), ...a.ancestorTitles, a.title].join(' > '), a.duration ?? 0);
    }
  }
  return out;
}

const RUNNERS = {
  playwright: {
    ext: '.pw.js',
    argv: ({ shard }) => [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', path.join(FIXTURES, 'playwright/playwright.config.mjs'), ...(shard ? [`--shard=${shard}/${SHARDS}`] : [])],
    executed: executedPlaywright,
  },
  jest: {
    ext: '.spec.cjs',
    argv: ({ shard, json }) => [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--config', path.join(FIXTURES, 'jest/jest.config.mjs'), '--json', `--outputFile=${json}`, ...(shard ? [`--shard=${shard}/${SHARDS}`] : [])],
    executed: executedJestLike,
  },
  vitest: {
    ext: '.spec.js',
    argv: ({ shard }) => [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', path.join(FIXTURES, 'vitest/vitest.config.mjs'), ...(shard ? [`--shard=${shard}/${SHARDS}`] : [])],
    executed: executedJestLike,
  },
};

/** Runs one fixture invocation; resolves with its output, what ran, and the printed fingerprint. */
function run(name, label, { shard, native = false, timingsFile } = {}) {
  const dir = path.join(OUT, name);
  mkdirSync(dir, { recursive: true });
  const json = path.join(dir, `${label}.json`);
  const output = path.join(dir, label);
  rmSync(json, { force: true });
  rmSync(output, { recursive: true, force: true });
  const env = { ...process.env, SW_JSON: json, SW_OUTPUT: output, SW_NATIVE: native ? '1' : '0', FORCE_COLOR: '0', NO_COLOR: '1' };
  for (const k of ['SHARDWISE_BASE_URL', 'SHARDWISE_ACCESS_TOKEN', 'SHARDWISE_TIMINGS_FILE', 'CI']) delete env[k];
  if (timingsFile) env.SHARDWISE_TIMINGS_FILE = timingsFile;
  return new Promise((resolve) => {
    execFile(process.execPath, RUNNERS[name].argv({ shard, json }), { cwd: ROOT, env, maxBuffer: 64 << 20, timeout: 300_000 }, (error, stdout, stderr) => {
      const text = `${stdout}\n${stderr}`;
      const executed = existsSync(json) ? RUNNERS[name].executed(JSON.parse(readFileSync(json, 'utf8'))) : new Map();
      resolve({ code: error ? error.code ?? 1 : 0, text, executed, output, fingerprint: text.match(/\[shardwise\] shard \d+\/\d+: .*fingerprint (\S+)/)?.[1] });
    });
  });
}

/** Nominal ms per shard (from the files each shard ran), so the comparison does not depend on machine load. */
function shardLoads(runs, table) {
  return runs.map((r) => [...new Set([...r.executed.keys()].map((k) => k.split(' > ')[0]))].reduce((a, f) => a + (table.get(f) ?? 0), 0));
}
const spread = (loads) => Math.max(...loads) - Math.min(...loads);

for (const name of Object.keys(RUNNERS)) {
  describe(`${name}: the real runner`, { concurrency: false }, () => {
    const table = nominal(path.join(FIXTURES, name), RUNNERS[name].ext);
    let full;
    let balanced;
    let native;
    before(async () => {
      full = await run(name, 'full');
      const report = path.join(full.output, 'report.json.br');
      const timingsFile = HAS_REPORT && existsSync(report) ? report : undefined;
      balanced = await Promise.all([1, 2, 3].map((i) => run(name, `shard-${i}`, { shard: i, timingsFile })));
      native = await Promise.all([1, 2, 3].map((i) => run(name, `native-${i}`, { shard: i, native: true })));
    });

    test('the unsharded run executes every fixture test', () => {
      assert.equal(full.code, 0, full.text);
      assert.equal(full.executed.size, 2 * table.size, full.text);
    });

    test('the unsharded run saves its report, which matches what ran and passes the published schema', { skip: NO_REPORT }, async () => {
      const report = api.decodeReport(new Uint8Array(readFileSync(path.join(full.output, 'report.json.br'))));
      if (typeof api.validateReport === 'function') assert.deepEqual(api.validateReport(report), []);
      const { Schema } = await import('@flakiness/flakiness-report');
      const parsed = Schema.Report.safeParse(report);
      assert.ok(parsed.success, JSON.stringify(parsed.error?.issues?.slice(0, 5)));
      const { durationsFromReport } = await import('../pkg-template/src/runner/timings.mjs');
      const inReport = new Set(durationsFromReport(report).map((d) => [d.file, ...d.titlePath].join(' > ')));
      assert.deepEqual([...inReport].sort(), [...full.executed.keys()].sort());
      if (name === 'playwright') {
        const saved = JSON.parse(readFileSync(path.join(full.output, 'attachments.json'), 'utf8'));
        assert.equal(saved.length, 1, 'the fixture attachment is saved next to the report');
        assert.equal(readFileSync(path.join(full.output, 'attachments', saved[0].id), 'utf8'), 'an attachment from the fixture');
      }
    });

    test(`${SHARDS} shards run as separate processes: disjoint, and together they cover every test`, () => {
      const seen = new Map();
      for (const [i, r] of balanced.entries()) {
        assert.equal(r.code, 0, r.text);
        for (const k of r.executed.keys()) {
          assert.ok(!seen.has(k), `${k} ran on shard ${seen.get(k)} and shard ${i + 1}`);
          seen.set(k, i + 1);
        }
      }
      assert.deepEqual([...seen.keys()].sort(), [...full.executed.keys()].sort());
      // Without the planner the shards must say they fell back, never run nothing silently.
      if (!HAS_PLAN) for (const r of balanced) assert.match(r.text, /balancing failed .* shards natively/);
    });

    test('every shard printed the same plan fingerprint', { skip: NO_PLAN }, () => {
      const fps = balanced.map((r) => r.fingerprint);
      assert.ok(fps.every(Boolean), balanced.map((r) => r.text).join('\n---\n'));
      assert.equal(new Set(fps).size, 1, fps.join(' '));
    });

    test('balanced shards are closer to each other than the runner\'s native shards', { skip: NO_PLAN || NO_REPORT }, () => {
      const b = shardLoads(balanced, table);
      const n = shardLoads(native, table);
      const measured = (runs) => runs.map((r) => Math.round([...r.executed.values()].reduce((a, x) => a + x, 0)));
      console.log(`${name}: nominal ms per shard balanced ${b} (spread ${spread(b)}), native ${n} (spread ${spread(n)}); measured balanced ${measured(balanced)}, native ${measured(native)}`);
      assert.ok(spread(b) < spread(n), `balanced ${b} vs native ${n}`);
      for (const r of balanced) assert.match(r.text, /durations: timings file/);
      // each balanced shard ends with its measured time against the plan's prediction
      for (const [i, r] of balanced.entries()) assert.match(r.text, new RegExp(`\\[shardwise\\] shard ${i + 1}/3 took \\S+ \\(predicted \\S+\\)`));
    });
  });
}
