// shardwise/playwright: a Playwright reporter that balances shards by predicted duration (in
// `preprocess`, Playwright >= 1.62) and saves/uploads the run's report.
//   reporter: [['list'], ['shardwise/playwright', { timingsFile: 'timings.json' }]]
import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import * as shardwise from '../node.mjs';
import { resolveOptions, gitInfo, runUrlFromEnv, outsideRootOnce } from '../src/runner/options.mjs';
import { planThisShard, actualLines, attemptsMs, ShardStop } from '../src/runner/plan.mjs';
import { writeShardRecord } from '../src/runner/shard-record.mjs';
import { durationsSource } from '../src/runner/durations.mjs';
import { durationsByTest, testKey } from '../src/runner/timings.mjs';
import { AttachmentStore, saveAndUpload, reportPlace, runStart, addShardPlan } from '../src/runner/report.mjs';
import { recordNotes, guarded } from '../src/runner/record.mjs';
import { RunCosts } from '../src/runner/costs.mjs';
import {
  MIN_PLAYWRIGHT, versionAtLeast, readonlyProjects, modeResolver, unitsFromSuite, environmentFor,
  recordResult, compact, unitId,
} from './translate.mjs';

const osInfo = () => ({ osName: os.type(), osVersion: os.release(), osArch: os.arch() });

export default class ShardwiseReporter {
  /** @param {import('../types/playwright').ShardwisePlaywrightOptions} [options] */
  constructor(options = {}) {
    // `playwright test --list` runs nothing: the reporter plans, saves and sends nothing (the
    // saved report of the last real run, a timings file, stays as it was)
    this.listing = options._mode === 'list' || process.argv.includes('--list');
    this.options = resolveOptions(options);
    this.api = options.api ?? shardwise;
    this.log = (line) => { if (!this.options.quiet) process.stdout.write(`${line}\n`); };
    this.balanced = undefined;
    this.failedOnce = false;
    /** result -> its output in order (`onStdOut`/`onStdErr`), for the report's `stdio`. */
    this.output = new WeakMap();
  }

  printsToStdio() { return false; }

  cwd(config) { return config.configFile ? path.dirname(config.configFile) : process.cwd(); }

  async preprocess({ config, suite, testRun }) {
    if (this.listing) return;
    const shard = config.shard;
    if (!shard || shard.total <= 1) return;
    if (!versionAtLeast(config.version, MIN_PLAYWRIGHT) || typeof testRun?.skipSharding !== 'function') return;
    try {
      const { root, commitId } = gitInfo(this.cwd(config), this.options.commitId);
      const units = unitsFromSuite(suite, { root, mode: modeResolver(testRun, config), readonly: readonlyProjects(config) });
      const options = { ...this.options, commitId };
      const getDurations = durationsSource({
        api: this.api, options, cwd: this.cwd(config), testRunner: 'playwright',
        config: path.relative(root, config.configFile ?? '') || undefined,
        testList: () => this.testList(config, units),
        lookup: (report) => {
          const byTest = durationsByTest(report);
          return (u) => byTest.get(testKey(u.project || 'default', u.file, u.titlePath));
        },
      });
      let planned;
      try {
        planned = await planThisShard({
          api: this.api, units, shardIndex: shard.current, shardCount: shard.total, getDurations, options: this.options, workers: config.workers, runner: 'playwright',
        });
      } catch (e) {
        if (!(e instanceof ShardStop)) throw e;
        // this shard must not run a split of its own, nor pass having run nothing: it runs
        // nothing and `onEnd` fails the run
        testRun.skipSharding();
        for (const u of units) testRun.exclude(u.test);
        this.stopped = e.line;
        this.log(e.line);
        return;
      }
      testRun.skipSharding();
      for (const u of units) if (!planned.mine.has(u.id)) testRun.exclude(u.test);
      this.balanced = { shard, predictedMs: planned.shard.predictedMs, expected: planned.expected, start: this.runStart(), record: planned.record, root, ran: new Set() };
      this.log(planned.line);
    } catch (e) {
      this.log(`[shardwise] balancing failed (${e?.code ?? 'ERROR'}: ${e?.message ?? e}); Playwright shards natively`);
    }
  }

  /** The test list for the durations exchange: one environment per project. */
  testList(config, units) {
    const builder = new this.api.ReportBuilder(compact({ category: 'playwright', commitId: this.options.commitId ?? gitInfo(this.cwd(config)).commitId }));
    for (const p of config.projects) builder.addEnvironment(environmentFor(p, osInfo()));
    for (const u of units) builder.addTest(compact({ titlePath: u.titlePath, file: u.file, line: u.test.location?.line, column: u.test.location?.column }));
    return builder.build();
  }

  onBegin(config) {
    if (this.listing) return;
    const shard = config.shard;
    if (shard && shard.total > 1 && !versionAtLeast(config.version, MIN_PLAYWRIGHT))
      this.log(`[shardwise] balancing shards needs Playwright >= ${MIN_PLAYWRIGHT} (this is ${config.version}); Playwright shards natively`);
    try {
      const { folder, title } = reportPlace(path.resolve(this.cwd(config), this.options.outputFolder), shard?.current, shard?.total);
      this.folder = folder;
      const { root, commitId } = gitInfo(this.cwd(config), this.options.commitId);
      if (!commitId) {
        this.log('[shardwise] no commit id (not a git checkout; set SHARDWISE_COMMIT_ID): the run is not reported');
        return;
      }
      this.startTimestamp = this.runStart();
      this.workers = config.workers;
      this.builder = new this.api.ReportBuilder(compact({
        category: 'playwright', commitId, startTimestamp: this.startTimestamp, url: runUrlFromEnv(), title,
        testRunner: { name: 'playwright', version: config.version },
      }));
      const envIndex = new Map();
      for (const p of config.projects) envIndex.set(p.name || 'default', this.builder.addEnvironment(environmentFor(p, osInfo())));
      this.ctx = { root, envIndex, store: new AttachmentStore(folder), readFile: (p) => readFileSync(p), notes: recordNotes(this.log), onOutsideRoot: outsideRootOnce(this.log, root), writtenOf: (r) => this.output.get(r) };
    } catch (e) {
      this.fail(e);
    }
  }

  /** A test's output, in the order written (the result keeps stdout and stderr apart). */
  onStdOut(chunk, _test, result) { this.written(result, 1, chunk); }

  onStdErr(chunk, _test, result) { this.written(result, 2, chunk); }

  written(result, stream, chunk) {
    if (!result || typeof result !== 'object') return;
    const list = this.output.get(result) ?? [];
    list.push({ stream, at: Date.now(), chunk });
    this.output.set(result, list);
  }

  onTestEnd(test, result) {
    if (this.balanced) this.balanced.ran.add(unitId(test, this.balanced.root));
    if (!this.builder) return;
    guarded(this.ctx, 'a test result', () => recordResult(this.builder, this.ctx, test, result));
  }

  /** This run's start (see runStart), the same for the plan's "took" line and the report. */
  runStart() {
    this.started ??= runStart();
    return this.started;
  }

  async onEnd() {
    let report;
    if (this.builder) {
      try {
        report = this.builder.build();
        report.duration = Math.max(0, Date.now() - this.startTimestamp);
        // no file: Rust reads Playwright's file costs from the workers' timelines
        new RunCosts('playwright', this.workers).addTo(report, this.api.shardCosts);
      } catch (e) {
        this.fail(e);
      }
    }
    if (this.balanced) {
      const { shard, predictedMs, start, record, ran, expected } = this.balanced;
      const actualMs = Date.now() - start;
      for (const line of actualLines({ shardIndex: shard.current, shardCount: shard.total, predictedMs, actualMs, testsMs: report && attemptsMs(this.builder), expected })) this.log(line);
      if (this.folder) writeShardRecord(this.folder, record, ran);
      if (report) addShardPlan(report, { record, predictedMs, unit: 'test' });
    }
    if (report) {
      try {
        await saveAndUpload({ api: this.api, report, store: this.ctx.store, options: this.options, log: this.log });
      } catch (e) {
        this.fail(e);
      }
    }
    if (this.stopped) {
      this.log(this.stopped);
      return { status: 'failed' };
    }
    return undefined;
  }

  fail(e) {
    if (this.failedOnce) return;
    this.failedOnce = true;
    this.builder = undefined;
    this.log(`[shardwise] reporting stopped (${e?.code ?? 'ERROR'}: ${e?.message ?? e}); the tests are unaffected`);
  }
}
