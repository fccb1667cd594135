// shardwise/jest: a Jest reporter that saves the run's report and uploads it when a token is set.
//   reporters: ['default', ['shardwise/jest', { outputFolder: 'shardwise-report' }]]
// The reporter's work is the skeleton's (src/runner/reporter.mjs); here, Jest's translation.
import path from 'node:path';
import { createRequire } from 'node:module';
import { RunReporter } from '../src/runner/reporter.mjs';
import { reportPath } from '../src/runner/options.mjs';
import { closeSync, openSync, readSync } from 'node:fs';
import { jestFileCost, jestEnvironment, jestEnvironmentMs } from '../src/runner/costs.mjs';
import { ENVIRONMENT, recordFileResult, recordFileErrors } from './translate.mjs';

function jestVersion(rootDir) {
  try {
    return createRequire(path.join(rootDir, 'package.json'))('jest/package.json').version;
  } catch {
    return undefined;
  }
}

/** The first 4 KB of a file (where Jest reads its docblock), '' when it cannot be read. */
function head(file) {
  let fd;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(4096);
    return buf.toString('utf8', 0, readSync(fd, buf, 0, buf.length, 0));
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export default class ShardwiseJestReporter extends RunReporter {
  /** @param {import('../types/jest').ShardwiseJestOptions} [options] */
  constructor(globalConfig, options = {}) {
    super(options, { runner: 'jest', unit: 'file' });
    this.globalConfig = globalConfig;
  }

  onRunStart() {
    const rootDir = this.globalConfig?.rootDir ?? process.cwd();
    const shard = this.globalConfig?.shard;
    this.begin({
      cwd: rootDir,
      shard: shard && { index: shard.shardIndex, count: shard.shardCount },
      version: jestVersion(rootDir),
      workers: this.globalConfig?.maxWorkers,
      // one environment, the report's first
      environments: (systemData) => [{ name: ENVIRONMENT, systemData }],
      context: { environmentIdx: 0 },
    });
  }

  onTestResult(test, testResult) {
    const file = typeof testResult?.testFilePath === 'string' ? testResult.testFilePath : undefined;
    if (file) this.ran.add(file);
    this.record('a test file\'s results', (builder, ctx) => recordFileResult(builder, ctx, testResult));
    // a file that failed to run (a syntax error, a missing module), or a hook outside its tests
    recordFileErrors(this.runErrors, { root: this.root }, testResult);
    this.record('a test file\'s costs', (_builder, ctx) => {
      const at = file === undefined ? undefined : reportPath(ctx.root, file);
      this.costs.add(at, jestFileCost(testResult));
      const loadMs = jestEnvironmentMs(testResult);
      if (at !== undefined && loadMs !== undefined) this.costs.environment(at, jestEnvironment(head(file), test?.context?.config?.testEnvironment), loadMs);
    });
  }

  // Jest 30 runs its summary reporter after every custom reporter's onRunComplete, so lines
  // printed there land above "Test Suites: ...". The end's work (save, upload) is done and awaited
  // here; its lines are held and printed from getLastError, which Jest calls once every reporter
  // has completed (so after the summary), with process exit as the fallback.
  async onRunComplete() {
    this.hold();
    const { failed } = await this.end();
    this.failed = failed;
  }

  /** A stopped shard fails Jest's run (its exit code), with nothing more printed: its line was said. */
  getLastError() {
    this.flush();
    return this.failed ? new Error('[shardwise] this shard stopped (see its line above)') : undefined;
  }
}
