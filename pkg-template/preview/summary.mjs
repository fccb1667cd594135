// The figures the report preview shows, computed from a decoded report (docs/report-format.md).
// Pure: no DOM, no wasm; runs in the preview's worker and in tests.
import { SHARD_PLAN_SOURCE, shardPlanOf } from '../src/sources.js';
import { shardOfTitle } from '../src/layout.js';
import { KEY_PATTERN, keyOf, listedTests, outcomeOf, durationOf } from '../src/tests.js';

// a test's key and outcome are src/tests.js's, shared with the local service's history
export { KEY_PATTERN, keyOf, outcomeOf };

/**
 * Every test of the report with its title path (suite titles, without the file), in document
 * order: top-level tests, then each suite's tests before its child suites. The preview itself
 * lists tests as Rust names them (`keyedTests`), each found by its place, not by this walk.
 */
export function* walkTests(report) {
  function* suite(s, path) {
    const p = s.type === 'file' || !s.title ? path : [...path, s.title];
    for (const t of s.tests ?? []) yield { test: t, path: [...p, t.title] };
    for (const c of s.suites ?? []) yield* suite(c, p);
  }
  for (const t of report.tests ?? []) yield { test: t, path: [t.title] };
  for (const s of report.suites ?? []) yield* suite(s, []);
}

/**
 * The planner's names of a report's tests, kept beside the decoded report: `__decodeReportTests`
 * (wasm) lists each test with its unit id (`file › suite › title`, the id `planShards` uses),
 * file, own title and place in the document (src/plan/from_report.rs `listed_tests`), so this
 * page never re-implements the planner's rule nor relies on walking the report in Rust's order.
 */
const TEST_IDS = new WeakMap();

/** `{report, ids, files, titles, places}` from `__decodeReportTests`: the report, its tests' names kept. */
export function withTestIds({ report, ids, files, titles, places }) {
  TEST_IDS.set(report, { ids, files, titles, places });
  return report;
}

/**
 * Every test of the report (`{test, path, file, unitId, key}`, in document order), as Rust listed
 * it for the report read by `withTestIds` (src/tests.js `listedTests`).
 */
export function keyedTests(report) {
  const named = TEST_IDS.get(report);
  if (!named) throw new Error('internal: the report was not read with __decodeReportTests (withTestIds)');
  return listedTests({ report, ...named });
}

/**
 * The page's figures (`all`: `keyedTests(report)`, when the caller has it). A test's duration is the sum of its attempts' durations (every retry, every
 * environment): what it costs a shard, and what `planShards` sums for a report.
 * @returns {{
 *   totals: {tests: number, passed: number, failed: number, flaky: number, skipped: number},
 *   environments: Array<{name: string, tests: number, attempts: number, durationMs: number}>,
 *   totalMs: number,
 *   flaky: Array<{key: string, title: string, file?: string, environments: string[]}>,
 *   slowest: Array<{key: string, title: string, file?: string, durationMs: number}>,
 * }} `slowest` holds every test, slowest first (ties by title).
 */
export function summarize(report, all = keyedTests(report)) {
  const totals = { tests: 0, passed: 0, failed: 0, flaky: 0, skipped: 0 };
  const environments = (report.environments ?? []).map((e, i) => ({ name: e.name ?? `#${i}`, tests: 0, attempts: 0, durationMs: 0 }));
  const flaky = [];
  const slowest = [];
  let totalMs = 0;
  for (const { test, path, file, key } of all) {
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
    if (outcome === 'flaky') flaky.push({ key, title, file, environments: flakyIn.map((i) => environments[i]?.name ?? `#${i}`) });
    slowest.push({ key, title, file, durationMs });
  }
  slowest.sort((a, b) => b.durationMs - a.durationMs || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
  return { totals, environments, totalMs, flaky, slowest };
}

/**
 * The test list's rows: one per test (`id` = its index in `keyedTests`, `key` its link), or, given an
 * environment index, one per test that ran there, with that environment's attempts only.
 * `retries` counts the attempts beyond the first in each environment.
 * @param {Array<{test: object, path: string[], file?: string, key: string}>} all `keyedTests(report)`
 * @param {number} [env]
 * @returns {Array<{id: number, key: string, title: string, file?: string, line?: number, outcome: string, durationMs: number, retries: number}>}
 */
export function testRows(all, env) {
  const rows = [];
  for (let id = 0; id < all.length; id++) {
    const { test, path, file, key } = all[id];
    let attempts = test.attempts ?? [];
    if (env !== undefined) {
      attempts = attempts.filter((a) => (a.environmentIdx ?? 0) === env);
      if (!attempts.length) continue;
    }
    let durationMs = 0;
    const envs = new Set();
    for (const a of attempts) { durationMs += a.duration ?? 0; envs.add(a.environmentIdx ?? 0); }
    rows.push({
      id, key, title: path.join(' › '), file, line: test.location?.line, outcome: outcomeOf({ attempts }).outcome,
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

/** A test's time: the sum of its attempts' durations. */
const timeOf = durationOf;
const byTitle = (a, b) => cmpStr(a.title, b.title) || cmpStr(a.key, b.key);

/**
 * What changed from `base` (the earlier report) to `head` (the open one), tests matched by key:
 * `newFailures` (failed now, not before: `before` says what it was, `absent` for a new test),
 * `fixed` (failed before, passed or flaky now), `newlyFlaky` (flaky now, not before), `moved`
 * (in both and run in both, the `top` largest changes of duration first), and the counts of
 * tests `added` and `removed`. Lists are by title except `moved`.
 */
export function compareReports(head, base, { top = 20 } = {}) {
  const index = (report) => {
    const m = new Map();
    for (const { test, path, file, key } of keyedTests(report))
      m.set(key, { key, title: path.join(' › '), file, outcome: outcomeOf(test).outcome, durationMs: timeOf(test) });
    return m;
  };
  const h = index(head);
  const b = index(base);
  const newFailures = [];
  const fixed = [];
  const newlyFlaky = [];
  const moved = [];
  let added = 0;
  for (const t of h.values()) {
    const was = b.get(t.key);
    if (!was) added++;
    const before = was?.outcome ?? 'absent';
    if (t.outcome === 'failed' && before !== 'failed') newFailures.push({ ...t, before });
    if (before === 'failed' && (t.outcome === 'passed' || t.outcome === 'flaky')) fixed.push({ ...t, before });
    if (t.outcome === 'flaky' && before !== 'flaky') newlyFlaky.push({ ...t, before });
    if (was && t.outcome !== 'skipped' && before !== 'skipped' && t.durationMs !== was.durationMs)
      moved.push({ ...t, beforeMs: was.durationMs, deltaMs: t.durationMs - was.durationMs });
  }
  let removed = 0;
  for (const k of b.keys()) if (!h.has(k)) removed++;
  newFailures.sort(byTitle);
  fixed.sort(byTitle);
  newlyFlaky.sort(byTitle);
  moved.sort((x, y) => Math.abs(y.deltaMs) - Math.abs(x.deltaMs) || byTitle(x, y));
  return { tests: h.size, baseTests: b.size, added, removed, newFailures, fixed, newlyFlaky, moved: moved.slice(0, top), movedCount: moved.length };
}

/**
 * Where a balanced shard's report carries its plan: a `sources` entry (docs/report-format.md §3.11:
 * Source {filePath, text, contentType}) at this path whose text is JSON `{shardIndex, shardCount,
 * fingerprint, predictedMs, units, unit}` (`units`: how many of the plan's units this shard was to
 * run; `unit`: "test" or "file"). Written by the reporters (src/runner/report.mjs), read here.
 */

export { SHARD_PLAN_SOURCE };

export { shardPlanOf };

/** `{index, count}` from a shard report's title ("shard 2/3", as the reporters write it: src/layout.js), or undefined. */
export { shardOfTitle };

/** Each shard's tests listed in the shard view at most (slowest first). */
export const SHARD_TESTS_LISTED = 200;

/**
 * One shard's figures for the shard view: which shard (its plan, else its title), what the plan
 * predicted, what its tests took (`spanMs`: first test's start to last test's end, from
 * `outsideMs`, the report's time outside its tests as the planner reads it) and its wall time,
 * its tests by outcome and the slowest of them (`allTests`: every one, slowest first).
 */
export function shardFigures(report, outsideMs) {
  const plan = shardPlanOf(report);
  const titled = shardOfTitle(report.title);
  const totals = { tests: 0, passed: 0, failed: 0, flaky: 0, skipped: 0 };
  const tests = [];
  let testMs = 0;
  for (const { test, path, file, key } of keyedTests(report)) {
    const { outcome } = outcomeOf(test);
    totals.tests++;
    totals[outcome]++;
    const durationMs = timeOf(test);
    testMs += durationMs;
    tests.push({ key, title: path.join(' › '), file, outcome, durationMs });
  }
  tests.sort((a, b) => b.durationMs - a.durationMs || byTitle(a, b));
  const wallMs = Number.isFinite(report.duration) ? report.duration : undefined;
  return {
    index: plan?.shardIndex ?? titled?.index, count: plan?.shardCount ?? titled?.count, title: report.title, commitId: report.commitId,
    startTimestamp: report.startTimestamp, plan, totals, testMs, wallMs,
    spanMs: wallMs !== undefined && outsideMs !== undefined ? Math.max(0, wallMs - outsideMs) : undefined,
    tests: tests.slice(0, SHARD_TESTS_LISTED),
    allTests: tests,
  };
}

/**
 * The tests that ran on more than one shard of a run (a shard that planned differently, or a
 * runner that did not keep to the plan), by title: `[{key, title, shards: [i, j, ...]}]`.
 * @param {Array<{index?: number, allTests: Array<{key: string, title: string}>}>} shards
 */
export function ranOnSeveral(shards) {
  const where = new Map();
  for (const s of shards) {
    for (const t of s.allTests) {
      const w = where.get(t.key);
      if (!w) where.set(t.key, { key: t.key, title: t.title, shards: [s.index] });
      else if (!w.shards.includes(s.index)) w.shards.push(s.index);
    }
  }
  return [...where.values()].filter((w) => w.shards.length > 1).sort(byTitle);
}
