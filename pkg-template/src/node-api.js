// Node additions over the shared API: attachments given by `path` are read from disk, and
// `shardGroupKeyFor` takes the CI run's id from the environment when none is given.
import { readFile } from 'node:fs/promises';
import { uploadReport as uploadReportCore, shardGroupKeyFor as shardGroupKeyForCore } from '../wasm/shardwise.js';

import { runIdFromEnv } from './runner/options.mjs';

export * from './api.js';


export function uploadReport(opts) {
  return uploadReportCore({ readFile, ...opts });
}

export function shardGroupKeyFor(opts) {
  const runId = opts?.runId ?? runIdFromEnv();
  return shardGroupKeyForCore(runId === undefined ? opts : { ...opts, runId });
}
