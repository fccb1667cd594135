// The figures the report preview shows, computed from a decoded report (report-format.md).
// Pure: no DOM, no wasm; runs in the preview's worker and in tests.

/** Every test of the report with its title path (suite titles, without the file) and file. */
export function* walkTests(report) {
  function* suite(s, path, file) {
    const isFile = s.type === 'file';
    const f = isFile ? s.location?.file ?? s.title : file;
    const p = isFile || !s.title ? path : [...path, s.title];
    for (const t of s.tests ?? []) yield { test: t, path: [...p, t.title], file: t.location?.file ?? f };
    for (const c of s.suites ?? []) yield* suite(c, p, f);
  }
  for (const t of report.tests ?? []) yield { test: t, path: [t.title], file: t.location?.file };
  for (const s of report.suites ?? []) yield* suite(s, [], s.location?.file);
}

/**
 * The outcome of one test: per environment its attempts in order; the environment's outcome is
 * that of its last attempt (as expected or not). `failed` when some environment's last attempt
 * is not as expected; `flaky` when none failed but some environment needed a retry (an attempt
 * not as expected, then the last one as expected); `skipped` when every attempt was skipped (or
 * there were none); else `passed`.
 * @returns {{outcome: 'passed'|'failed'|'flaky'|'skipped', flakyIn: number[]}}
 */
export function outcomeOf(test) {
  const byEnv = new Map();
  for (const a of test.attempts ?? []) {
    const idx = a.environmentIdx ?? 0;
    if (!byEnv.has(idx)) byEnv.set(idx, []);
    byEnv.get(idx).push(a);
  }
  let failed = false;
  let ran = false;
  const flakyIn = [];
  for (const [idx, attempts] of byEnv) {
    const ok = attempts.map((a) => (a.status ?? 'passed') === (a.expectedStatus ?? 'passed'));
    const last = attempts[attempts.length - 1];
    if (!ok[ok.length - 1]) failed = true;
    else if (ok.some((x) => !x)) flakyIn.push(idx);
    if ((last.status ?? 'passed') !== 'skipped') ran = true;
  }
  const outcome = failed ? 'failed' : flakyIn.length ? 'flaky' : ran ? 'passed' : 'skipped';
  return { outcome, flakyIn };
}

/**
 * The page's figures. A test's duration is the sum of its attempts' durations (every retry, every
 * environment): what it costs a shard, and what `planShards` sums for a report.
 * @returns {{
 *   totals: {tests: number, passed: number, failed: number, flaky: number, skipped: number},
 *   environments: Array<{name: string, tests: number, attempts: number, durationMs: number}>,
 *   totalMs: number,
 *   flaky: Array<{title: string, file?: string, environments: string[]}>,
 *   slowest: Array<{title: string, file?: string, durationMs: number}>,
 * }} `slowest` holds every test, slowest first (ties by title).
 */
export function summarize(report) {
  const totals = { tests: 0, passed: 0, failed: 0, flaky: 0, skipped: 0 };
  const environments = (report.environments ?? []).map((e, i) => ({ name: e.name ?? `#${i}`, tests: 0, attempts: 0, durationMs: 0 }));
  const flaky = [];
  const slowest = [];
  let totalMs = 0;
  for (const { test, path, file } of walkTests(report)) {
    totals.tests++;
    let durationMs = 0;
    const seen = new Set();
    for (const a of test.attempts ?? []) {
      const d = a.duration ?? 0;
      durationMs += d;
      const env = environments[a.environmentIdx ?? 0];
      if (!env) continue;
      env.attempts++;
      env.durationMs += d;
      if (!seen.has(env)) { seen.add(env); env.tests++; }
    }
    totalMs += durationMs;
    const { outcome, flakyIn } = outcomeOf(test);
    totals[outcome]++;
    const title = path.join(' › ');
    if (outcome === 'flaky') flaky.push({ title, file, environments: flakyIn.map((i) => environments[i]?.name ?? `#${i}`) });
    slowest.push({ title, file, durationMs });
  }
  slowest.sort((a, b) => b.durationMs - a.durationMs || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
  return { totals, environments, totalMs, flaky, slowest };
}
