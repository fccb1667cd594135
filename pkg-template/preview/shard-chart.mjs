// How `planShards` would split the open report over N shards, as its runner would plan it (its
// tests' durations, the costs and workers the run teaches, and for Jest and Vitest its files as
// the units), one bar per shard; selecting a bar lists that shard's tests (the plan's unit ids:
// file › suites › title) or files, fetched from the worker in pages. While a plan is computing, only the
// latest change of the shard count or environment is kept.
import { $, el, fill } from './dom.mjs';
import { fmt, count, ms } from './format.mjs';
import { PAGE_ROWS } from './state.mjs';
import { keyOf } from './summary.mjs';

const MAX_SHARDS = 256;

const bar = (s, max, unit) => el('div', { className: 'bar', role: 'button', tabindex: '0', 'aria-expanded': 'false', 'data-shard': s.index, 'data-ms': s.predictedMs, 'data-tests': s.tests },
  el('span', { className: 'label' }, `shard ${s.index}`),
  el('span', { className: 'track' }, el('span', { className: 'fill', style: `width:${((100 * s.predictedMs) / max).toFixed(2)}%` })),
  el('span', { className: 'value' }, `${ms(s.predictedMs)} · ${count(s.tests, unit)}`));

/** @param {{state: ReturnType<import('./state.mjs').createState>, worker: ReturnType<import('./worker-client.mjs').createWorkerClient>}} page */
export function createShardChart(page) {
  const { state, worker } = page;
  const my = state.plan;

  /** The shard count from the field, clamped to 1..256. */
  function shardCount() {
    const n = Math.round(Number($('shards').value));
    return Number.isFinite(n) ? Math.max(1, Math.min(MAX_SHARDS, n)) : 1;
  }

  /** A newly opened report: its environments to plan for, no shard listed. */
  function reset(summary) {
    const envSelect = fill($('plan-env'), el('option', { value: '' }, 'all environments'), summary.environments.map((e, i) => el('option', { value: i }, e.name)));
    envSelect.hidden = summary.environments.length < 2;
    my.shard = undefined;
    renderShardTests();
  }

  /** Asks the worker for a plan; while one is computing, only the latest change is kept. */
  function request() {
    if (!state.report.summary) return;
    $('chart').setAttribute('aria-busy', 'true');
    if (my.planning) { my.pending = true; return; }
    my.planning = true;
    my.pending = false;
    const env = $('plan-env').value;
    worker.send('plan', { seq: ++my.seq, shardCount: shardCount(), environment: env === '' ? undefined : Number(env) });
  }

  function planDone() {
    my.planning = false;
    if (my.pending) request();
    else $('chart').removeAttribute('aria-busy');
  }

  function onPlan({ seq, plan }) {
    if (seq === my.seq && state.report.summary) {
      const max = Math.max(1, ...plan.shards.map((s) => s.predictedMs));
      const unit = plan.unit === 'file' ? 'file' : 'test';
      $('plan-summary').textContent = `${count(plan.shardCount, 'shard')}: makespan ${ms(plan.makespanMs)} (lower bound ${ms(plan.lowerBoundMs)})`
        + `${plan.estimated ? `, ${count(plan.estimated, unit)} without a duration estimated` : ''}; fingerprint ${plan.fingerprint.slice(0, 12)}; planned in ${fmt(plan.planMs)} ms`
        + `; as the run: ${count(plan.workers, 'worker')} a shard, ${unit === 'file' ? 'each file whole on one shard, ' : ''}costs ${plan.costs}`
        + `. Select a shard to list its ${unit}s.`;
      const chart = fill($('chart'), plan.shards.map((s) => bar(s, max, unit)));
      chart.dataset.shards = String(plan.shards.length);
      chart.dataset.makespan = String(plan.makespanMs);
      my.plan = plan;
      // the listed shard follows the new plan (its tests may have moved), or closes
      const index = my.shard?.index;
      my.shard = undefined;
      if (index && index <= plan.shards.length) selectShard(index);
      else renderShardTests();
    }
    planDone();
  }

  function onError({ seq, text }) {
    if (seq === my.seq) {
      $('plan-summary').textContent = `No plan: ${text}`;
      fill($('chart'));
      $('chart').dataset.shards = '0';
    }
    planDone();
  }

  /** Lists one shard's tests, or closes the list when it is that shard's already. */
  function selectShard(index) {
    if (my.shard?.index === index) { my.shard = undefined; renderShardTests(); return; }
    my.shard = { index, units: [], count: undefined };
    worker.send('shard', { seq: my.seq, index, from: 0, to: PAGE_ROWS });
    renderShardTests();
  }

  function onShard({ seq, index, from, count: total, units }) {
    const s = my.shard;
    if (!s || s.index !== index || seq !== my.seq || from !== s.units.length) return; // superseded
    s.units.push(...units);
    s.count = total;
    s.fetching = false;
    renderShardTests();
  }

  function renderShardTests() {
    const s = my.shard;
    for (const b of document.querySelectorAll('#chart .bar')) b.setAttribute('aria-expanded', String(Number(b.dataset.shard) === s?.index));
    const box = $('shard-tests');
    box.hidden = !s;
    if (!s) return;
    const shard = my.plan?.shards[s.index - 1];
    const byFile = my.plan?.unit === 'file';
    $('shard-tests-title').textContent = `shard ${s.index} of ${my.plan?.shardCount ?? '?'}: `
      + (s.count === undefined ? 'loading…' : `${count(s.count, byFile ? 'file' : 'test')}, ${ms(shard?.predictedMs ?? 0)} predicted`);
    // a file unit is the file's path; a test unit opens its test
    const list = fill($('shard-tests-list'), s.units.map((u) => el('li', { 'data-unit': u }, byFile ? u : el('a', { href: `#test=${keyOf(u)}` }, u))));
    list.dataset.shown = String(s.units.length);
    const more = $('shard-tests-more');
    const left = (s.count ?? 0) - s.units.length;
    more.hidden = left <= 0;
    more.textContent = `show ${fmt(Math.min(PAGE_ROWS, left))} more (${fmt(left)} not shown)`;
  }

  function moreShardTests() {
    const s = my.shard;
    if (!s || s.fetching || s.count === undefined || s.units.length >= s.count) return;
    s.fetching = true;
    worker.send('shard', { seq: my.seq, index: s.index, from: s.units.length, to: s.units.length + PAGE_ROWS });
  }

  $('shards').addEventListener('input', request);
  $('plan-env').addEventListener('change', request);
  $('chart').addEventListener('click', (e) => {
    const b = e.target.closest('.bar');
    if (b) selectShard(Number(b.dataset.shard));
  });
  $('chart').addEventListener('keydown', (e) => {
    const b = e.target.closest('.bar');
    if (b && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); selectShard(Number(b.dataset.shard)); }
  });
  $('shard-tests-more').addEventListener('click', moreShardTests);

  return { reset, request, onPlan, onShard, onError };
}
