import type { ShardwiseVitestOptions } from '../types/vitest.js';
export type { ShardwiseVitestOptions, ShardwiseRunnerOptions } from '../types/vitest.js';

/** The Vitest reporter: `reporters: ['default', ['shardwise/vitest', options]]`. */
export default class ShardwiseVitestReporter {
  constructor(options?: ShardwiseVitestOptions);
  onInit(ctx: unknown): void;
  onTestCaseResult(testCase: unknown): void;
  onTestRunEnd(): Promise<void>;
}
