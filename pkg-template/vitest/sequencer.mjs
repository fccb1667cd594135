// shardwise/vitest/sequencer: a Vitest sequencer whose `shard()` balances test files by predicted
// duration (it reads `--shard` from `ctx.config.shard`).
//   test: { sequence: { sequencer: ShardwiseSequencer } }   (import ShardwiseSequencer from 'shardwise/vitest/sequencer')
// Options come from the `shardwise/vitest` reporter entry in `reporters`, else SHARDWISE_* variables.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as shardwise from '../node.mjs';
import { resolveOptions } from '../src/runner/options.mjs';
import { planFiles, inPlanOrder } from '../src/runner/files.mjs';
import { setShardPrediction, shardPrediction, ShardStop } from '../src/runner/plan.mjs';
import { environmentName, reporterOptions, hasShardwiseReporter, NO_REPORTER_LINE, vitestWorkers } from './translate.mjs';

export default class ShardwiseSequencer {
  constructor(ctx) {
    this.ctx = ctx;
  }

  /** A shard that must not run (see planThisShard) runs no file: its line is printed, and Vitest fails. */
  async shard(files) {
    const { index, count } = this.ctx.config.shard;
    const options = resolveOptions(reporterOptions(this.ctx.config));
    const log = (line) => { if (!options.quiet) process.stdout.write(`${line}\n`); };
    let planned;
    try {
      planned = await planFiles({
        api: shardwise, files: files.map((f) => ({ path: f.moduleId, environment: environmentName(f.project) })), shardIndex: index, shardCount: count, options,
        workers: vitestWorkers(this.ctx.config),
        cwd: this.ctx.config.root ?? process.cwd(), testRunner: 'vitest', log,
        runnerShard: await this.runnerShard(files, count),
      });
    } catch (e) {
      if (!(e instanceof ShardStop)) throw e;
      // its line is said (planFiles); thrown on, Vitest would print it again as an "Unhandled
      // Error" with a stack: the shard runs no file and fails instead
      process.exitCode = 1;
      return [];
    }
    if (!planned) return nativeShard(files, index, count);
    if (!hasShardwiseReporter(this.ctx.config)) log(NO_REPORTER_LINE(index, count));
    setShardPrediction({ index, count, predictedMs: planned.predictedMs, expected: planned.expected, order: planned.order, record: planned.record, root: planned.root });
    return files.filter((f) => planned.paths.has(f.moduleId));
  }

  /**
   * Vitest's own split of `files` into `count` shards (its BaseSequencer's `shard`, which reads
   * the shard from its context's config), as `planFiles` takes it; undefined without Vitest's
   * sequencer to hand.
   */
  async runnerShard(files, count) {
    const Base = await vitestBaseSequencer(this.ctx.config?.root);
    if (!Base || typeof Base.prototype.shard !== 'function') return undefined;
    return async (index) => {
      const config = { ...this.ctx.config, shard: { index, count } };
      const ctx = Object.create(this.ctx, { config: { value: config } });
      return (await new Base(ctx).shard(files)).map((f) => f.moduleId);
    };
  }

  /**
   * A balanced shard: its files longest first by its plan (what its prediction assumes; Vitest's
   * own longest-first needs a results cache a fresh CI machine lacks, and sorts by size then).
   * Otherwise Vitest's own order (its BaseSequencer: failed first, then longest first, from its
   * results cache; files without results by size); without Vitest's sequencer to hand, the files
   * as given.
   */
  async sort(files) {
    const order = shardPrediction()?.order;
    if (order && this.ctx.config?.shard) return inPlanOrder(files, order, (f) => f.moduleId);
    const Base = await vitestBaseSequencer(this.ctx.config?.root);
    return Base ? new Base(this.ctx).sort(files) : files;
  }
}

/**
 * Vitest's BaseSequencer (exported by 'vitest/node'): the project's own Vitest, resolved from its
 * root (a package manager may not let shardwise see it; found where Vitest's exports let
 * `require.resolve` find it, as Vitest 5's do), else the one this package imports; undefined when
 * neither loads.
 */
async function vitestBaseSequencer(root) {
  const loads = [
    () => import(pathToFileURL(createRequire(path.join(root ?? process.cwd(), 'package.json')).resolve('vitest/node')).href),
    () => import('vitest/node'),
  ];
  for (const load of loads) {
    try {
      const { BaseSequencer } = await load();
      if (typeof BaseSequencer === 'function') return BaseSequencer;
    } catch { /* next */ }
  }
  return undefined;
}

/** Vitest's own split (contiguous slices of the path-sorted list), used when planning fails. */
function nativeShard(files, index, count) {
  const sorted = [...files].sort((a, b) => (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0));
  const size = Math.ceil(sorted.length / count);
  return sorted.slice((index - 1) * size, index * size);
}
export { ShardwiseSequencer };
