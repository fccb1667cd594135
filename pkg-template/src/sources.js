// The `sources` entries shardwise adds to a report (docs/report-format.md §3.1: any file's text may
// be one, and the analytics service keeps them without reading them): the one place their paths are
// named, pure (no wasm, no IO), for the runners, the CLI, the local service and the preview alike.

/** A balanced shard's part of its plan (src/runner/report.mjs `addShardPlan`; the preview's shard view reads it). */
export const SHARD_PLAN_SOURCE = '.shardwise/shard.json';

/** A run's costs record (src/runner/costs.mjs; Rust `plan::cost::COSTS_SOURCE`, which a test checks it equals). */
export const COSTS_SOURCE = '.shardwise/costs.json';

/** The plan a shard's report carries (SHARD_PLAN_SOURCE's JSON), or undefined. */
export function shardPlanOf(report) {
  const src = (report?.sources ?? []).find((s) => s?.filePath === SHARD_PLAN_SOURCE);
  if (!src) return undefined;
  try {
    const p = JSON.parse(src.text);
    return p && typeof p === 'object' ? p : undefined;
  } catch {
    return undefined;
  }
}
