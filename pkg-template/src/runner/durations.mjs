// Where predicted durations come from: a timings file, else the live durations exchange.
// Returns the `getDurations` callback `planThisShard` expects; it rejects with the reason when
// durations cannot be had: a `SharedReason` when every shard shares it (nothing configured),
// and the shards then plan from estimates alike; any other error stops the shard (see planThisShard).
import { readFileSync, statSync } from 'node:fs';
import { REPORT_FILE, shardOfFolder } from '../layout.js';
import path from 'node:path';
import { canReachService } from './options.mjs';
import { savedReports } from './report.mjs';
import { plural } from './words.mjs';
import { SharedReason } from './plan.mjs';
import { readTimingsBytes, readTimingsRunsBytes, timingsOf, costsFromReport } from './timings.mjs';

/** Reads a timings file (JSON or Brotli JSON, by `decodeReport`'s rule; a plan reads it without the schema's check) with its durations and costs: `readTimingsBytes`, which takes `opts`. */
export function readTimingsFile(file, api, opts) {
  return readTimingsBytes(new Uint8Array(readFileSync(file)), api, opts);
}

/**
 * The timings `target` names: a file; a folder a reporter saved; or a folder of saved folders (a
 * sharded run's shards, or several runs' side by side), whose reports are read as one
 * (`readTimingsRunsBytes`, as `api.__mergeRuns` merges them: every test, at its mean over the
 * reports that ran it, and the costs learned from every report). `reports`: how many reports it read; `runs`: how many runs saved them.
 * `shown`: `target` as the user named it (a report of the folder that cannot be read is named
 * under it).
 * @returns {{report: object, reports: number, runs: number}}
 */
export function readTimings(target, api, opts, shown = target) {
  const files = savedReports(target).map((t) => (statSync(t).isDirectory() ? path.join(t, REPORT_FILE) : t));
  if (files.length === 1) return { report: readTimingsFile(files[0], api, opts), reports: 1, runs: 1 };
  // a report that cannot be read is named as the user knows the folder (its timingsFile)
  const names = files.map((f) => path.join(shown, path.relative(target, f)));
  const report = readTimingsRunsBytes(files.map((f) => new Uint8Array(readFileSync(f))), api, { ...opts, names });
  return { report, reports: files.length, runs: runsOf(files) };
}

/**
 * How many runs saved these report files: a sharded run's shards each saved `shard-i-of-N/` (one
 * run per repeat of a shard's folder name, wherever CI put them), another folder is a run of its own.
 */
function runsOf(files) {
  const shards = new Map();
  let whole = 0;
  for (const f of files) {
    const name = path.basename(path.dirname(f));
    if (shardOfFolder(name)) shards.set(name, (shards.get(name) ?? 0) + 1);
    else whole += 1;
  }
  return whole + Math.max(0, ...shards.values());
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
 * @param {(report: object, kinds: {flaky: boolean}) => (unit: object) => boolean} [p.select] the
 *   units a re-run of the report's failed tests runs (`options.rerun`)
 * @param {string} [p.config] distinguishes configurations in the shard group key
 * @param {boolean} [p.byFile] `lookup` and `select` read files only (`readTimingsBytes`)
 */
export function durationsSource({ api, options, cwd, testRunner, testList, lookup, select, config, byFile = false }) {
  return async () => {
    if (options.timingsFile) {
      const file = path.resolve(cwd, options.timingsFile);
      // a file runner's lookups read what the read worked out, not the report (`report: false`)
      const { report, reports, runs } = readTimings(file, api, { byFile, report: !byFile }, options.timingsFile);
      const source = `timings file ${options.timingsFile}${runs > 1 ? ` (${reports} reports of ${runs} runs, each test at its mean)` : reports > 1 ? ` (${plural(reports, 'shard report')}, read as one run)` : ''}`;
      const rerun = options.rerun && select ? (kinds) => select(report, kinds) : undefined;
      return { durationOf: lookup(report), source, costs: costsFromReport(report, api), rerun };
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
    timingsOf(report, api);
    return { durationOf: lookup(report), source: 'service', costs: costsFromReport(report, api) };
  };
}

const defined = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
