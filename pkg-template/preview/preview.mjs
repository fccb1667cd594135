// The report preview page: opens a report by URL (?url=, the text field, or the list of reports
// the local service holds) or from a file (.json.br or .json), and shows totals by status, flaky
// tests, duration per environment, the slowest tests, and how `planShards` would split the run
// over N shards (select a shard to list its tests), and the list of every test (filtered, searched
// and sorted in the worker, shown as a virtualised window of rows) whose rows open a test's page
// (#test=<id>: attempts, errors, steps, output, annotations, attachments). Nothing of a report is
// ever markup: it goes through textContent or `esc`. A shard's report is labelled by its title
// (`shard i/n`, set by the reporters). Decoding and planning run in worker.mjs with the package's wasm; this thread
// only renders: each section is written once per change, lists are capped behind "show more",
// and nothing reads layout back.
export { summarize, walkTests, outcomeOf } from './summary.mjs';

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
  else if (data.type === 'error') onError(data);
};
worker.onerror = (e) => onError({ of: 'open', message: e.message || 'the preview worker failed to start' });

function setStatus(text, kind) {
  const s = $('status');
  s.textContent = text;
  s.dataset.state = kind;
  s.className = kind === 'error' ? 'error' : '';
}

/** Opens a report: `load` resolves with its bytes. */
async function open(load, label, attachmentsBase) {
  state.summary = undefined;
  state.attachmentsBase = attachmentsBase;
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
  state.shown = { slowest: FIRST_ROWS, flaky: FIRST_ROWS };
  const when = meta.startTimestamp ? new Date(meta.startTimestamp).toLocaleString() : '';
  $('title').textContent = reportLabel(meta);
  $('meta').textContent = [when, meta.durationMs !== undefined ? `run took ${ms(meta.durationMs)}` : '', `test time ${ms(summary.totalMs)}`].filter(Boolean).join(' · ');

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
    (t) => `<li data-title="${esc(t.title)}">${esc(t.title)}${t.file ? ` <small>${esc(t.file)}</small>` : ''}${t.environments.length ? ` <small class="env">${t.environments.map(esc).join(', ')}</small>` : ''}</li>`,
    '<li class="none">none</li>');
}

function renderSlowest() {
  const head = '<tr><th class="num">#</th><th>test</th><th>file</th><th class="num">duration</th></tr>';
  renderCapped('slowest', state.summary.slowest,
    (t, i) => `<tr data-title="${esc(t.title)}" data-ms="${t.durationMs}"><td class="num">${i + 1}</td><td>${esc(t.title)}</td><td>${esc(t.file ?? '')}</td><td class="num">${ms(t.durationMs)}</td></tr>`,
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
  $('shard-tests-list').innerHTML = s.units.map((u) => `<li data-unit="${esc(u)}">${esc(u)}</li>`).join('');
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
  const options = list.slice().reverse().map((r) => {
    const when = r.finishedAt ? new Date(r.finishedAt).toLocaleString() : '';
    const label = [reportLabel(r), when].filter(Boolean).join(' · ') || r.id;
    return `<option value="/api/reports/${encodeURIComponent(r.id)}/report.json.br">${esc(label)}</option>`;
  });
  $('recent').insertAdjacentHTML('beforeend', options.join(''));
  $('recent').hidden = false;
}

function openUrl(value) {
  const url = new URL(value, location.href).href;
  $('url').value = url;
  const q = new URLSearchParams(location.search);
  q.set('url', value);
  q.delete('report');
  history.replaceState(null, '', `?${q}${location.hash}`);
  // served by `shardwise serve`: the report's attachments are read back next to it
  const m = /^(\/api\/reports\/[^/]+\/)report\.json\.br$/.exec(new URL(url).pathname);
  open(() => fetchBytes(url), url, m && new URL(url).origin === location.origin ? `${location.origin}${m[1]}attachments/` : undefined);
}

$('open').addEventListener('submit', (e) => { e.preventDefault(); if ($('url').value.trim()) openUrl($('url').value.trim()); });
$('file').addEventListener('change', () => {
  const f = $('file').files[0];
  const q = new URLSearchParams(location.search);
  if (q.has('url') || q.has('report')) { q.delete('url'); q.delete('report'); history.replaceState(null, '', `?${q}${location.hash}`); }
  if (f) open(() => f.arrayBuffer(), f.name);
});
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
  openId: undefined, // the test whose page is open
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
    html += `<div class="trow${r.id === list.openId ? ' open' : ''}" role="button" tabindex="-1" data-id="${r.id}" data-index="${i}" data-outcome="${esc(r.outcome)}" data-ms="${r.durationMs}" style="top:${i * ROW_H}px">`
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
  if (row) location.hash = `test=${row.dataset.id}`;
});
$('tests-rows').addEventListener('keydown', (e) => {
  const row = e.target.closest('.trow');
  if (row && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); location.hash = `test=${row.dataset.id}`; }
});

// ---- a test's page (#test=<id>) --------------------------------------------------------------
function openFromHash() {
  const m = /^#test=(\d+)$/.exec(location.hash);
  if (!m) { closeTest(); return; }
  if (!state.summary) return; // asked again once the report is open
  list.openId = Number(m[1]);
  worker.postMessage({ type: 'test', id: list.openId });
}
window.addEventListener('hashchange', openFromHash);

let objectUrls = [];
function closeTest() {
  list.openId = undefined;
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

const IMAGE = /^image\/(png|jpeg|gif|webp|avif)$/i;
function attachmentList(atts) {
  const ul = el('ul', { className: 'attachments' });
  for (const a of atts) {
    const li = el('li', null, el('span', { className: 'name' }, String(a.name)), ' ', el('small', null, String(a.contentType ?? '')));
    const base = state.attachmentsBase;
    if (base && typeof a.id === 'string') {
      const url = base + encodeURIComponent(a.id);
      li.append(' ', el('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, 'open'));
      if (IMAGE.test(a.contentType ?? '')) {
        const img = el('img', { alt: String(a.name) });
        li.append(img);
        readFetch(url).then(async (res) => {
          if (!res.ok) throw new Error(`HTTP ${res.status}`);
          const u = URL.createObjectURL(new Blob([await res.arrayBuffer()], { type: a.contentType }));
          objectUrls.push(u);
          img.src = u;
        }).catch((e) => img.replaceWith(el('small', { className: 'error' }, ` (cannot load: ${e.message})`)));
      }
    }
    ul.append(li);
  }
  return ul;
}

function onTest({ id, test }) {
  if (id !== list.openId) return;
  const d = $('test-detail');
  for (const u of objectUrls) URL.revokeObjectURL(u);
  objectUrls = [];
  d.textContent = '';
  d.hidden = false;
  d.dataset.id = String(id);
  if (!test) { d.append(el('p', { className: 'error' }, `This report has no test #${id}.`)); return; }
  const close = el('button', { type: 'button', className: 'close' }, 'close');
  close.addEventListener('click', () => { history.pushState(null, '', `${location.pathname}${location.search}`); closeTest(); });
  d.append(close, el('h3', { className: 'test-title' }, test.title),
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
  for (const r of document.querySelectorAll('#tests-rows .trow')) r.classList.toggle('open', Number(r.dataset.id) === id);
  d.scrollIntoView({ block: 'nearest' });
}

listReports();
const initial = new URLSearchParams(location.search);
const param = initial.get('url') ?? initial.get('report');
if (param) openUrl(param);
