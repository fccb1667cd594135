// The balancing flow every runner shares: durations in, `planShards` (Rust) decides, one line out.
// `api` is the package namespace (or a fake in tests): only `planShards` is used here.

/** Human duration: "850ms", "12.3s". */
export const fmtMs = (ms) => (ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`);

/** The one line each shard prints (the tests parse `fingerprint <hex>` from it). */
export function shardLine({ plan, shardIndex, shardCount, unitCount, unitLabel = 'tests', source, workers = 1 }) {
  const shard = plan.shards.find((s) => s.index === shardIndex);
  const predicted = shard ? shard.predictedMs : 0;
  let line = `[shardwise] shard ${shardIndex}/${shardCount}: predicted ${fmtMs(predicted)}${workers > 1 ? ` over ${workers} workers` : ''}, `
    + `makespan ${fmtMs(plan.makespanMs)}, lower bound ${fmtMs(plan.lowerBoundMs)}, `
    + `${plan.estimated} of ${unitCount} ${unitLabel} estimated (durations: ${source}), fingerprint ${plan.fingerprint}`;
  if (!shard || shard.units.length === 0) {
    line += unitCount === 0
      ? ` -- this shard has nothing to run: no ${unitLabel} were selected`
      : ` -- this shard has nothing to run: ${unitCount} ${unitLabel} in fewer indivisible groups than ${shardCount} shards`;
  }
  return line;
}

/**
 * A shard that must not run: durations the other shards may have had could not be had here (a
 * different split would run tests twice or never), or the shard has nothing to run. `line` is
 * the one line the runner prints; the run then fails.
 */
export class ShardStop extends Error {
  constructor(line) {
    super(line);
    this.name = 'ShardStop';
    this.line = line;
  }
}

/**
 * Durations that could not be had for a reason every shard shares (no service and no timings
 * file configured, no test titles in the sources): every shard then plans from estimates alone,
 * alike. Any other failure (the service, the network, a timings file that cannot be read) may
 * hit one shard and not the others, and stops the shard.
 */
export class SharedReason extends Error {}

/**
 * Plans every shard and returns this shard's part, and the record `shardwise verify` reads.
 *
 * The policy (README "When durations cannot be had"): the durations exchange retries within its
 * budget (`durationsTimeoutMs`); if durations still cannot be had for a reason that may be this
 * shard's alone, the shard does not run a split of its own: it stops with one line saying why
 * and how to re-run it (`ShardStop`). Only a reason all shards share (`SharedReason`) plans
 * from estimates, the same plan on every shard. A shard with nothing to run stops too, unless
 * `allowEmptyShards`.
 * @param {object} p
 * @param {{planShards: Function}} p.api
 * @param {Array<{id: string, file?: string, group?: string}>} p.units units without durations
 * @param {number} p.shardIndex 1-based
 * @param {number} p.shardCount
 * @param {() => Promise<{durationOf: (unit: object) => number|undefined, source: string}>} p.getDurations
 * @param {string} [p.unitLabel]
 * @param {number} [p.workers] the runner's parallel workers in one shard (the same on every shard:
 *   it is part of the plan): a shard's predicted time is then the makespan over them
 * @param {{allowEmptyShards?: boolean}} [p.options]
 * @returns {Promise<{plan, shard, mine: Set<string>, line: string, record: object}>}
 * @throws {ShardStop}
 */
export async function planShard({ api, units, shardIndex, shardCount, getDurations, unitLabel = 'tests', workers, options = {} }) {
  workers = workerCount(workers);
  let source;
  let withDurations = units;
  try {
    const d = await getDurations();
    source = d.source;
    // a measured duration is known, also when it rounds to 0 ms (the planner reads 0 as
    // unknown): at least 1 ms, as the planner counts any measured test
    withDurations = units.map((u) => {
      const ms = d.durationOf(u);
      return ms === undefined ? u : { ...u, durationMs: Math.max(1, Math.round(ms)) };
    });
  } catch (e) {
    const why = `${e?.code && !String(e?.message).startsWith(e.code) ? `${e.code}: ` : ''}${e?.message ?? e}`;
    if (!(e instanceof SharedReason)) {
      throw new ShardStop(`[shardwise] shard ${shardIndex}/${shardCount} stopped: durations unavailable (${why}). `
        + 'The other shards may have planned with them, and a split of its own would run tests twice or never, so this shard runs nothing and fails. '
        + 'Re-run this shard: the same commit and run id give the same plan.');
    }
    source = `none (${why}); estimates only, the same plan on every shard`;
  }
  // Only the fields api.md defines: the core rejects unknown keys.
  const coreUnits = withDurations.map(({ id, file, group, durationMs }) => {
    const u = { id };
    if (file !== undefined) u.file = file;
    if (group !== undefined) u.group = group;
    if (durationMs !== undefined) u.durationMs = durationMs;
    return u;
  });
  const plan = api.planShards({ units: coreUnits, shardCount, ...(workers > 1 ? { workers } : {}) });
  const shard = plan.shards.find((s) => s.index === shardIndex) ?? { index: shardIndex, predictedMs: 0, units: [], files: [] };
  let line = shardLine({ plan, shardIndex, shardCount, unitCount: units.length, unitLabel, source, workers });
  if (units.length > 0 && plan.estimated > ESTIMATED_SHARE * units.length) {
    line += `\n[shardwise] ${plan.estimated} of ${units.length} ${unitLabel} (${Math.round((100 * plan.estimated) / units.length)}%) had no duration and were estimated: `
      + 'the split is a guess for them. A timings file from a recent full run, or a service that has seen one, gives them durations';
  }
  if (shard.units.length === 0 && !options.allowEmptyShards)
    throw new ShardStop(`${line}; the shard fails rather than pass having run nothing (allowEmptyShards: true lets it pass)`);
  return {
    plan,
    shard,
    mine: new Set(shard.units),
    line,
    record: { fingerprint: plan.fingerprint, shardIndex, shardCount, units: units.map((u) => u.id), assigned: shard.units },
  };
}

/** A runner's configured worker count as the planner takes it: a whole number >= 1, else 1. */
export const workerCount = (n) => (Number.isSafeInteger(n) && n >= 1 ? n : 1);

/** When a shard's tests take this much more or less than predicted, the durations are stale. */
export const STALE_SHARE = 0.25;
/** ...and by at least this much (a few hundred ms either way is noise, not staleness). */
export const STALE_MIN_MS = 1000;
/** When more than this share of the units had no duration, the plan is mostly a guess. */
export const ESTIMATED_SHARE = 0.2;

/**
 * The lines at the end of a balanced shard: what it took against the prediction, and, when the
 * report tells how long its tests took (`testsMs`: first test's start to last test's end), what
 * of it was start-up and set-up; then, when its tests took more than STALE_SHARE more or less
 * than predicted, one line saying the durations are stale and what to do.
 */
export function actualLines(shardIndex, shardCount, predictedMs, actualMs, testsMs) {
  const head = `[shardwise] shard ${shardIndex}/${shardCount} took ${fmtMs(actualMs)}`;
  if (testsMs === undefined) return [`${head} (predicted ${fmtMs(predictedMs)})`];
  const lines = [`${head}: its tests ${fmtMs(testsMs)} (predicted ${fmtMs(predictedMs)}), start-up and set-up ${fmtMs(Math.max(0, actualMs - testsMs))}`];
  const off = testsMs - predictedMs;
  if (Math.abs(off) >= STALE_MIN_MS && Math.abs(off) > STALE_SHARE * predictedMs) {
    const pct = predictedMs > 0 ? `${off > 0 ? '+' : ''}${Math.round((100 * off) / predictedMs)}%` : 'no prediction';
    lines.push(`[shardwise] shard ${shardIndex}/${shardCount}: its tests took ${fmtMs(testsMs)} against ${fmtMs(predictedMs)} predicted (${pct}): `
      + 'the durations it planned with are stale. Refresh the timings file from a recent full run (npx shardwise durations), '
      + 'or let the service see more runs of this suite; shards stay balanced only as far as the durations are right');
  }
  return lines;
}

/**
 * The tests' span in a run (first attempt's start to last attempt's end, or the busiest worker's
 * test time), from the report builder, which keeps it as attempts are added; undefined if no
 * attempt had a duration.
 */
export function testsSpanMs(builder) {
  const ms = builder?.__testsBusyMs();
  return ms === undefined ? undefined : Math.round(ms);
}

// Jest's and Vitest's sequencer (which plans) and reporter (which reports) are separate objects in
// one process: the shard's prediction and record (for shard.json) pass from one to the other here.
const PREDICTION = Symbol.for('shardwise.prediction');

/** @param {{index: number, count: number, predictedMs: number, record?: object, root?: string}} p */
export const setShardPrediction = (p) => { globalThis[PREDICTION] = p; };

/** @returns {{index: number, count: number, predictedMs: number, record?: object, root?: string} | undefined} */
export const shardPrediction = () => globalThis[PREDICTION];
