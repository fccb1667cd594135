// The report preview page: opens a report by URL (?url=, the text field, or the list of reports
// the local service holds) or from a file (.json.br or .json), and shows totals by status, flaky
// tests, duration per environment, the slowest tests, and how `planShards` would split the run
// over N shards (select a shard to list its tests). A shard's report is labelled by its title
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
async function open(load, label) {
  state.summary = undefined;
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
  requestPlan();
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
  if (of === 'shard') return; // a newer plan replaced the one asked about; its own request follows
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
  history.replaceState(null, '', `?${q}`);
  open(() => fetchBytes(url), url);
}

$('open').addEventListener('submit', (e) => { e.preventDefault(); if ($('url').value.trim()) openUrl($('url').value.trim()); });
$('file').addEventListener('change', () => {
  const f = $('file').files[0];
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

listReports();
const initial = new URLSearchParams(location.search);
const param = initial.get('url') ?? initial.get('report');
if (param) openUrl(param);
