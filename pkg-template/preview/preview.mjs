// The report preview: decodes a report in the browser with the package's wasm and shows totals,
// flaky tests, duration per environment, the slowest tests and a shard plan.
import init, { decodeReport, planShards } from '../browser.mjs';

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const ms = (v) => (v >= 60_000 ? `${(v / 60_000).toFixed(1)} min` : v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`);
let current;

/** Every test of the report with its title path and file. */
export function* walkTests(report) {
  function* suite(s, path, file) {
    const f = s.type === 'file' ? s.title : file;
    const p = s.type === 'file' ? path : [...path, s.title];
    for (const t of s.tests ?? []) yield { test: t, path: [...p, t.title], file: t.location?.file ?? f };
    for (const c of s.suites ?? []) yield* suite(c, p, f);
  }
  for (const t of report.tests ?? []) yield { test: t, path: [t.title], file: t.location?.file };
  for (const s of report.suites ?? []) yield* suite(s, [], undefined);
}

/**
 * The figures the page shows. A test's outcome is that of its last attempt in each environment;
 * it is flaky when an environment has a failed attempt followed by a passing one.
 */
export function summarize(report) {
  const totals = { tests: 0, passed: 0, failed: 0, flaky: 0, skipped: 0, other: 0 };
  const envs = (report.environments ?? []).map((e) => ({ name: e.name, durationMs: 0, attempts: 0 }));
  const flaky = [];
  const all = [];
  for (const { test, path, file } of walkTests(report)) {
    totals.tests++;
    const byEnv = new Map();
    let duration = 0;
    for (const a of test.attempts ?? []) {
      const idx = a.environmentIdx ?? 0;
      if (!byEnv.has(idx)) byEnv.set(idx, []);
      byEnv.get(idx).push(a);
      duration += a.duration ?? 0;
      if (envs[idx]) { envs[idx].durationMs += a.duration ?? 0; envs[idx].attempts++; }
    }
    let outcome = 'skipped';
    let isFlaky = false;
    for (const attempts of byEnv.values()) {
      const statuses = attempts.map((a) => a.status ?? 'passed');
      const expected = attempts.map((a) => a.expectedStatus ?? 'passed');
      const ok = statuses.map((s, i) => s === expected[i]);
      const last = statuses.length - 1;
      if (ok[last] && ok.slice(0, last).some((x) => !x)) isFlaky = true;
      if (!ok[last]) outcome = 'failed';
      else if (outcome !== 'failed' && statuses[last] !== 'skipped') outcome = 'passed';
    }
    if (isFlaky && outcome === 'passed') { outcome = 'flaky'; flaky.push({ title: path.join(' › '), file }); }
    totals[outcome in totals ? outcome : 'other']++;
    all.push({ title: path.join(' › '), file, duration });
  }
  all.sort((a, b) => b.duration - a.duration || (a.title < b.title ? -1 : 1));
  return { totals, environments: envs, flaky, slowest: all.slice(0, 20) };
}

function render(report) {
  const s = summarize(report);
  $('title').textContent = report.title ?? `${report.category} report, commit ${report.commitId?.slice(0, 10)}`;
  $('totals').innerHTML = Object.entries(s.totals).filter(([k, v]) => k !== 'other' || v)
    .map(([k, v]) => `<div class="card ${k}" data-total="${k}"><b>${v}</b>${k}</div>`).join('');
  $('environments').innerHTML = '<tr><th>environment</th><th class="num">attempts</th><th class="num">duration</th></tr>' +
    s.environments.map((e) => `<tr data-env="${esc(e.name)}"><td>${esc(e.name)}</td><td class="num">${e.attempts}</td><td class="num" data-ms="${e.durationMs}">${ms(e.durationMs)}</td></tr>`).join('');
  $('flaky-count').textContent = `(${s.flaky.length})`;
  $('flaky').innerHTML = s.flaky.slice(0, 50).map((t) => `<li>${esc(t.title)}</li>`).join('') || '<li>none</li>';
  $('slowest').innerHTML = '<tr><th>test</th><th>file</th><th class="num">duration</th></tr>' +
    s.slowest.map((t) => `<tr><td>${esc(t.title)}</td><td>${esc(t.file ?? '')}</td><td class="num" data-ms="${t.duration}">${ms(t.duration)}</td></tr>`).join('');
  $('report').hidden = false;
  renderPlan();
}

function renderPlan() {
  if (!current) return;
  const shardCount = Math.max(1, Math.min(256, Number($('shards').value) || 1));
  try {
    const plan = planShards({ report: current, shardCount });
    const max = Math.max(1, ...plan.shards.map((x) => x.predictedMs));
    $('plan-summary').textContent = `makespan ${ms(plan.makespanMs)}, lower bound ${ms(plan.lowerBoundMs)}, ` +
      `${plan.estimated} estimated, fingerprint ${plan.fingerprint.slice(0, 12)}`;
    $('chart').innerHTML = plan.shards.map((x) =>
      `<div class="bar" data-shard="${x.index}"><span>shard ${x.index}</span><div style="width:${(60 * x.predictedMs) / max}%"></div><span>${ms(x.predictedMs)} · ${x.units.length} tests</span></div>`).join('');
  } catch (e) {
    $('plan-summary').textContent = `No plan: ${e.message}`;
    $('chart').innerHTML = '';
  }
}

async function open(loader, label) {
  $('status').className = '';
  $('status').textContent = `Loading ${label}…`;
  try {
    const bytes = await loader();
    const t = performance.now();
    current = decodeReport(bytes);
    render(current);
    $('status').textContent = `${label}: ${bytes.length} bytes, decoded in ${Math.round(performance.now() - t)} ms`;
  } catch (e) {
    current = undefined;
    $('report').hidden = true;
    $('status').className = 'error';
    $('status').textContent = `Cannot open ${label}: ${e.code ? `${e.code}: ` : ''}${e.message}`;
  }
}

async function fetchBytes(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`the server answered ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

async function listRecent() {
  try {
    const res = await fetch('/api/reports');
    if (!res.ok) return;
    const { reports } = await res.json();
    if (!reports?.length) return;
    for (const r of reports) {
      const o = document.createElement('option');
      o.value = r.url;
      o.textContent = `${r.title ?? r.id} (${new Date(r.uploadedAt ?? 0).toLocaleString()})`;
      $('recent').append(o);
    }
    $('recent').hidden = false;
  } catch { /* not served by shardwise serve: no list */ }
}

await init();
$('open').addEventListener('submit', (e) => { e.preventDefault(); if ($('url').value) open(() => fetchBytes($('url').value), $('url').value); });
$('file').addEventListener('change', () => { const f = $('file').files[0]; if (f) open(async () => new Uint8Array(await f.arrayBuffer()), f.name); });
$('recent').addEventListener('change', () => { if ($('recent').value) open(() => fetchBytes($('recent').value), $('recent').value); });
$('shards').addEventListener('input', renderPlan);
listRecent();
const param = new URLSearchParams(location.search).get('report');
if (param) { $('url').value = new URL(param, location.href).href; open(() => fetchBytes(param), param); }
