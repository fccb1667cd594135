// The shards of a sharded run, side by side: from a folder (its shard-i-of-n/ reports) or from
// the service (the open shard report's siblings: the same commit, titled "shard j/n", the newest
// of each). Each shard: its tests, what the plan predicted (carried in the report: src/sources.js
// SHARD_PLAN_SOURCE) against what its tests took, and the plan's fingerprint (every shard of one
// run must have planned alike).
import { $, el, fill } from './dom.mjs';
import { fmt, count, ms, reportLabel } from './format.mjs';
import { shardOfTitle } from '../src/layout.js';
import { runKeyOf } from '../src/layout.js';
import { fetchBytes, reportRoute } from './service.mjs';

/**
 * A shard of the view: `name` what it is, `load` its bytes, `open` where its report opens from
 * ({url} on the service, {dir} in the picked folder).
 * @typedef {{name: string, load: () => Promise<ArrayBuffer>, open: {url?: string, dir?: string}}} Member
 */

const HEAD = ['shard', ['tests', true], ['planned', true], ['predicted', true], ['tests took', true], ['off by', true], ['wall', true], ['failed', true], 'fingerprint'];
const signed = (v) => (v >= 0 ? '+' : '−');

/** A shard's row of the table. */
function shardRow(x) {
  const off = x.plan && x.spanMs !== undefined ? x.spanMs - x.plan.predictedMs : undefined;
  const offText = off === undefined ? '' : `${signed(off)}${ms(Math.abs(off))}${x.plan.predictedMs ? ` (${signed(off)}${Math.round((100 * Math.abs(off)) / x.plan.predictedMs)}%)` : ''}`;
  const num = (text, className = 'num') => el('td', { className }, text);
  return el('tr', { 'data-shard': x.index ?? '', 'data-tests': x.totals.tests, 'data-planned': x.plan?.units ?? '', 'data-predicted': x.plan?.predictedMs ?? '', 'data-span': x.spanMs ?? '', 'data-fingerprint': x.plan?.fingerprint ?? '' },
    el('td', null, x.index ? `shard ${x.index}/${x.count}` : x.name),
    num(fmt(x.totals.tests)),
    num(x.plan ? `${fmt(x.plan.units)} ${x.plan.unit === 'file' ? 'files' : 'tests'}` : ''),
    num(x.plan ? ms(x.plan.predictedMs) : ''),
    num(x.spanMs !== undefined ? ms(x.spanMs) : ''),
    num(offText, `num ${off === undefined ? '' : off > 0 ? 'off-late' : 'off-early'}`),
    num(x.wallMs !== undefined ? ms(x.wallMs) : ''),
    num(fmt(x.totals.failed)),
    el('td', { title: x.plan?.fingerprint ?? '' }, (x.plan?.fingerprint ?? '').slice(0, 12)));
}

/** @param {{state: ReturnType<import('./state.mjs').createState>, worker: ReturnType<import('./worker-client.mjs').createWorkerClient>, folder: {openReport(dir: string, opts: {keepShardRun: boolean}): void}}} page */
export function createShardRun(page) {
  const { state, worker } = page;
  const my = state.shardRun;

  function close() {
    my.seq++;
    my.members = [];
    my.reruns = [];
    $('shard-run').hidden = true;
    $('shard-run-table').textContent = '';
    $('shard-run-tests').textContent = '';
    $('shard-run-twice').textContent = '';
    delete $('shard-run').dataset.state;
  }

  /**
   * The open report's sibling shards in the service's list, or undefined: the shards of its run
   * (src/layout.js runKeyOf: the same commit, shard count and run id, when the shards' plans name their run), for each
   * index its latest attempt (the open report for its own), `reruns` the indices that ran more than
   * once. Without a run id (a run outside CI, or reports of an older shardwise): the newest report
   * of each index for the commit.
   */
  function siblingShards() {
    const { source, reports } = state.report;
    const id = source?.id;
    const me = id && reports?.find((r) => r.id === id);
    const s = me && (me.shard ?? shardOfTitle(me.title));
    if (!s) return undefined;
    const runId = me.shard?.runId;
    const run = runKeyOf(me);
    const later = (a, b) => (a.shard?.attempt ?? 0) - (b.shard?.attempt ?? 0) || (a.finishedAt ?? 0) - (b.finishedAt ?? 0);
    const chosen = new Map();
    for (const r of reports) {
      if (r.duplicateOf) continue; // the same report uploaded again
      const o = r.shard ?? shardOfTitle(r.title);
      if (!o || runKeyOf(r) !== run) continue; // not a shard, or of another run
      const had = chosen.get(o.index);
      chosen.set(o.index, { r: !had || later(r, had.r) > 0 ? r : had.r, runs: (had?.runs ?? 0) + 1 });
    }
    chosen.set(s.index, { r: me, runs: chosen.get(s.index)?.runs ?? 1 });
    const byIndex = [...chosen.entries()].sort((a, b) => a[0] - b[0]);
    return {
      count: s.count, runId,
      reports: byIndex.map(([, c]) => c.r),
      reruns: byIndex.filter(([, c]) => c.runs > 1).map(([index, c]) => ({ index, runs: c.runs, attempt: c.r.shard?.attempt })),
    };
  }

  /** Offers the shard view when the open report is a shard of a run the service holds. */
  function offer() {
    const b = $('shard-run-open');
    const sib = state.report.summary && siblingShards();
    b.hidden = !sib;
    if (sib) b.textContent = `Shard view of this run (${sib.reports.length} of ${count(sib.count, 'shard')} uploaded${sib.runId ? `; run ${sib.runId}` : ''})`;
  }

  /** Reads every member's bytes and has the worker reduce them to their figures. */
  async function request(/** @type {Member[]} */ members, reruns = []) {
    const seq = ++my.seq;
    my.members = members;
    my.reruns = reruns;
    $('shard-run').hidden = false;
    $('shard-run').dataset.state = 'loading';
    $('shard-run-summary').textContent = `Reading ${count(members.length, 'shard report')}…`;
    let reports;
    try {
      reports = await Promise.all(members.map(async (m) => ({ name: m.name, bytes: await m.load() })));
    } catch (e) {
      onError({ seq, text: e.message });
      return;
    }
    if (seq !== my.seq) return;
    worker.send('shards', { seq, reports }, reports.map((r) => r.bytes));
  }

  function onError({ seq, text }) {
    if (seq !== my.seq) return;
    $('shard-run-summary').textContent = `No shard view: ${text}`;
    $('shard-run').dataset.state = 'error';
  }

  /** The href that opens a shard's report (on one of its tests): a shareable URL from the service, else the folder's. */
  function shardHref(member, key) {
    const hash = key ? `#test=${key}` : '';
    if (member.open.url) return `?url=${encodeURIComponent(member.open.url)}${hash}`;
    return hash || '#';
  }

  /** A link to a shard's report (on test `key`): the service's by its URL, a folder's opened here. */
  function shardLink(member, key, props, text) {
    const onclick = member.open.url ? undefined : (e) => {
      e.preventDefault();
      history.replaceState(null, '', `${location.pathname}${location.search}${key ? `#test=${key}` : ''}`);
      page.folder.openReport(member.open.dir, { keepShardRun: true });
    };
    return el('a', { href: shardHref(member, key), ...props, onclick }, text);
  }

  function onShards({ seq, shards, twice }) {
    if (seq !== my.seq) return;
    const box = $('shard-run');
    const n = shards.find((x) => x.count)?.count ?? shards.length;
    const prints = [...new Set(shards.map((x) => x.plan?.fingerprint).filter(Boolean))];
    const present = new Set(shards.map((x) => x.index));
    const missing = [];
    for (let i = 1; i <= n; i++) if (!present.has(i)) missing.push(i);
    const predicted = shards.filter((x) => x.plan);
    const maxPredicted = predicted.length ? Math.max(...predicted.map((x) => x.plan.predictedMs)) : undefined;
    const spans = shards.map((x) => x.spanMs).filter((v) => v !== undefined);
    box.dataset.fingerprints = prints.join(' ');
    box.dataset.shards = String(shards.length);
    $('shard-run-summary').textContent = [
      `${count(shards.length, 'shard')} of ${n}${missing.length ? ` (missing: ${missing.map((i) => `shard ${i}`).join(', ')})` : ''}`,
      prints.length === 0 ? 'no plan in these reports (shards Playwright, Jest or Vitest made, not shardwise)'
        : prints.length === 1 ? `plan fingerprint ${prints[0]}${predicted.length === shards.length ? ', the same on every shard' : ''}`
          : `the shards planned differently (fingerprints ${prints.map((p) => p.slice(0, 12)).join(', ')}): tests may have run twice or never; run shardwise verify`,
      maxPredicted !== undefined ? `predicted makespan ${ms(maxPredicted)}` : undefined,
      spans.length ? `longest shard's tests took ${ms(Math.max(...spans))}` : undefined,
      twice.count ? `${count(twice.count, 'test')} ran on more than one shard` : undefined,
      ...(my.reruns ?? []).map((x) => `shard ${x.index} ran ${x.runs} times: ${x.attempt ? `attempt ${x.attempt}` : 'its latest'} shown`),
    ].filter(Boolean).join(' · ');
    const several = fill($('shard-run-twice'), twice.tests.map((t) => el('li', { 'data-key': t.key }, t.title, ' ', el('small', null, `(shards ${t.shards.join(', ')})`))));
    several.hidden = !twice.count;
    const order = shards.map((x, i) => ({ x, m: my.members[i] })).sort((a, b) => (a.x.index ?? 0) - (b.x.index ?? 0));
    fill($('shard-run-table'), el('tbody', null, el('tr', null, HEAD.map((h) => (Array.isArray(h) ? el('th', { className: 'num' }, h[0]) : el('th', null, h)))),
      order.map(({ x }) => shardRow(x))));
    fill($('shard-run-tests'), order.map(({ x, m }) => {
      const more = x.totals.tests - x.tests.length;
      return el('details', { 'data-shard': x.index ?? '' },
        el('summary', null, `${x.index ? `shard ${x.index}/${x.count}` : x.name}: ${count(x.totals.tests, 'test')}${more > 0 ? ` (the ${fmt(x.tests.length)} slowest listed)` : ''} `,
          shardLink(m, undefined, { className: 'open-shard' }, 'open its report')),
        el('ol', { 'data-shard': x.index ?? '' }, x.tests.map((t) => el('li', { 'data-outcome': t.outcome },
          shardLink(m, t.key, { 'data-key': t.key }, t.title), ' ', el('small', null, `${t.outcome} · ${ms(t.durationMs)}`)))));
    }));
    box.dataset.state = 'ready';
  }

  $('shard-run-open').addEventListener('click', () => {
    const sib = siblingShards();
    if (!sib) return;
    request(sib.reports.map((r) => {
      const url = reportRoute(r.id);
      return { name: reportLabel(r), load: () => fetchBytes(url), open: { url } };
    }), sib.reruns);
  });

  return { close, offer, request, onShards, onError };
}
