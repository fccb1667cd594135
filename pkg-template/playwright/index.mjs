// shardwise/playwright: a Playwright reporter that balances shards by predicted duration (in
// `preprocess`, Playwright >= 1.62) and saves/uploads the run's report.
//   reporter: [['list'], ['shardwise/playwright', { timingsFile: 'timings.json' }]]
// The reporter's work is the skeleton's (src/runner/reporter.mjs); here, Playwright's translation
// and its balancing, which it does in the reporter (Jest's and Vitest's is in their sequencers).
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { RunReporter, systemData } from '../src/runner/reporter.mjs';
import { gitInfo } from '../src/runner/options.mjs';
import { planThisShard, ShardStop, balancingFailedLine } from '../src/runner/plan.mjs';
import { durationsSource } from '../src/runner/durations.mjs';
import { durationsByTest, rerunSelection, testKey } from '../src/runner/timings.mjs';
import {
  MIN_PLAYWRIGHT, versionAtLeast, readonlyProjects, modeResolver, unitsFromSuite, environmentFor,
  recordResult, compact, unitId, sharedProjects, setupsOf, testIdentity,
} from './translate.mjs';

export default class ShardwiseReporter extends RunReporter {
  /** @param {import('../types/playwright').ShardwisePlaywrightOptions} [options] */
  constructor(options = {}) {
    super(options, { runner: 'playwright', unit: 'test' });
    // `playwright test --list` runs nothing: with `--shard` the reporter plans as the shard would
    // (Playwright's list is then the balanced shard's, with its line), and it saves and sends no
    // report (the saved report of the last real run, a timings file, stays as it was)
    this.listing = options._mode === 'list' || process.argv.includes('--list');
    /** This shard's plan when balanced: `{shard, predictedMs, expected, record, root}`. */
    this.balanced = undefined;
    /** result -> its output in order (`onStdOut`/`onStdErr`), for the report's `stdio`. */
    this.output = new WeakMap();
  }

  printsToStdio() { return false; }

  cwd(config) { return config.configFile ? path.dirname(config.configFile) : process.cwd(); }

  // Playwright calls `preprocess` in `--list` mode too, before its sharding, and lists what is
  // left after it (node_modules/playwright/lib/runner: createRootSuite, then ListModeReporter's
  // onBegin): planning here makes `--shard=i/n --list` list the balanced shard.
  async preprocess({ config, suite, testRun }) {
    const shard = config.shard;
    if (!shard || shard.total <= 1) return;
    if (!versionAtLeast(config.version, MIN_PLAYWRIGHT) || typeof testRun?.skipSharding !== 'function') return;
    try {
      const { root, commitId } = gitInfo(this.cwd(config), this.options.commitId);
      const readonly = readonlyProjects(config);
      const units = unitsFromSuite(suite, { root, mode: modeResolver(testRun, config), readonly });
      // the setup and teardown projects' tests: not planned, run on each shard that needs them
      const sharedTests = suite.allTests().map((test) => ({ ...testIdentity(test, { root }), test })).filter((t) => readonly.has(t.project));
      // each setup or teardown project with its tests and the planned tests that need it
      // (through their projects' dependencies): the plan counts it on the shards that run one
      const setups = setupsOf(config, sharedProjects(config, suite, units, root), sharedTests);
      const options = { ...this.options, commitId };
      const getDurations = durationsSource({
        api: this.api, options, cwd: this.cwd(config), testRunner: 'playwright',
        config: path.relative(root, config.configFile ?? '') || undefined,
        testList: () => this.testList(config, [...units, ...sharedTests]),
        lookup: (report) => {
          const byTest = durationsByTest(report, this.api);
          return (u) => byTest.get(testKey(u.project || 'default', u.file, u.titlePath));
        },
        select: (report, kinds) => {
          const { tests } = rerunSelection(report, this.api, kinds);
          return (u) => tests.has(testKey(u.project || 'default', u.file, u.titlePath));
        },
      });
      let planned;
      try {
        planned = await planThisShard({
          api: this.api, units, shardIndex: shard.current, shardCount: shard.total, getDurations, options: this.options, workers: config.workers, runner: 'playwright', setups,
        });
      } catch (e) {
        if (!(e instanceof ShardStop)) throw e;
        // this shard must not run a split of its own, nor pass having run nothing: it runs
        // nothing and `onEnd` fails the run
        testRun.skipSharding();
        for (const u of units) testRun.exclude(u.test);
        this.stopShard(e.line);
        return;
      }
      // setup and teardown projects, which Playwright runs on every shard that needs them: the
      // record says which, so `shardwise verify` expects them there
      const shared = this.listing ? [] : sharedProjects(config, suite, planned.units, root);
      testRun.skipSharding();
      for (const u of units) if (!planned.mine.has(u.id)) testRun.exclude(u.test);
      this.log(planned.line);
      if (this.listing) return;
      this.runStart();
      const record = shared.length ? { ...planned.record, shared } : planned.record;
      this.balanced = { shard, predictedMs: planned.shard.predictedMs, expected: planned.expected, record, root };
    } catch (e) {
      this.log(balancingFailedLine(e, 'Playwright'));
    }
  }

  /** The test list for the durations exchange: one environment per project. */
  testList(config, units) {
    const builder = new this.api.ReportBuilder(compact({ category: 'playwright', commitId: this.options.commitId ?? gitInfo(this.cwd(config)).commitId }));
    for (const p of config.projects) builder.addEnvironment(environmentFor(p, systemData()));
    for (const u of units) builder.addTest(compact({ titlePath: u.titlePath, file: u.file, line: u.test.location?.line, column: u.test.location?.column }));
    return builder.build();
  }

  onBegin(config) {
    if (this.listing) return;
    const shard = config.shard;
    if (shard && shard.total > 1 && !versionAtLeast(config.version, MIN_PLAYWRIGHT))
      this.log(`[shardwise] balancing shards needs Playwright >= ${MIN_PLAYWRIGHT} (this is ${config.version}); Playwright shards natively`);
    this.begin({
      cwd: this.cwd(config),
      shard: shard && { index: shard.current, count: shard.total },
      version: config.version,
      workers: config.workers,
      environments: (system) => config.projects.map((p) => environmentFor(p, system)),
      context: { readFile: (p) => readFileSync(p), writtenOf: (r) => this.output.get(r) },
    });
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
    this.testsEnded = true;
    if (this.balanced) this.ran.add(unitId(test, this.balanced.root));
    this.record('a test result', (builder, ctx) => recordResult(builder, ctx, test, result));
  }

  /** Balanced in `preprocess`: its units are tests, `ran` holds their ids. */
  balancedShard() {
    if (!this.balanced) return undefined;
    const { shard, predictedMs, expected, record } = this.balanced;
    return { index: shard.current, count: shard.total, predictedMs, expected, record, ran: this.ran };
  }

  /** An error outside any test: a spec file that failed to load, a global set-up that threw, a worker's crash. */
  onError(error) {
    if (this.listing) return;
    this.runError(error);
  }

  async onEnd(result) {
    // a listing saves nothing; a shard that could not plan as the others lists nothing, and fails
    if (this.listing) return this.shardStopLine ? { status: 'failed' } : undefined;
    if (result?.status === 'failed' && this.runErrors.errors.length === 0 && !this.testsEnded) {
      this.runErrors.stoppedBeforeTests('Playwright ended the run as failed before any test ran (no tests found, or a global set-up failed; Playwright printed why)');
    }
    const { failed } = await this.end();
    return failed ? { status: 'failed' } : undefined;
  }
}
