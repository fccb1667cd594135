// shardwise/jest/sequencer: a Jest (>= 28) test sequencer whose `shard()` balances test files by
// predicted duration.   testSequencer: 'shardwise/jest/sequencer'
// Options come from the `shardwise/jest` reporter entry in `reporters`, else SHARDWISE_* variables.
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import * as shardwise from '../node.mjs';
import { resolveOptions } from '../src/runner/options.mjs';
import { planFiles, inPlanOrder } from '../src/runner/files.mjs';
import { jestAliases } from '../src/runner/modules.mjs';
import { setShardPrediction, shardPrediction, ShardStop } from '../src/runner/plan.mjs';
import { ENVIRONMENT, reporterOptions, hasShardwiseReporter, NO_REPORTER_LINE } from './translate.mjs';

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

/**
 * Jest's workers as it resolves them from its command line (`getMaxWorkers`), for Jest < 30, whose
 * sequencer is made without the global config: `--runInBand`/`-i` 1, `--maxWorkers`/`-w` N or a
 * percentage of the cores, else the cores less one. (A `maxWorkers` in the config file is not
 * seen there; Jest >= 30 passes the config, and its value is used.)
 */
export function workersFromArgv(argv, cores = os.availableParallelism?.() ?? os.cpus().length) {
  let value;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-i' || a === '--runInBand' || a === '--run-in-band') return 1;
    const m = /^(?:--maxWorkers|--max-workers|-w)(?:=(.*))?$/.exec(a);
    if (m) value = m[1] ?? argv[i + 1];
  }
  if (typeof value === 'string') {
    const pct = /^(\d+(?:\.\d+)?)%$/.exec(value);
    const n = pct ? Math.floor((Number(pct[1]) / 100) * cores) : Number.parseInt(value, 10);
    if (Number.isFinite(n)) return Math.max(1, n);
  }
  return Math.max(cores - 1, 1);
}

export default class ShardwiseSequencer extends baseSequencer() {
  constructor(context) {
    super(context);
    this.globalConfig = context?.globalConfig;
  }

  /** A shard that must not run (see planThisShard) runs no file: its line is printed, and Jest fails. */
  async shard(tests, { shardIndex, shardCount }) {
    const options = resolveOptions(reporterOptions(this.globalConfig));
    const log = (line) => { if (!options.quiet) process.stdout.write(`${line}\n`); };
    let planned;
    try {
      planned = await planFiles({
        api: shardwise, files: tests.map((t) => ({ path: t.path, environment: ENVIRONMENT })), shardIndex, shardCount, options,
        workers: this.globalConfig?.maxWorkers ?? workersFromArgv(process.argv),
        cwd: this.globalConfig?.rootDir ?? process.cwd(), testRunner: 'jest', log,
        // the projects' module maps: a module loaded by a name Jest maps is one of the suite's too
        aliases: jestAliases([...new Set(tests.map((t) => t.context?.config))]),
        // Jest's own split of the same files, shard by shard: the plan keeps it unless balancing
        // is predicted enough sooner
        runnerShard: typeof super.shard === 'function'
          ? async (index) => (await super.shard(tests, { shardIndex: index, shardCount })).map((t) => t.path)
          : undefined,
      });
    } catch (e) {
      // its line is said (planFiles); thrown on, Jest prints it again with a stack. With the
      // shardwise reporter in the run, the shard runs no file and the reporter fails the run
      // (getLastError); without it, the throw is what fails the run.
      if (e instanceof ShardStop && this.globalConfig && hasShardwiseReporter(this.globalConfig)) return [];
      throw e;
    }
    if (!planned) return super.shard(tests, { shardIndex, shardCount });
    // Jest < 30 makes the sequencer without its config: nothing to tell from then
    if (this.globalConfig && !hasShardwiseReporter(this.globalConfig)) log(NO_REPORTER_LINE(shardIndex, shardCount));
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
