// The timings file, and reading predicted durations out of a report document.
//
// FORMAT (the one definition; README "Timings file" points here): a timings file is a shardwise
// report document (report-format.md), as JSON or Brotli-compressed JSON, exactly what
// `fetchDurations` resolves with and what `shardwise durations --out` saves. A test's predicted
// duration in an environment is the sum of the `duration` of its attempts with that
// `environmentIdx`. A saved run report (`report.json.br`) is therefore also a valid timings file:
// its attempts are measured times.
import { readFileSync } from 'node:fs';

/**
 * Every (environment, file, titlePath) of a report with its duration in ms.
 * @param {any} report a decoded report document
 * @returns {Array<{environment: string, file: string|undefined, titlePath: string[], durationMs: number}>}
 */
export function durationsFromReport(report) {
  const envNames = (report?.environments ?? []).map((e) => e?.name);
  const out = [];
  const visitTest = (test, file, titles) => {
    const perEnv = new Map();
    for (const a of test?.attempts ?? []) {
      const env = envNames[a?.environmentIdx ?? 0];
      if (env === undefined || !Number.isFinite(a?.duration)) continue;
      perEnv.set(env, (perEnv.get(env) ?? 0) + a.duration);
    }
    for (const [environment, durationMs] of perEnv)
      out.push({ environment, file: test?.location?.file ?? file, titlePath: [...titles, test.title], durationMs });
  };
  const visitSuite = (suite, file, titles) => {
    if (suite?.type === 'file') file = suite.location?.file ?? suite.title;
    else titles = [...titles, suite?.title ?? ''];
    for (const t of suite?.tests ?? []) visitTest(t, file, titles);
    for (const s of suite?.suites ?? []) visitSuite(s, file, titles);
  };
  for (const t of report?.tests ?? []) visitTest(t, undefined, []);
  for (const s of report?.suites ?? []) visitSuite(s, undefined, []);
  return out;
}

/** The lookup key of one test in one environment. */
export const testKey = (environment, file, titlePath) => JSON.stringify([environment, file ?? '', ...titlePath]);

/** Map testKey -> ms. */
export function durationsByTest(report) {
  const map = new Map();
  for (const d of durationsFromReport(report)) {
    const k = testKey(d.environment, d.file, d.titlePath);
    map.set(k, (map.get(k) ?? 0) + d.durationMs);
  }
  return map;
}

/** Map file -> ms, summed over its tests and environments (for runners that shard by file). */
export function durationsByFile(report) {
  const map = new Map();
  for (const d of durationsFromReport(report)) {
    if (d.file === undefined) continue;
    map.set(d.file, (map.get(d.file) ?? 0) + d.durationMs);
  }
  return map;
}

/** Reads a timings file (JSON or Brotli JSON) with the package's `decodeReport`. */
export function readTimingsFile(file, decodeReport) {
  return decodeReport(new Uint8Array(readFileSync(file)));
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
