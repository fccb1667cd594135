// A test across runs, from the service that serves this page (`shardwise serve`: its history
// routes, server/history-api.mjs): on a test's page, its status per run on a timeline with the
// runs' commits, its duration trend (an inline SVG), its flaky rate and the run its current
// failing streak began; and a page (#history) of the flakiest and most slowed-down tests over the
// last N runs, each linking to its page in the newest report that ran it. Opened without the
// service (a file, another server), the section says the history needs `shardwise serve`.
// Everything from a report or the service is text: built by el(), SVG by attribute and textContent.
import { $, el, fill } from './dom.mjs';
import { ms, fmt } from './format.mjs';
import { readFetch, reportRoute } from './service.mjs';

const SVG = 'http://www.w3.org/2000/svg';
const NEEDS_SERVICE = 'A test\'s history needs `shardwise serve`: open this report from the service\'s preview (npx shardwise serve, then /preview/) to see the test across the runs it holds.';
const pct = (r) => `${Math.round(r * 1000) / 10}%`;
const short = (c) => (typeof c === 'string' ? c.slice(0, 10) : '');
const when = (r) => new Date(r.startedAt ?? r.finishedAt).toISOString().replace('T', ' ').slice(0, 16);
const runLabel = (r) => `${r.title ? `${r.title} · ` : ''}commit ${short(r.commitId)} · ${when(r)}`;
/** The page of test `key` in report `id` (the preview opens it). */
export const testLink = (id, key) => `${location.pathname}?url=${encodeURIComponent(reportRoute(id))}#test=${key}`;

/**
 * The answer of a history route: `{ok: true, body}`, `{ok: false, text}` (the service said no:
 * its message), or `{ok: false, text, noService: true}` when no `shardwise serve` answered.
 */
async function ask(path) {
  if (location.protocol === 'file:') return { ok: false, noService: true, text: NEEDS_SERVICE };
  let res;
  let body;
  try {
    res = await readFetch(path);
    body = await res.json();
  } catch {
    return { ok: false, noService: true, text: NEEDS_SERVICE };
  }
  if (res.ok) return { ok: true, body };
  if (typeof body?.error?.message !== 'string') return { ok: false, noService: true, text: NEEDS_SERVICE };
  return { ok: false, status: res.status, text: body.error.message };
}

function svg(tag, attrs, ...kids) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  for (const k of kids) n.append(k);
  return n;
}
const svgTitle = (text) => { const t = document.createElementNS(SVG, 'title'); t.textContent = text; return t; };

/** A run's durations as a line, each run a dot coloured by its status (skipped runs left out). */
function trend(runs) {
  const pts = runs.filter((r) => r.status !== 'skipped');
  if (pts.length < 2) return el('p', { className: 'meta' }, pts.length ? `One run with a duration: ${ms(pts[0].durationMs)}.` : 'No run with a duration.');
  const W = 480;
  const H = 80;
  const P = 6;
  const max = Math.max(1, ...pts.map((r) => r.durationMs));
  const x = (i) => P + (i * (W - 2 * P)) / (pts.length - 1);
  const y = (d) => H - P - (d / max) * (H - 2 * P);
  const chart = svg('svg', { class: 'trend', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': `duration per run, up to ${ms(max)}` },
    svgTitle(`duration per run, up to ${ms(max)}`),
    svg('polyline', { points: pts.map((r, i) => `${x(i).toFixed(1)},${y(r.durationMs).toFixed(1)}`).join(' '), fill: 'none', class: 'trend-line' }),
    ...pts.map((r, i) => svg('circle', { cx: x(i).toFixed(1), cy: y(r.durationMs).toFixed(1), r: 3, class: `dot ${r.status}` }, svgTitle(`${ms(r.durationMs)} · ${r.status} · ${runLabel(r)}`))));
  return el('div', { className: 'trend-box' }, chart, el('small', { className: 'meta' }, ` max ${ms(max)} · last ${ms(pts[pts.length - 1].durationMs)}`));
}

/**
 * The history section of test `key`'s page: filled when the service answers. `fromDisk`: the
 * report was read from a file or a folder, where nothing is requested unasked: a button asks.
 */
export function historySection(key, { fromDisk = false } = {}) {
  const box = el('section', { className: 'history', id: 'test-history', 'data-state': 'loading' }, el('h4', null, 'History'), el('p', { className: 'meta' }, 'Loading this test\'s history…'));
  if (location.protocol === 'file:') {
    box.dataset.state = 'no-service';
    fill(box, el('h4', null, 'History'), el('p', { className: 'meta' }, NEEDS_SERVICE));
  } else if (fromDisk) {
    box.dataset.state = 'ask';
    fill(box, el('h4', null, 'History'), el('p', { className: 'meta' }, 'This report was read from disk, so nothing was requested. ',
      el('button', { type: 'button', className: 'history-ask', onclick: () => { fill(box, el('h4', null, 'History'), el('p', { className: 'meta' }, 'Loading this test\'s history…')); box.dataset.state = 'loading'; load(); } },
        'Show this test\'s history from the service')));
  } else load();
  return box;

  function load() {
    ask(`/api/history/tests/${encodeURIComponent(key)}`).then((a) => {
      if (!box.isConnected) return; // the page moved on to another test
      if (!a.ok) {
        box.dataset.state = a.noService ? 'no-service' : 'none';
        fill(box, el('h4', null, 'History'), el('p', { className: 'meta' }, a.status === 404 ? 'No report this service holds has this test yet.' : a.text));
        return;
      }
      const h = a.body;
      box.dataset.state = 'ready';
      const ran = h.counts.passed + h.counts.failed + h.counts.flaky;
      fill(box,
        el('h4', null, 'History ', el('small', null, `last ${fmt(h.window.runs)} runs of this service · `, el('a', { href: '#history' }, 'flakiest and slowed-down tests'))),
        el('p', { className: 'history-figures' },
          el('span', { className: 'flaky-rate' }, `flaky rate ${pct(h.flakyRate)}`), ` (flaky in ${fmt(h.counts.flaky)} of the ${fmt(ran)} runs it ran in`,
          h.counts.skipped ? `, skipped in ${fmt(h.counts.skipped)}` : '', `; failed in ${fmt(h.counts.failed)})`),
        h.firstFailed
          ? el('p', { className: 'first-failed' }, `Failing since `, el('a', { href: testLink(h.firstFailed.report, key) }, runLabel(h.firstFailed)),
            ` (${h.firstFailed.streak === 1 ? 'its last run' : `${fmt(h.firstFailed.streak)} runs in a row`})`)
          : el('p', { className: 'first-failed meta' }, 'Not failing: its last run did not fail.'),
        el('ol', { className: 'timeline', 'aria-label': 'status per run, oldest first' }, h.runs.map((r) => el('li', { 'data-status': r.status, title: `${r.status} · ${ms(r.durationMs)} · ${runLabel(r)}` },
          el('a', { href: testLink(r.report, key) }, el('span', { className: 'status' }, r.status), el('span', { className: 'commit' }, short(r.commitId)))))),
        el('h5', null, 'duration per run'),
        trend(h.runs));
    });
  }
}

/** The page of the flakiest and most slowed-down tests over the last N runs (#history). */
export function createHistoryPage() {
  const my = { seq: 0 };
  const section = () => $('history-page');

  function list(a, sort, runs) {
    if (!a.ok) return el('p', { className: a.noService ? 'meta' : 'error' }, a.noService ? 'This page needs `shardwise serve`: it reads the runs the service holds.' : a.text);
    const { body } = a;
    if (!body.tests.length) return el('p', { className: 'meta' }, sort === 'flaky' ? `No test was flaky in the last ${fmt(body.window.runs)} runs.` : `No test slowed down over the last ${fmt(body.window.runs)} runs.`);
    return [
      el('table', { className: `history-list ${sort}` },
        el('thead', null, el('tr', null, el('th', null, 'test'), sort === 'flaky'
          ? [el('th', { className: 'num' }, 'flaky rate'), el('th', { className: 'num' }, 'flaky / ran'), el('th', null, 'last')]
          : [el('th', { className: 'num' }, 'earlier'), el('th', { className: 'num' }, 'recent'), el('th', { className: 'num' }, 'slower by')])),
        el('tbody', null, body.tests.map((t) => el('tr', { 'data-key': t.key },
          el('td', null, t.lastReport ? el('a', { href: testLink(t.lastReport, t.key) }, t.unitId) : t.unitId),
          sort === 'flaky'
            ? [el('td', { className: 'num' }, pct(t.flakyRate)), el('td', { className: 'num' }, `${fmt(t.counts.flaky)} / ${fmt(t.counts.passed + t.counts.failed + t.counts.flaky)}`), el('td', { 'data-status': t.lastStatus }, t.lastStatus ?? '')]
            : [el('td', { className: 'num' }, ms(t.earlierMs)), el('td', { className: 'num' }, ms(t.recentMs)), el('td', { className: 'num' }, `+${ms(t.slowdownMs)}`)])))),
      body.total > body.tests.length + body.offset ? el('p', { className: 'meta' }, `${fmt(body.tests.length)} of ${fmt(body.total)} shown`) : undefined,
    ];
  }

  async function load() {
    const runs = Math.max(1, Math.min(100000, Number($('history-runs').value) || 100));
    const seq = ++my.seq;
    $('history-summary').textContent = `Reading the last ${fmt(runs)} runs…`;
    const [flaky, slow] = await Promise.all([
      ask(`/api/history/tests?sort=flaky&runs=${runs}&limit=50`),
      ask(`/api/history/tests?sort=slowdown&runs=${runs}&limit=50`),
    ]);
    if (seq !== my.seq) return;
    const w = flaky.ok ? flaky.body.window : undefined;
    $('history-summary').textContent = !flaky.ok ? '' : w.runs
      ? `${fmt(w.runs)} runs${w.reports > w.runs ? ` (${fmt(w.reports)} reports: the shards of a run are one run)` : ''}, from ${runLabel(w.from)} to ${runLabel(w.to)}. Slowed down: the mean duration of its passed runs in the newer half of these runs against the older half.`
      : 'The service holds no run yet.';
    fill($('history-flaky'), list(flaky, 'flaky', runs));
    fill($('history-slow'), list(slow, 'slowdown', runs));
    section().dataset.state = flaky.ok ? 'ready' : 'no-service';
  }

  function openFromHash() {
    const on = location.hash === '#history';
    section().hidden = !on;
    if (on) { load(); section().scrollIntoView({ block: 'start' }); }
  }
  window.addEventListener('hashchange', openFromHash);
  $('history-runs').addEventListener('change', load);
  $('history-close').addEventListener('click', () => { history.pushState(null, '', `${location.pathname}${location.search}`); section().hidden = true; });
  return { openFromHash, load };
}
