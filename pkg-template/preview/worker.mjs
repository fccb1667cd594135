// The preview's worker: decodes the report and plans shards with the package's wasm, off the
// page's main thread, so a 50,000-test report never freezes the page. It keeps the decoded
// report, so each change of the shard count plans once and decodes nothing.
// The long lists (every test by duration, the flaky tests) stay here and cross in pages; the test
// list (every test, filtered and sorted here) crosses only as the window the page shows.
// What crosses, both ways, is protocol.mjs's table: one handler here per TO_WORKER type.
import init, { planShards, shardCosts } from '../browser.mjs';
import { __fixedCostMs, __decodeReportTests, __testDurations } from '../wasm/shardwise.js';
import { planAsRun } from '../src/runner/timings.mjs';
import { withTestIds, summarize, keyedTests, testRows, queryRows, KEY_PATTERN, shardFigures, shardPlanOf, ranOnSeveral, SHARD_TESTS_LISTED, compareReports } from './summary.mjs';
import { TO_WORKER, FROM_WORKER, message, dispatcher } from './protocol.mjs';

const ready = init();
/** What this worker holds of the open report (all of it replaced when another opens). */
const held = {
  report: undefined,
  lists: undefined, // {slowest, flaky}: the full lists of the open report
  planned: undefined, // {seq, plan}: the last plan, whose shards' tests cross in pages
  asRun: undefined, // {environment, run}: the report as its runner would plan it (timings.mjs planAsRun)
  tests: undefined, // {all: [{test, path, file, unitId, key}], byKey: Map<key, index>, rows: Map<env|'', rows>, last: {key, list}}: the test list, built at its first query
};
const FIRST_PAGE = 200;

/** A report's bytes, decoded, with the planner's names of its tests (summary.mjs withTestIds). */
const decode = (bytes) => withTestIds(__decodeReportTests(bytes));

/** Sends the page a FROM_WORKER message. */
const post = (type, fields) => postMessage(message(FROM_WORKER, type, fields));
const fail = (of, e, seq) => post('error', { of, seq, code: e?.code, step: e?.step, message: String(e?.message ?? e) });

/** One handler per TO_WORKER message. */
/** At most this many of a report's errors outside its tests are sent to the page (the count is all of them). */
const RUN_ERRORS_SHOWN = 50;

/** The report's errors outside its tests (`unattributedErrors`: files that failed to load, a global set-up). */
function runErrorsOf(report) {
  const all = Array.isArray(report.unattributedErrors) ? report.unattributedErrors : [];
  const str = (v) => (typeof v === 'string' ? v : undefined);
  return {
    count: all.length,
    rows: all.slice(0, RUN_ERRORS_SHOWN).map((e) => ({
      message: str(e?.message), stack: str(e?.stack), snippet: str(e?.snippet),
      file: str(e?.location?.file), line: Number.isInteger(e?.location?.line) ? e.location.line : undefined,
    })),
  };
}

const handle = dispatcher(TO_WORKER, {
  open(data) {
    held.report = undefined;
    held.lists = undefined;
    held.planned = undefined;
    held.asRun = undefined;
    held.tests = undefined;
    try {
      const bytes = new Uint8Array(data.bytes);
      const t0 = performance.now();
      const decoded = decode(bytes);
      const t1 = performance.now();
      const all = keyedTests(decoded);
      const { slowest, flaky, ...figures } = summarize(decoded, all);
      held.report = decoded;
      held.tests = testIndex(all);
      held.lists = { slowest, flaky };
      post('report', {
        summary: {
          ...figures,
          slowest: { count: slowest.length, rows: slowest.slice(0, FIRST_PAGE) },
          flaky: { count: flaky.length, rows: flaky.slice(0, FIRST_PAGE) },
        },
        meta: {
          title: decoded.title, category: decoded.category, commitId: decoded.commitId, url: decoded.url,
          startTimestamp: decoded.startTimestamp, durationMs: decoded.duration, bytes: bytes.length,
          decodeMs: Math.round(t1 - t0), summarizeMs: Math.round(performance.now() - t1), shardPlan: shardPlanOf(decoded),
          runErrors: runErrorsOf(decoded),
        },
      });
    } catch (e) {
      fail('open', e);
    }
  },

  tests(data) {
    if (!held.report) return fail('tests', { message: 'no report is open' }, data.seq);
    const t0 = performance.now();
    const tests = (held.tests ??= testIndex(keyedTests(held.report)));
    const q = data.query ?? {};
    const env = q.env === undefined || q.env === '' ? '' : Number(q.env);
    if (!tests.rows.has(env)) tests.rows.set(env, testRows(tests.all, env === '' ? undefined : env));
    const key = JSON.stringify([env, q.status ?? '', q.file ?? '', q.text ?? '', q.sort ?? '', !!q.desc]);
    if (tests.last?.key !== key) tests.last = { key, list: queryRows(tests.rows.get(env), q) };
    const { list } = tests.last;
    post('tests', { seq: data.seq, count: list.length, from: data.from, rows: list.slice(data.from, data.to), ms: Math.round(performance.now() - t0) });
  },

  test(data) {
    const tests = (held.tests ??= held.report && testIndex(keyedTests(held.report)));
    const ref = String(data.ref);
    const id = !tests ? undefined : KEY_PATTERN.test(ref) ? tests.byKey.get(ref) : /^\d{1,13}$/.test(ref) ? Number(ref) : undefined;
    const t = id === undefined ? undefined : tests.all[id];
    if (!t) return post('test', { ref });
    const environments = (held.report.environments ?? []).map((e, i) => e.name ?? `#${i}`);
    post('test', { ref, test: { id, key: t.key, unitId: t.unitId, title: t.path.join(' › '), file: t.file, line: t.test.location?.line, tags: t.test.tags, attempts: t.test.attempts ?? [], environments } });
  },

  shards(data) {
    // each shard's report, decoded and reduced to its figures (the reports are not kept)
    try {
      const shards = data.reports.map(({ name, bytes }) => {
        let r;
        try { r = decode(new Uint8Array(bytes)); } catch (e) { e.message = `${name}: ${e.message}`; throw e; }
        let outside;
        try { outside = __fixedCostMs({ report: r }); } catch { outside = undefined; }
        return { name, ...shardFigures(r, outside ?? undefined) };
      });
      const twice = ranOnSeveral(shards);
      post('shards', { seq: data.seq, shards: shards.map(({ allTests, ...s }) => s), twice: { count: twice.length, tests: twice.slice(0, SHARD_TESTS_LISTED) } });
    } catch (e) {
      fail('shards', e, data.seq);
    }
  },

  compare(data) {
    if (!held.report) return fail('compare', { message: 'no report is open' }, data.seq);
    try {
      const base = decode(new Uint8Array(data.bytes));
      post('compare', { seq: data.seq, name: data.name, diff: compareReports(held.report, base) });
    } catch (e) {
      fail('compare', e, data.seq);
    }
  },

  rows(data) {
    const list = held.lists?.[data.list] ?? [];
    post('rows', { list: data.list, from: data.from, rows: list.slice(data.from, data.to) });
  },

  shard(data) {
    const units = held.planned?.seq === data.seq ? held.planned.plan.shards[data.index - 1]?.units : undefined;
    if (!units) return fail('shard', { message: 'that plan is gone' }, data.seq);
    post('shard', { seq: data.seq, index: data.index, from: data.from, count: units.length, units: units.slice(data.from, data.to) });
  },

  plan(data) {
    if (!held.report) return fail('plan', { message: 'no report is open' }, data.seq);
    try {
      const t0 = performance.now();
      // as the runner would plan the run's tests: its costs, its workers, its unit
      // learned once per report and environment (learning fits the run: several plans of it)
      if (!held.asRun || held.asRun.environment !== data.environment) {
        held.asRun = { environment: data.environment, run: planAsRun(held.report, { shardCosts, __testDurations }, { environment: data.environment }) };
      }
      const { run } = held.asRun;
      const p = planShards({ ...run.options(), shardCount: data.shardCount });
      held.planned = { seq: data.seq, plan: p };
      // Only what the chart shows crosses back (not 50,000 unit ids).
      post('plan', {
        seq: data.seq,
        plan: {
          shardCount: data.shardCount, environment: data.environment,
          fingerprint: p.fingerprint, makespanMs: p.makespanMs, lowerBoundMs: p.lowerBoundMs, estimated: p.estimated,
          unit: run.fileUnits ? 'file' : 'test', workers: run.workers ?? 1, costs: run.learned.source,
          shards: p.shards.map((s) => ({ index: s.index, predictedMs: s.predictedMs, tests: s.units.length, files: s.files.length })),
          planMs: Math.round(performance.now() - t0),
        },
      });
    } catch (e) {
      fail('plan', e, data.seq);
    }
  },
});

self.onmessage = async ({ data }) => {
  try {
    await ready;
  } catch (e) {
    fail(data.type, { message: `cannot load the package's wasm: ${e?.message ?? e}` }, data.seq);
    return;
  }
  handle(data);
};

/** The open report's tests with their keys, and each key's position (the first test with it). */
function testIndex(all) {
  const byKey = new Map();
  for (let i = all.length - 1; i >= 0; i--) byKey.set(all[i].key, i);
  return { all, byKey, rows: new Map(), last: undefined };
}
