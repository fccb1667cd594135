// What the runner ran, as the runner ran it, found wrong on real open-source suites; here the real
// Jest and Vitest run the fixture projects fixtures/{jest,vitest}-fidelity as separate processes
// (no service: reports are saved, shards balance from the unsharded run's report as a timings
// file). For each runner:
// - the report keeps apart the tests the runner keeps apart (`test.each` without a placeholder in
//   its title, a title written twice), and their durations are found again next run;
// - a test that never started (a declared skip, a todo, one that skips itself) has a start in the
//   run, never 0, so the run's tests span what the run took;
// - a balanced shard runs its files longest first (by what they took in the run it planned from);
// - the run's report records what each file cost beyond its tests (the costs record), the shards
//   plan with what it teaches and say so, and `shardwise plan` on the same timings file prints the
//   shards' plan and fingerprint.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, mkdirSync, existsSync, openSync, closeSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from 'shardwise';
import { durationsByTest, testKey } from '../pkg/src/runner/timings.mjs';
import { unitsFromFiles, testListFromSources } from '../pkg/src/runner/files.mjs';
import { costsRecordOf } from '../pkg/src/sources.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURES = path.join(ROOT, 'js-tests', 'fixtures');
const OUT = path.join(ROOT, 'js-tests', '.out', 'runners-fidelity');
const SHARDS = 2;

const RUNNERS = {
  jest: {
    ext: '.spec.cjs',
    environment: 'jest',
    argv: (shard) => [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--config', path.join(FIXTURES, 'jest-fidelity/jest.config.mjs'), ...(shard ? [`--shard=${shard}/${SHARDS}`] : [])],
  },
  vitest: {
    ext: '.spec.js',
    environment: 'default',
    argv: (shard) => [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', path.join(FIXTURES, 'vitest-fidelity/vitest.config.mjs'), ...(shard ? [`--shard=${shard}/${SHARDS}`] : [])],
  },
};

/** One run of a fixture project: its exit code, output, saved report and the order its files started in. */
function run(name, label, { shard, timingsFile } = {}) {
  const dir = path.join(OUT, name);
  mkdirSync(dir, { recursive: true });
  const output = path.join(dir, label);
  const order = path.join(dir, `${label}.order`);
  rmSync(output, { recursive: true, force: true });
  rmSync(order, { force: true });
  const env = { ...process.env, SW_OUTPUT: output, SW_ORDER: order, SW_CACHE: path.join(dir, 'cache'), FORCE_COLOR: '0', NO_COLOR: '1' };
  for (const k of Object.keys(env)) if (k.startsWith('SHARDWISE_') || k === 'CI' || k === 'GITHUB_RUN_ID') delete env[k];
  if (timingsFile) env.SHARDWISE_TIMINGS_FILE = timingsFile;
  // the shards run the balanced plan (what `plan` prints again, in longest-first order), also where
  // it is not predicted 10% sooner than the runner's own split: on a slower machine it was not,
  // the shards kept Vitest's split and printed its fingerprint
  if (shard) env.SHARDWISE_ALWAYS_BALANCE = '1';
  const log = path.join(dir, `${label}.log`);
  const fd = openSync(log, 'w');
  const child = spawn(process.execPath, RUNNERS[name].argv(shard), { cwd: ROOT, env, stdio: ['ignore', fd, fd], timeout: 300_000 });
  closeSync(fd);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const text = readFileSync(log, 'utf8');
      const saved = path.join(output, ...(shard ? [`shard-${shard}-of-${SHARDS}`] : []), 'report.json.br');
      resolve({
        code: code ?? signal, text, saved,
        report: existsSync(saved) ? api.decodeReport(new Uint8Array(readFileSync(saved))) : undefined,
        order: existsSync(order) ? readFileSync(order, 'utf8').split('\n').filter(Boolean) : [],
      });
    });
  });
}

/** Every test of a report: its file, title path and attempts. */
function testsOf(report) {
  const out = [];
  const walk = (suite, file, titles) => {
    for (const t of suite.tests ?? []) out.push({ file, titlePath: [...titles, t.title], attempts: t.attempts });
    for (const s of suite.suites ?? []) walk(s, s.type === 'file' ? s.location?.file ?? s.title : file, s.type === 'file' ? titles : [...titles, s.title]);
  };
  walk({ suites: report.suites, tests: report.tests }, undefined, []);
  return out;
}

/** The costs record a run's report carries (the package's reader), which must be there. */
function costsRecord(report) {
  const record = costsRecordOf(report);
  assert.ok(record, 'the costs record is in the report\'s sources');
  return record;
}

/** "950ms" / "4.2s" (fmtMs) -> ms. */
const ms = (s) => { const m = /^([\d.]+)(ms|s)$/.exec(s); assert.ok(m, `not a duration: ${s}`); return Number(m[1]) * (m[2] === 's' ? 1000 : 1); };

for (const name of Object.keys(RUNNERS)) {
  describe(`${name}: the report and the order are the runner's`, { concurrency: false }, () => {
    const dir = path.join(FIXTURES, `${name}-fidelity`);
    const casesFile = path.relative(ROOT, path.join(dir, `a-cases${RUNNERS[name].ext}`)).split(path.sep).join('/');
    /** Nominal ms per fixture file, from its first line ("takes about Nms"). */
    const nominal = new Map(readdirSync(dir).filter((f) => f.endsWith(RUNNERS[name].ext))
      .map((f) => [f, Number(readFileSync(path.join(dir, f), 'utf8').match(/about (\d+)ms/)[1])]));
    let full;
    let shards;
    before(async () => {
      rmSync(path.join(OUT, name), { recursive: true, force: true }); // no cache from an earlier run
      full = await run(name, 'full');
      // one after the other: each run updates the runner's cache
      shards = [];
      for (let i = 1; i <= SHARDS; i++) shards.push(await run(name, `shard-${i}`, { shard: i, timingsFile: full.saved }));
    });

    test('every run passes and saves its report', () => {
      for (const r of [full, ...shards]) {
        assert.equal(r.code, 0, r.text);
        assert.ok(r.report, r.text);
        assert.deepEqual(api.validateReport(r.report), []);
      }
    });

    test('each test the runner ran is a test of the report, with one attempt: a repeated title path is numbered', () => {
      const cases = testsOf(full.report).filter((t) => t.file === casesFile);
      const expected = ['each > same title', 'each > same title [2]', 'each > same title [3]', 'twice', 'twice [2]', 'declared skip', 'todo',
        ...(name === 'vitest' ? ['skips itself'] : [])];
      assert.deepEqual(cases.map((t) => t.titlePath.join(' > ')).sort(), expected.sort());
      for (const t of cases) assert.equal(t.attempts.length, 1, `${t.titlePath.join(' > ')}: ${JSON.stringify(t.attempts)}`);
      const statuses = Object.fromEntries(cases.map((t) => [t.titlePath.join(' > '), t.attempts[0].status]));
      assert.equal(statuses['each > same title [3]'], 'passed');
      assert.equal(statuses['twice [2]'], 'passed');
      assert.equal(statuses['declared skip'], 'skipped');
    });

    test('the numbered tests\' durations are found again: by the timings file, and under the names the test list reads from source', () => {
      const durations = durationsByTest(full.report, api);
      const env = RUNNERS[name].environment;
      for (const titlePath of [['each', 'same title [3]'], ['twice'], ['twice [2]']])
        assert.ok(durations.get(testKey(env, casesFile, titlePath)) >= 20, `${titlePath.join(' > ')}: ${durations.get(testKey(env, casesFile, titlePath))}`);
      // the durations exchange's list (Rust discover over the source) names the tests as the report does
      const listed = testListFromSources({ api, units: unitsFromFiles([{ path: path.join(ROOT, casesFile), environment: env }], ROOT), category: name, commitId: 'c'.repeat(40) });
      const reported = new Set(testsOf(full.report).map((t) => JSON.stringify([t.file, ...t.titlePath])));
      const fromSource = testsOf(listed.report).map((t) => JSON.stringify([t.file, ...t.titlePath]));
      assert.ok(fromSource.includes(JSON.stringify([casesFile, 'twice [2]'])), fromSource.join('\n'));
      for (const t of fromSource) assert.ok(reported.has(t), `${t} is asked for but not in the report`);
      assert.equal(listed.unnamed, 1, 'the test.each call: titles made at run time');
    });

    test('no attempt starts at 0: every test lies within the run, so the tests\' span is what they took', () => {
      for (const r of [full, ...shards]) {
        const { startTimestamp, duration } = r.report;
        for (const t of testsOf(r.report)) {
          for (const a of t.attempts) {
            const where = `${t.titlePath.join(' > ')}: start ${a.startTimestamp}, run ${startTimestamp}..${startTimestamp + duration}`;
            assert.ok(a.startTimestamp >= startTimestamp, where);
            assert.ok(a.startTimestamp + (a.duration ?? 0) <= startTimestamp + duration, where);
          }
        }
      }
      // each balanced shard's closing line: its tests took no longer than the shard (one worker)
      for (const [i, r] of shards.entries()) {
        const line = r.text.match(new RegExp(`^\\[shardwise\\] shard ${i + 1}/${SHARDS} took .*$`, 'm'))?.[0];
        const took = line?.match(/took ([\d.]+m?s)/)?.[1];
        const tests = line?.match(/its tests\D*?([\d.]+m?s)/)?.[1];
        assert.ok(took && tests, r.text);
        assert.ok(ms(tests) <= ms(took), line);
      }
    });

    test('the run records each file\'s cost beyond its tests; the shards plan with them, and plan prints their fingerprint again', () => {
      const record = costsRecord(full.report);
      assert.equal(record.runner, name);
      assert.deepEqual(Object.keys(record.files).sort(), [...nominal.keys()].map((f) => path.relative(ROOT, path.join(dir, f)).split(path.sep).join('/')).sort());
      for (const ms of Object.values(record.files)) assert.ok(Number.isInteger(ms) && ms >= 0 && ms < 30_000, `a file's cost ${ms} ms`);
      assert.ok(record.perShardMs >= 0, 'the fixed cost per shard the run teaches');
      if (name === 'vitest') {
        // the suite's one module (not its test files, not a package), as Vitest's main process
        // transformed it, taken off the file that asked for it first
        const started = path.relative(ROOT, path.join(dir, 'started.js')).split(path.sep).join('/');
        assert.deepEqual(Object.keys(record.transforms ?? {}), [started], JSON.stringify(record));
        assert.ok(Number.isInteger(record.transforms[started]) && record.transforms[started] < 30_000);
        assert.ok(record.transformMs === undefined || record.transformMs <= record.transforms[started] + 1);
      }
      const learned = api.shardCosts(full.report);
      assert.equal(learned.measuredFiles, nominal.size);
      assert.ok(learned.fromWall);
      // a run may teach a cold cost (Jest: its first files' costs beyond the others'; Vitest: its
      // transform of started.js; a few ms on these fixtures, as the machine goes): the shards then share it
      // over the one module their files load (started.cjs), and say so
      const cold = api.__chargesModules(learned.costs.coldMs ?? 0) ? `, cold \\S+ over 1 module of the suite \\(0 KB\\)` : '';
      const fingerprints = shards.map((r) => {
        assert.match(r.text, new RegExp(`costs: learned from a run: ${nominal.size} files' costs measured, start-up from its wall time${cold}\\), fingerprint`), r.text);
        return r.text.match(/fingerprint ([0-9a-f]{40})/)[1];
      });
      assert.equal(fingerprints[0], fingerprints[1]);
      // the README's way to see the shards' plan again: plan the timings file they used
      const plan = spawnSync(process.execPath, [path.join(ROOT, 'pkg/bin/shardwise.mjs'), 'plan', full.saved, '--shards', String(SHARDS), '--workers', '1'], { encoding: 'utf8' });
      assert.equal(plan.status, 0, plan.stderr);
      assert.match(plan.stdout, new RegExp(`^fingerprint +${fingerprints[0]}$`, 'm'), plan.stdout);
      assert.match(plan.stdout, /^unit +file: /m);
    });

    test('a balanced shard runs its files longest first, by what each took in the run its timings came from', () => {
      // what each file took in the full run: its tests' time and its cost beyond them (the costs
      // record). Not the fixtures' nominal sleeps: the runner's own overhead on a file (Jest gave
      // one 785 ms on a loaded machine) moves files whose sleeps are 400 ms apart past each other.
      const record = costsRecord(full.report);
      const took = new Map([...nominal.keys()].map((f) => [f, 0]));
      for (const t of testsOf(full.report)) {
        const f = path.basename(t.file);
        took.set(f, took.get(f) + t.attempts.reduce((a, x) => a + (x.duration ?? 0), 0));
      }
      for (const [rel, cost] of Object.entries(record.files)) took.set(path.basename(rel), took.get(path.basename(rel)) + cost);
      const ran = [];
      for (const r of shards) {
        assert.ok(r.order.length >= 2, `shard ran ${r.order}: the order is not tested`);
        const times = r.order.map((f) => `${f} ${took.get(f)}ms`).join(', ');
        // each file after one that took longer, or about as long (within 20 ms: a rounding of the
        // record's or the tests' milliseconds apart)
        for (let i = 1; i < r.order.length; i++) assert.ok(took.get(r.order[i]) <= took.get(r.order[i - 1]) + 20, `${times}\n${r.text}`);
        ran.push(...r.order);
      }
      assert.deepEqual(ran.sort(), [...nominal.keys()].sort(), 'the shards ran every file once');
    });
  });
}
