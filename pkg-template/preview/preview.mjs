// The report preview page: opens a report by URL (?url=, the text field, or the list of reports
// the local service holds) or from a file (.json.br or .json), and shows totals by status, flaky
// tests, duration per environment, the slowest tests, and how `planShards` would split the run
// over N shards (select a shard to list its tests), and the list of every test (filtered, searched
// and sorted in the worker, shown as a virtualised window of rows) whose rows open a test's page
// (#test=<key>: attempts, errors, steps, output, annotations, attachments; the key is the test's
// in every report, so a link survives the next run). A report folder (the reporters'
// outputFolder, picked whole) is read from disk with its attachments; a sharded run's shards are
// shown side by side (predicted against actual); another report is compared with the open one.
// Nothing of a report is
// ever markup: it goes through textContent or `esc`. A shard's report is labelled by its title
// (`shard i/n`, set by the reporters). Decoding and planning run in worker.mjs with the package's wasm; this thread
// only renders: each section is written once per change, lists are capped behind "show more",
// and nothing reads layout back.
export { summarize, walkTests, outcomeOf } from './summary.mjs';
import { keyOf, KEY_PATTERN, shardOfTitle } from './summary.mjs';

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const fmt = (n) => n.toLocaleString('en-US');
/** "1 test", "2 tests". */
const count = (n, word) => `${fmt(n)} ${word}${n === 1 ? '' : 's'}`;
const ms = (v) => (v >= 60_000 ? `${(v / 60_000).toFixed(1)} min` : v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`);
const MAX_SHARDS = 256;
const FIRST_ROWS = 20;
const MORE_ROWS = 50;
const PAGE_ROWS = 1000; // rows fetched from the worker at a time

const state = {
  summary: undefined, // from the worker; its lists hold {count, rows} (the first rows only)
  shown: { slowest: FIRST_ROWS, flaky: FIRST_ROWS },
  fetching: {}, // list name -> true while rows are on their way
  seq: 0, // last plan request
  planning: false, // a plan request is in the worker
  pending: false, // the shard count changed while planning
  shard: undefined, // the shard whose tests are listed: {index, units, count}
};

const worker = new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' });
worker.onmessage = ({ data }) => {
  if (data.type === 'report') onReport(data);
  else if (data.type === 'plan') onPlan(data);
  else if (data.type === 'rows') onRows(data);
  else if (data.type === 'shard') onShardTests(data);
  else if (data.type === 'tests') onTests(data);
  else if (data.type === 'test') onTest(data);
  else if (data.type === 'shards') onShards(data);
  else if (data.type === 'compare') onCompare(data);
  else if (data.type === 'error') onError(data);
};
worker.onerror = (e) => onError({ of: 'open', message: e.message || 'the preview worker failed to start' });

function setStatus(text, kind) {
  const s = $('status');
  s.textContent = text;
  s.dataset.state = kind;
  s.className = kind === 'error' ? 'error' : '';
}

/**
 * Opens a report: `load` resolves with its bytes; `attachments` is where its attachments are read
 * ({kind: 'service', base} | {kind: 'folder', files: Map<id, File>} | undefined); `source` what it
 * is ({url, id?} from a URL, {dir} from a folder), for the shard view and the comparison.
 */
async function open(load, label, attachments, source = {}) {
  state.summary = undefined;
  state.attachments = attachments;
  state.source = source;
  if (!source.keepShardRun) closeShardRun();
  if (source.dir === undefined) $('folder-reports').hidden = true; // not a report of the picked folder
  closeCompare();
  $('report').hidden = true;
  setStatus(`Loading ${label}…`, 'loading');
  let bytes;
  try {
    bytes = await load();
  } catch (e) {
    setStatus(`Cannot open ${label}: ${e.message}`, 'error');
    return;
  }
  state.label = label;
  state.meta = undefined;
  setStatus(`Decoding ${label} (${fmt(bytes.byteLength)} bytes)…`, 'loading');
  worker.postMessage({ type: 'open', bytes }, [bytes]);
}

const TOKEN_KEY = 'shardwise-access-token';
/**
 * fetch for this page's own service: listening beyond loopback, `shardwise serve` answers its read
 * routes 401 without the access token. Asked once (on a 401), kept in sessionStorage, sent as a
 * header, never put in a URL; never sent to another origin.
 */
async function readFetch(url) {
  const own = new URL(url, location.href).origin === location.origin;
  const send = (token) => fetch(url, own && token ? { headers: { authorization: `Bearer ${token}` } } : undefined);
  const sent = own ? sessionStorage.getItem(TOKEN_KEY) : null;
  let res = await send(sent);
  if (res.status !== 401 || !own) return res;
  let token = sessionStorage.getItem(TOKEN_KEY);
  if (!token || token === sent) {
    token = (prompt('This service needs its access token to show reports (the "access token:" line shardwise serve printed):') ?? '').trim();
    if (!token) return res;
    sessionStorage.setItem(TOKEN_KEY, token); // a fetch answered 401 meanwhile uses it instead of asking again
  }
  res = await send(token);
  if (res.status === 401 && sessionStorage.getItem(TOKEN_KEY) === token) sessionStorage.removeItem(TOKEN_KEY);
  return res;
}

async function fetchBytes(url) {
  let res;
  try {
    res = await readFetch(url);
  } catch (e) {
    throw new Error(`cannot reach ${url} (${e.message}); is the server running?`);
  }
  if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
  return res.arrayBuffer();
}

function onReport({ summary, meta }) {
  state.summary = summary;
  state.meta = meta;
  state.shown = { slowest: FIRST_ROWS, flaky: FIRST_ROWS };
  const when = meta.startTimestamp ? new Date(meta.startTimestamp).toLocaleString() : '';
  $('title').textContent = reportLabel(meta);
  const sp = meta.shardPlan; // a balanced shard's part of the plan, carried in its report
  $('meta').textContent = [when, meta.durationMs !== undefined ? `run took ${ms(meta.durationMs)}` : '', `test time ${ms(summary.totalMs)}`,
    sp && `planned as shard ${sp.shardIndex}/${sp.shardCount}: ${count(Number(sp.units) || 0, sp.unit === 'file' ? 'file' : 'test')}, predicted ${ms(Number(sp.predictedMs) || 0)}, plan fingerprint ${String(sp.fingerprint ?? '').slice(0, 12)}`,
  ].filter(Boolean).join(' · ');

  $('totals').innerHTML = Object.entries(summary.totals)
    .map(([k, v]) => `<div class="card ${k}" data-total="${k}" data-value="${v}"><b>${fmt(v)}</b>${k}</div>`).join('');
  $('environments').innerHTML = '<tr><th>environment</th><th class="num">tests</th><th class="num">attempts</th><th class="num">duration</th></tr>'
    + summary.environments.map((e) => `<tr data-env="${esc(e.name)}" data-ms="${e.durationMs}"><td>${esc(e.name)}</td><td class="num">${fmt(e.tests)}</td>`
      + `<td class="num">${fmt(e.attempts)}</td><td class="num">${ms(e.durationMs)}</td></tr>`).join('');
  $('flaky-count').textContent = `(${fmt(summary.flaky.count)})`;
  $('slowest-count').textContent = `(of ${fmt(summary.slowest.count)})`;
  state.fetching = {};
  renderFlaky();
  renderSlowest();
  const envSelect = $('plan-env');
  envSelect.innerHTML = '<option value="">all environments</option>'
    + summary.environments.map((e, i) => `<option value="${i}">${esc(e.name)}</option>`).join('');
  envSelect.hidden = summary.environments.length < 2;
  $('report').hidden = false;
  state.shard = undefined;
  renderShardTests();
  setStatus(`${state.label}: ${count(meta.bytes, 'byte')}, ${count(summary.totals.tests, 'test')}, decoded in ${fmt(meta.decodeMs)} ms`, 'ready');
  requestPlan(); // first: the plan is what the page always showed; the test list follows it
  resetTests(summary);
  offerShardRun();
}

/** What a report is: its runner, its title (a shard's says `shard i/n`) and its commit. */
function reportLabel({ category, title, commitId }) {
  return [category ?? 'report', title, commitId && `commit ${commitId.slice(0, 10)}`].filter(Boolean).join(' · ');
}

/** Re-renders a capped list with its "show more" button. */
function renderCapped(name, list, row, empty) {
  const { rows, count } = list;
  const shown = Math.min(state.shown[name], rows.length);
  $(name).innerHTML = count ? rows.slice(0, shown).map(row).join('') : empty;
  $(name).dataset.shown = shown;
  const more = $(`${name}-more`);
  more.hidden = shown >= count;
  more.textContent = `show ${fmt(Math.min(MORE_ROWS, count - shown))} more (${fmt(count - shown)} not shown)`;
}

/** "show more": renders the next rows, fetching them from the worker first when needed. */
function showMore(name) {
  const list = state.summary?.[name];
  if (!list) return;
  state.shown[name] += MORE_ROWS;
  if (state.shown[name] > list.rows.length && list.rows.length < list.count) {
    if (!state.fetching[name]) {
      state.fetching[name] = true;
      worker.postMessage({ type: 'rows', list: name, from: list.rows.length, to: list.rows.length + PAGE_ROWS });
    }
    return;
  }
  render[name]();
}

function onRows({ list: name, from, rows }) {
  const list = state.summary?.[name];
  state.fetching[name] = false;
  if (!list || from !== list.rows.length) return; // another report was opened meanwhile
  list.rows.push(...rows);
  render[name]();
}

function renderFlaky() {
  renderCapped('flaky', state.summary.flaky,
    (t) => `<li data-title="${esc(t.title)}" data-key="${esc(t.key)}"><a href="#test=${esc(t.key)}">${esc(t.title)}</a>${t.file ? ` <small>${esc(t.file)}</small>` : ''}${t.environments.length ? ` <small class="env">${t.environments.map(esc).join(', ')}</small>` : ''}</li>`,
    '<li class="none">none</li>');
}

function renderSlowest() {
  const head = '<tr><th class="num">#</th><th>test</th><th>file</th><th class="num">duration</th></tr>';
  renderCapped('slowest', state.summary.slowest,
    (t, i) => `<tr data-title="${esc(t.title)}" data-key="${esc(t.key)}" data-ms="${t.durationMs}"><td class="num">${i + 1}</td><td><a href="#test=${esc(t.key)}">${esc(t.title)}</a></td><td>${esc(t.file ?? '')}</td><td class="num">${ms(t.durationMs)}</td></tr>`,
    '');
  $('slowest').insertAdjacentHTML('afterbegin', head);
}

/** The shard count from the field, clamped to 1..256. */
function shardCount() {
  const n = Math.round(Number($('shards').value));
  return Number.isFinite(n) ? Math.max(1, Math.min(MAX_SHARDS, n)) : 1;
}

/** Asks the worker for a plan; while one is computing, only the latest change is kept. */
function requestPlan() {
  if (!state.summary) return;
  $('chart').setAttribute('aria-busy', 'true');
  if (state.planning) { state.pending = true; return; }
  state.planning = true;
  state.pending = false;
  const env = $('plan-env').value;
  worker.postMessage({ type: 'plan', seq: ++state.seq, shardCount: shardCount(), environment: env === '' ? undefined : Number(env) });
}

function planDone() {
  state.planning = false;
  if (state.pending) requestPlan();
  else $('chart').removeAttribute('aria-busy');
}

function onPlan({ seq, plan }) {
  if (seq === state.seq && state.summary) {
    const max = Math.max(1, ...plan.shards.map((s) => s.predictedMs));
    $('plan-summary').textContent = `${count(plan.shardCount, 'shard')}: makespan ${ms(plan.makespanMs)} (lower bound ${ms(plan.lowerBoundMs)})`
      + `${plan.estimated ? `, ${count(plan.estimated, 'test')} without a duration estimated` : ''}; fingerprint ${plan.fingerprint.slice(0, 12)}; planned in ${fmt(plan.planMs)} ms`
      + '. Select a shard to list its tests.';
    const chart = $('chart');
    chart.innerHTML = plan.shards.map((s) => `<div class="bar" role="button" tabindex="0" aria-expanded="false" data-shard="${s.index}" data-ms="${s.predictedMs}" data-tests="${s.tests}">`
      + `<span class="label">shard ${s.index}</span><span class="track"><span class="fill" style="width:${((100 * s.predictedMs) / max).toFixed(2)}%"></span></span>`
      + `<span class="value">${ms(s.predictedMs)} · ${count(s.tests, 'test')}</span></div>`).join('');
    chart.dataset.shards = String(plan.shards.length);
    chart.dataset.makespan = String(plan.makespanMs);
    state.plan = plan;
    // the listed shard follows the new plan (its tests may have moved), or closes
    const index = state.shard?.index;
    state.shard = undefined;
    if (index && index <= plan.shards.length) selectShard(index);
    else renderShardTests();
  }
  planDone();
}

/** Lists one shard's tests (the plan's unit ids: file › suites › title), fetched in pages. */
function selectShard(index) {
  if (state.shard?.index === index) { state.shard = undefined; renderShardTests(); return; }
  state.shard = { index, units: [], count: undefined };
  worker.postMessage({ type: 'shard', seq: state.seq, index, from: 0, to: PAGE_ROWS });
  renderShardTests();
}

function onShardTests({ seq, index, from, count: total, units }) {
  const s = state.shard;
  if (!s || s.index !== index || seq !== state.seq || from !== s.units.length) return; // superseded
  s.units.push(...units);
  s.count = total;
  s.fetching = false;
  renderShardTests();
}

function renderShardTests() {
  const s = state.shard;
  for (const bar of document.querySelectorAll('#chart .bar')) bar.setAttribute('aria-expanded', String(Number(bar.dataset.shard) === s?.index));
  const box = $('shard-tests');
  box.hidden = !s;
  if (!s) return;
  const shard = state.plan?.shards[s.index - 1];
  $('shard-tests-title').textContent = `shard ${s.index} of ${state.plan?.shardCount ?? '?'}: `
    + (s.count === undefined ? 'loading…' : `${count(s.count, 'test')}, ${ms(shard?.predictedMs ?? 0)} predicted`);
  $('shard-tests-list').innerHTML = s.units.map((u) => `<li data-unit="${esc(u)}"><a href="#test=${keyOf(u)}">${esc(u)}</a></li>`).join('');
  $('shard-tests-list').dataset.shown = String(s.units.length);
  const more = $('shard-tests-more');
  const left = (s.count ?? 0) - s.units.length;
  more.hidden = left <= 0;
  more.textContent = `show ${fmt(Math.min(PAGE_ROWS, left))} more (${fmt(left)} not shown)`;
}

function moreShardTests() {
  const s = state.shard;
  if (!s || s.fetching || s.count === undefined || s.units.length >= s.count) return;
  s.fetching = true;
  worker.postMessage({ type: 'shard', seq: state.seq, index: s.index, from: s.units.length, to: s.units.length + PAGE_ROWS });
}

function onError({ of, seq, code, message }) {
  const text = `${code ? `${code}: ` : ''}${message}`;
  if (of === 'shard') return;
  if (of === 'shards') { if (seq === shardRun.seq) { $('shard-run-summary').textContent = `No shard view: ${text}`; $('shard-run').dataset.state = 'error'; } return; }
  if (of === 'compare') { if (seq === cmp.seq) { $('compare-summary').textContent = `Cannot compare: ${text}`; $('compare-section').dataset.state = 'error'; } return; }
  if (of === 'tests') { if (seq === list.seq) { $('tests-count').textContent = `(cannot list: ${text})`; $('tests').removeAttribute('aria-busy'); } return; } // a newer plan replaced the one asked about; its own request follows
  if (of === 'plan') {
    if (seq === state.seq) {
      $('plan-summary').textContent = `No plan: ${text}`;
      $('chart').innerHTML = '';
      $('chart').dataset.shards = '0';
    }
    planDone();
    return;
  }
  state.summary = undefined;
  $('report').hidden = true;
  setStatus(`Cannot open ${state.label ?? 'the report'}: ${text}`, 'error');
}

async function listReports() {
  let list;
  try {
    const res = await readFetch('/api/reports');
    if (!res.ok) return;
    list = await res.json();
  } catch { return; } // not served by `shardwise serve`: no list
  if (!Array.isArray(list) || !list.length) return;
  state.reports = list;
  const options = list.slice().reverse().map((r) => {
    const when = r.finishedAt ? new Date(r.finishedAt).toLocaleString() : '';
    const label = [reportLabel(r), when].filter(Boolean).join(' · ') || r.id;
    return `<option value="/api/reports/${encodeURIComponent(r.id)}/report.json.br">${esc(label)}</option>`;
  });
  $('recent').insertAdjacentHTML('beforeend', options.join(''));
  $('recent').hidden = false;
  $('compare-with').insertAdjacentHTML('beforeend', options.join(''));
  $('compare-with').hidden = false;
  offerShardRun();
}

function openUrl(value, { keepShardRun = false } = {}) {
  const url = new URL(value, location.href).href;
  $('url').value = url;
  const q = new URLSearchParams(location.search);
  q.set('url', value);
  q.delete('report');
  history.replaceState(null, '', `?${q}${location.hash}`);
  // served by `shardwise serve`: the report's attachments are read back next to it
  const m = /^\/api\/reports\/([^/]+)\/report\.json\.br$/.exec(new URL(url).pathname);
  const own = m && new URL(url).origin === location.origin;
  open(() => fetchBytes(url), url, own ? { kind: 'service', base: `${location.origin}/api/reports/${m[1]}/attachments/` } : undefined,
    { url, id: own ? decodeURIComponent(m[1]) : undefined, keepShardRun });
}

$('open').addEventListener('submit', (e) => { e.preventDefault(); if ($('url').value.trim()) openUrl($('url').value.trim()); });
$('file').addEventListener('change', () => {
  const f = $('file').files[0];
  const q = new URLSearchParams(location.search);
  if (q.has('url') || q.has('report')) { q.delete('url'); q.delete('report'); history.replaceState(null, '', `?${q}${location.hash}`); }
  if (f) open(() => f.arrayBuffer(), f.name);
});
$('folder').addEventListener('change', () => openFolder([...$('folder').files]));
$('folder-reports').addEventListener('change', () => openFolderReport($('folder-reports').value, { keepShardRun: true }));
$('recent').addEventListener('change', () => { if ($('recent').value) openUrl($('recent').value); });
$('shards').addEventListener('input', requestPlan);
$('plan-env').addEventListener('change', requestPlan);
$('chart').addEventListener('click', (e) => {
  const bar = e.target.closest('.bar');
  if (bar) selectShard(Number(bar.dataset.shard));
});
$('chart').addEventListener('keydown', (e) => {
  const bar = e.target.closest('.bar');
  if (bar && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); selectShard(Number(bar.dataset.shard)); }
});
$('shard-tests-more').addEventListener('click', moreShardTests);
const render = { slowest: renderSlowest, flaky: renderFlaky };
$('slowest-more').addEventListener('click', () => showMore('slowest'));
$('flaky-more').addEventListener('click', () => showMore('flaky'));

// ---- the test list: every test, virtualised ------------------------------------------------
// The worker holds the list, filters and sorts it; the page asks for the rows around the window
// it shows (a fixed-height scroller, rows ROW_H px high, a spacer as tall as the whole list).
const ROW_H = 26;
const OVERSCAN = 60; // rows fetched beyond each edge of the window
const list = {
  seq: 0, // the current query; replies to older ones are dropped
  query: { status: '', env: '', file: '', text: '', sort: '', desc: false },
  count: undefined, from: 0, rows: [], // the last window received
  asked: undefined, // {seq, from, to} on its way
  openRef: undefined, // the #test= asked for (a key, or a list position in older links)
  openKey: undefined, // the key of the test whose page is open
  t0: 0, firstPaint: undefined,
};

function resetTests(summary) {
  list.query = { status: '', env: '', file: '', text: '', sort: '', desc: false };
  $('f-status').value = ''; $('f-file').value = ''; $('f-text').value = '';
  const env = $('f-env');
  env.innerHTML = '<option value="">all environments</option>' + summary.environments.map((e, i) => `<option value="${i}">${esc(e.name)}</option>`).join('');
  env.hidden = summary.environments.length < 2;
  list.t0 = performance.now();
  list.firstPaint = undefined;
  list.count = undefined;
  list.rows = [];
  $('tests-rows').textContent = '';
  renderSortHeads();
  queryTests();
  openFromHash();
}

/** A new query: back to the top, its first window asked for. */
function queryTests() {
  if (!state.summary) return;
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
  worker.postMessage({ type: 'tests', seq: list.seq, query: list.query, from, to: b + OVERSCAN });
}

function onTests({ seq, count: total, from, rows, ms: took }) {
  if (seq !== list.seq) return; // an older query
  list.asked = undefined;
  const changed = list.count !== total || list.rowsSeq !== seq;
  Object.assign(list, { count: total, from, rows, rowsSeq: seq });
  if (changed) {
    $('tests-spacer').style.height = `${total * ROW_H}px`;
    $('tests-count').textContent = `(${total === state.summary?.totals.tests ? count(total, 'test') : `${fmt(total)} of ${count(state.summary?.totals.tests ?? 0, 'test')}`})`;
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

/** Writes the rows of the window (only those) from the last reply. */
function renderRows() {
  const [a, b] = visibleRange();
  const lo = Math.max(a, list.from);
  const hi = Math.min(b, list.from + list.rows.length);
  let html = '';
  for (let i = lo; i < hi; i++) {
    const r = list.rows[i - list.from];
    const where = r.file ? `${r.file}${r.line ? `:${r.line}` : ''}` : '';
    html += `<div class="trow${r.key === list.openKey ? ' open' : ''}" role="button" tabindex="-1" data-id="${r.id}" data-key="${esc(r.key)}" data-index="${i}" data-outcome="${esc(r.outcome)}" data-ms="${r.durationMs}" style="top:${i * ROW_H}px">`
      + `<span class="st"><b class="badge ${esc(r.outcome)}">${esc(r.outcome)}</b></span><span class="ti" title="${esc(r.title)}">${esc(r.title)}</span>`
      + `<span class="fl" title="${esc(where)}">${esc(where)}</span><span class="num">${ms(r.durationMs)}</span><span class="num">${r.retries}</span></div>`;
  }
  if (list.count === 0) html = '<p class="none">No test matches.</p>';
  $('tests-rows').innerHTML = html;
  $('tests-rows').dataset.shown = `${lo}-${hi}`;
}

function renderSortHeads() {
  for (const b of document.querySelectorAll('#tests .vhead button')) {
    if (b.dataset.sort === list.query.sort) b.setAttribute('aria-sort', list.query.desc ? 'descending' : 'ascending');
    else b.removeAttribute('aria-sort');
  }
}

let typing;
/** A filter changed: selects apply at once, typing once it pauses. */
function onFilter(delay) {
  clearTimeout(typing);
  $('tests').setAttribute('aria-busy', 'true');
  typing = setTimeout(() => {
    Object.assign(list.query, { status: $('f-status').value, env: $('f-env').value, file: $('f-file').value.trim(), text: $('f-text').value.trim() });
    queryTests();
  }, delay);
}
$('f-status').addEventListener('change', () => onFilter(0));
$('f-env').addEventListener('change', () => onFilter(0));
$('f-file').addEventListener('input', () => onFilter(120));
$('f-text').addEventListener('input', () => onFilter(120));
// a status card lists that status's tests
$('totals').addEventListener('click', (e) => {
  const card = e.target.closest('[data-total]');
  if (!card) return;
  $('f-status').value = card.dataset.total === 'tests' ? '' : card.dataset.total;
  onFilter(0);
  $('tests-section').scrollIntoView({ block: 'start' });
});
$('tests').querySelector('.vhead').addEventListener('click', (e) => {
  const col = e.target.closest('button')?.dataset.sort;
  if (!col) return;
  // first click: the longest / most retried first, names A-Z, failures first; again: reversed
  if (list.query.sort === col) list.query.desc = !list.query.desc;
  else Object.assign(list.query, { sort: col, desc: col === 'duration' || col === 'retries' });
  renderSortHeads();
  queryTests();
});
let scrolling = false;
$('tests-scroll').addEventListener('scroll', () => {
  if (scrolling) return;
  scrolling = true;
  requestAnimationFrame(() => { scrolling = false; askWindow(); });
}, { passive: true });
$('tests-rows').addEventListener('click', (e) => {
  const row = e.target.closest('.trow');
  if (row) location.hash = `test=${row.dataset.key}`;
});
$('tests-rows').addEventListener('keydown', (e) => {
  const row = e.target.closest('.trow');
  if (row && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); location.hash = `test=${row.dataset.key}`; }
});

// ---- a test's page (#test=<key>) -------------------------------------------------------------
// The key (summary.mjs keyOf) names the test in every report; `#test=<n>` (a list position, as
// links were before keys) still opens, and the address then shows the test's key.
function openFromHash() {
  const m = /^#test=([0-9a-f]{14}|\d{1,13})$/.exec(location.hash);
  if (!m) { closeTest(); return; }
  if (!state.summary) return; // asked again once the report is open
  list.openRef = m[1];
  worker.postMessage({ type: 'test', ref: list.openRef });
}
window.addEventListener('hashchange', openFromHash);

let objectUrls = [];
function closeTest() {
  list.openRef = undefined;
  list.openKey = undefined;
  for (const u of objectUrls) URL.revokeObjectURL(u);
  objectUrls = [];
  const d = $('test-detail');
  d.hidden = true;
  d.textContent = '';
  delete d.dataset.id;
  for (const r of document.querySelectorAll('#tests-rows .trow.open')) r.classList.remove('open');
}

/** An element whose content is text (strings become text nodes, never markup). */
function el(tag, props, ...kids) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === undefined || v === null) continue;
    if (k === 'className') n.className = v;
    else n.setAttribute(k, String(v));
  }
  for (const k of kids) if (k !== undefined && k !== null && k !== false) n.append(k);
  return n;
}

/** A base64 `buffer` stdio entry as text: UTF-8, invalid bytes as U+FFFD. */
function bufferText(b64) {
  try {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new TextDecoder('utf-8').decode(bytes);
  } catch {
    return '[not valid base64]';
  }
}

const where = (loc) => (loc?.file ? `${loc.file}${loc.line ? `:${loc.line}${loc.column ? `:${loc.column}` : ''}` : ''}` : undefined);

function errorBox(e) {
  return el('div', { className: 'error' },
    e.message !== undefined && el('pre', { className: 'message' }, String(e.message)),
    e.value !== undefined && e.message === undefined && el('pre', { className: 'message' }, String(e.value)),
    e.location && el('div', { className: 'location' }, el('small', null, where(e.location))),
    e.snippet && el('pre', { className: 'snippet' }, String(e.snippet)),
    e.stack && el('pre', { className: 'stack' }, String(e.stack)));
}

function stepsTree(steps, depth = 0) {
  const ul = el('ul', { className: 'steps' });
  for (const s of steps) {
    const li = el('li', { className: s.error ? 'failed' : undefined }, el('span', { className: 'step-title' }, String(s.title)), ' ', el('small', null, ms(s.duration ?? 0)));
    if (s.error) li.append(errorBox(s.error));
    if (s.steps?.length && depth < 64) li.append(stepsTree(s.steps, depth + 1));
    ul.append(li);
  }
  return ul;
}

const IMAGE = /^image\/(png|jpeg|gif|webp|avif|bmp)(\s*;.*)?$/i;
const VIDEO = /^video\/(webm|mp4|ogg)(\s*;.*)?$/i;
const TEXT = /^(text\/[\w.+-]+|application\/([\w.-]+\+)?(json|xml)|application\/(x-ndjson|javascript|x-sh|yaml|x-yaml))(\s*;.*)?$/i;
/** A text attachment is shown up to this many bytes (the rest by its download link). */
const TEXT_SHOWN_BYTES = 256 * 1024;

/** An object URL for `blob`, revoked when the test page closes. */
function objectUrl(blob) {
  const u = URL.createObjectURL(blob);
  objectUrls.push(u);
  return u;
}

/**
 * An attempt's attachments: each named, and read from where the report came from (the service,
 * with the token; or the report's folder on disk): images inline, video playable, text shown
 * (as text), anything else to download. Every read is of this page's origin or a local file.
 */
function attachmentList(atts) {
  const ul = el('ul', { className: 'attachments' });
  const src = state.attachments;
  for (const a of atts) {
    const type = String(a.contentType ?? '');
    const li = el('li', { 'data-type': type }, el('span', { className: 'name' }, String(a.name)), ' ', el('small', null, type));
    ul.append(li);
    if (!src || typeof a.id !== 'string') continue;
    let load;
    if (src.kind === 'service') {
      const url = src.base + encodeURIComponent(a.id);
      load = async () => {
        const res = await readFetch(url);
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        return new Blob([await res.arrayBuffer()], { type });
      };
      // read with the token (a service listening beyond loopback wants it), saved from memory
      const link = el('a', { href: url, download: String(a.name) }, 'download');
      link.addEventListener('click', (e) => {
        e.preventDefault();
        load().then((blob) => {
          const save = el('a', { href: objectUrl(blob), download: String(a.name) });
          save.click();
        }).catch((err) => link.after(el('small', { className: 'error' }, ` (cannot download: ${err.message})`)));
      });
      li.append(' ', link);
    } else {
      const file = src.files.get(a.id);
      if (!file) { li.append(el('small', { className: 'error' }, ' (not in the folder)')); continue; }
      const blob = new Blob([file], { type });
      li.append(' ', el('a', { href: objectUrl(blob), download: String(a.name) }, 'download'));
      load = async () => blob;
    }
    const kind = IMAGE.test(type) ? 'image' : VIDEO.test(type) ? 'video' : TEXT.test(type) ? 'text' : undefined;
    if (!kind) continue;
    const view = kind === 'image' ? el('img', { alt: String(a.name) })
      : kind === 'video' ? el('video', { controls: '', preload: 'metadata' })
      : el('pre', { className: 'text' });
    li.append(view);
    load().then(async (blob) => {
      if (kind === 'text') {
        view.textContent = await blob.slice(0, TEXT_SHOWN_BYTES).text();
        if (blob.size > TEXT_SHOWN_BYTES) li.append(el('small', null, ` (first ${fmt(TEXT_SHOWN_BYTES)} of ${count(blob.size, 'byte')} shown)`));
      } else view.src = objectUrl(blob);
    }).catch((e) => view.replaceWith(el('small', { className: 'error' }, ` (cannot load: ${e.message})`)));
  }
  return ul;
}

function onTest({ ref, test }) {
  if (ref !== list.openRef) return;
  const d = $('test-detail');
  for (const u of objectUrls) URL.revokeObjectURL(u);
  objectUrls = [];
  d.textContent = '';
  d.hidden = false;
  delete d.dataset.key;
  d.dataset.id = ref;
  if (!test) { d.append(el('p', { className: 'error' }, `This report has no test ${KEY_PATTERN.test(ref) ? `with the key ${ref}` : `#${ref}`}.`)); return; }
  d.dataset.id = String(test.id);
  d.dataset.key = test.key;
  list.openKey = test.key;
  if (ref !== test.key) history.replaceState(null, '', `${location.pathname}${location.search}#test=${test.key}`); // an older link: the address shows the stable one
  const close = el('button', { type: 'button', className: 'close' }, 'close');
  close.addEventListener('click', () => { history.pushState(null, '', `${location.pathname}${location.search}`); closeTest(); });
  d.append(close, el('h3', { className: 'test-title' }, test.title),
    el('p', { className: 'links' }, el('a', { className: 'permalink', href: `#test=${test.key}`, title: 'opens this test, in this report and in the next ones' }, 'link to this test')),
    el('p', { className: 'meta' }, [where({ file: test.file, line: test.line }), test.tags?.length ? test.tags.map((t) => `@${t}`).join(' ') : undefined].filter(Boolean).join(' · ')));
  const byEnv = new Map();
  const boxes = el('div', { className: 'attempts' });
  for (const a of test.attempts) {
    const env = a.environmentIdx ?? 0;
    const n = (byEnv.get(env) ?? 0) + 1;
    byEnv.set(env, n);
    const status = a.status ?? 'passed';
    const expected = a.expectedStatus ?? 'passed';
    const box = el('div', { className: 'attempt', 'data-status': status, 'data-env': test.environments[env] ?? `#${env}` },
      el('h4', null, el('b', { className: `badge ${status === expected ? (status === 'skipped' ? 'skipped' : 'passed') : 'failed'}` }, status),
        ` ${test.environments[env] ?? `#${env}`} · ${n === 1 ? 'attempt 1' : `retry ${n - 1}`} · ${ms(a.duration ?? 0)}`,
        status !== expected ? el('small', null, ` (expected ${expected})`) : undefined));
    if (a.errors?.length) box.append(el('h5', null, 'errors'), ...a.errors.map(errorBox));
    if (a.steps?.length) box.append(el('h5', null, 'steps'), stepsTree(a.steps));
    if (a.stdio?.length) {
      const pre = el('pre', { className: 'stdio' });
      for (const e of a.stdio) {
        const text = e.text !== undefined ? String(e.text) : bufferText(String(e.buffer ?? ''));
        pre.append(el('span', { className: e.stream === 2 ? 'stderr' : 'stdout' }, text)); // entries are chunks, as written
      }
      box.append(el('h5', null, 'output'), pre);
    }
    if (a.annotations?.length) {
      box.append(el('h5', null, 'annotations'), el('ul', { className: 'annotations' },
        ...a.annotations.map((x) => el('li', null, el('b', null, String(x.type)), x.description !== undefined ? `: ${x.description}` : '', x.location ? el('small', null, ` ${where(x.location)}`) : undefined))));
    }
    if (a.attachments?.length) box.append(el('h5', null, 'attachments'), attachmentList(a.attachments));
    boxes.append(box);
  }
  if (!test.attempts.length) boxes.append(el('p', null, 'No attempts: the test did not run.'));
  d.append(boxes);
  for (const r of document.querySelectorAll('#tests-rows .trow')) r.classList.toggle('open', r.dataset.key === test.key);
  d.scrollIntoView({ block: 'nearest' });
}

// ---- a report folder (the reporters' outputFolder) ------------------------------------------
// Picked whole (<input webkitdirectory>): each report.json.br in it, with the attachments/ beside
// it (src/runner/report.mjs, FOLDER LAYOUT). Everything is read from disk: no request is made.
const REPORT_FILE = 'report.json.br';
const ATTACHMENTS_DIR = 'attachments/';
let folder = { reports: new Map() }; // dir ('' or 'shard-1-of-3/', below the picked folder) -> {report: File, attachments: Map<id, File>}

function openFolder(files) {
  folder = { reports: new Map(), name: '' };
  const rel = (f) => (f.webkitRelativePath || f.name).split('/').slice(1).join('/'); // below the picked folder
  for (const f of files) {
    const r = rel(f);
    if (r === REPORT_FILE || r.endsWith(`/${REPORT_FILE}`)) {
      const dir = r.slice(0, r.length - REPORT_FILE.length);
      folder.reports.set(dir, { ...folder.reports.get(dir), report: f });
    }
  }
  for (const f of files) {
    const r = rel(f);
    const i = r.lastIndexOf(`/${ATTACHMENTS_DIR.slice(0, -1)}/`);
    const dir = r.startsWith(ATTACHMENTS_DIR) ? '' : i >= 0 ? r.slice(0, i + 1) : undefined;
    const entry = dir !== undefined && folder.reports.get(dir);
    if (!entry) continue;
    const id = r.slice(dir.length + ATTACHMENTS_DIR.length);
    if (id && !id.includes('/')) (entry.attachments ??= new Map()).set(id, f);
  }
  folder.name = (files[0]?.webkitRelativePath ?? '').split('/')[0] || 'the folder';
  const q = new URLSearchParams(location.search);
  if (q.has('url') || q.has('report')) { q.delete('url'); q.delete('report'); history.replaceState(null, '', `?${q}${location.hash}`); }
  const dirs = [...folder.reports.keys()].sort(byShardDir);
  const select = $('folder-reports');
  select.innerHTML = dirs.map((d) => `<option value="${esc(d)}">${esc(d ? `${folder.name}/${d}` : folder.name)}${esc(REPORT_FILE)}</option>`).join('');
  select.hidden = dirs.length < 2;
  if (!dirs.length) { closeShardRun(); setStatus(`No ${REPORT_FILE} in ${folder.name}: pick the reporter's output folder (outputFolder)`, 'error'); $('report').hidden = true; return; }
  // a sharded run's folder: every shard side by side, and the first shard's report open
  const shards = dirs.filter((d) => SHARD_DIR.test(d));
  closeShardRun();
  if (shards.length) requestShardRun(shards.map((d) => ({ name: `${folder.name}/${d}${REPORT_FILE}`, load: () => folder.reports.get(d).report.arrayBuffer(), open: { dir: d } })));
  openFolderReport(dirs[0], { keepShardRun: true });
}
const SHARD_DIR = /(^|\/)shard-(\d+)-of-(\d+)\/$/;
const shardNo = (d) => Number(SHARD_DIR.exec(d)?.[2] ?? 0);
const byShardDir = (a, b) => shardNo(a) - shardNo(b) || (a < b ? -1 : a > b ? 1 : 0);

function openFolderReport(dir, { keepShardRun = false } = {}) {
  const entry = folder.reports.get(dir);
  if (!entry) return;
  $('folder-reports').value = dir;
  open(() => entry.report.arrayBuffer(), `${folder.name}/${dir}${REPORT_FILE}`, { kind: 'folder', files: entry.attachments ?? new Map() }, { dir, keepShardRun });
}

// ---- the shards of a sharded run, side by side --------------------------------------------
// From a folder (its shard-i-of-n/ reports) or from the service (the open shard report's
// siblings: the same commit, titled "shard j/n", the newest of each). Each shard: its tests, what
// the plan predicted (carried in the report, summary.mjs SHARD_PLAN_SOURCE) against what its
// tests took, and the plan's fingerprint (every shard of one run must have planned alike).
const shardRun = { seq: 0, members: [] };

function closeShardRun() {
  shardRun.seq++;
  shardRun.members = [];
  $('shard-run').hidden = true;
  $('shard-run-table').textContent = '';
  $('shard-run-tests').textContent = '';
  $('shard-run-twice').textContent = '';
  delete $('shard-run').dataset.state;
}

/** The open report's sibling shards in the service's list (the newest report of each index), or undefined. */
function siblingShards() {
  const id = state.source?.id;
  const me = id && state.reports?.find((r) => r.id === id);
  const s = me && shardOfTitle(me.title);
  if (!s) return undefined;
  const newest = new Map();
  for (const r of state.reports) {
    const o = shardOfTitle(r.title);
    if (!o || o.count !== s.count || r.commitId !== me.commitId) continue;
    const had = newest.get(o.index);
    if (!had || (r.finishedAt ?? 0) > (had.finishedAt ?? 0) || r.id === id) newest.set(o.index, r);
  }
  newest.set(s.index, me);
  return { count: s.count, reports: [...newest.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r) };
}

function offerShardRun() {
  const b = $('shard-run-open');
  const sib = state.summary && siblingShards();
  b.hidden = !sib;
  if (sib) b.textContent = `Shard view of this run (${sib.reports.length} of ${count(sib.count, 'shard')} uploaded)`;
}

$('shard-run-open').addEventListener('click', () => {
  const sib = siblingShards();
  if (!sib) return;
  requestShardRun(sib.reports.map((r) => {
    const url = `/api/reports/${encodeURIComponent(r.id)}/report.json.br`;
    return { name: reportLabel(r), load: () => fetchBytes(url), open: { url } };
  }));
});

async function requestShardRun(members) {
  const seq = ++shardRun.seq;
  shardRun.members = members;
  $('shard-run').hidden = false;
  $('shard-run').dataset.state = 'loading';
  $('shard-run-summary').textContent = `Reading ${count(members.length, 'shard report')}…`;
  let reports;
  try {
    reports = await Promise.all(members.map(async (m) => ({ name: m.name, bytes: await m.load() })));
  } catch (e) {
    if (seq === shardRun.seq) { $('shard-run-summary').textContent = `No shard view: ${e.message}`; $('shard-run').dataset.state = 'error'; }
    return;
  }
  if (seq !== shardRun.seq) return;
  worker.postMessage({ type: 'shards', seq, reports }, reports.map((r) => r.bytes));
}

/** The href that opens a shard's report (on one of its tests): a shareable URL from the service, else the folder's. */
function shardHref(member, key) {
  const hash = key ? `#test=${key}` : '';
  if (member.open.url) return `?url=${encodeURIComponent(member.open.url)}${hash}`;
  return hash || '#';
}

function onShards({ seq, shards, twice }) {
  if (seq !== shardRun.seq) return;
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
  ].filter(Boolean).join(' · ');
  const several = $('shard-run-twice');
  several.textContent = '';
  several.hidden = !twice.count;
  for (const t of twice.tests) several.append(el('li', { 'data-key': t.key }, t.title, ' ', el('small', null, `(shards ${t.shards.join(', ')})`)));
  const head = '<tr><th>shard</th><th class="num">tests</th><th class="num">planned</th><th class="num">predicted</th><th class="num">tests took</th><th class="num">off by</th><th class="num">wall</th><th class="num">failed</th><th>fingerprint</th></tr>';
  const order = shards.map((x, i) => ({ x, m: shardRun.members[i] })).sort((a, b) => (a.x.index ?? 0) - (b.x.index ?? 0));
  $('shard-run-table').innerHTML = head + order.map(({ x }) => {
    const off = x.plan && x.spanMs !== undefined ? x.spanMs - x.plan.predictedMs : undefined;
    const offText = off === undefined ? '' : `${off >= 0 ? '+' : '−'}${ms(Math.abs(off))}${x.plan.predictedMs ? ` (${off >= 0 ? '+' : '−'}${Math.round((100 * Math.abs(off)) / x.plan.predictedMs)}%)` : ''}`;
    return `<tr data-shard="${x.index ?? ''}" data-tests="${x.totals.tests}" data-planned="${x.plan?.units ?? ''}" data-predicted="${x.plan?.predictedMs ?? ''}" data-span="${x.spanMs ?? ''}" data-fingerprint="${esc(x.plan?.fingerprint ?? '')}">`
      + `<td>${esc(x.index ? `shard ${x.index}/${x.count}` : x.name)}</td><td class="num">${fmt(x.totals.tests)}</td><td class="num">${x.plan ? `${fmt(x.plan.units)} ${esc(x.plan.unit === 'file' ? 'files' : 'tests')}` : ''}</td>`
      + `<td class="num">${x.plan ? ms(x.plan.predictedMs) : ''}</td><td class="num">${x.spanMs !== undefined ? ms(x.spanMs) : ''}</td>`
      + `<td class="num ${off === undefined ? '' : off > 0 ? 'off-late' : 'off-early'}">${offText}</td><td class="num">${x.wallMs !== undefined ? ms(x.wallMs) : ''}</td>`
      + `<td class="num">${fmt(x.totals.failed)}</td><td title="${esc(x.plan?.fingerprint ?? '')}">${esc((x.plan?.fingerprint ?? '').slice(0, 12))}</td></tr>`;
  }).join('');
  const lists = $('shard-run-tests');
  lists.textContent = '';
  for (const { x, m } of order) {
    const ol = el('ol', { 'data-shard': x.index ?? '' });
    for (const t of x.tests) {
      const a = el('a', { href: shardHref(m, t.key), 'data-key': t.key }, t.title);
      if (!m.open.url) a.addEventListener('click', (e) => { e.preventDefault(); history.replaceState(null, '', `${location.pathname}${location.search}#test=${t.key}`); openFolderReport(m.open.dir, { keepShardRun: true }); });
      ol.append(el('li', { 'data-outcome': t.outcome }, a, ' ', el('small', null, `${t.outcome} · ${ms(t.durationMs)}`)));
    }
    const more = x.totals.tests - x.tests.length;
    const open = el('a', { href: shardHref(m), className: 'open-shard' }, 'open its report');
    if (!m.open.url) open.addEventListener('click', (e) => { e.preventDefault(); history.replaceState(null, '', `${location.pathname}${location.search}`); openFolderReport(m.open.dir, { keepShardRun: true }); });
    lists.append(el('details', { 'data-shard': x.index ?? '' },
      el('summary', null, `${x.index ? `shard ${x.index}/${x.count}` : x.name}: ${count(x.totals.tests, 'test')}${more > 0 ? ` (the ${fmt(x.tests.length)} slowest listed)` : ''} `, open), ol));
  }
  box.dataset.state = 'ready';
}

// ---- comparing the open report with an earlier one -----------------------------------------
const cmp = { seq: 0 };

function closeCompare() {
  cmp.seq++;
  $('compare').hidden = true;
  $('compare-summary').textContent = '';
  delete $('compare-section').dataset.state;
  $('compare-with').value = '';
}

async function compareWith(label, load) {
  if (!state.summary) return;
  const seq = ++cmp.seq;
  $('compare').hidden = true;
  $('compare-section').dataset.state = 'loading';
  $('compare-summary').textContent = `Comparing with ${label}…`;
  let bytes;
  try { bytes = await load(); } catch (e) {
    if (seq === cmp.seq) { $('compare-summary').textContent = `Cannot compare: ${e.message}`; $('compare-section').dataset.state = 'error'; }
    return;
  }
  if (seq !== cmp.seq) return;
  worker.postMessage({ type: 'compare', seq, name: label, bytes }, [bytes]);
}

function onCompare({ seq, name, diff }) {
  if (seq !== cmp.seq) return;
  $('compare-summary').textContent = `Against ${name}: ${count(diff.tests, 'test')} now, ${fmt(diff.baseTests)} then; ${fmt(diff.added)} added, ${fmt(diff.removed)} removed; `
    + `${fmt(diff.newFailures.length)} new failures, ${fmt(diff.fixed.length)} fixed, ${fmt(diff.newlyFlaky.length)} newly flaky`;
  const item = (t, note) => el('li', { 'data-key': t.key, 'data-title': t.title }, el('a', { href: `#test=${t.key}` }, t.title), ' ', el('small', null, note));
  const was = (t) => (t.before === 'absent' ? 'new test' : `was ${t.before}`);
  const fill = (name, rows, note) => {
    const ol = $(`cmp-${name}`);
    ol.textContent = '';
    if (!rows.length) ol.append(el('li', { className: 'none' }, 'none'));
    for (const t of rows) ol.append(item(t, note(t)));
    $(`cmp-${name}-count`).textContent = `(${fmt(name === 'moved' ? diff.movedCount : rows.length)})`;
  };
  fill('newFailures', diff.newFailures, was);
  fill('fixed', diff.fixed, (t) => `now ${t.outcome}`);
  fill('newlyFlaky', diff.newlyFlaky, was);
  fill('moved', diff.moved, (t) => `${t.deltaMs >= 0 ? '+' : '−'}${ms(Math.abs(t.deltaMs))} (${ms(t.beforeMs)} → ${ms(t.durationMs)})`);
  for (const t of diff.moved) $('cmp-moved').querySelector(`li[data-key="${t.key}"]`)?.setAttribute('data-delta', String(t.deltaMs));
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

listReports();
const initial = new URLSearchParams(location.search);
const param = initial.get('url') ?? initial.get('report');
if (param) openUrl(param);
