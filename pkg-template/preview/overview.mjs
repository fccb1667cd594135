// The open report at a glance: its title and what it is, totals by status (a card lists its
// tests), duration per environment, and the flaky and the slowest tests: lists capped behind
// "show more", whose rows past the first page are fetched from the worker.
import { $, el, fill } from './dom.mjs';
import { fmt, count, ms, reportLabel } from './format.mjs';
import { FIRST_ROWS, MORE_ROWS, PAGE_ROWS } from './state.mjs';
import { errorBox } from './error-view.mjs';

const flakyRow = (t) => el('li', { 'data-title': t.title, 'data-key': t.key },
  el('a', { href: `#test=${t.key}` }, t.title),
  t.file ? [' ', el('small', null, t.file)] : undefined,
  t.environments.length ? [' ', el('small', { className: 'env' }, t.environments.join(', '))] : undefined);

const slowestRow = (t, i) => el('tr', { 'data-title': t.title, 'data-key': t.key, 'data-ms': t.durationMs },
  el('td', { className: 'num' }, i + 1),
  el('td', null, el('a', { href: `#test=${t.key}` }, t.title)),
  el('td', null, t.file ?? ''),
  el('td', { className: 'num' }, ms(t.durationMs)));

const headRow = (...cells) => el('tr', null, cells.map(([text, num]) => el('th', { className: num ? 'num' : undefined }, text)));

/** @param {{state: ReturnType<import('./state.mjs').createState>, worker: ReturnType<import('./worker-client.mjs').createWorkerClient>, tests: {showStatus(status: string): void}}} page */
export function createOverview(page) {
  const { state, worker } = page;
  const my = state.lists;

  /** Re-renders a capped list (into `box`, `wrap` around its rows) with its "show more" button. */
  function renderCapped(name, row, empty, wrap = (rows) => rows) {
    const { rows, count: total } = state.report.summary[name];
    const shown = Math.min(my.shown[name], rows.length);
    const box = $(name);
    fill(box, wrap(total ? rows.slice(0, shown).map(row) : empty));
    box.dataset.shown = shown;
    const more = $(`${name}-more`);
    more.hidden = shown >= total;
    more.textContent = `show ${fmt(Math.min(MORE_ROWS, total - shown))} more (${fmt(total - shown)} not shown)`;
  }

  const render = {
    flaky: () => renderCapped('flaky', flakyRow, el('li', { className: 'none' }, 'none')),
    slowest: () => renderCapped('slowest', slowestRow, [],
      (rows) => el('tbody', null, headRow(['#', true], ['test'], ['file'], ['duration', true]), rows)),
  };

  /** "show more": renders the next rows, fetching them from the worker first when needed. */
  function showMore(name) {
    const list = state.report.summary?.[name];
    if (!list) return;
    my.shown[name] += MORE_ROWS;
    if (my.shown[name] > list.rows.length && list.rows.length < list.count) {
      if (!my.fetching[name]) {
        my.fetching[name] = true;
        worker.send('rows', { list: name, from: list.rows.length, to: list.rows.length + PAGE_ROWS });
      }
      return;
    }
    render[name]();
  }

  function onRows({ list: name, from, rows }) {
    const list = state.report.summary?.[name];
    my.fetching[name] = false;
    if (!list || from !== list.rows.length) return; // another report was opened meanwhile
    list.rows.push(...rows);
    render[name]();
  }

  /** Shows a newly opened report's figures. */
  function show(summary, meta) {
    my.shown = { slowest: FIRST_ROWS, flaky: FIRST_ROWS };
    my.fetching = {};
    const when = meta.startTimestamp ? new Date(meta.startTimestamp).toLocaleString() : '';
    $('title').textContent = reportLabel(meta);
    const sp = meta.shardPlan; // a balanced shard's part of the plan, carried in its report
    $('meta').textContent = [when, meta.durationMs !== undefined ? `run took ${ms(meta.durationMs)}` : '', `test time ${ms(summary.totalMs)}`,
      sp && `planned as shard ${sp.shardIndex}/${sp.shardCount}: ${count(Number(sp.units) || 0, sp.unit === 'file' ? 'file' : 'test')}, predicted ${ms(Number(sp.predictedMs) || 0)}, plan fingerprint ${String(sp.fingerprint ?? '').slice(0, 12)}`,
    ].filter(Boolean).join(' · ');
    showRunErrors(meta.runErrors);
    fill($('totals'), Object.entries(summary.totals).map(([k, v]) => el('div', { className: `card ${k}`, 'data-total': k, 'data-value': v }, el('b', null, fmt(v)), k)));
    fill($('environments'), el('tbody', null,
      headRow(['environment'], ['tests', true], ['attempts', true], ['duration', true]),
      summary.environments.map((e) => el('tr', { 'data-env': e.name, 'data-ms': e.durationMs },
        el('td', null, e.name), el('td', { className: 'num' }, fmt(e.tests)), el('td', { className: 'num' }, fmt(e.attempts)), el('td', { className: 'num' }, ms(e.durationMs))))));
    $('flaky-count').textContent = `(${fmt(summary.flaky.count)})`;
    $('slowest-count').textContent = `(of ${fmt(summary.slowest.count)})`;
    render.flaky();
    render.slowest();
  }

  /** The run's errors outside its tests, first: a run whose files failed to load is no green run. */
  function showRunErrors(errors) {
    const rows = errors?.rows ?? [];
    $('run-errors').hidden = !errors?.count;
    $('run-errors-count').textContent = errors?.count ? `(${fmt(errors.count)}${errors.count > rows.length ? `, the first ${fmt(rows.length)} shown` : ''})` : '';
    fill($('run-errors-list'), rows.map((e) => el('li', { className: 'run-error', 'data-file': e.file },
      e.file ? el('div', { className: 'where' }, e.line ? `${e.file}:${e.line}` : e.file) : undefined,
      errorBox(e))));
  }

  $('slowest-more').addEventListener('click', () => showMore('slowest'));
  $('flaky-more').addEventListener('click', () => showMore('flaky'));
  // a status card lists that status's tests
  $('totals').addEventListener('click', (e) => {
    const card = e.target.closest('[data-total]');
    if (card) page.tests.showStatus(card.dataset.total === 'tests' ? '' : card.dataset.total);
  });

  return { show, onRows };
}
