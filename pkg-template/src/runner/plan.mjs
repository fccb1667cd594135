// The balancing flow every runner shares: durations in, `planShards` (Rust) decides, one line out.
// `api` is the package namespace (or a fake in tests): only `planShards` is used here.

/** Human duration: "850ms", "12.3s". */
export const fmtMs = (ms) => (ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`);

/** The one line each shard prints (the tests parse `fingerprint <hex>` from it). */
export function shardLine({ plan, shardIndex, shardCount, unitCount, unitLabel = 'tests', source }) {
  const shard = plan.shards.find((s) => s.index === shardIndex);
  const predicted = shard ? shard.predictedMs : 0;
  let line = `[shardwise] shard ${shardIndex}/${shardCount}: predicted ${fmtMs(predicted)}, `
    + `makespan ${fmtMs(plan.makespanMs)}, lower bound ${fmtMs(plan.lowerBoundMs)}, `
    + `${plan.estimated} of ${unitCount} ${unitLabel} estimated (durations: ${source}), fingerprint ${plan.fingerprint}`;
  if (!shard || shard.units.length === 0)
    line += ` -- this shard has nothing to run: ${unitCount} ${unitLabel} in fewer indivisible groups than ${shardCount} shards`;
  return line;
}

/**
 * Plans every shard and returns this shard's part.
 * @param {object} p
 * @param {{planShards: Function}} p.api
 * @param {Array<{id: string, file?: string, group?: string}>} p.units units without durations
 * @param {number} p.shardIndex 1-based
 * @param {number} p.shardCount
 * @param {() => Promise<{durationOf: (unit: object) => number|undefined, source: string}>} p.getDurations
 *   rejects when durations cannot be had; every shard then uses the same estimate-only plan
 * @param {string} [p.unitLabel]
 */
export async function planShard({ api, units, shardIndex, shardCount, getDurations, unitLabel }) {
  let source;
  let withDurations = units;
  try {
    const d = await getDurations();
    source = d.source;
    withDurations = units.map((u) => {
      const ms = d.durationOf(u);
      return ms === undefined ? u : { ...u, durationMs: Math.round(ms) };
    });
  } catch (e) {
    const why = String(e?.message ?? e);
    source = `unavailable (${e?.code && !why.startsWith(e.code) ? `${e.code}: ` : ''}${why}); estimates only, the same plan on every shard`;
  }
  // Only the fields api.md defines: the core rejects unknown keys.
  const coreUnits = withDurations.map(({ id, file, group, durationMs }) => {
    const u = { id };
    if (file !== undefined) u.file = file;
    if (group !== undefined) u.group = group;
    if (durationMs !== undefined) u.durationMs = durationMs;
    return u;
  });
  const plan = api.planShards({ units: coreUnits, shardCount });
  const shard = plan.shards.find((s) => s.index === shardIndex) ?? { index: shardIndex, predictedMs: 0, units: [], files: [] };
  return {
    plan,
    shard,
    mine: new Set(shard.units),
    line: shardLine({ plan, shardIndex, shardCount, unitCount: units.length, unitLabel, source }),
  };
}

/** The line printed at the end of a balanced shard. */
export const actualLine = (shardIndex, shardCount, predictedMs, actualMs) =>
  `[shardwise] shard ${shardIndex}/${shardCount} took ${fmtMs(actualMs)} (predicted ${fmtMs(predictedMs)})`;

// Jest's and Vitest's sequencer (which plans) and reporter (which reports) are separate objects in
// one process: the shard's prediction passes from one to the other here.
const PREDICTION = Symbol.for('shardwise.prediction');

/** @param {{index: number, count: number, predictedMs: number}} p */
export const setShardPrediction = (p) => { globalThis[PREDICTION] = p; };

/** @returns {{index: number, count: number, predictedMs: number} | undefined} */
export const shardPrediction = () => globalThis[PREDICTION];
