// Duration predictions from finished reports.
// A test is named as the history and the planner name it: its key (src/tests.js `keyOf`: a hash
// of the planner's unit id, `#test=<key>` in the preview), from the tests Rust lists for the
// report (history.mjs `readTests`), so one test is one key in the predictions, the history and
// the preview. Per test key and environment NAME, the prediction is the exponentially weighted
// mean of the per-report mean attempt duration, oldest report first: p = d1; p = ALPHA*d +
// (1-ALPHA)*p; rounded. The state behind it is kept per test and environment and updated once per
// finished report (Predictor): [p, n (reports seen), v (exponentially weighted variance: the
// spread), last (seq of the newest report that ran it)], so it grows with the tests, not with
// tests x runs.
//
// Data written before the tests were keyed so kept their states under the service's own walk of
// the report, JSON [location file or '', ...every suite title, title] (`legacyKeysOf`): those are
// loaded as they are (a state of its own, `legacy`) and still answer for a test that has no state
// under its key yet; the first report that runs the test carries its legacy state over to its key
// (the legacy entry then goes). Legacy states no report claims are forgotten as any state is
// (retention); no new one is ever written.
import { COSTS_SOURCE, costsRecordOf } from '../src/sources.js';
import { KEY_PATTERN } from '../src/tests.js';

export const ALPHA = 0.5;

/** How a test was named before its key (data folders written then): for reading their states only. */
function legacyWalk(report, fn) {
  const visit = (suites, tests, path) => {
    for (const t of tests ?? []) fn(JSON.stringify([t.location?.file ?? '', ...path, t.title]), t);
    for (const s of suites ?? []) visit(s.suites, s.tests, [...path, s.title]);
  };
  visit(report.suites, report.tests, []);
}
/** key -> the name its test had before keys (legacyWalk), for the listed `tests` of `report`. */
function legacyKeysOf(report, tests) {
  const old = new Map();
  legacyWalk(report, (k, t) => old.set(t, k));
  return new Map(tests.map((t) => [t.key, old.get(t.test)]));
}
const LEGACY = Symbol('legacy keys');

// A run's costs (what its shards paid beyond its tests' bodies: the record its reporter saved in
// `sources`, see the package's src/runner/costs.mjs and Rust plan::cost) are kept in the same
// state, under keys no test has (they start with a NUL), per runner (the report's category): each
// file's cost and the model's figures, each the same weighted mean as a test's duration. The
// durations document then carries them back as a record of its own.
const MODEL = ['perShardMs', 'perWorkerMs', 'coldMs', 'perFileMs', 'perTestMs', 'workers'];
const costKey = (runner, name) => JSON.stringify(['\u0000costs', runner, name]);
const COST_PREFIX = JSON.stringify(['\u0000costs']).slice(0, -1);
/** A key of the state that is neither a test's key nor a costs figure: a legacy name. */
const isLegacy = (key) => !KEY_PATTERN.test(key) && !key.startsWith(COST_PREFIX);

/** The costs record of a report, as state entries {key -> {'': value}}, into `out`. */
function costsOf(report, out) {
  const record = costsRecordOf(report);
  if (!record || typeof report.category !== 'string') return;
  const put = (name, v) => { if (typeof v === 'number' && Number.isFinite(v) && v >= 0) out[costKey(report.category, name)] = { '': v }; };
  for (const k of MODEL) put(k, record[k]);
  // the files' costs fitted to the run (its workers' warm-up apart), else as the runner measured them
  const files = record.fittedFiles ?? record.files;
  if (files && typeof files === 'object') for (const [f, v] of Object.entries(files)) put(`file:${f}`, v);
  // start costs (a test environment's first load per worker): each one's time, and its files
  for (const st of Array.isArray(record.starts) ? record.starts : []) {
    if (typeof st?.id !== 'string' || !st.id || st.id.includes('\n')) continue;
    put(`start:${st.id}`, st.durationMs);
    for (const f of Array.isArray(st.files) ? st.files : []) if (typeof f === 'string') put(`start-file:${st.id}\n${f}`, 1);
  }
  // each of the suite's modules, what its transforms took (Vitest): the modules' weights in a plan
  const transforms = record.transforms;
  if (transforms && typeof transforms === 'object') for (const [m, v] of Object.entries(transforms)) put(`module:${m}`, v);
}

/** Per costs figure of `runner` whose name starts with `kind` (`start:`, `module:`): the rest of its name and its prediction. */
function* keyedFigures(predictor, runner, kind) {
  const prefix = costKey(runner, kind).slice(0, -2);
  for (const key of predictor.tests.keys()) {
    if (key.startsWith(prefix)) yield [JSON.parse(key)[2].slice(kind.length), predictor.predict(key, '')];
  }
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
  const sorted = [...files].sort();
  for (const f of sorted) {
    const v = predictor.predict(costKey(runner, `file:${f}`), '');
    if (v !== undefined) known[f] = Math.round(v);
  }
  if (Object.keys(known).length) { record.fittedFiles = known; any = true; }
  // the start costs whose files the list has
  const starts = [];
  for (const [id, ms] of keyedFigures(predictor, runner, 'start:')) {
    const mine = sorted.filter((f) => predictor.predict(costKey(runner, `start-file:${id}\n${f}`), '') !== undefined);
    if (ms !== undefined && mine.length) starts.push({ id, durationMs: Math.round(ms), files: mine });
  }
  if (starts.length) { record.starts = starts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)); any = true; }
  // the modules' transforms, all of the runner's (a plan weighs the modules its files load)
  const transforms = [];
  for (const [m, ms] of keyedFigures(predictor, runner, 'module:')) if (ms !== undefined) transforms.push([m, Math.round(ms)]);
  if (transforms.length) { record.transforms = Object.fromEntries(transforms.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))); any = true; }
  return any ? record : undefined;
}

/**
 * Extracts {key -> {envName -> meanDuration}} from one result report (and its costs record):
 * `tests` are its tests as Rust lists them (history.mjs readTests; none: a report Rust cannot
 * read, its costs only).
 */
export function durationsOf(report, tests = []) {
  const out = Object.create(null);
  costsOf(report, out);
  const envs = report.environments ?? [];
  for (const { test: t, key } of tests) {
    const sums = Object.create(null);
    for (const a of t.attempts ?? []) {
      const env = envs[a.environmentIdx ?? 0]?.name;
      if (typeof env !== 'string' || !Number.isFinite(a.duration ?? 0)) continue;
      (sums[env] ??= []).push(a.duration ?? 0);
    }
    for (const env in sums) (out[key] ??= Object.create(null))[env] = sums[env].reduce((x, y) => x + y, 0) / sums[env].length;
  }
  // asked only while legacy states are left (Predictor.add)
  Object.defineProperty(out, LEGACY, { value: () => legacyKeysOf(report, tests) });
  return out;
}

const copyState = (t) => {
  const c = Object.create(null);
  for (const env in t) c[env] = [...t[env]];
  return c;
};

/** The prediction state: test key -> {envName -> [p, n, v, last]}; `legacy`: the same by legacy name. */
export class Predictor {
  constructor() { this.tests = new Map(); this.legacy = new Map(); }
  /** Folds one report's durationsOf in (reports in finishing order). */
  add(durations, seq) {
    let legacyOf;
    const claimed = [];
    for (const key in durations) {
      const map = isLegacy(key) ? this.legacy : this.tests; // legacy: an index.json being migrated
      let t = map.get(key);
      if (!t && map === this.tests && this.legacy.size) {
        // a test first seen under its key: its state from before keys, if any, carried over
        legacyOf ??= durations[LEGACY]?.() ?? new Map();
        const old = legacyOf.get(key);
        const prev = old === undefined ? undefined : this.legacy.get(old);
        if (prev) { this.tests.set(key, (t = copyState(prev))); claimed.push(old); }
      }
      if (!t) map.set(key, (t = Object.create(null)));
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
    for (const old of claimed) this.legacy.delete(old);
  }
  /** The prediction (ms, unrounded) or undefined. */
  predict(key, env) { return this.tests.get(key)?.[env]?.[0]; }
  /** Drops the state of tests and environments not seen since report `seq`. */
  forgetBefore(seq) {
    for (const map of [this.tests, this.legacy]) {
      for (const [key, t] of map) {
        for (const env in t) if (t[env][3] < seq) delete t[env];
        let empty = true;
        for (const _ in t) { empty = false; break; }
        if (empty) map.delete(key);
      }
    }
  }
  dump() { return [...this.tests, ...this.legacy]; }
  load(rows) {
    this.tests = new Map();
    this.legacy = new Map();
    for (const [key, envs] of rows) (isLegacy(key) ? this.legacy : this.tests).set(key, Object.assign(Object.create(null), envs));
  }
  get size() { return this.tests.size + this.legacy.size; }
}

/**
 * A test list annotated: `read` is the list read by history.mjs readTests (its document is
 * changed in place and returned): every test's attempts are its predictions, one per environment
 * that has one; the runner's costs for the list's files (the files Rust names) as a source.
 */
export function annotate(read, predictor) {
  const doc = read.report;
  const envs = doc.environments ?? [];
  const legacyOf = predictor.legacy.size ? legacyKeysOf(doc, read.tests) : undefined;
  for (const t of read.tests) {
    const own = predictor.tests.get(t.key) ?? (legacyOf && predictor.legacy.get(legacyOf.get(t.key)));
    t.test.attempts = [];
    envs.forEach((env, environmentIdx) => {
      const p = own?.[env?.name]?.[0];
      if (p !== undefined) t.test.attempts.push({ environmentIdx, duration: Math.round(p), startTimestamp: 0 });
    });
  }
  const files = new Set();
  for (const t of read.tests) if (typeof t.file === 'string') files.add(t.file);
  const costs = costsFor(doc, predictor, files);
  if (costs) doc.sources = [...(doc.sources ?? []).filter((s) => s?.filePath !== COSTS_SOURCE), { filePath: COSTS_SOURCE, text: JSON.stringify(costs), contentType: 'application/json' }];
  return doc;
}
