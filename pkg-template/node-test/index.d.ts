// shardwise/node-test: a node:test reporter (`node --test --test-reporter=shardwise/node-test`).
// node:test gives reporters no options: the SHARDWISE_* variables configure it (README).

/** node:test's reporter interface: an async generator over the run's events. */
export default function shardwiseNodeTest(source: AsyncIterable<{ type: string; data?: unknown }>): AsyncGenerator<string, void>;
