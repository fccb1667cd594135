// The figures the report preview shows, computed from a decoded report (docs/report-format.md).
// Pure: no DOM, no wasm; runs in the preview's worker and in tests.
import { SHARD_PLAN_SOURCE, shardPlanOf } from '../src/sources.js';
import { shardOfTitle } from '../src/layout.js';

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
 * The test whose place starts at `places[at]` (`listed_tests`: the place's length, then the
 * indexes of the test's suites from `report.suites` down, then its index in the innermost one's
 * `tests`; a top-level test's place is its index in `report.tests` alone) and its title path (the
 * titles of its suites that are neither `file` suites nor empty, then its own).
 */
function testAt(report, places, at) {
  const end = at + places[at];
  let { tests, suites } = report;
  const path = [];
  for (let i = at + 1; i < end; i++) {
    const s = suites?.[places[i]];
    if (!s) return undefined;
    if (s.type !== 'file' && s.title) path.push(s.title);
    ({ tests, suites } = s);
  }
  const test = tests?.[places[end]];
  return test && { test, path: [...path, test.title] };
}

/** A 53-bit hash of a string (cyrb53), as 14 hex digits. */
function hash53(str) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/**
 * A test's key: the link that opens it (`#test=<key>`), the same in every report that has the
 * test (a hash of its unit id; the n-th test sharing a unit id in one report, n >= 2, hashes
 * `id\0n`), so it survives reordering, added and removed tests, and matches tests across reports.
 * Exactly 14 hex digits: a link `#test=<digits>` shorter than that is a list position (older links).
 */
export const KEY_PATTERN = /^[0-9a-f]{14}$/;
export function keyOf(unitId, nth = 1) {
  return hash53(nth > 1 ? `${unitId}\0${nth}` : unitId);
}

/**
 * Every test of the report (`{test, path, file, unitId, key}`, in document order), as Rust listed
 * it for the report read by `withTestIds`: each found by its place and checked against the title
 * Rust read there, so a report and a list that disagree fail loudly instead of misnaming tests.
 */
export function keyedTests(report) {
  const named = TEST_IDS.get(report);
  if (!named) throw new Error('internal: the report was not read with __decodeReportTests (withTestIds)');
  const { ids, files, titles, places } = named;
  const seen = new Map();
  const all = [];
  for (let i = 0, at = 0; i < ids.length; i++, at += places[at] + 1) {
    const t = testAt(report, places, at);
    if (!t || (t.test.title ?? '') !== titles[i]) {
      throw new Error(`internal: the report has no test titled ${JSON.stringify(titles[i])} at [${places.subarray(at + 1, at + 1 + places[at])}]`);
    }
    const id = ids[i];
    const nth = (seen.get(id) ?? 0) + 1;
    seen.set(id, nth);
    t.file = files[i];
    t.unitId = id;
    t.key = keyOf(id, nth);
    all.push(t);
  }
  return all;
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
const timeOf = (test) => (test.attempts ?? []).reduce((s, a) => s + (a.duration ?? 0), 0);
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
