// The `sources` entries shardwise adds to a report (docs/report-format.md §3.1: any file's text may
// be one, and the analytics service keeps them without reading them): the one place their paths are
// named, pure (no wasm, no IO), for the runners, the CLI, the local service and the preview alike.

/** A balanced shard's part of its plan (src/runner/report.mjs `addShardPlan`; the preview's shard view reads it). */
export const SHARD_PLAN_SOURCE = '.shardwise/shard.json';

/** A run's costs record (src/runner/costs.mjs; Rust `plan::cost::COSTS_SOURCE`, which a test checks it equals). */
export const COSTS_SOURCE = '.shardwise/costs.json';

/**
 * The JSON object a report's `sources` entry at `filePath` holds (the last such entry: a writer
 * replaces its entry), or undefined when there is none, or its text is not a JSON object.
 */
function jsonSourceOf(report, filePath) {
  const sources = Array.isArray(report?.sources) ? report.sources : [];
  let src;
  for (const s of sources) if (s?.filePath === filePath) src = s;
  if (typeof src?.text !== 'string') return undefined;
  try {
    const v = JSON.parse(src.text);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The plan a shard's report carries (SHARD_PLAN_SOURCE's JSON), or undefined. */
export function shardPlanOf(report) {
  return jsonSourceOf(report, SHARD_PLAN_SOURCE);
}

/** The costs record a run's report carries (COSTS_SOURCE's JSON: src/runner/costs.mjs), or undefined. */
export function costsRecordOf(report) {
  return jsonSourceOf(report, COSTS_SOURCE);
}
