/**
 * The Jest test sequencer: `testSequencer: 'shardwise/jest/sequencer'`. With `--shard=i/n` its
 * `shard()` keeps the files the duration-balanced plan gives this shard. It extends Jest's default
 * sequencer (sorting and caching unchanged).
 */
export default class ShardwiseSequencer {
  constructor(context: { contexts?: unknown; globalConfig?: unknown });
  shard<T extends { path: string }>(tests: T[], options: { shardIndex: number; shardCount: number }): Promise<T[]>;
  sort<T>(tests: T[]): T[] | Promise<T[]>;
}
