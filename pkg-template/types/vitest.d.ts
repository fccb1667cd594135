import type { ShardwiseRunnerOptions } from './runner.js';
export type { ShardwiseRunnerOptions } from './runner.js';

/**
 * Options of `['shardwise/vitest', options]` in `reporters`; the sequencer from
 * `shardwise/vitest/sequencer` (`test.sequence.sequencer`) reads the same entry.
 */
export type ShardwiseVitestOptions = ShardwiseRunnerOptions;
