// The open report against an earlier one (from the service's list, or a file): the new
// failures, the fixed, the newly flaky and the largest moves of duration (summary.mjs
// compareReports, in the worker), each test linking to its page in the open report.
import { $, el, fill } from './dom.mjs';
import { fmt, count, ms } from './format.mjs';
import { fetchBytes } from './service.mjs';

/** @param {{state: ReturnType<import('./state.mjs').createState>, worker: ReturnType<import('./worker-client.mjs').createWorkerClient>}} page */
export function createComparison(page) {
  const { state, worker } = page;
  const my = state.compare;

  function close() {
    my.seq++;
    $('compare').hidden = true;
    $('compare-summary').textContent = '';
    delete $('compare-section').dataset.state;
    $('compare-with').value = '';
  }

  /** Compares the open report with the one `load` reads (`label`: what it is). */
  async function compareWith(label, load) {
    if (!state.report.summary) return;
    const seq = ++my.seq;
    $('compare').hidden = true;
    $('compare-section').dataset.state = 'loading';
    $('compare-summary').textContent = `Comparing with ${label}…`;
    let bytes;
    try { bytes = await load(); } catch (e) {
      onError({ seq, text: e.message });
      return;
    }
    if (seq !== my.seq) return;
    worker.send('compare', { seq, name: label, bytes }, [bytes]);
  }

  function onError({ seq, text }) {
    if (seq !== my.seq) return;
    $('compare-summary').textContent = `Cannot compare: ${text}`;
    $('compare-section').dataset.state = 'error';
  }

  function onCompare({ seq, name, diff }) {
    if (seq !== my.seq) return;
    $('compare-summary').textContent = `Against ${name}: ${count(diff.tests, 'test')} now, ${fmt(diff.baseTests)} then; ${fmt(diff.added)} added, ${fmt(diff.removed)} removed; `
      + `${fmt(diff.newFailures.length)} new failures, ${fmt(diff.fixed.length)} fixed, ${fmt(diff.newlyFlaky.length)} newly flaky`;
    const was = (t) => (t.before === 'absent' ? 'new test' : `was ${t.before}`);
    const list = (name, rows, note, extra = () => ({})) => {
      fill($(`cmp-${name}`), rows.length ? rows.map((t) => el('li', { 'data-key': t.key, 'data-title': t.title, ...extra(t) }, el('a', { href: `#test=${t.key}` }, t.title), ' ', el('small', null, note(t))))
        : el('li', { className: 'none' }, 'none'));
      $(`cmp-${name}-count`).textContent = name === 'moved'
        ? `(${fmt(rows.length)} of the ${count(diff.movedCount, 'test')} whose duration changed)`
        : `(${fmt(rows.length)})`;
    };
    list('newFailures', diff.newFailures, was);
    list('fixed', diff.fixed, (t) => `now ${t.outcome}`);
    list('newlyFlaky', diff.newlyFlaky, was);
    list('moved', diff.moved, (t) => `${t.deltaMs >= 0 ? '+' : '−'}${ms(Math.abs(t.deltaMs))} (${ms(t.beforeMs)} → ${ms(t.durationMs)})`, (t) => ({ 'data-delta': t.deltaMs }));
    $('compare').hidden = false;
    $('compare-section').dataset.state = 'ready';
  }

  $('compare-with').addEventListener('change', () => {
    const v = $('compare-with').value;
    if (v) compareWith($('compare-with').selectedOptions[0].textContent, () => fetchBytes(v));
  });
  $('compare-file').addEventListener('change', () => {
    const f = $('compare-file').files[0];
    if (f) compareWith(f.name, () => f.arrayBuffer());
    $('compare-file').value = '';
  });

  return { close, onCompare, onError };
}
