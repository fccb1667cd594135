// A report's tests as Rust lists them, their keys and their outcomes: the one definition, for the
// report preview (in the browser) and the local service's history (in Node). Pure: no DOM, no
// wasm; the names come from `__decodeReportTests` (src/bindings/report.rs: every test's planner
// unit id, file, own title and place in the document, src/plan/from_report.rs `listed_tests`), so
// no reader re-implements the planner's rule nor relies on walking the report in Rust's order.

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
 * `id\0n`), so it survives reordering, added and removed tests, and matches tests across reports
 * (the preview's comparison, the local service's history). Exactly 14 hex digits: a link
 * `#test=<digits>` shorter than that is a list position (older links).
 */
export const KEY_PATTERN = /^[0-9a-f]{14}$/;
export function keyOf(unitId, nth = 1) {
  return hash53(nth > 1 ? `${unitId}\0${nth}` : unitId);
}

/**
 * Every test of a report (`{test, path, file, unitId, key}`, in document order) from what
 * `__decodeReportTests` answered (`{report, ids, files, titles, places}`): each found by its place
 * and checked against the title Rust read there, so a report and a list that disagree fail loudly
 * instead of misnaming tests.
 */
export function listedTests({ report, ids, files, titles, places }) {
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

/** A test's duration: the sum of its attempts' durations (every retry, every environment), what it costs a shard. */
export const durationOf = (test) => (test.attempts ?? []).reduce((s, a) => s + (a.duration ?? 0), 0);
