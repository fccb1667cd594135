/**
 * The Vitest sequencer: `test.sequence.sequencer` (import it from 'shardwise/vitest/sequencer').
 * With `--shard=i/n` (read from `ctx.config.shard`) its `shard()` keeps the files the
 * duration-balanced plan gives this shard; its `sort()` is Vitest's own (BaseSequencer: failed
 * first, then longest first).
 */
export default class ShardwiseSequencer {
  constructor(ctx: unknown);
  shard<T extends { moduleId: string }>(files: T[]): Promise<T[]>;
  sort<T>(files: T[]): Promise<T[]>;
}
export { ShardwiseSequencer };
