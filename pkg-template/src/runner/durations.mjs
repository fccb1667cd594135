// Where predicted durations come from: a timings file, else the live durations exchange.
// Returns the `getDurations` callback `planThisShard` expects; it rejects with the reason when
// durations cannot be had: a `SharedReason` when every shard shares it (nothing configured),
// and the shards then plan from estimates alike; any other error stops the shard (see planThisShard).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { canReachService } from './options.mjs';
import { SharedReason } from './plan.mjs';

/** Reads a timings file (JSON or Brotli JSON) with the package's `decodeReport`. */
export function readTimingsFile(file, decodeReport) {
  return decodeReport(new Uint8Array(readFileSync(file)));
}

/**
 * @param {object} p
 * @param {object} p.api the package namespace (`decodeReport`, `fetchDurations`, `shardGroupKeyFor`)
 * @param {object} p.options resolved options
 * @param {string} p.cwd base of a relative `timingsFile`
 * @param {string} p.testRunner `playwright` | `jest` | `vitest`
 * @param {() => object} p.testList builds the test list report for the live exchange (may throw a
 *   `SharedReason`: no test to ask for)
 * @param {(report: object) => (unit: object) => number|undefined} p.lookup
 * @param {string} [p.config] distinguishes configurations in the shard group key
 */
export function durationsSource({ api, options, cwd, testRunner, testList, lookup, config }) {
  return async () => {
    if (options.timingsFile) {
      const file = path.resolve(cwd, options.timingsFile);
      const report = readTimingsFile(file, api.decodeReport);
      return { durationOf: lookup(report), source: `timings file ${options.timingsFile}`, costs: api.shardCosts(report) };
    }
    if (!canReachService(options))
      throw new SharedReason('no timingsFile and no SHARDWISE_BASE_URL / SHARDWISE_ACCESS_TOKEN');
    if (!options.commitId) throw new SharedReason('no commit id (not a git checkout; set SHARDWISE_COMMIT_ID)');
    const list = testList();
    const report = await api.fetchDurations({
      baseUrl: options.baseUrl,
      accessToken: options.accessToken,
      commitId: options.commitId,
      shardGroupKey: api.shardGroupKeyFor(defined({ commitId: options.commitId, runId: options.runId, testRunner, config })),
      report: list,
      ...(options.durationsTimeoutMs !== undefined ? { timeoutMs: options.durationsTimeoutMs } : {}),
    });
    return { durationOf: lookup(report), source: 'service', costs: api.shardCosts(report) };
  };
}

const defined = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
