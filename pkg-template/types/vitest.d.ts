import type { ShardwiseRunnerOptions } from './runner.js';
export type { ShardwiseRunnerOptions } from './runner.js';

/**
 * Options of `['shardwise/vitest', options]` in `reporters`; the sequencer from
 * `shardwise/vitest/sequencer` (`test.sequence.sequencer`) reads the same entry.
 */
export interface ShardwiseVitestOptions extends ShardwiseRunnerOptions {}

/** `shardwise/vitest`: the reporter. `shardwise/vitest/sequencer`: the sequencer (default export). */
export default class ShardwiseVitestExport {
  constructor(...args: any[]);
}
