// Balancing for runners that shard whole test files (Jest, Vitest): files in, this shard's files out.
//
// Durations come from a timings file, or live from the durations exchange. For the live exchange
// the test list is read from the files' sources: Rust's `discover` lists the tests each file
// declares (describe/test/it titles), as the runner will name them in its report. A file's
// predicted time is the sum of its tests' predictions; files with none are estimated. With a cold
// cost (Jest's transforms, paid again on each shard) the plan also has the suite's own modules
// each file loads (modules.mjs).
//
// The wasm is reached through `api`, the package namespace (or a fake in tests), as everywhere in
// the runners: `api.__discoverTests`, `api.__testDurations` (timings.mjs).
import path from 'node:path';
import { relativePosix, reportPath, gitInfo } from './options.mjs';
import { planThisShard, SharedReason, ShardStop, balancingFailedLine, setShardStop } from './plan.mjs';
import { durationsSource } from './durations.mjs';
import { durationsByFile, rerunFiles } from './timings.mjs';
import { plural } from './words.mjs';
import { suiteModules, sourceReader } from './modules.mjs';
import { clearSaved, reportPlace } from './report.mjs';

/**
 * Test files -> planner units (one indivisible unit per file; id = repo-relative path). A file
 * outside the repository root keeps that id (`../e2e/a.test.js`) but has no report `file`: the
 * service knows no durations for it, and the planner estimates it.
 * @param {Array<string | {path: string, environment?: string}>} files absolute paths, or paths
 *   with the environment (report environment name) the runner reports them under
 */
export function unitsFromFiles(files, root) {
  const byFile = new Map();
  for (const f of files) {
    const { path: p, environment } = typeof f === 'string' ? { path: f } : f;
    const id = relativePosix(root, p);
    const u = byFile.get(id) ?? { id, file: reportPath(root, p), path: p, environments: [] };
    if (environment !== undefined && !u.environments.includes(environment)) u.environments.push(environment);
    byFile.set(id, u);
  }
  return [...byFile.values()];
}

/**
 * The durations exchange's test list for `units`, from their sources: every test each file
 * declares, under each environment the file runs in.
 * @param {object} p
 * @param {{ReportBuilder: Function, __discoverTests: Function}} p.api
 * @returns {{report: object, tests: number, unnamed: number, files: number}} `files`: files with tests found
 */
export function testListFromSources({ api, units, category, commitId, readSource = sourceReader(api) }) {
  const builder = new api.ReportBuilder({ category, commitId });
  const envIdx = new Map();
  let tests = 0;
  let unnamed = 0;
  let files = 0;
  for (const u of units) {
    if (u.file === undefined) continue; // outside the repository: no test of the report names it
    for (const name of u.environments) if (!envIdx.has(name)) envIdx.set(name, builder.addEnvironment({ name }));
    const found = readSource(u.path)?.found; // Rust `discover`
    if (!found) continue; // gone since the runner listed it: estimated like a new file
    unnamed += found.unnamed;
    if (found.tests.length) files += 1;
    for (const titlePath of found.tests) {
      builder.addTest({ titlePath, file: u.file });
      tests += 1;
    }
  }
  return { report: builder.build(), tests, unnamed, files };
}

/**
 * A balanced shard's files in its plan's order, longest first (`order` of `planFiles`); files the
 * plan did not order keep their place after them. `pathOf` reads a runner's test's path.
 */
export function inPlanOrder(items, order, pathOf) {
  const rank = new Map(order.map((p, i) => [p, i]));
  const at = (x) => rank.get(pathOf(x)) ?? order.length;
  return items.map((x, i) => [at(x), i, x]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, , x]) => x);
}

/**
 * Per unit, its shard (1-based) in the runner's own split, from the runner (`runnerShard(index)`
 * for each shard); undefined when the runner's shards do not hold every unit exactly once.
 */
export async function runnerSplitOf(units, shardCount, runnerShard) {
  const shardOf = new Map();
  for (let index = 1; index <= shardCount; index++) {
    for (const p of await runnerShard(index)) {
      if (shardOf.has(p)) return undefined;
      shardOf.set(p, index);
    }
  }
  const split = units.map((u) => shardOf.get(u.path));
  return split.every((s) => s !== undefined) && shardOf.size === units.length ? split : undefined;
}

/**
 * Plans the files of one shard. When planning itself fails (for example an old build without
 * `planShards`: the same on every shard) it says so and returns `undefined`, and the caller shards
 * natively. A shard that must not run (durations only it could not have, nothing to run) says its
 * line and throws the `ShardStop` (see planThisShard): the runner then fails.
 * @param {object} p
 * @param {object} p.api the package namespace
 * @param {Array<string | {path: string, environment?: string}>} p.files see `unitsFromFiles`
 * @param {number} [p.workers] the runner's parallel workers (files run side by side)
 * @param {(index: number) => Promise<string[]>} [p.runnerShard] the paths the
 *   runner's own split (`--shard`) gives shard `index` of `shardCount`: kept unless the balanced
 *   plan is predicted enough sooner (see planThisShard)
 * @param {object} [p.aliases] what the runner maps bare specifiers to (modules.mjs `jestAliases`)
 * @returns {Promise<{paths: Set<string>, order: string[], predictedMs: number, expected: object, record: object, root: string} | undefined>}
 *   `order`: the shard's paths longest first (see `longestFirst`), for the sequencer's `sort`
 * @throws {ShardStop}
 */
export async function planFiles({ api, files, shardIndex, shardCount, workers, options, cwd, testRunner, log, runnerShard, aliases }) {
  try {
    const { root, commitId } = gitInfo(cwd, options.commitId);
    const units = unitsFromFiles(files, root);
    // each test file read and tokenized once: for the exchange's test list, then its modules
    const readSource = sourceReader(api);
    let listed;
    const fromService = durationsSource({
      api, options: { ...options, commitId }, cwd, testRunner,
      testList: () => {
        listed = testListFromSources({ api, units, category: testRunner, commitId, readSource });
        if (listed.tests === 0)
          throw new SharedReason(`no test titles found in the sources of ${plural(units.length, 'file')} (give a timingsFile: npx shardwise durations)`);
        return listed.report;
      },
      lookup: (report) => {
        const byFile = durationsByFile(report, api);
        return (u) => byFile.get(u.file);
      },
      select: (report, kinds) => {
        const files = rerunFiles(report, api, kinds);
        return (u) => files.has(u.file);
      },
      byFile: true,
    });
    const getDurations = async () => {
      const d = await fromService();
      if (listed) {
        d.source += ` for ${plural(listed.tests, 'test')} read from ${plural(listed.files, 'file')}`
          + (listed.unnamed ? ` (${plural(listed.unnamed, 'test call')} with run-time titles not counted)` : '');
      }
      return d;
    };
    const runnerSplit = runnerShard && !options.alwaysBalance ? await runnerSplitOf(units, shardCount, runnerShard) : undefined;
    const modules = () => suiteModules({ api, units, root, aliases, readSource });
    const planned = await planThisShard({ api, units, shardIndex, shardCount, getDurations, unitLabel: 'files', workers, options, runner: testRunner, runnerSplit, modules });
    log(planned.line);
    const paths = new Set(units.filter((u) => planned.mine.has(u.id)).map((u) => u.path));
    const pathOf = new Map(units.map((u) => [u.id, u.path]));
    const order = planned.order.map((id) => pathOf.get(id));
    return { paths, order, predictedMs: planned.shard.predictedMs, expected: planned.expected, record: planned.record, root };
  } catch (e) {
    if (e instanceof ShardStop) {
      log(e.line);
      setShardStop(e.line);
      // the runner may end before its reporter starts (Jest with no file to run): an earlier run's
      // report and records in this shard's folder go now, so none is taken for this run's
      try { clearSaved(reportPlace(path.resolve(cwd, options.outputFolder), shardIndex, shardCount).folder); } catch { /* nothing there */ }
      throw e;
    }
    log(balancingFailedLine(e, testRunner));
    return undefined;
  }
}
