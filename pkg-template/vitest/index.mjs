// shardwise/vitest: a Vitest reporter that saves the run's report and uploads it when a token is set.
//   reporters: ['default', ['shardwise/vitest', { outputFolder: 'shardwise-report' }]]
// The reporter's work is the skeleton's (src/runner/reporter.mjs); here, Vitest's translation.
import { RunReporter } from '../src/runner/reporter.mjs';
import { reportPath } from '../src/runner/options.mjs';
import { vitestFileCost } from '../src/runner/costs.mjs';
import { environmentName, recordTestCase, recordModuleErrors, recordRunEnd, vitestWorkers } from './translate.mjs';
import { vitestTransforms } from './transforms.mjs';

export default class ShardwiseVitestReporter extends RunReporter {
  /** @param {import('../types/vitest').ShardwiseVitestOptions} [options] */
  constructor(options = {}) {
    super(options, { runner: 'vitest', unit: 'file' });
  }

  onInit(ctx) {
    this.vitest = ctx; // Vitest's context (the skeleton's `ctx` is its own)
    const config = ctx?.config ?? {};
    this.begin({
      cwd: config.root ?? process.cwd(),
      shard: config.shard && { index: config.shard.index, count: config.shard.count },
      version: ctx?.version,
      workers: vitestWorkers(config),
      environments: (systemData) => (ctx?.projects ?? [{ name: '' }]).map((p) => ({ name: environmentName(p), systemData })),
    });
  }

  onTestModuleEnd(testModule) {
    if (typeof testModule?.moduleId !== 'string') return;
    this.ran.add(testModule.moduleId);
    this.record('a test module\'s costs', (_builder, ctx) => this.costs.add(reportPath(ctx.root, testModule.moduleId), vitestFileCost(testModule)));
    // an import or transform that failed, a throw at its top level, a beforeAll/afterAll
    recordModuleErrors(this.runErrors, { root: this.root }, testModule);
  }

  onTestCaseResult(testCase) {
    if (typeof testCase?.module?.moduleId === 'string') this.ran.add(testCase.module.moduleId);
    this.record('a test result', (builder, ctx) => recordTestCase(builder, ctx, testCase));
  }

  async onTestRunEnd(testModules, unhandledErrors, reason) {
    recordRunEnd(this.runErrors, { root: this.root }, testModules, unhandledErrors, reason);
    // the transforms of the suite's modules, by the file that asked for each first: read from
    // Vitest's internals where they are (transforms.mjs); without them the files keep their costs
    try {
      if (this.costs && this.root && Array.isArray(testModules)) this.costs.transforms = vitestTransforms(this.vitest, testModules, this.root);
    } catch { /* a Vitest that keeps them elsewhere */ }
    const { failed } = await this.end();
    if (failed) process.exitCode = 1; // a stopped shard fails, even where an empty run would pass (passWithNoTests)
  }
}
