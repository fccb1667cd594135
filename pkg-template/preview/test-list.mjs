// The test list: every test, virtualised. The worker holds the list, filters and sorts it; the
// page asks for the rows around the window it shows (a fixed-height scroller, rows ROW_H px
// high, a spacer as tall as the whole list) and draws those rows only.
import { $, el, fill } from './dom.mjs';
import { fmt, count, ms, where } from './format.mjs';
import { allTests } from './state.mjs';

const ROW_H = 26;
const OVERSCAN = 60; // rows fetched beyond each edge of the window

/** One row of the list: `i` its position in the query's order. */
const row = (r, i, open) => {
  const at = where({ file: r.file, line: r.line }) ?? '';
  return el('div', {
    className: `trow${open ? ' open' : ''}`, role: 'button', tabindex: '-1',
    'data-id': r.id, 'data-key': r.key, 'data-index': i, 'data-outcome': r.outcome, 'data-ms': r.durationMs, style: `top:${i * ROW_H}px`,
  },
  el('span', { className: 'st' }, el('b', { className: `badge ${r.outcome}` }, r.outcome)),
  el('span', { className: 'ti', title: r.title }, r.title),
  el('span', { className: 'fl', title: at }, at),
  el('span', { className: 'num' }, ms(r.durationMs)),
  el('span', { className: 'num' }, r.retries));
};

/** @param {{state: ReturnType<import('./state.mjs').createState>, worker: ReturnType<import('./worker-client.mjs').createWorkerClient>, testPage: {openFromHash(): void}}} page */
export function createTestList(page) {
  const { state, worker } = page;
  const list = state.tests;

  /** The open report's list, from the top, unfiltered. */
  function reset(summary) {
    list.query = allTests();
    $('f-status').value = ''; $('f-file').value = ''; $('f-text').value = '';
    const env = fill($('f-env'), el('option', { value: '' }, 'all environments'), summary.environments.map((e, i) => el('option', { value: i }, e.name)));
    env.hidden = summary.environments.length < 2;
    list.t0 = performance.now();
    list.firstPaint = undefined;
    list.count = undefined;
    list.rows = [];
    $('tests-rows').textContent = '';
    renderSortHeads();
    query();
    page.testPage.openFromHash();
  }

  /** A new query: back to the top, its first window asked for. */
  function query() {
    if (!state.report.summary) return;
    list.seq++;
    list.asked = undefined;
    $('tests').setAttribute('aria-busy', 'true');
    $('tests-scroll').scrollTop = 0;
    askWindow();
  }

  function visibleRange() {
    const sc = $('tests-scroll');
    const first = Math.floor(sc.scrollTop / ROW_H);
    return [first, first + Math.ceil((sc.clientHeight || 468) / ROW_H) + 1];
  }

  /** Asks for the rows around the window unless the last reply (or the request on its way) covers it. */
  function askWindow() {
    const [a, b] = visibleRange();
    const fresh = list.rowsSeq === list.seq; // the last reply answers the current query
    const end = fresh ? Math.min(b, list.count) : b;
    const have = (r) => r && r.seq === list.seq && r.from <= a && r.to >= end;
    if (fresh && (a >= list.count || have({ seq: list.seq, from: list.from, to: list.from + list.rows.length }))) { renderRows(); return; }
    if (have(list.asked)) return;
    const from = Math.max(0, a - OVERSCAN);
    list.asked = { seq: list.seq, from, to: b + OVERSCAN };
    worker.send('tests', { seq: list.seq, query: list.query, from, to: b + OVERSCAN });
  }

  function onTests({ seq, count: total, from, rows, ms: took }) {
    if (seq !== list.seq) return; // an older query
    list.asked = undefined;
    const changed = list.count !== total || list.rowsSeq !== seq;
    Object.assign(list, { count: total, from, rows, rowsSeq: seq });
    const all = state.report.summary?.totals.tests;
    if (changed) {
      $('tests-spacer').style.height = `${total * ROW_H}px`;
      $('tests-count').textContent = `(${total === all ? count(total, 'test') : `${fmt(total)} of ${count(all ?? 0, 'test')}`})`;
    }
    const box = $('tests');
    box.dataset.count = String(total);
    box.dataset.workerMs = String(took);
    box.removeAttribute('aria-busy');
    renderRows();
    if (list.firstPaint === undefined) {
      list.firstPaint = Math.round(performance.now() - list.t0);
      box.dataset.firstPaintMs = String(list.firstPaint);
    }
    askWindow(); // scrolled on meanwhile
  }

  function onError({ seq, text }) {
    if (seq !== list.seq) return; // a newer query replaced the one asked about
    $('tests-count').textContent = `(cannot list: ${text})`;
    $('tests').removeAttribute('aria-busy');
  }

  /** Writes the rows of the window (only those) from the last reply. */
  function renderRows() {
    const [a, b] = visibleRange();
    const lo = Math.max(a, list.from);
    const hi = Math.min(b, list.from + list.rows.length);
    const rows = $('tests-rows');
    if (list.count === 0) fill(rows, el('p', { className: 'none' }, 'No test matches.'));
    else {
      const shown = [];
      for (let i = lo; i < hi; i++) {
        const r = list.rows[i - list.from];
        shown.push(row(r, i, r.key === state.testPage.openKey));
      }
      fill(rows, shown);
    }
    rows.dataset.shown = `${lo}-${hi}`;
  }

  function renderSortHeads() {
    for (const b of document.querySelectorAll('#tests .vhead button')) {
      if (b.dataset.sort === list.query.sort) b.setAttribute('aria-sort', list.query.desc ? 'descending' : 'ascending');
      else b.removeAttribute('aria-sort');
    }
  }

  /** A filter changed: selects apply at once, typing once it pauses. */
  function onFilter(delay) {
    clearTimeout(list.typing);
    $('tests').setAttribute('aria-busy', 'true');
    list.typing = setTimeout(() => {
      Object.assign(list.query, { status: $('f-status').value, env: $('f-env').value, file: $('f-file').value.trim(), text: $('f-text').value.trim() });
      query();
    }, delay);
  }

  /** Lists the tests of one outcome ('' for all) and scrolls to the list. */
  function showStatus(status) {
    $('f-status').value = status;
    onFilter(0);
    $('tests-section').scrollIntoView({ block: 'start' });
  }

  /** Marks the row of the test whose page is open (none: undefined). */
  function markOpen(key) {
    for (const r of document.querySelectorAll('#tests-rows .trow')) r.classList.toggle('open', key !== undefined && r.dataset.key === key);
  }

  $('f-status').addEventListener('change', () => onFilter(0));
  $('f-env').addEventListener('change', () => onFilter(0));
  $('f-file').addEventListener('input', () => onFilter(120));
  $('f-text').addEventListener('input', () => onFilter(120));
  $('tests').querySelector('.vhead').addEventListener('click', (e) => {
    const col = e.target.closest('button')?.dataset.sort;
    if (!col) return;
    // first click: the longest / most retried first, names A-Z, failures first; again: reversed
    if (list.query.sort === col) list.query.desc = !list.query.desc;
    else Object.assign(list.query, { sort: col, desc: col === 'duration' || col === 'retries' });
    renderSortHeads();
    query();
  });
  $('tests-scroll').addEventListener('scroll', () => {
    if (list.scrolling) return;
    list.scrolling = true;
    requestAnimationFrame(() => { list.scrolling = false; askWindow(); });
  }, { passive: true });
  $('tests-rows').addEventListener('click', (e) => {
    const r = e.target.closest('.trow');
    if (r) location.hash = `test=${r.dataset.key}`;
  });
  $('tests-rows').addEventListener('keydown', (e) => {
    const r = e.target.closest('.trow');
    if (r && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); location.hash = `test=${r.dataset.key}`; }
  });

  return { reset, onTests, onError, showStatus, markOpen };
}
