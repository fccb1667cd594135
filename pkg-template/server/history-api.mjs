// The history read routes of the local service (GET, behind the token beyond loopback like every
// read): answered from the store's history state (history.mjs) and its list of reports, never by
// reading a report.
//
//   GET /api/history/tests/<key>[?runs=N]
//     one test (its key: the preview's `#test=<key>`) over the last N runs (default 100):
//     {key, unitId, window: {runs, reports, from?, to?}, runs: [{report, seq, commitId,
//     finishedAt, startedAt?, title?, status, durationMs}] (each report of those runs that has
//     it) oldest first, counts: {runs, passed, failed, flaky, skipped}, flakyRate,
//     failing, firstFailed: the run of its current failing streak it first failed in (or null),
//     lastReport}
//   GET /api/history/tests[?runs=N&sort=flaky|slowdown&limit=L&offset=O]
//     a page of the flakiest tests (flaky runs / runs it ran in, then flaky runs) or the most
//     slowed-down (mean duration of its passed runs in the newer half of the window
//     against the older half) over the last N runs: {window, sort, total, offset, tests: [...]}
//
// A run is a run of the suite, whose reports the service holds: the shards of one CI run (the
// same commit, shard count and run id: src/layout.js runKeyOf, the shard view's rule) are one
// run, any other report a run of its own; the same bytes uploaded again are not another run.
// "The last N runs" count such runs (3 shards of a run: 3 reports, 1 run). A test's status in a
// report is the preview's outcome of it (src/tests.js): failed, flaky (failed then passed on a
// retry), passed or skipped; a test is in one report of a run unless a shard ran it again.
import { fail } from './errors.mjs';
import { KEY_PATTERN } from '../src/tests.js';
import { STATUS } from './history.mjs';
import { runKeyOf } from '../src/layout.js';

export const DEFAULT_RUNS = 100;
export const MAX_PAGE = 500;
const DEFAULT_PAGE = 50;

const whole = (params, name, dflt, min, max) => {
  const v = params.get(name);
  if (v === null) return dflt;
  if (!/^\d{1,9}$/.test(v) || Number(v) < min || Number(v) > max) fail(400, 'invalid_request', `${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(v.slice(0, 20))}`);
  return Number(v);
};

const runKeys = new WeakMap(); // a report's meta -> its run (runKeyOf), computed once
const runKey = (r) => {
  let k = runKeys.get(r);
  if (k === undefined) runKeys.set(r, (k = runKeyOf(r)));
  return k;
};

/**
 * The window: the reports of the newest N runs (src/layout.js runKeyOf: the shards of one run are one
 * run; a run is as new as its newest report; a report uploaded again with the same bytes is not
 * one): `{runs: how many, reports: theirs, oldest first, seqs: their seqs, recent: per report 1
 * when its run is in the newer half of the runs}`.
 */
function windowOf(store, params) {
  const n = whole(params, 'runs', DEFAULT_RUNS, 1, 1_000_000);
  const place = new Map(); // run -> its place, newest first
  const picked = [];
  // every report is looked at: a run's first shards may be older than another run's reports
  for (let i = store.reports.length - 1; i >= 0; i--) {
    const r = store.reports[i];
    if (r.duplicateOf) continue;
    const k = runKey(r);
    let at = place.get(k);
    if (at === undefined) {
      if (place.size === n) continue;
      place.set(k, (at = place.size));
    }
    picked.push([r, at]);
  }
  picked.reverse();
  // the newer half: as many runs as the older half, or one more
  const newer = place.size - Math.floor(place.size / 2);
  return { runs: place.size, reports: picked.map((p) => p[0]), seqs: picked.map((p) => p[0].seq), recent: picked.map((p) => (p[1] < newer ? 1 : 0)) };
}

const runOf = (r) => ({
  report: r.id, seq: r.seq, commitId: r.commitId, finishedAt: r.finishedAt,
  ...(r.startedAt ? { startedAt: r.startedAt } : {}), ...(r.title !== undefined ? { title: r.title } : {}),
});
const windowInfo = (w) => ({ runs: w.runs, reports: w.reports.length, ...(w.reports.length ? { from: runOf(w.reports[0]), to: runOf(w.reports[w.reports.length - 1]) } : {}) });

/** The report (meta) with this seq, from the store's list (ascending by seq), or undefined (dropped by retention). */
function reportBySeq(store, seq) {
  const list = store.reports;
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const m = (lo + hi) >>> 1;
    if (list[m].seq === seq) return list[m];
    if (list[m].seq < seq) lo = m + 1; else hi = m - 1;
  }
  return undefined;
}

const rate = (flaky, ran) => (ran ? Math.round((flaky / ran) * 1e4) / 1e4 : 0);

function testHistory(store, key, params) {
  if (!KEY_PATTERN.test(key)) fail(400, 'invalid_request', 'a test key is 14 hexadecimal digits (the preview\'s #test=<key>)');
  const h = store.history;
  const idx = h.indexOf(key);
  const window = windowOf(store, params);
  if (idx === undefined) fail(404, 'not_found', 'no report this service holds has this test');
  const all = [];
  for (const e of h.testRuns(idx)) {
    const r = reportBySeq(store, e.seq);
    if (r) all.push({ ...runOf(r), status: e.status, durationMs: e.durationMs });
  }
  if (!all.length) fail(404, 'not_found', 'no report this service holds has this test');
  const inWindow = new Set(window.seqs);
  const runs = all.filter((e) => inWindow.has(e.seq));
  const counts = { runs: runs.length, passed: 0, failed: 0, flaky: 0, skipped: 0 };
  for (const e of runs) counts[e.status]++;
  // its current failing streak, over every run held (not only the window): skipped runs do not end it
  let firstFailed = null;
  let streak = 0;
  for (let i = all.length - 1; i >= 0; i--) {
    const s = all[i].status;
    if (s === 'skipped') continue;
    if (s !== 'failed') break;
    firstFailed = all[i];
    streak++;
  }
  if (firstFailed) firstFailed = { ...firstFailed, streak };
  const newest = reportBySeq(store, h.last[idx]);
  return {
    key, unitId: h.unitIds[idx], window: windowInfo(window), runs, counts,
    flakyRate: rate(counts.flaky, counts.passed + counts.failed + counts.flaky),
    failing: !!firstFailed, firstFailed, ...(newest ? { lastReport: newest.id } : {}),
  };
}

/** The tests of a sort (flaky: any flaky run; slowdown: slower recently), best first. */
function order(h, f, sort) {
  const n = f.passed.length;
  const picked = [];
  const score = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (sort === 'flaky') {
      const ran = f.passed[i] + f.failed[i] + f.flaky[i];
      if (!f.flaky[i]) continue;
      score[i] = f.flaky[i] / ran;
    } else {
      if (!f.earlierN[i] || !f.recentN[i]) continue;
      const d = f.recentSum[i] / f.recentN[i] - f.earlierSum[i] / f.earlierN[i];
      if (!(d > 0)) continue;
      score[i] = d;
    }
    picked.push(i);
  }
  const tie = sort === 'flaky' ? f.flaky : f.recentN;
  picked.sort((a, b) => score[b] - score[a] || tie[b] - tie[a] || (h.unitIds[a] < h.unitIds[b] ? -1 : 1));
  return picked;
}

function testsPage(store, params) {
  const sort = params.get('sort') ?? 'flaky';
  if (sort !== 'flaky' && sort !== 'slowdown') fail(400, 'invalid_request', 'sort must be flaky or slowdown');
  const limit = whole(params, 'limit', DEFAULT_PAGE, 1, MAX_PAGE);
  const offset = whole(params, 'offset', 0, 0, 100_000_000);
  const window = windowOf(store, params);
  const h = store.history;
  if (!window.reports.length) return { window: windowInfo(window), sort, total: 0, offset, tests: [] };
  const f = h.figures(window);
  // the order is kept with the figures (until the next run): the next page is a slice
  const picked = ((f.sorted ??= {})[sort] ??= order(h, f, sort));
  const tests = picked.slice(offset, offset + limit).map((i) => {
    const ran = f.passed[i] + f.failed[i] + f.flaky[i];
    const earlierMs = f.earlierN[i] ? Math.round(f.earlierSum[i] / f.earlierN[i]) : undefined;
    const recentMs = f.recentN[i] ? Math.round(f.recentSum[i] / f.recentN[i]) : undefined;
    const newest = reportBySeq(store, h.last[i]);
    return {
      key: h.keys[i], unitId: h.unitIds[i],
      counts: { runs: ran + f.skipped[i], passed: f.passed[i], failed: f.failed[i], flaky: f.flaky[i], skipped: f.skipped[i] },
      flakyRate: rate(f.flaky[i], ran), lastStatus: STATUS[f.lastStatus[i]] || undefined,
      ...(earlierMs !== undefined ? { earlierMs } : {}), ...(recentMs !== undefined ? { recentMs } : {}),
      ...(earlierMs !== undefined && recentMs !== undefined ? { slowdownMs: recentMs - earlierMs } : {}),
      ...(newest ? { lastReport: newest.id } : {}),
    };
  });
  return { window: windowInfo(window), sort, total: picked.length, offset, tests };
}

/** The answer of a history route (`path` under /api/history), or an HttpError. */
export function historyRoute(store, path, params) {
  if (path === '/api/history/tests') return testsPage(store, params);
  const m = /^\/api\/history\/tests\/([^/]+)$/.exec(path);
  if (m) return testHistory(store, m[1], params);
  fail(404, 'not_found', `no route ${path}; the history routes are /api/history/tests and /api/history/tests/<key>`);
}
