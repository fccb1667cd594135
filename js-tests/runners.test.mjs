// The runner integrations run for real: the fixture projects under fixtures/ with the real
// Playwright, Jest and Vitest binaries, as separate processes, against the local service (in this
// process). For each runner: an unsharded run that uploads its report (the service's history),
// then 3 shards balanced by shardwise with durations from the live exchange (Jest and Vitest list
// the tests from the files' sources), then 3 shards with the runner's native sharding for
// comparison. What ran is read from the runner's own JSON report, independent of shardwise.
// (The timings-file path is run by readme.test.mjs.)
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, mkdirSync, existsSync, openSync, closeSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from 'shardwise';
import { createServer } from '../pkg/server/index.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURES = path.join(ROOT, 'js-tests', 'fixtures');
const OUT = path.join(ROOT, 'js-tests', '.out', 'runners');
const SHARDS = 3;
const RUN_ID = `runners-${process.pid}-${Date.now()}`; // one CI run: the shards share the durations request

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

let service;
before(async () => {
  rmSync(path.join(OUT, 'service'), { recursive: true, force: true }); // no history from an earlier run
  service = await createServer({ dataDir: path.join(OUT, 'service'), computeDelayMs: 50 });
});
after(() => service?.close());

/** Runs one fixture invocation; resolves with its output, what ran, and the printed fingerprint. */
function run(name, label, { shard, native = false, timingsFile } = {}) {
  const dir = path.join(OUT, name);
  mkdirSync(dir, { recursive: true });
  const json = path.join(dir, `${label}.json`);
  const output = path.join(dir, label);
  rmSync(json, { force: true });
  rmSync(output, { recursive: true, force: true });
  const env = { ...process.env, SW_JSON: json, SW_OUTPUT: output, SW_NATIVE: native ? '1' : '0', FORCE_COLOR: '0', NO_COLOR: '1' };
  for (const k of ['SHARDWISE_TIMINGS_FILE', 'CI', 'GITHUB_RUN_ID']) delete env[k];
  Object.assign(env, { SHARDWISE_BASE_URL: service.baseUrl, SHARDWISE_ACCESS_TOKEN: service.accessToken, SHARDWISE_RUN_ID: RUN_ID });
  // with a timings file: durations from it, and the report saved, not uploaded
  if (timingsFile) Object.assign(env, { SHARDWISE_TIMINGS_FILE: timingsFile, SHARDWISE_BASE_URL: '', SHARDWISE_ACCESS_TOKEN: '' });
  // stdout and stderr into one file, as a terminal or CI log shows them: in the order written
  const log = path.join(dir, `${label}.log`);
  const fd = openSync(log, 'w');
  const child = spawn(process.execPath, RUNNERS[name].argv({ shard, json }), { cwd: ROOT, env, stdio: ['ignore', fd, fd], timeout: 300_000 });
  closeSync(fd);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const text = readFileSync(log, 'utf8');
      const executed = existsSync(json) ? RUNNERS[name].executed(JSON.parse(readFileSync(json, 'utf8'))) : new Map();
      resolve({ code: code ?? signal, text, executed, output, fingerprint: text.match(/\[shardwise\] shard \d+\/\d+: .*fingerprint (\S+)/)?.[1] });
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
      balanced = await Promise.all([1, 2, 3].map((i) => run(name, `shard-${i}`, { shard: i })));
      native = await Promise.all([1, 2, 3].map((i) => run(name, `native-${i}`, { shard: i, native: true })));
    });

    test('the unsharded run executes every fixture test', () => {
      assert.equal(full.code, 0, full.text);
      assert.equal(full.executed.size, 2 * table.size, full.text);
    });

    /** The report a run saved (a shard's in its shard-i-of-n folder). */
    const savedReport = (r, shard) => api.decodeReport(new Uint8Array(readFileSync(
      path.join(r.output, ...(shard ? [`shard-${shard}-of-${SHARDS}`] : []), 'report.json.br'))));

    test('every shardwise run saves its report, which matches what ran and passes the published schema', { skip: NO_REPORT }, async () => {
      const { Schema } = await import('@flakiness/flakiness-report');
      const { durationsFromReport } = await import('../pkg/src/runner/timings.mjs');
      for (const [shard, r] of [[0, full], ...balanced.map((b, i) => [i + 1, b])]) {
        const report = savedReport(r, shard);
        // a shard's report says which shard it is (the service's list and the preview show it)
        assert.equal(report.title, shard ? `shard ${shard}/${SHARDS}` : undefined);
        // a balanced shard's report carries its part of the plan, for the preview's shard view
        const plan = (report.sources ?? []).filter((s) => s.filePath === '.shardwise/shard.json');
        if (!shard || !HAS_PLAN) assert.deepEqual(plan, []);
        else {
          assert.equal(plan.length, 1, `shard ${shard}: the plan is carried once`);
          const p = JSON.parse(plan[0].text);
          assert.deepEqual({ ...p, predictedMs: typeof p.predictedMs, units: p.units > 0 },
            { shardIndex: shard, shardCount: SHARDS, fingerprint: r.fingerprint, predictedMs: 'number', units: true, unit: name === 'playwright' ? 'test' : 'file', run: { id: RUN_ID } });
        }
        if (typeof api.validateReport === 'function') assert.deepEqual(api.validateReport(report), []);
        const parsed = Schema.Report.safeParse(report);
        assert.ok(parsed.success, JSON.stringify(parsed.error?.issues?.slice(0, 5)));
        const inReport = new Set(durationsFromReport(report, api).map((d) => [d.file, ...d.titlePath].join(' > ')));
        assert.deepEqual([...inReport].sort(), [...r.executed.keys()].sort(), `run ${shard || 'full'}`);
      }
      if (name === 'playwright') {
        const saved = JSON.parse(readFileSync(path.join(full.output, 'attachments.json'), 'utf8'));
        assert.equal(saved.length, 1, 'the fixture attachment is saved next to the report');
        assert.match(full.text, /^\[shardwise\] report uploaded: \S+ \(1 attachment, \d+ bytes\)$/m, 'counts read "1 attachment"');
        assert.equal(readFileSync(path.join(full.output, 'attachments', saved[0].id), 'utf8'), 'an attachment from the fixture');
      }
    });

    test('every shardwise run uploaded its report to the service, identical to the saved one', { skip: NO_REPORT }, async () => {
      const list = await (await fetch(`${service.baseUrl}/api/reports`)).json();
      const uploaded = [];
      for (const { id } of list) {
        const res = await fetch(`${service.baseUrl}/api/reports/${id}/report.json.br`);
        const report = api.decodeReport(new Uint8Array(await res.arrayBuffer()));
        if (report.category === name) uploaded.push(report);
      }
      const saved = [savedReport(full), ...balanced.map((r, i) => savedReport(r, i + 1))];
      const key = (r) => JSON.stringify(r);
      assert.deepEqual(uploaded.map(key).sort(), saved.map(key).sort());
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

    test('files of equal time: every shard keeps the runner\'s own split, and runs what its native shard ran', { skip: NO_PLAN || NO_REPORT || name === 'playwright' }, async () => {
      // a timings file of the unsharded run with each file's tests taking 1.2 s between them:
      // no plan is predicted 10% sooner than the runner's split (the 7 files 3, 2, 2 a shard, or
      // 3, 3, 1), so every shard keeps it
      const report = savedReport(full);
      const all = (suite) => [...(suite.tests ?? []), ...(suite.suites ?? []).flatMap(all)];
      for (const file of report.suites ?? []) {
        const tests = all(file);
        for (const t of tests) for (const a of t.attempts ?? []) a.duration = Math.round(1200 / tests.length);
      }
      for (const t of report.tests ?? []) for (const a of t.attempts ?? []) a.duration = 600;
      const timings = path.join(OUT, name, 'even-timings.json.br');
      writeFileSync(timings, api.encodeReport(report));
      const kept = await Promise.all([1, 2, 3].map((i) => run(name, `even-${i}`, { shard: i, timingsFile: timings })));
      const files = (r) => [...new Set([...r.executed.keys()].map((k) => k.split(' > ')[0]))].sort();
      for (const [i, r] of kept.entries()) {
        assert.equal(r.code, 0, r.text);
        assert.match(r.text, new RegExp(`^\\[shardwise\\] kept ${name}'s own split \\(--shard\\), predicted \\S+: a balanced plan replaces it only when predicted 10% sooner$`, 'm'), r.text);
        assert.deepEqual(files(r), files(native[i]), `shard ${i + 1} runs the files the runner's own shard ${i + 1} ran`);
      }
      assert.equal(new Set(kept.map((r) => r.fingerprint)).size, 1);
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
      // and as measured (the tests' own durations as the runner reported them: timers, so the
      // machine's load moves them by milliseconds, not by the seconds between the two splits)
      assert.ok(spread(measured(balanced)) < spread(measured(native)), `measured balanced ${measured(balanced)} vs native ${measured(native)}`);
      // durations from the live exchange; Jest and Vitest read the test list from the sources
      // (14 titles in 7 files; foxtrot's `test.each` is one call with run-time titles)
      for (const r of balanced) {
        assert.match(r.text, name === 'playwright' ? /durations: service; costs: /
          : /durations: service for 14 tests read from 7 files \(1 test call with run-time titles not counted\); costs: /, r.text);
      }
      // Jest and Vitest: the plan was set beside the runner's own split of the same files (its
      // sequencer's shard(), shard by shard), and was predicted enough sooner to replace it
      if (name !== 'playwright') {
        for (const r of balanced) assert.match(r.text, new RegExp(`^\\[shardwise\\] balanced: predicted \\d+% sooner than ${name}'s own split \\(--shard\\), \\S+$`, 'm'), r.text);
      }
      // each balanced shard ends with its measured time against the plan's prediction
      // and what of it was its tests (from its report) and start-up
      for (const [i, r] of balanced.entries()) {
        assert.match(r.text, new RegExp(`\\[shardwise\\] shard ${i + 1}/3 took \\S+ \\(predicted \\S+, [+-]?\\d+%\\): its tests' own time \\S+( over \\d+ workers)? \\(predicted \\S+\\), the rest \\S+ start-up, files and workers \\(predicted \\S+\\)$`, 'm'));
      }
    });

    test('shardwise\'s closing lines come after the runner\'s own summary, not inside it', () => {
      // Jest 30 runs its summary reporter after every custom reporter; Playwright and Vitest print
      // theirs before the reporters' ends. Each run's output is stdout and stderr in written order.
      const summary = { playwright: /^\s*\d+ passed/m, jest: /^Ran all test suites/m, vitest: /^\s*Duration\s/m }[name];
      for (const r of [full, ...balanced]) {
        const end = r.text.search(summary);
        assert.ok(end > 0, `no summary in:\n${r.text}`);
        const closing = [...r.text.matchAll(/^\[shardwise\] (report (uploaded|saved)|shard \d+\/\d+ took).*$/gm)];
        assert.ok(closing.length > 0, r.text);
        for (const m of closing) assert.ok(m.index > end, `"${m[0]}" is printed inside the runner's summary:\n${r.text}`);
      }
    });
  });
}
