// Benchmark of planShards (npm run bench:plan): plan quality on real duration data sets and the
// time to plan 100,000 units over 100 shards.
//
// Quality: for every file of bench/data/durations (formats: its README.md), for N in
// 2, 4, 8, 16, 32 and unit test|file, the makespan of each plan divided by the lower bound
// max(total / N, largest group), all scored against the true durations:
//   ours        planShards with every duration known
//   hidden      planShards with 20% of the tests' durations hidden (new tests), scored against
//               the true durations
//   LPT         plain longest-processing-time-first in JS (the reference: ours must not be worse)
//   LPT-hidden  the same with the hidden tests at the median known duration
//   playwright  Playwright's default sharding: equal test counts, groups contiguous in path order
//   jest        Jest's: equal file counts in SHA-1-of-path order (Jest cannot split a file, so
//               the same in both unit rows)
// Goal: ours within 1% of the lower bound where the bound is reachable, and never worse than LPT.
// Those two checks compare like with like: in the planner's own view of the durations (whole
// ms, at least 1; a zero duration is unknown and estimated, as types/plan.d.ts says), where LPT gets the
// very same durations, and "reachable" means LPT itself comes within 1% of the bound.
// Drift: for each pair of bench/data/drift/pairs.json, plans made with the older
// durations file, scored on the newer one, beside pytest-split's least_duration (details below).
// Timing: planShards on 100,000 synthetic units over 100 shards (goal < 100 ms in Node), printed
// with the cost of the JSON round trip of the same input, measured in the same run, as baseline;
// then the first call in a fresh process, 100 shards with unit 'file', and 8 shards, each with
// its CPU time, and beside another build's planShards (BENCH_PLAN_BASELINE=<package folder>)
// run alternately on the same input.
import { readFileSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { planShards } from 'shardwise';

const here = path.dirname(fileURLToPath(import.meta.url));
const DATA = process.env.BENCH_DATA_DIR ?? path.resolve(here, 'data/durations');
const SHARDS = [2, 4, 8, 16, 32];
const sha1 = (s) => createHash('sha1').update(s).digest('hex');

/**
 * A data set as tests `{id, file, ms}` in file order (ms: the true duration, a float).
 * Formats (README.md): `{"<file>::<name>": seconds}` (pytest-split; the file is the part before
 * the first `::`), `{"<file>": seconds}` (one entry per file), `{durations: [{spec, duration}]}`
 * (milliseconds, one entry per spec file; duplicate specs are averaged).
 */
function load(file) {
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  if (Array.isArray(doc?.durations)) {
    const bySpec = new Map();
    for (const { spec, duration } of doc.durations) {
      const e = bySpec.get(spec) ?? { sum: 0, n: 0 };
      e.sum += duration; e.n += 1;
      bySpec.set(spec, e);
    }
    return [...bySpec].map(([spec, { sum, n }]) => ({ id: spec, file: spec, ms: sum / n }));
  }
  return Object.entries(doc).map(([key, seconds]) => {
    const cut = key.indexOf('::');
    return { id: key, file: cut < 0 ? key : key.slice(0, cut), ms: seconds * 1000 };
  });
}

/** Groups of a unit kind: one per test, or one per file (in path order either way). */
function groupsOf(tests, unit) {
  const map = new Map();
  for (const t of tests) {
    const key = unit === 'file' ? t.file : t.id;
    if (!map.has(key)) map.set(key, { key, tests: [], ms: 0 });
    const g = map.get(key);
    g.tests.push(t); g.ms += t.ms;
  }
  return [...map.values()];
}

/** makespan / lower bound of an assignment (arrays of test ids), in true durations. */
function score(shards, trueMs, lb) {
  let max = 0;
  for (const ids of shards) {
    let sum = 0;
    for (const id of ids) sum += trueMs.get(id);
    max = Math.max(max, sum);
  }
  return max / lb;
}

/** Playwright's filterForCurrentShard: a group goes to the shard holding its first test. */
function playwright(groups, n) {
  const byPath = [...groups].sort((a, b) => (a.tests[0].file < b.tests[0].file ? -1 : a.tests[0].file > b.tests[0].file ? 1 : 0));
  const total = byPath.reduce((s, g) => s + g.tests.length, 0);
  const size = Math.floor(total / n);
  const extra = total - size * n;
  const shards = Array.from({ length: n }, () => []);
  let current = 0;
  for (const g of byPath) {
    // the shard whose range [from, to) holds `current`
    let k = 0;
    while (k < n - 1 && current >= size * (k + 1) + Math.min(extra, k + 1)) k++;
    shards[k].push(...g.tests.map((t) => t.id));
    current += g.tests.length;
  }
  return shards;
}

/** Jest's TestSequencer.shard: files sorted by SHA-1 of the path, ceil(n / N) per shard. */
function jest(tests, n) {
  const files = groupsOf(tests, 'file').map((g) => ({ g, h: sha1(g.key) })).sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0));
  const size = Math.ceil(files.length / n);
  return Array.from({ length: n }, (_, k) => files.slice(size * k, size * (k + 1)).flatMap(({ g }) => g.tests.map((t) => t.id)));
}

/** Plain LPT: heaviest group first onto the least-loaded shard (ties: lower index). */
function lpt(groups, n, weight) {
  const order = [...groups].sort((a, b) => weight(b) - weight(a) || (a.key < b.key ? -1 : 1));
  const loads = new Array(n).fill(0);
  const shards = Array.from({ length: n }, () => []);
  for (const g of order) {
    let k = 0;
    for (let i = 1; i < n; i++) if (loads[i] < loads[k]) k = i;
    loads[k] += weight(g);
    shards[k].push(...g.tests.map((t) => t.id));
  }
  return shards;
}

/** The durations the planner works with (`PlanUnit.durationMs`, types/plan.d.ts): whole ms, at
 *  least 1; 0 is unknown and gets the mean of the known tests of its file, else of the nearest
 *  enclosing directory with known tests (files below it included), else of all known, else 1000
 *  (all means rounded half up). Only for the like-for-like LPT check. */
function plannerView(tests) {
  const ms = (t) => Math.max(1, Math.round(t.ms));
  const halfUp = (sum, n) => Math.floor((sum + Math.floor(n / 2)) / n);
  const known = tests.filter((t) => t.ms > 0);
  const all = known.length === 0 ? 1000 : halfUp(known.reduce((s, t) => s + ms(t), 0), known.length);
  const dirs = (file) => [...file.matchAll(/[/\\]/g)].map((m) => file.slice(0, m.index + 1)).reverse();
  const perKey = new Map(); // file, and each enclosing directory ('dir/'), to {sum, n}
  for (const t of known) for (const key of [t.file, ...dirs(t.file)]) {
    const e = perKey.get(key) ?? { sum: 0, n: 0 };
    e.sum += ms(t); e.n += 1;
    perKey.set(key, e);
  }
  return new Map(tests.map((t) => {
    if (t.ms > 0) return [t.id, ms(t)];
    const e = [t.file, ...dirs(t.file)].map((key) => perKey.get(key)).find(Boolean);
    return [t.id, e ? halfUp(e.sum, e.n) : all];
  }));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pad = (x, w) => String(x).padStart(w);
const f3 = (x) => x.toFixed(3);

let misses = 0;
let worseThanLpt = 0;
let rows = 0;
const files = readdirSync(DATA).filter((f) => f.endsWith('.json')).sort();
for (const name of files) {
  const tests = load(path.join(DATA, name));
  const trueMs = new Map(tests.map((t) => [t.id, t.ms]));
  const viewMs = plannerView(tests);
  // 20% of the tests hidden, chosen by a hash of the id (the same in every run)
  const hidden = new Set(tests.filter((t) => parseInt(sha1(`hide:${t.id}`).slice(0, 8), 16) % 5 === 0).map((t) => t.id));
  const knownMedian = median(tests.filter((t) => !hidden.has(t.id)).map((t) => t.ms));
  console.log(`\n${name}: ${tests.length} tests in ${new Set(tests.map((t) => t.file)).size} files, `
    + `${(tests.reduce((s, t) => s + t.ms, 0) / 1000).toFixed(0)} s in all, ${hidden.size} hidden in the hidden runs`);
  console.log(`${'unit'.padEnd(5)} ${pad('N', 3)} ${pad('bound s', 9)} ${pad('ours', 6)} ${pad('hidden', 6)} ${pad('LPT', 6)} ${pad('LPT-h', 6)} ${pad('playwr', 6)} ${pad('jest', 6)}  note`);
  for (const unit of ['test', 'file']) {
    const groups = groupsOf(tests, unit);
    const total = groups.reduce((s, g) => s + g.ms, 0);
    const largest = Math.max(...groups.map((g) => g.ms));
    const units = tests.map((t) => ({ id: t.id, file: t.file, durationMs: t.ms }));
    const unitsHidden = units.map((u) => (hidden.has(u.id) ? { id: u.id, file: u.file } : u));
    for (const n of SHARDS) {
      const lb = Math.max(total / n, largest);
      const plan = planShards({ units, shardCount: n, unit });
      const ours = score(plan.shards.map((s) => s.units), trueMs, lb);
      const oursHidden = score(planShards({ units: unitsHidden, shardCount: n, unit }).shards.map((s) => s.units), trueMs, lb);
      const ref = score(lpt(groups, n, (g) => g.ms), trueMs, lb);
      const refHidden = score(lpt(groups, n, (g) => g.tests.reduce((s, t) => s + (hidden.has(t.id) ? knownMedian : t.ms), 0)), trueMs, lb);
      const pw = score(playwright(groups, n), trueMs, lb);
      const js = score(jest(tests, n), trueMs, lb);
      // like for like, in the planner's view: the same integer durations for ours and LPT
      const viewWeight = (g) => g.tests.reduce((s, t) => s + viewMs.get(t.id), 0);
      const viewTotal = groups.reduce((s, g) => s + viewWeight(g), 0);
      const viewLb = Math.max(Math.ceil(viewTotal / n), ...groups.map(viewWeight));
      const lptView = Math.max(...lpt(groups, n, viewWeight).map((ids) => ids.reduce((s, id) => s + viewMs.get(id), 0)));
      const notes = [];
      if (plan.lowerBoundMs !== viewLb) notes.push(`BOUND MISMATCH (planner ${plan.lowerBoundMs}, bench ${viewLb})`);
      if (lptView <= 1.01 * viewLb && plan.makespanMs > 1.01 * viewLb) { notes.push('MISS: >1% above a reachable bound'); misses++; }
      if (plan.makespanMs > lptView) { notes.push(`WORSE THAN LPT (${plan.makespanMs} > ${lptView} ms)`); worseThanLpt++; }
      if (largest >= total / n) notes.push('bound = largest group');
      if (plan.estimated > 0) notes.push(`${plan.estimated} zero durations estimated`);
      rows++;
      console.log(`${unit.padEnd(5)} ${pad(n, 3)} ${pad((lb / 1000).toFixed(1), 9)} ${pad(f3(ours), 6)} ${pad(f3(oursHidden), 6)} ${pad(f3(ref), 6)} ${pad(f3(refHidden), 6)} ${pad(f3(pw), 6)} ${pad(f3(js), 6)}  ${notes.join('; ')}`);
    }
  }
}
console.log(`\nquality: ${rows} rows; ${misses} more than 1% above a bound LPT reaches; ${worseThanLpt} worse than plain LPT`);

// ---- drift: plan with an older durations file, run on the newer one (bench/data/drift)
// For each pair of pairs.json, N in SHARDS and unit test|file: the units planned are the *newer*
// file's tests (what a CI run lists), each with its duration from the *older* file when that file
// has it, else with no duration and its file (a new test: the planner estimates it); tests only in
// the older file are not in the run. Each plan is scored on the newer file's durations:
// makespan / max(total / N, largest unit). Beside it, pytest-split's least_duration: LPT with
// the mean of the known durations (of the tests in the run) for the unknown ones.
/** pytest-split's least_duration: LPT, ties in the run's order (groups in file order), each onto
 *  the least-loaded shard (ties: lower index). */
function leastDuration(groups, n, weight) {
  const order = groups.map((g) => ({ g, w: weight(g) })).sort((a, b) => b.w - a.w);
  const loads = new Array(n).fill(0);
  const shards = Array.from({ length: n }, () => []);
  for (const { g, w } of order) {
    let k = 0;
    for (let i = 1; i < n; i++) if (loads[i] < loads[k]) k = i;
    loads[k] += w;
    shards[k].push(...g.tests.map((t) => t.id));
  }
  return shards;
}
const DRIFT = process.env.BENCH_DRIFT_DIR ?? path.resolve(here, 'data/drift');
const pairs = JSON.parse(readFileSync(path.join(DRIFT, 'pairs.json'), 'utf8'));
const drift = { ours: [], lpt: [] };
console.log(`\ndrift: ${pairs.length} pairs (plan with the older file, score on the newer); ratios to the lower bound on the newer durations`);
console.log(`${'pair'.padEnd(52)} ${'unit'.padEnd(4)} ${SHARDS.map((n) => pad(`ours/${n}`, 8) + pad(`LPTm/${n}`, 8)).join('')}`);
for (const { old, new: newer } of pairs) {
  const oldMs = new Map(load(path.join(DRIFT, old)).map((t) => [t.id, t.ms]));
  const tests = load(path.join(DRIFT, newer));
  const trueMs = new Map(tests.map((t) => [t.id, t.ms]));
  const known = tests.filter((t) => oldMs.has(t.id));
  const mean = known.length ? known.reduce((s, t) => s + oldMs.get(t.id), 0) / known.length : 1000; // of the run's known tests
  const predicted = (t) => oldMs.get(t.id) ?? mean;
  const units = tests.map((t) => (oldMs.has(t.id) ? { id: t.id, file: t.file, durationMs: oldMs.get(t.id) } : { id: t.id, file: t.file }));
  const name = `${old.replace(/__[^_]*$/, '').replace(/__.*__/, ' ').slice(0, 30)} ${old.slice(-15, -5)}>${newer.slice(-15, -5)}`;
  for (const unit of ['test', 'file']) {
    const groups = groupsOf(tests, unit);
    const total = groups.reduce((s, g) => s + g.ms, 0);
    const largest = Math.max(...groups.map((g) => g.ms));
    const cells = [];
    for (const n of SHARDS) {
      const lb = Math.max(total / n, largest);
      const ours = score(planShards({ units, shardCount: n, unit }).shards.map((s) => s.units), trueMs, lb);
      const ref = score(leastDuration(groups, n, (g) => g.tests.reduce((s, t) => s + predicted(t), 0)), trueMs, lb);
      drift.ours.push(ours); drift.lpt.push(ref);
      cells.push(pad(f3(ours), 8) + pad(f3(ref), 8));
    }
    console.log(`${name.padEnd(52)} ${unit.padEnd(4)} ${cells.join('')}`);
  }
}
const summary = (xs) => `mean ${f3(xs.reduce((s, x) => s + x, 0) / xs.length)}, worst ${f3(Math.max(...xs))}`;
console.log(`drift: ${drift.ours.length} plans; shardwise ${summary(drift.ours)}; LPT with mean fallback ${summary(drift.lpt)}`);

// ---- timing: 100,000 units over 100 shards
let x = 0x2545f491;
const rand = () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return (x >>> 0) / 2 ** 32; };
const big = [];
for (let i = 0; i < 100_000; i++) {
  const file = `tests/area${i % 50}/file${Math.floor(rand() * 40)}.spec.ts`;
  const u = { id: `${file} › suite ${i % 13} › test ${i}`, file };
  if (rand() > 0.1) u.durationMs = Math.round(Math.exp(rand() * 9)); // 1 ms .. 8 s, heavy tail
  if (rand() < 0.02) u.group = `serial-${Math.floor(rand() * 500)}`;
  big.push(u);
}
const opts = { units: big, shardCount: 100 };
// Wall time (goal) and CPU time of this process: on a shared machine the wall time of a run grows
// with the other load (the process waits for a core), its CPU time far less. BENCH_PLAN_BASELINE
// names another build's package folder (e.g. a copy of pkg/ built from an older commit): its
// planShards runs alternately with this one's on the same input, so that both see the same load.
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const time = (fn, runs) => {
  const wall = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const [t, c] = [performance.now(), cpuMs()];
    fn();
    wall.push(performance.now() - t);
    cpu.push(cpuMs() - c);
  }
  return { ms: median(wall), cpu: median(cpu) };
};
const baselineDir = process.env.BENCH_PLAN_BASELINE;
const baseline = baselineDir ? (await import(path.resolve(baselineDir, 'node.mjs'))).planShards : undefined;
const timings = [];
for (const [label, o] of [['100 shards', opts], ["100 shards, unit 'file'", { ...opts, unit: 'file' }], ['8 shards', { ...opts, shardCount: 8 }]]) {
  planShards(o); // warm-up
  baseline?.(o);
  const ours = [], theirs = [];
  for (let i = 0; i < 7; i++) {
    ours.push(time(() => planShards(o), 1));
    if (baseline) theirs.push(time(() => baseline(o), 1));
  }
  const sum = (xs) => ({ ms: median(xs.map((t) => t.ms)), cpu: median(xs.map((t) => t.cpu)) });
  timings.push({ label, ours: sum(ours), base: baseline && sum(theirs) });
}
const jsonMs = time(() => JSON.parse(JSON.stringify(opts)), 7).ms;
const bigGroups = groupsOf(big.map((u) => ({ id: u.id, file: u.group ?? u.id, ms: u.durationMs ?? 1000 })), 'file');
const lptMs = time(() => lpt(bigGroups, 100, (g) => g.ms), 3).ms;
const planMs = timings[0].ours.ms;
console.log(`timing: planShards(100,000 units, 100 shards) ${planMs.toFixed(1)} ms (goal < 100 ms; ${planMs < 100 ? 'met' : 'NOT MET'}); `
  + `baselines in this run: JSON round trip of the input ${jsonMs.toFixed(1)} ms `
  + `(${(planMs / jsonMs).toFixed(1)}x), plain LPT in JS ${lptMs.toFixed(1)} ms (${(planMs / lptMs).toFixed(1)}x)`);
// The first call in a fresh process: the wasm functions are compiled as they are first called
// and run as baseline code (V8's tier-up serves later calls), so one plan per process, as in the
// CLI or a runner's shard, pays more than the warm figures above.
const firstCall = (pkgUrl) => {
  const script = `const { planShards } = await import(${JSON.stringify(pkgUrl)});
let x = 0x2545f491;
const rand = () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return (x >>> 0) / 2 ** 32; };
const big = [];
for (let i = 0; i < 100000; i++) {
  const file = \`tests/area\${i % 50}/file\${Math.floor(rand() * 40)}.spec.ts\`;
  const u = { id: \`\${file} › suite \${i % 13} › test \${i}\`, file };
  if (rand() > 0.1) u.durationMs = Math.round(Math.exp(rand() * 9));
  if (rand() < 0.02) u.group = \`serial-\${Math.floor(rand() * 500)}\`;
  big.push(u);
}
const t = performance.now();
planShards({ units: big, shardCount: 100 });
console.log(performance.now() - t);`;
  const runs = [0, 1, 2].map(() => Number(spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).stdout));
  return median(runs);
};
const cold = firstCall(import.meta.resolve('shardwise'));
const coldBase = baselineDir ? firstCall(pathToFileURL(path.resolve(baselineDir, 'node.mjs')).href) : undefined;
console.log(`  first call in a fresh process (median of 3): ${cold.toFixed(1)} ms`
  + (coldBase === undefined ? '' : `; baseline ${coldBase.toFixed(1)} ms`));
for (const { label, ours, base } of timings) {
  console.log(`  ${label.padEnd(24)} ${ours.ms.toFixed(1).padStart(6)} ms (cpu ${ours.cpu.toFixed(1)} ms)`
    + (base ? `; baseline ${baselineDir}: ${base.ms.toFixed(1)} ms (cpu ${base.cpu.toFixed(1)} ms), ratio ${(ours.ms / base.ms).toFixed(3)}` : ''));
}
