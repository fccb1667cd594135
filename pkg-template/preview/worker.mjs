// The preview's worker: decodes the report and plans shards with the package's wasm, off the
// page's main thread, so a 50,000-test report never freezes the page. It keeps the decoded
// report, so each change of the shard count plans once and decodes nothing.
// The long lists (every test by duration, the flaky tests) stay here and cross in pages.
//   in:  {type: 'open', bytes: ArrayBuffer} | {type: 'plan', seq, shardCount, environment?}
//        | {type: 'rows', list: 'slowest'|'flaky', from, to} | {type: 'shard', seq, index, from, to}
//   out: {type: 'report', summary, meta} | {type: 'plan', seq, plan} | {type: 'rows', list, from, rows}
//        | {type: 'shard', seq, index, from, count, units} | {type: 'error', of, seq?, code?, message}
import init, { decodeReport, planShards } from '../browser.mjs';
import { summarize } from './summary.mjs';

const ready = init();
let report;
let lists; // {slowest, flaky}: the full lists of the open report
let planned; // {seq, plan}: the last plan, whose shards' tests cross in pages
const FIRST_PAGE = 200;

const fail = (of, e, seq) => postMessage({ type: 'error', of, seq, code: e?.code, step: e?.step, message: String(e?.message ?? e) });

self.onmessage = async ({ data }) => {
  try {
    await ready;
  } catch (e) {
    fail(data.type, { message: `cannot load the package's wasm: ${e?.message ?? e}` }, data.seq);
    return;
  }
  if (data.type === 'open') {
    report = undefined;
    lists = undefined;
    planned = undefined;
    try {
      const bytes = new Uint8Array(data.bytes);
      const t0 = performance.now();
      const decoded = decodeReport(bytes);
      const t1 = performance.now();
      const { slowest, flaky, ...figures } = summarize(decoded);
      report = decoded;
      lists = { slowest, flaky };
      postMessage({
        type: 'report',
        summary: {
          ...figures,
          slowest: { count: slowest.length, rows: slowest.slice(0, FIRST_PAGE) },
          flaky: { count: flaky.length, rows: flaky.slice(0, FIRST_PAGE) },
        },
        meta: {
          title: decoded.title, category: decoded.category, commitId: decoded.commitId, url: decoded.url,
          startTimestamp: decoded.startTimestamp, durationMs: decoded.duration, bytes: bytes.length,
          decodeMs: Math.round(t1 - t0), summarizeMs: Math.round(performance.now() - t1),
        },
      });
    } catch (e) {
      fail('open', e);
    }
  } else if (data.type === 'rows') {
    const list = lists?.[data.list] ?? [];
    postMessage({ type: 'rows', list: data.list, from: data.from, rows: list.slice(data.from, data.to) });
  } else if (data.type === 'shard') {
    const units = planned?.seq === data.seq ? planned.plan.shards[data.index - 1]?.units : undefined;
    if (!units) return fail('shard', { message: 'that plan is gone' }, data.seq);
    postMessage({ type: 'shard', seq: data.seq, index: data.index, from: data.from, count: units.length, units: units.slice(data.from, data.to) });
  } else if (data.type === 'plan') {
    if (!report) return fail('plan', { message: 'no report is open' }, data.seq);
    try {
      const t0 = performance.now();
      const opts = { report, shardCount: data.shardCount };
      if (data.environment !== undefined) opts.environment = data.environment;
      const p = planShards(opts);
      planned = { seq: data.seq, plan: p };
      // Only what the chart shows crosses back (not 50,000 unit ids).
      postMessage({
        type: 'plan',
        seq: data.seq,
        plan: {
          shardCount: data.shardCount, environment: data.environment,
          fingerprint: p.fingerprint, makespanMs: p.makespanMs, lowerBoundMs: p.lowerBoundMs, estimated: p.estimated,
          shards: p.shards.map((s) => ({ index: s.index, predictedMs: s.predictedMs, tests: s.units.length, files: s.files.length })),
          planMs: Math.round(performance.now() - t0),
        },
      });
    } catch (e) {
      fail('plan', e, data.seq);
    }
  }
};
