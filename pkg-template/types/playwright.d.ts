import type { ShardwiseRunnerOptions } from './runner.js';
export type { ShardwiseRunnerOptions } from './runner.js';

/**
 * Options of `['shardwise/playwright', options]` in `reporter`. With `--shard=i/n` on
 * Playwright >= 1.62 the reporter balances shards by predicted duration; below, Playwright
 * shards natively.
 */
export interface ShardwisePlaywrightOptions extends ShardwiseRunnerOptions {}

/** The Playwright reporter (also usable as `reporter: [['shardwise/playwright', {...}]]`). */
export default class ShardwiseReporter {
  constructor(options?: ShardwisePlaywrightOptions);
  printsToStdio(): boolean;
  preprocess(params: { config: unknown; suite: unknown; testRun: unknown }): Promise<void>;
  onBegin(config: unknown, suite: unknown): void;
  onTestEnd(test: unknown, result: unknown): void;
  onEnd(result: unknown): Promise<void>;
}
