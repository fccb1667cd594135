import type { ShardwisePlaywrightOptions } from '../types/playwright.js';
export type { ShardwisePlaywrightOptions, ShardwiseRunnerOptions } from '../types/playwright.js';

/**
 * The Playwright reporter: `reporter: [['shardwise/playwright', options]]`. Balances `--shard=i/n`
 * runs by predicted duration (Playwright >= 1.62) and saves/uploads the run's report.
 */
export default class ShardwiseReporter {
  constructor(options?: ShardwisePlaywrightOptions);
  printsToStdio(): boolean;
  preprocess(params: { config: unknown; suite: unknown; testRun: unknown }): Promise<void>;
  onBegin(config: unknown, suite?: unknown): void;
  onTestEnd(test: unknown, result: unknown): void;
  onEnd(result: unknown): Promise<void>;
}
