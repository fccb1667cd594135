// Duration predictions from finished reports.
// Identity of a test: [file, ...suite titles, title] (file = test.location.file, or '' when absent).
// Per test identity and environment NAME, the prediction is the exponentially weighted mean of the
// per-report mean attempt duration, oldest report first: p = d1; p = ALPHA*d + (1-ALPHA)*p; rounded.
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
  const out = {};
  const envs = report.environments ?? [];
  walkTests(report, (key, t) => {
    const sums = {};
    for (const a of t.attempts ?? []) {
      const env = envs[a.environmentIdx ?? 0]?.name;
      if (env === undefined || !Number.isFinite(a.duration ?? 0)) continue;
      (sums[env] ??= []).push(a.duration ?? 0);
    }
    for (const [env, ds] of Object.entries(sums)) (out[key] ??= {})[env] = ds.reduce((x, y) => x + y, 0) / ds.length;
  });
  return out;
}

/** Returns a copy of `testList` with attempts filled from `history` (array of durationsOf, oldest first). */
export function annotate(testList, history) {
  const doc = structuredClone(testList);
  const envs = doc.environments ?? [];
  walkTests(doc, (key, t) => {
    t.attempts = [];
    envs.forEach((env, environmentIdx) => {
      let p;
      for (const h of history) {
        const d = h[key]?.[env.name];
        if (d !== undefined) p = p === undefined ? d : ALPHA * d + (1 - ALPHA) * p;
      }
      if (p !== undefined) t.attempts.push({ environmentIdx, duration: Math.round(p), startTimestamp: 0 });
    });
  });
  return doc;
}
