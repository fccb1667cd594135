import type { ShardwiseRunnerOptions } from './runner.js';
export type { ShardwiseRunnerOptions } from './runner.js';

/**
 * Options of `['shardwise/jest', options]` in `reporters`; the `shardwise/jest/sequencer`
 * (`testSequencer`) reads the same entry. Jest cannot list tests before running them, so the
 * sequencer balances from `timingsFile` (see `npx shardwise durations`), else by estimates.
 */
export type ShardwiseJestOptions = ShardwiseRunnerOptions;
