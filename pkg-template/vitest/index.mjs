// shardwise/vitest: a Vitest reporter that saves the run's report and uploads it when a token is set.
//   reporters: ['default', ['shardwise/vitest', { outputFolder: 'shardwise-report' }]]
import os from 'node:os';
import path from 'node:path';
import * as shardwise from '../node.mjs';
import { resolveOptions, gitInfo, runUrlFromEnv, outsideRootOnce } from '../src/runner/options.mjs';
import { AttachmentStore, endRun, reportPlace, runStart } from '../src/runner/report.mjs';
import { recordNotes, guarded } from '../src/runner/record.mjs';
import { environmentName, recordTestCase } from './translate.mjs';
import { RunCosts, vitestFileCost } from '../src/runner/costs.mjs';
import { reportPath } from '../src/runner/options.mjs';

export default class ShardwiseVitestReporter {
  /** @param {import('../types/vitest').ShardwiseVitestOptions} [options] */
  constructor(options = {}) {
    this.options = resolveOptions(options);
    this.api = options.api ?? shardwise;
    this.log = (line) => { if (!this.options.quiet) process.stdout.write(`${line}\n`); };
    /** The test files that ran (for this shard's record). */
    this.ran = new Set();
  }

  onInit(ctx) {
    try {
      this.begin(ctx);
    } catch (e) {
      this.stop(e);
    }
  }

  begin(ctx) {
    const config = ctx.config;
    const rootDir = config.root ?? process.cwd();
    const { root, commitId } = gitInfo(rootDir, this.options.commitId);
    if (!commitId) {
      this.log('[shardwise] no commit id (not a git checkout; set SHARDWISE_COMMIT_ID): the run is not reported');
      return;
    }
    const { folder, title } = reportPlace(path.resolve(rootDir, this.options.outputFolder), config.shard?.index, config.shard?.count);
    this.start = runStart();
    this.builder = new this.api.ReportBuilder({
      category: 'vitest', commitId, startTimestamp: this.start, ...(title ? { title } : {}),
      ...(runUrlFromEnv() ? { url: runUrlFromEnv() } : {}),
      ...(ctx.version ? { testRunner: { name: 'vitest', version: ctx.version } } : {}),
    });
    const systemData = { osName: os.type(), osVersion: os.release(), osArch: os.arch() };
    const envIndex = new Map();
    for (const p of ctx.projects ?? [{ name: '' }]) {
      const name = environmentName(p);
      envIndex.set(name, this.builder.addEnvironment({ name, systemData }));
    }
    this.ctx = { root, envIndex, store: new AttachmentStore(folder), notes: recordNotes(this.log), onOutsideRoot: outsideRootOnce(this.log, root) };
    this.costs = new RunCosts('vitest', config.fileParallelism === false ? 1 : config.maxWorkers);
  }

  onTestModuleEnd(testModule) {
    if (typeof testModule?.moduleId === 'string') this.ran.add(testModule.moduleId);
    if (this.builder && typeof testModule?.moduleId === 'string') {
      guarded(this.ctx, 'a test module\'s costs', () => this.costs.add(reportPath(this.ctx.root, testModule.moduleId), vitestFileCost(testModule)));
    }
  }

  onTestCaseResult(testCase) {
    if (typeof testCase?.module?.moduleId === 'string') this.ran.add(testCase.module.moduleId);
    if (!this.builder) return;
    guarded(this.ctx, 'a test result', () => recordTestCase(this.builder, this.ctx, testCase));
  }

  async onTestRunEnd() {
    try {
      await endRun({ builder: this.builder, start: this.start, api: this.api, store: this.ctx?.store, options: this.options, log: this.log, ran: this.ran, costs: this.costs });
    } catch (e) {
      this.stop(e);
    }
  }

  stop(e) {
    this.builder = undefined;
    this.log(`[shardwise] reporting stopped (${e?.code ?? 'ERROR'}: ${e?.message ?? e}); the tests are unaffected`);
  }
}
