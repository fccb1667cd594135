// Which reports of the service's list are one run: the one rule, for the preview's shard view
// (shard-run.mjs: the shards of the open report's run) and the local service's history
// (server/history-api.mjs: "the last N runs" count runs, not reports). Pure: no DOM.
import { shardOfTitle } from '../src/layout.js';

/**
 * The run a report of the service's list (`/api/reports`: `{id, commitId, title?, shard?}`)
 * belongs to, as a string the reports of one run share. A shard (its `shard` record, from the
 * plan its report carries: `.shardwise/shard.json`, else a title `shard i/n`) is of the run of
 * its commit, shard count and run id (`shard.runId`: the CI run, re-run jobs included; without
 * one, outside CI or from an older shardwise, every shard of that commit and count is of one
 * run); any other report is a run of its own.
 */
export function runKeyOf(r) {
  const s = r.shard ?? shardOfTitle(r.title);
  if (!s) return `report ${r.id}`;
  return JSON.stringify([r.commitId ?? '', s.count, r.shard?.runId ?? '']);
}
