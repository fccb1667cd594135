// A shard planned by file by a command that then starts the runner (`shardwise node-test`; any
// command that runs a runner over the files it is given): the shard's files, from the same
// planner and durations as the Jest and Vitest sequencers (files.mjs `planFiles`: the service
// when a token is set, else the timings file; the same plan line and fingerprint on every shard),
// and the hand-off of the plan to the reporter that records the run in the runner's own process:
// an environment variable naming a JSON file, which the reporter reads (`readShardHandoff`) so
// that its skeleton (reporter.mjs) writes shard.json, the predicted-against-actual line and the
// closing lines as the other runners' reporters do.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { planFiles } from './files.mjs';
import { clearSaved, reportPlace, runStart } from './report.mjs';
import { writeShardRecord } from './shard-record.mjs';

/** The variable that names a planned shard's hand-off file, for the runner's process. */
export const SHARD_HANDOFF_ENV = 'SHARDWISE_SHARD_PLAN';

/** `i/n` as `{index, count}` (1 <= i <= n), else undefined. */
export function parseShard(text) {
  const m = /^(\d+)\/(\d+)$/.exec(String(text ?? '').trim());
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return Number.isSafeInteger(count) && count >= 1 && index >= 1 && index <= count ? { index, count } : undefined;
}

/**
 * Plans this shard's files. `files`: absolute paths. Returns
 * - `{files, plan}`: the shard's files (longest first by the plan) and the plan to hand off;
 * - `{files: [], plan, empty: true}`: the plan leaves this shard nothing (more shards than files):
 *   its record is saved (`shardwise verify` counts the shard), nothing is to run;
 * - `undefined`: planning itself failed, the same on every shard (its line said): shard natively.
 * A shard that must not run throws the `ShardStop` (its line said): durations only it could not
 * have (see planThisShard).
 * @param {object} p `api`, `files`, `shard` ({index, count}), `runner` (the report's category),
 *   `workers`, `options` (resolved), `cwd`, `log`
 */
export async function planShardByFile({ api, files, shard, runner, workers, options, cwd, log }) {
  const planned = await planFiles({
    api, files, shardIndex: shard.index, shardCount: shard.count, workers,
    // a shard the plan leaves empty passes: it says so, and its record counts it for verify
    options: { ...options, allowEmptyShards: true }, cwd, testRunner: runner, log,
  });
  if (!planned) return undefined;
  const plan = { index: shard.index, count: shard.count, predictedMs: planned.predictedMs, expected: planned.expected, record: planned.record, root: planned.root, order: planned.order };
  if (planned.paths.size === 0) {
    const { folder } = reportPlace(path.resolve(cwd, options.outputFolder), shard.index, shard.count);
    clearSaved(folder);
    writeShardRecord(folder, planned.record, []);
    return { files: [], plan, empty: true };
  }
  return { files: planned.order.filter((f) => planned.paths.has(f)), plan };
}

/**
 * Writes the hand-off of `plan` for the runner's process, right before it starts: `{env,
 * dispose}`, `env` the variable to give it, `dispose()` removes the file once the runner has
 * ended. `startedAt`: when this shard began (this process's start: its planning is part of the
 * shard's time); `launchMs`, the time from then to now, is what the shard paid before its runner
 * started (this process's start, reading the durations, planning): the shard's prediction at its
 * end adds it, and its costs record keeps it (the fixed cost per shard a later plan learns from the
 * run leaves it out, as each shard measures its own).
 */
export function writeShardHandoff(plan, startedAt = runStart()) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'shardwise-shard-'));
  const file = path.join(dir, 'plan.json');
  writeFileSync(file, JSON.stringify({ ...plan, startedAt, launchMs: Math.max(0, Date.now() - startedAt) }));
  return { env: { [SHARD_HANDOFF_ENV]: file }, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The planned shard handed to this process, if any: `{index, count, predictedMs, expected,
 * record, root, order, startedAt, launchMs}`; undefined without one, or when it cannot be read.
 */
export function readShardHandoff(env = process.env) {
  const file = env[SHARD_HANDOFF_ENV];
  if (!file) return undefined;
  try {
    const p = JSON.parse(readFileSync(file, 'utf8'));
    return Number.isSafeInteger(p?.index) && Number.isSafeInteger(p?.count) && p.record ? p : undefined;
  } catch {
    return undefined;
  }
}
