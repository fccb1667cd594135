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

/**
 * The test list's rows: one per test (`id` = its index in `walkTests` order), or, given an
 * environment index, one per test that ran there, with that environment's attempts only.
 * `retries` counts the attempts beyond the first in each environment.
 * @param {Array<{test: object, path: string[], file?: string}>} all `[...walkTests(report)]`
 * @param {number} [env]
 * @returns {Array<{id: number, title: string, file?: string, line?: number, outcome: string, durationMs: number, retries: number}>}
 */
export function testRows(all, env) {
  const rows = [];
  for (let id = 0; id < all.length; id++) {
    const { test, path, file } = all[id];
    let attempts = test.attempts ?? [];
    if (env !== undefined) {
      attempts = attempts.filter((a) => (a.environmentIdx ?? 0) === env);
      if (!attempts.length) continue;
    }
    let durationMs = 0;
    const envs = new Set();
    for (const a of attempts) { durationMs += a.duration ?? 0; envs.add(a.environmentIdx ?? 0); }
    rows.push({
      id, title: path.join(' › '), file, line: test.location?.line, outcome: outcomeOf({ attempts }).outcome,
      durationMs, retries: attempts.length - envs.size,
    });
  }
  return rows;
}

const RANK = { failed: 0, flaky: 1, passed: 2, skipped: 3 };
const cmpStr = (a = '', b = '') => (a < b ? -1 : a > b ? 1 : 0);
const ORDER = {
  status: (a, b) => RANK[a.outcome] - RANK[b.outcome],
  title: (a, b) => cmpStr(a.title, b.title),
  file: (a, b) => cmpStr(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0),
  duration: (a, b) => a.durationMs - b.durationMs,
  retries: (a, b) => a.retries - b.retries,
};

/**
 * The rows a query selects, in its order: `status` (an outcome, or '' for all), `file` (part of
 * the file path), `text` (words that must all be in the title, any case), `sort` (status, title,
 * file, duration, retries; else report order) and `desc`. Ties keep report order.
 */
export function queryRows(rows, { status = '', file = '', text = '', sort = '', desc = false } = {}) {
  const words = String(text).toLowerCase().split(/\s+/).filter(Boolean);
  const part = String(file).toLowerCase();
  const list = rows.filter((r) => (!status || r.outcome === status)
    && (!part || (r.file ?? '').toLowerCase().includes(part))
    && (!words.length || words.every((w) => r.title.toLowerCase().includes(w))));
  const by = ORDER[sort];
  if (by) list.sort(desc ? (a, b) => by(b, a) || a.id - b.id : (a, b) => by(a, b) || a.id - b.id);
  return list;
}
