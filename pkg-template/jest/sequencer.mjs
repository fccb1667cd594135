// shardwise/jest/sequencer: a Jest (>= 28) test sequencer whose `shard()` balances test files by
// predicted duration.   testSequencer: 'shardwise/jest/sequencer'
// Options come from the `shardwise/jest` reporter entry in `reporters`, else SHARDWISE_* variables.
import { createRequire } from 'node:module';
import path from 'node:path';
import * as shardwise from '../node.mjs';
import { resolveOptions } from '../src/runner/options.mjs';
import { planFiles, inPlanOrder } from '../src/runner/files.mjs';
import { setShardPrediction, shardPrediction } from '../src/runner/plan.mjs';
import { ENVIRONMENT, reporterOptions } from './translate.mjs';

/** Jest's default sequencer, resolved from the project (Jest ships it), for `sort` and caching. */
function baseSequencer() {
  for (const from of [path.join(process.cwd(), 'package.json'), import.meta.url]) {
    try {
      const mod = createRequire(from)('@jest/test-sequencer');
      return mod.default ?? mod;
    } catch { /* next */ }
  }
  return class { sort(tests) { return tests; } allFailedTests(tests) { return tests; } cacheResults() {} };
}

export default class ShardwiseSequencer extends baseSequencer() {
  constructor(context) {
    super(context);
    this.globalConfig = context?.globalConfig;
  }

  /** A shard that must not run (see planShard) throws: its line is printed, and Jest fails. */
  async shard(tests, { shardIndex, shardCount }) {
    const options = resolveOptions(reporterOptions(this.globalConfig));
    const log = (line) => { if (!options.quiet) process.stdout.write(`${line}\n`); };
    const planned = await planFiles({
      api: shardwise, files: tests.map((t) => ({ path: t.path, environment: ENVIRONMENT })), shardIndex, shardCount, options,
      workers: this.globalConfig?.maxWorkers,
      cwd: this.globalConfig?.rootDir ?? process.cwd(), testRunner: 'jest', log,
    });
    if (!planned) return super.shard(tests, { shardIndex, shardCount });
    setShardPrediction({ index: shardIndex, count: shardCount, predictedMs: planned.predictedMs, expected: planned.expected, order: planned.order, record: planned.record, root: planned.root });
    return tests.filter((t) => planned.paths.has(t.path));
  }

  /**
   * A balanced shard runs its files longest first by its plan (what its prediction assumes:
   * Jest's own order needs a cache a fresh CI machine lacks, and sorts by file size then); an
   * unbalanced run, Jest's own order.
   */
  sort(tests) {
    const order = shardPrediction()?.order;
    return order ? inPlanOrder(tests, order, (t) => t.path) : super.sort(tests);
  }
}
