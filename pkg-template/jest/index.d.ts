import type { ShardwiseJestOptions } from '../types/jest.js';
export type { ShardwiseJestOptions, ShardwiseRunnerOptions } from '../types/jest.js';

/** The Jest reporter: `reporters: ['default', ['shardwise/jest', options]]`. */
export default class ShardwiseJestReporter {
  constructor(globalConfig: unknown, options?: ShardwiseJestOptions);
  onRunStart(): void;
  onTestResult(test: unknown, testResult: unknown): void;
  onRunComplete(): Promise<void>;
  getLastError(): Error | undefined;
}
