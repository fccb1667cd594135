// The timings file, and reading predicted durations out of a report document.
//
// FORMAT (the one definition; README "Timings file" points here): a timings file is a shardwise
// report document (docs/report-format.md), as JSON or Brotli-compressed JSON, exactly what
// `fetchDurations` resolves with and what `shardwise durations --out` saves. A test's predicted
// duration in an environment is the sum of the `duration` of its attempts with that
// `environmentIdx`. A saved run report (`report.json.br`) is therefore also a valid timings file:
// its attempts are measured times.
//
// The wasm is reached through `api`, the package namespace (or a fake in tests), as everywhere in
// the runners: `api.__testDurations`. No Node module here: the preview's worker plans with it too.

/**
 * Per timings report object, its durations and cost model read together in one pass (Rust
 * `__readTimings`, `__timingsOf`): a shard's plan needs both, and each call apart carries the
 * whole report into the wasm again. A timings report is read, never changed.
 */
const worked = new WeakMap();

/**
 * Every (environment, file, titlePath) of a report with its duration in ms (Rust
 * `plan::from_report::test_durations`: the file and title rules are the planner's).
 * @param {any} report a decoded report document
 * @param {{__testDurations: Function}} api the package namespace
 * @returns {Array<{environment: string, file?: string, titlePath: string[], durationMs: number}>}
 */
export const durationsFromReport = (report, api) => worked.get(report)?.durations ?? api.__testDurations(report);

/**
 * A report's cost model (`shardCosts`), as `planShards` takes it in `costs`; worked out once with
 * its durations where the report was read as timings (`readTimingsBytes`, `timingsOf`).
 */
export const costsFromReport = (report, api) => worked.get(report)?.costs ?? api.shardCosts(report);

/**
 * A timings file's bytes as a report (as `decodeReport` reads them, without the published
 * schema's check: Rust `__readTimings`), its durations and costs worked out with it.
 * `byFile`: a file runner's read (Jest, Vitest, node:test): its tests' durations summed by file
 * (`durationsByFile`, `rerunFiles`), not listed each with its title path; asked for each test,
 * the report's durations are worked out then. `report: false` (with `byFile` only): no report
 * object, only what was worked out (see `keep`).
 */
export function readTimingsBytes(bytes, api, { byFile = false, report: whole = true } = {}) {
  if (!api.__readTimings) return api.decodeReport(bytes);
  const { report, durations, files, costs } = api.__readTimings(bytes, byFile, whole);
  return keep(report, { durations, files, costs });
}

/**
 * What a timings read worked out, under the report it was read from, or (`report: false`, a file
 * runner's plan: it reads only `durationsByFile`, `rerunFiles` and `costsFromReport`, which take
 * the files' figures and the costs from here) under an object that stands for it.
 */
function keep(report, found) {
  const key = report ?? {};
  worked.set(key, found);
  return key;
}

/**
 * Several saved reports' bytes (a folder of shards' or runs' reports) as one timings report
 * (`__mergeRuns`: each test at its mean over the runs), read as `readTimingsBytes` reads one.
 * `names`: each report's file, which the error of one that cannot be read starts with.
 */
export function readTimingsRunsBytes(list, api, { byFile = false, names, report: whole = true } = {}) {
  if (!api.__readTimingsRuns) return timingsOf(api.__mergeRuns(list.map((bytes) => api.decodeReport(bytes))), api);
  const { report, durations, files, costs } = api.__readTimingsRuns(list, byFile, names, whole);
  return keep(report, { durations, files, costs });
}

/** A report object as timings (the durations exchange's answer, several shards' reports merged): its durations and costs worked out together. */
export function timingsOf(report, api) {
  if (api.__timingsOf && !worked.has(report)) worked.set(report, api.__timingsOf(report));
  return report;
}

/** The lookup key of one test in one environment. */
export const testKey = (environment, file, titlePath) => JSON.stringify([environment, file ?? '', ...titlePath]);

/** Map testKey -> ms. */
export function durationsByTest(report, api) {
  const map = new Map();
  for (const d of durationsFromReport(report, api)) {
    const k = testKey(d.environment, d.file, d.titlePath);
    map.set(k, (map.get(k) ?? 0) + d.durationMs);
  }
  return map;
}

/**
 * What a re-run of a report's failed tests picks (`SHARDWISE_RERUN`, Rust's outcome per
 * environment in `__testDurations`): the keys (`testKey`) and the files of the tests that failed,
 * and with `flaky` those that passed on a retry too.
 * @returns {{tests: Set<string>, files: Set<string>}}
 */
export function rerunSelection(report, api, { flaky = false } = {}) {
  const tests = new Set();
  const files = new Set();
  for (const d of durationsFromReport(report, api)) {
    if (d.outcome !== 'failed' && !(flaky && d.outcome === 'flaky')) continue;
    tests.add(testKey(d.environment, d.file, d.titlePath));
    if (d.file !== undefined) files.add(d.file);
  }
  return { tests, files };
}

/** The files of `rerunSelection` (a file runner re-runs each file whole), from a by-file read's sums where it has them. */
export function rerunFiles(report, api, { flaky = false } = {}) {
  const files = worked.get(report)?.files;
  if (!files) return rerunSelection(report, api, { flaky }).files;
  return new Set(files.filter((f) => f.failed || (flaky && f.flaky)).map((f) => f.file));
}

/**
 * Map file -> ms, summed over its tests and environments (for runners that shard by file). In a
 * node:test report a test with subtests is a test too, and its duration holds theirs: a file's
 * time is then its outermost tests' (the planner marks the others `nested`).
 */
export function durationsByFile(report, api) {
  const files = worked.get(report)?.files;
  if (files) return new Map(files.map((f) => [f.file, f.durationMs]));
  const map = new Map();
  for (const d of durationsFromReport(report, api)) {
    if (d.file === undefined || d.nested) continue;
    map.set(d.file, (map.get(d.file) ?? 0) + d.durationMs);
  }
  return map;
}

/**
 * A report's files as planner units, as the Jest and Vitest sequencers make them (`files.mjs`):
 * id and file the report's file, its prediction the sum of its tests' (at least 1 ms when
 * measured, as `planThisShard` counts any measured unit).
 */
export function fileUnitsFromReport(report, api) {
  return [...durationsByFile(report, api)].map(([file, ms]) => ({ id: file, file, durationMs: Math.max(1, Math.round(ms)) }));
}

/**
 * A saved run's report planned as its runner plans it, for `shardwise plan <report>` and the
 * preview's shard chart: the cost model it teaches (`shardCosts`: its files' costs, the fixed cost
 * per shard, its workers' start and cold cost), its workers, and for a runner that runs each file
 * whole (Jest, Vitest) its files as the units (unless an `environment` is chosen: files have none).
 * Throws what `shardCosts` throws for a document that is not a report.
 * @returns {{learned: object, costs: object, perShardOverheadMs: number, workers?: number, fileUnits?: () => Array<object>, options: () => object}}
 */
export function planAsRun(report, api, { environment } = {}) {
  const learned = costsFromReport(report, api);
  const run = {
    learned,
    costs: learned.costs,
    perShardOverheadMs: learned.perShardOverheadMs,
    ...(learned.workers > 1 ? { workers: learned.workers } : {}),
    ...(learned.unit === 'file' && environment === undefined ? { fileUnits: () => fileUnitsFromReport(report, api) } : {}),
  };
  /** All of it as `planShards` options (without `shardCount`). */
  run.options = () => ({
    costs: run.costs,
    perShardOverheadMs: run.perShardOverheadMs,
    ...(run.workers ? { workers: run.workers } : {}),
    ...(run.fileUnits ? { units: run.fileUnits() } : { report }),
    ...(environment !== undefined ? { environment } : {}),
  });
  return run;
}

/** A report's tests with their attempts removed: the test list the durations exchange takes. */
export function testListFrom(report) {
  const strip = (t) => ({ ...t, attempts: [] });
  const suite = (s) => ({ ...s, ...(s.tests ? { tests: s.tests.map(strip) } : {}), ...(s.suites ? { suites: s.suites.map(suite) } : {}) });
  const out = { ...report };
  if (report.tests) out.tests = report.tests.map(strip);
  if (report.suites) out.suites = report.suites.map(suite);
  return out;
}
