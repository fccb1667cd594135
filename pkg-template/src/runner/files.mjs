// Balancing for runners that shard whole test files (Jest, Vitest): paths in, this shard's paths out.
import { relativePosix, gitInfo } from './options.mjs';
import { planShard } from './plan.mjs';
import { durationsSource } from './durations.mjs';
import { durationsByFile } from './timings.mjs';

/** Absolute test file paths -> planner units (one indivisible unit per file; id = repo-relative path). */
export const unitsFromFiles = (paths, root) => [...new Set(paths)].map((p) => {
  const file = relativePosix(root, p);
  return { id: file, file, path: p };
});

/**
 * Plans the files of one shard. Never throws: when planning itself fails (for example an old
 * build without `planShards`) it says so and returns `undefined`, and the caller shards natively.
 * @returns {Promise<{paths: Set<string>, predictedMs: number} | undefined>}
 */
export async function planFiles({ api, paths, shardIndex, shardCount, options, cwd, testRunner, log }) {
  try {
    const { root, commitId } = gitInfo(cwd, options.commitId);
    const units = unitsFromFiles(paths, root);
    const getDurations = durationsSource({
      api, options: { ...options, commitId }, cwd, testRunner, testList: undefined,
      lookup: (report) => {
        const byFile = durationsByFile(report);
        return (u) => byFile.get(u.file);
      },
    });
    const planned = await planShard({ api, units, shardIndex, shardCount, getDurations, unitLabel: 'files' });
    log(planned.line);
    const paths_ = new Set(units.filter((u) => planned.mine.has(u.id)).map((u) => u.path));
    return { paths: paths_, predictedMs: planned.shard.predictedMs };
  } catch (e) {
    log(`[shardwise] balancing failed (${e?.code ?? 'ERROR'}: ${e?.message ?? e}); ${testRunner} shards natively`);
    return undefined;
  }
}
