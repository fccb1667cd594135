// Node additions over the shared API: attachments given by `path` are read from disk, and
// `shardGroupKeyFor` takes the CI run's id from the environment when none is given.
import { readFile } from 'node:fs/promises';
import { uploadReport as uploadReportCore, shardGroupKeyFor as shardGroupKeyForCore } from '../wasm/shardwise.js';

export * from './api.js';

/** The run id of the CI systems that expose one, equal on every shard of a run. */
export function ciRunId(env = process.env) {
  if (env.GITHUB_RUN_ID) return `gh-${env.GITHUB_RUN_ID}-${env.GITHUB_RUN_ATTEMPT ?? '1'}`;
  const id = env.CI_PIPELINE_ID ?? env.CIRCLE_WORKFLOW_ID ?? env.BUILDKITE_BUILD_ID ?? env.BUILD_BUILDID ?? env.SHARDWISE_RUN_ID;
  return id === undefined ? undefined : String(id);
}

export function uploadReport(opts) {
  return uploadReportCore({ readFile, ...opts });
}

export function shardGroupKeyFor(opts) {
  const runId = opts?.runId ?? ciRunId();
  return shardGroupKeyForCore(runId === undefined ? opts : { ...opts, runId });
}
