// Duration predictions from finished reports.
// Identity of a test: [file, ...suite titles, title] (file = test.location.file, or '' when absent).
// Per test identity and environment NAME, the prediction is the exponentially weighted mean of the
// per-report mean attempt duration, oldest report first: p = d1; p = ALPHA*d + (1-ALPHA)*p; rounded.
// The state behind it is kept per test and environment and updated once per finished report
// (Predictor): [p, n (reports seen), v (exponentially weighted variance: the spread), last (seq of the
// newest report that ran it)], so it grows with the tests, not with tests x runs.
export const ALPHA = 0.5;

/** Calls fn(identityKey, test) for every test of a report. */
export function walkTests(report, fn) {
  const visit = (suites, tests, path) => {
    for (const t of tests ?? []) fn(JSON.stringify([t.location?.file ?? '', ...path, t.title]), t);
    for (const s of suites ?? []) visit(s.suites, s.tests, [...path, s.title]);
  };
  visit(report.suites, report.tests, []);
}

/** Extracts {key -> {envName -> meanDuration}} from one result report. */
export function durationsOf(report) {
  const out = Object.create(null);
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

/** Returns a copy of `testList` with attempts filled from the predictor. */
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
  return doc;
}
