// Duration predictions from finished reports.
// Identity of a test: [file, ...suite titles, title] (file = test.location.file, or '' when absent).
// Per test identity and environment NAME, the prediction is the exponentially weighted mean of the
// per-report mean attempt duration, oldest report first: p = d1; p = ALPHA*d + (1-ALPHA)*p; rounded.
// The state behind it is kept per test and environment and updated once per finished report
// (Predictor): [p, n (reports seen), v (exponentially weighted variance: the spread), last (seq of the
// newest report that ran it)], so it grows with the tests, not with tests x runs.
import { COSTS_SOURCE } from '../src/sources.js';

export const ALPHA = 0.5;

/** Calls fn(identityKey, test) for every test of a report. */
export function walkTests(report, fn) {
  const visit = (suites, tests, path) => {
    for (const t of tests ?? []) fn(JSON.stringify([t.location?.file ?? '', ...path, t.title]), t);
    for (const s of suites ?? []) visit(s.suites, s.tests, [...path, s.title]);
  };
  visit(report.suites, report.tests, []);
}

// A run's costs (what its shards paid beyond its tests' bodies: the record its reporter saved in
// `sources`, see the package's src/runner/costs.mjs and Rust plan::cost) are kept in the same
// state, under keys no test has (they start with a NUL), per runner (the report's category): each
// file's cost and the model's figures, each the same weighted mean as a test's duration. The
// durations document then carries them back as a record of its own.
const MODEL = ['perShardMs', 'perWorkerMs', 'coldMs', 'perFileMs', 'perTestMs', 'workers'];
const costKey = (runner, name) => JSON.stringify(['\u0000costs', runner, name]);

/** The costs record of a report, as state entries {key -> {'': value}}, into `out`. */
function costsOf(report, out) {
  const text = (report.sources ?? []).findLast?.((s) => s?.filePath === COSTS_SOURCE)?.text;
  if (typeof text !== 'string' || typeof report.category !== 'string') return;
  let record;
  try { record = JSON.parse(text); } catch { return; }
  if (record === null || typeof record !== 'object') return;
  const put = (name, v) => { if (typeof v === 'number' && Number.isFinite(v) && v >= 0) out[costKey(report.category, name)] = { '': v }; };
  for (const k of MODEL) put(k, record[k]);
  // the files' costs fitted to the run (its workers' warm-up apart), else as the runner measured them
  const files = record.fittedFiles ?? record.files;
  if (files && typeof files === 'object') for (const [f, v] of Object.entries(files)) put(`file:${f}`, v);
}

/** The files of a report's tests: a test's location's, else its nearest `file` suite's title. */
function filesOf(report) {
  const files = new Set();
  const visit = (suites, tests, file) => {
    for (const t of tests ?? []) if (t.location?.file ?? file) files.add(t.location?.file ?? file);
    for (const s of suites ?? []) visit(s.suites, s.tests, s.type === 'file' ? s.location?.file ?? s.title : file);
  };
  visit(report.suites, report.tests, undefined);
  return files;
}

/** The costs record for a test list's runner and files, from the state; undefined without any. */
function costsFor(testList, predictor, files) {
  const runner = testList.category;
  if (typeof runner !== 'string') return undefined;
  const record = { runner };
  let any = false;
  for (const k of MODEL) {
    const v = predictor.predict(costKey(runner, k), '');
    if (v !== undefined) { record[k] = Math.round(v); any = true; }
  }
  const known = {};
  for (const f of [...files].sort()) {
    const v = predictor.predict(costKey(runner, `file:${f}`), '');
    if (v !== undefined) known[f] = Math.round(v);
  }
  if (Object.keys(known).length) { record.fittedFiles = known; any = true; }
  return any ? record : undefined;
}

/** Extracts {key -> {envName -> meanDuration}} from one result report (and its costs record). */
export function durationsOf(report) {
  const out = Object.create(null);
  costsOf(report, out);
  const envs = report.environments ?? [];
  walkTests(report, (key, t) => {
    const sums = Object.create(null);
    for (const a of t.attempts ?? []) {
      const env = envs[a.environmentIdx ?? 0]?.name;
      if (typeof env !== 'string' || !Number.isFinite(a.duration ?? 0)) continue;
      (sums[env] ??= []).push(a.duration ?? 0);
    }
    for (const env in sums) (out[key] ??= Object.create(null))[env] = sums[env].reduce((x, y) => x + y, 0) / sums[env].length;
  });
  return out;
}

/** The prediction state: test key -> {envName -> [p, n, v, last]}. */
export class Predictor {
  constructor() { this.tests = new Map(); }
  /** Folds one report's durationsOf in (reports in finishing order). */
  add(durations, seq) {
    for (const key in durations) {
      let t = this.tests.get(key);
      if (!t) this.tests.set(key, (t = Object.create(null)));
      const ds = durations[key];
      for (const env in ds) {
        const d = ds[env];
        const s = t[env];
        if (!s) { t[env] = [d, 1, 0, seq]; continue; }
        const diff = d - s[0];
        s[0] = ALPHA * d + (1 - ALPHA) * s[0];
        s[1]++;
        s[2] = (1 - ALPHA) * (s[2] + ALPHA * diff * diff);
        s[3] = seq;
      }
    }
  }
  /** The prediction (ms, unrounded) or undefined. */
  predict(key, env) { return this.tests.get(key)?.[env]?.[0]; }
  /** Drops the state of tests and environments not seen since report `seq`. */
  forgetBefore(seq) {
    for (const [key, t] of this.tests) {
      for (const env in t) if (t[env][3] < seq) delete t[env];
      let empty = true;
      for (const _ in t) { empty = false; break; }
      if (empty) this.tests.delete(key);
    }
  }
  dump() { return [...this.tests]; }
  load(rows) {
    this.tests = new Map();
    for (const [key, envs] of rows) this.tests.set(key, Object.assign(Object.create(null), envs));
  }
  get size() { return this.tests.size; }
}

/** Returns a copy of `testList` with attempts filled from the predictor, and its runner's costs. */
export function annotate(testList, predictor) {
  const doc = structuredClone(testList);
  const envs = doc.environments ?? [];
  walkTests(doc, (key, t) => {
    t.attempts = [];
    envs.forEach((env, environmentIdx) => {
      const p = predictor.predict(key, env?.name);
      if (p !== undefined) t.attempts.push({ environmentIdx, duration: Math.round(p), startTimestamp: 0 });
    });
  });
  const costs = costsFor(doc, predictor, filesOf(doc));
  if (costs) doc.sources = [...(doc.sources ?? []).filter((s) => s?.filePath !== COSTS_SOURCE), { filePath: COSTS_SOURCE, text: JSON.stringify(costs), contentType: 'application/json' }];
  return doc;
}
