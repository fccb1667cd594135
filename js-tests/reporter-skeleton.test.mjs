// The reporter skeleton (src/runner/reporter.mjs) that every runner integration fills in, filled
// in here by a fake runner with the real package: the report it saves (where, its title, runner,
// environments, tests, costs and shard plan), a balanced shard's lines and record, the one
// "reporting stopped" line, a stopped shard's failure, lines held until flushed. And that the
// three runners fill it in rather than redo its parts.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import os from 'node:os';
import path from 'node:path';
import * as shardwise from 'shardwise';
import { RunReporter, systemData, stoppedLine, NO_COMMIT_LINE } from '../pkg/src/runner/reporter.mjs';
import { setShardPrediction, setShardStop } from '../pkg/src/runner/plan.mjs';
import { resolveOptions } from '../pkg/src/runner/options.mjs';
import { SHARD_PLAN_SOURCE, COSTS_SOURCE } from '../pkg/src/sources.js';
import { REPORT_FILE, SHARD_RECORD } from '../pkg/src/layout.js';
import PlaywrightReporter from 'shardwise/playwright';
import JestReporter from 'shardwise/jest';
import VitestReporter from 'shardwise/vitest';

const COMMIT = 'c'.repeat(40);
const tmp = () => mkdtempSync(path.join(tmpdir(), 'shardwise-skeleton-'));

/** A runner as the next ones would fill the skeleton in: its start, its results, its end. */
class FakeRunnerReporter extends RunReporter {
  constructor(options) {
    super(options, { runner: 'fake', unit: 'file' });
    this.lines = [];
    this.log = (line) => this.lines.push(line);
  }

  onStart({ root, shard }) {
    return this.begin({
      cwd: root, shard, version: '1.2.3', workers: 2,
      environments: (system) => [{ name: 'fast', systemData: system }, { name: 'slow', systemData: system }],
      context: { extra: 'mine' },
    });
  }

  onResult({ file, title, environment, ms }) {
    this.ran.add(file);
    this.record('a result', (builder, ctx) => {
      assert.equal(ctx.extra, 'mine', 'the runner\'s context is in ctx');
      const handle = builder.addTest({ titlePath: [title], file: path.relative(ctx.root, file) });
      builder.addAttempt(handle, { environmentIdx: ctx.envIndex.get(environment), status: 'passed', startTimestamp: Date.now(), duration: ms });
    });
    this.record('a file\'s costs', (_builder, ctx) => this.costs.add(path.relative(ctx.root, file), 7));
  }
}

const savedReport = (folder) => shardwise.decodeReport(new Uint8Array(readFileSync(path.join(folder, REPORT_FILE))));
const source = (report, filePath) => JSON.parse(report.sources.find((s) => s.filePath === filePath).text);

afterEach(() => { setShardPrediction(undefined); setShardStop(undefined); });

test('a runner that fills in the skeleton: its report saved in its shard\'s folder, its balanced shard\'s lines and record', async () => {
  const root = tmp();
  const reporter = new FakeRunnerReporter({ commitId: COMMIT, outputFolder: 'out', upload: false });
  // what a sequencer hands over for a balanced shard (files relative to the repository)
  const record = { fingerprint: 'f00d', shardIndex: 2, shardCount: 3, units: ['a.test.js', 'b.test.js', 'c.test.js'], assigned: ['a.test.js', 'c.test.js'] };
  setShardPrediction({ index: 2, count: 3, predictedMs: 1500, expected: { bodiesMs: 30, testsMs: 30, estimated: 0, costs: 'fake defaults' }, record, root });

  assert.equal(reporter.onStart({ root, shard: { index: 2, count: 3 } }), true);
  reporter.onResult({ file: path.join(root, 'a.test.js'), title: 't1', environment: 'fast', ms: 10 });
  reporter.onResult({ file: path.join(root, 'c.test.js'), title: 't2', environment: 'slow', ms: 20 });
  assert.deepEqual(await reporter.end(), { failed: false });

  const folder = path.join(root, 'out', 'shard-2-of-3');
  assert.match(reporter.lines[0], /^\[shardwise\] shard 2\/3 took \S+ \(predicted 1\.5s, [^)]*\): its tests' own time 30ms \(predicted 30ms\), the rest /);
  assert.equal(reporter.lines.at(-1), `[shardwise] report saved to ${folder} (upload off)`);
  assert.ok(!reporter.lines.some((l) => /reporting stopped|could not be recorded/.test(l)), reporter.lines.join('\n'));

  const report = savedReport(folder);
  assert.equal(report.category, 'fake');
  assert.equal(report.commitId, COMMIT);
  assert.equal(report.title, 'shard 2/3');
  assert.deepEqual(report.testRunner, { name: 'fake', version: '1.2.3' });
  assert.ok(report.duration >= 0);
  assert.deepEqual(report.environments.map((e) => [e.name, e.systemData]), [['fast', systemData()], ['slow', systemData()]]);
  assert.deepEqual(systemData(), { osName: os.type(), osVersion: os.release(), osArch: os.arch() });
  assert.deepEqual(report.suites.map((f) => [f.type, f.title, f.tests.map((t) => [t.title, t.attempts.map((a) => [a.environmentIdx, a.duration])])]),
    [['file', 'a.test.js', [['t1', [[0, 10]]]]], ['file', 'c.test.js', [['t2', [[1, 20]]]]]]);
  assert.deepEqual(source(report, SHARD_PLAN_SOURCE), { shardIndex: 2, shardCount: 3, fingerprint: 'f00d', predictedMs: 1500, units: 2, unit: 'file' });
  const costs = source(report, COSTS_SOURCE);
  assert.equal(costs.runner, 'fake');
  assert.equal(costs.workers, 2);
  assert.deepEqual(costs.files, { 'a.test.js': 7, 'c.test.js': 7 });
  assert.deepEqual(JSON.parse(readFileSync(path.join(folder, SHARD_RECORD), 'utf8')), { ...record, ran: ['a.test.js', 'c.test.js'] });
});

test('a failure stops reporting, said once in the one line; the shard\'s record is still written, no report saved', async () => {
  const root = tmp();
  const failing = Object.assign(new Error('no room'), { code: 'LIMIT' });
  class Builder extends shardwise.ReportBuilder {
    build() { throw failing; }
  }
  const reporter = new FakeRunnerReporter({ commitId: COMMIT, outputFolder: 'out', upload: false, api: { ...shardwise, ReportBuilder: Builder } });
  const record = { fingerprint: 'f00d', shardIndex: 1, shardCount: 2, units: ['a.test.js', 'b.test.js'], assigned: ['a.test.js'] };
  setShardPrediction({ index: 1, count: 2, predictedMs: 100, expected: { bodiesMs: 0, estimated: 1 }, record, root });
  reporter.onStart({ root, shard: { index: 1, count: 2 } });
  reporter.onResult({ file: path.join(root, 'a.test.js'), title: 't1', environment: 'fast', ms: 10 });
  assert.deepEqual(await reporter.end(), { failed: false }, 'reporting stopped: the tests are unaffected');
  reporter.stop(new Error('a second failure'));

  assert.equal(stoppedLine(failing), '[shardwise] reporting stopped (LIMIT: no room); the tests are unaffected');
  assert.deepEqual(reporter.lines.filter((l) => /reporting stopped/.test(l)), [stoppedLine(failing)], 'said once');
  assert.match(reporter.lines.at(-1), /^\[shardwise\] shard 1\/2 took /, 'the shard\'s lines still come');
  const folder = path.join(root, 'out', 'shard-1-of-2');
  assert.equal(existsSync(path.join(folder, REPORT_FILE)), false);
  assert.deepEqual(JSON.parse(readFileSync(path.join(folder, SHARD_RECORD), 'utf8')).ran, ['a.test.js']);
  // stopped: results are no longer recorded, nothing is said of them
  reporter.onResult({ file: path.join(root, 'b.test.js'), title: 't2', environment: 'fast', ms: 10 });
  assert.equal(reporter.builder, undefined);
});

test('a failed start stops reporting with the same line; the end then saves nothing', async () => {
  const root = tmp();
  const reporter = new FakeRunnerReporter({ commitId: COMMIT, outputFolder: 'out', upload: false, api: {} });
  assert.equal(reporter.onStart({ root }), false);
  assert.equal(reporter.lines.length, 1);
  assert.match(reporter.lines[0], /^\[shardwise\] reporting stopped \(ERROR: .*\); the tests are unaffected$/);
  assert.deepEqual(await reporter.end(), { failed: false });
  assert.equal(reporter.lines.length, 1);
  assert.equal(existsSync(path.join(root, 'out')), false);
});

test('a shard that must not run: its line once, the run fails, no report of nothing saved, nothing of an earlier run left', async () => {
  const root = tmp();
  const folder = path.join(root, 'out', 'shard-1-of-2');
  mkdirSync(path.join(folder, 'attachments'), { recursive: true });
  for (const f of [REPORT_FILE, SHARD_RECORD, 'attachments.json', 'uploaded.json', 'attachments/abc']) writeFileSync(path.join(folder, f), 'an earlier run');
  const reporter = new FakeRunnerReporter({ commitId: COMMIT, outputFolder: 'out', upload: false });
  reporter.stopShard('[shardwise] shard 1/2 stopped: durations unavailable (x)');
  reporter.onStart({ root, shard: { index: 1, count: 2 } });
  assert.deepEqual(await reporter.end(), { failed: true });
  assert.deepEqual(reporter.lines, ['[shardwise] shard 1/2 stopped: durations unavailable (x)', '[shardwise] no report saved: shard 1/2 ran nothing (see its line above)']);
  assert.deepEqual(readdirSync(folder), []);
});

test('without a commit id the run is not reported, said once; a balanced shard still says what it took and saves its record', async (t) => {
  if (resolveOptions({}).commitId) return t.skip('a commit id is set in this environment');
  const root = tmp(); // not a git checkout
  const reporter = new FakeRunnerReporter({ outputFolder: 'out', upload: false });
  assert.equal(reporter.onStart({ root }), false);
  reporter.onResult({ file: path.join(root, 'a.test.js'), title: 't1', environment: 'fast', ms: 10 });
  await reporter.end();
  assert.deepEqual(reporter.lines, [NO_COMMIT_LINE]);
  assert.equal(existsSync(path.join(root, 'out')), false);

  const shard = new FakeRunnerReporter({ outputFolder: 'out', upload: false });
  const record = { fingerprint: 'f00d', shardIndex: 1, shardCount: 2, units: ['a.test.js', 'b.test.js'], assigned: ['a.test.js'] };
  setShardPrediction({ index: 1, count: 2, predictedMs: 100, expected: { bodiesMs: 0, estimated: 1 }, record, root });
  shard.onStart({ root, shard: { index: 1, count: 2 } });
  shard.onResult({ file: path.join(root, 'a.test.js'), title: 't1', environment: 'fast', ms: 10 });
  await shard.end();
  assert.equal(shard.lines[0], NO_COMMIT_LINE);
  assert.match(shard.lines[1], /^\[shardwise\] shard 1\/2 took /);
  const folder = path.join(root, 'out', 'shard-1-of-2');
  assert.equal(existsSync(path.join(folder, REPORT_FILE)), false);
  assert.deepEqual(JSON.parse(readFileSync(path.join(folder, SHARD_RECORD), 'utf8')).ran, ['a.test.js']);
});

test('held lines (Jest prints its summary after its reporters end): the end\'s lines and a stop wait for flush', async () => {
  const root = tmp();
  const reporter = new FakeRunnerReporter({ commitId: COMMIT, outputFolder: 'out', upload: false, quiet: false });
  reporter.onStart({ root });
  reporter.hold();
  await reporter.end();
  reporter.stop(new Error('late'));
  assert.deepEqual(reporter.lines, []);
  reporter.flush();
  assert.deepEqual(reporter.lines, [`[shardwise] report saved to ${path.join(root, 'out')} (upload off)`, '[shardwise] reporting stopped (ERROR: late); the tests are unaffected']);
  reporter.flush();
  assert.equal(reporter.lines.length, 2, 'once');
});

test('the three runners fill in the skeleton and redo none of it', () => {
  for (const R of [PlaywrightReporter, JestReporter, VitestReporter]) {
    assert.ok(R.prototype instanceof RunReporter, R.name);
    for (const m of ['begin', 'record', 'end', 'stop', 'say', 'hold', 'flush', 'runStart'])
      assert.equal(Object.hasOwn(R.prototype, m), false, `${R.name} redoes ${m}`);
  }
});
