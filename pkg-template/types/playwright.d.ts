import type { ShardwiseRunnerOptions } from './runner.js';
export type { ShardwiseRunnerOptions } from './runner.js';

/**
 * Options of `['shardwise/playwright', options]` in `reporter`. With `--shard=i/n` on
 * Playwright >= 1.62 the reporter balances shards by predicted duration; below, Playwright
 * shards natively.
 */
export type ShardwisePlaywrightOptions = ShardwiseRunnerOptions;
