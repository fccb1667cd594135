// shardwise/jest: a Jest reporter that saves the run's report and uploads it when a token is set.
//   reporters: ['default', ['shardwise/jest', { outputFolder: 'shardwise-report' }]]
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import * as shardwise from '../node.mjs';
import { resolveOptions, gitInfo, runUrlFromEnv, outsideRootOnce } from '../src/runner/options.mjs';
import { AttachmentStore, endRun, reportPlace, runStart } from '../src/runner/report.mjs';
import { recordNotes, guarded } from '../src/runner/record.mjs';
import { ENVIRONMENT, recordFileResult } from './translate.mjs';
import { RunCosts, jestFileCost } from '../src/runner/costs.mjs';
import { reportPath } from '../src/runner/options.mjs';

function jestVersion(rootDir) {
  try {
    return createRequire(path.join(rootDir, 'package.json'))('jest/package.json').version;
  } catch {
    return undefined;
  }
}

export default class ShardwiseJestReporter {
  /** @param {import('../types/jest').ShardwiseJestOptions} [options] */
  constructor(globalConfig, options = {}) {
    this.globalConfig = globalConfig;
    this.options = resolveOptions(options);
    this.api = options.api ?? shardwise;
    this.log = (line) => { if (!this.options.quiet) process.stdout.write(`${line}\n`); };
    /** The test files that ran (for this shard's record). */
    this.ran = new Set();
  }

  onRunStart() {
    try {
      this.begin();
    } catch (e) {
      this.stop(e);
    }
  }

  begin() {
    const rootDir = this.globalConfig?.rootDir ?? process.cwd();
    const { root, commitId } = gitInfo(rootDir, this.options.commitId);
    if (!commitId) {
      this.log('[shardwise] no commit id (not a git checkout; set SHARDWISE_COMMIT_ID): the run is not reported');
      return;
    }
    const shard = this.globalConfig?.shard;
    const { folder, title } = reportPlace(path.resolve(rootDir, this.options.outputFolder), shard?.shardIndex, shard?.shardCount);
    this.start = runStart();
    const version = jestVersion(rootDir);
    this.builder = new this.api.ReportBuilder({
      category: 'jest', commitId, startTimestamp: this.start, ...(title ? { title } : {}),
      ...(runUrlFromEnv() ? { url: runUrlFromEnv() } : {}),
      ...(version ? { testRunner: { name: 'jest', version } } : {}),
    });
    const environmentIdx = this.builder.addEnvironment({
      name: ENVIRONMENT, systemData: { osName: os.type(), osVersion: os.release(), osArch: os.arch() },
    });
    this.ctx = { root, environmentIdx, store: new AttachmentStore(folder), notes: recordNotes(this.log), onOutsideRoot: outsideRootOnce(this.log, root) };
    this.costs = new RunCosts('jest', this.globalConfig?.maxWorkers);
  }

  onTestResult(_test, testResult) {
    if (typeof testResult?.testFilePath === 'string') this.ran.add(testResult.testFilePath);
    if (!this.builder) return;
    guarded(this.ctx, 'a test file\'s results', () => recordFileResult(this.builder, this.ctx, testResult));
    guarded(this.ctx, 'a test file\'s costs', () => this.costs.add(typeof testResult?.testFilePath === 'string' ? reportPath(this.ctx.root, testResult.testFilePath) : undefined, jestFileCost(testResult)));
  }

  // Jest 30 runs its summary reporter after every custom reporter's onRunComplete, so lines
  // printed there land above "Test Suites: ...". The end's work (save, upload) is done and awaited
  // here; its lines are held and printed from getLastError, which Jest calls once every reporter
  // has completed (so after the summary), with process exit as the fallback.
  async onRunComplete() {
    const held = [];
    this.held = held;
    this.onExit = () => this.flush();
    process.once('exit', this.onExit);
    try {
      await endRun({ builder: this.builder, start: this.start, api: this.api, store: this.ctx?.store, options: this.options, log: (line) => held.push(line), ran: this.ran, costs: this.costs });
    } catch (e) {
      this.stop(e);
    }
  }

  /** Prints the end's held lines (once). */
  flush() {
    const lines = this.held ?? [];
    this.held = undefined;
    if (this.onExit) process.off('exit', this.onExit);
    this.onExit = undefined;
    for (const line of lines) this.log(line);
  }

  getLastError() {
    this.flush();
    return undefined;
  }

  stop(e) {
    this.builder = undefined;
    const line = `[shardwise] reporting stopped (${e?.code ?? 'ERROR'}: ${e?.message ?? e}); the tests are unaffected`;
    if (this.held) this.held.push(line);
    else this.log(line);
  }
}
