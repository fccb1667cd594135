// What a shard pays per module, from a `npm run bench:suites` run of a Jest or Vitest suite,
// offline. A runner transforms a module once per run (Jest's transform cache, Vite's module
// graph: per process, cold on a fresh CI machine), on the first file that imports it; every later
// file only evaluates it. So a file costs more in a shard where it is the first to import a module
// than in the seed run where another file was, and a shard pays the transforms of every module its
// files import: the union, which depends on how the files are grouped. This measures it:
//
// 1. Per file and shard run: its cost (shardwise's costs record) less its cost in the seed run,
//    against the module bytes it was first to import there less those it was first to import in
//    the seed (the test files' relative imports, followed through local modules; the order is the
//    files' starts). Printed: the slope (ms per KB transformed) and how much of the change it
//    explains (r2).
// 2. Each measured shard: how many of the suite's module bytes its files import.
// 3. A model with that rate (a file: its tests and its seed cost less the transforms it paid
//    there; a shard: its files longest first over its workers, each module it imports once, and
//    fixed costs), against the seed's file costs as they are: how far each predicts the timed
//    shards (the fixed costs of each fitted to those shards, the median), and with it, the slowest
//    shard of shardwise's balanced split against a split that weighs the modules a file would add
//    to a shard, at 2, 3 and 4 shards. An estimate: no runner ran the second split.
//
//   npm run bench:modules -- jest        (or vitest, jest-slow, vitest-slow)
//   npm run bench:modules -- jest --run 3
//
// `--run R` (the Jest suites): runs that split too, each shard a Jest process given its files
// (`--runTestsByPath`, shardwise left out, a fresh cache: as bench:suites runs a shard), against
// Jest's own `--shard` in the same session, interleaved, R rounds; prints each split's slowest
// shard (median of the rounds) and their ratio.
//
// Reads bench/out/suites/<suite>/runs/ (the seed's and every shard's shardwise report) and the
// suite's project (bench/out/suites/<suite>/project, or the Vitest suites' folder in the tmpdir).
import { readFileSync, readdirSync, existsSync, statSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as api from '../pkg/node.mjs';
import { cleanEnv, median, timedRun } from './suites.mjs';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { run: { type: 'string' } } });
const suite = positionals[0];
if (!suite) throw new Error('usage: node bench/modules.mjs <suite>   (a bench:suites run of a Jest or Vitest suite)');
const base = fileURLToPath(new URL(`./out/suites/${suite}/`, import.meta.url));
const project = [path.join(base, 'project'), path.join(tmpdir(), 'shardwise-bench-suites', suite)].find((p) => existsSync(path.join(p, 'tests')));
if (!project) throw new Error(`no project of ${suite}: run npm run bench:suites -- --suite ${suite} first`);
const WORKERS = 2;

const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
const EXTENSIONS = ['', '.js', '.mjs', '.cjs', '.ts', '.mts', '.tsx', '.jsx', '/index.js', '/index.ts'];

/** The local modules `file` imports (relative specifiers), as absolute paths. */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const out = [];
  for (const m of text.matchAll(/(?:require\(\s*|import\(\s*|from\s+|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const at = path.resolve(path.dirname(file), m[1]);
    const found = EXTENSIONS.map((e) => at + e).find((p) => existsSync(p) && statSync(p).isFile());
    if (found) out.push(found);
  }
  return out;
}

/** Every local module a test file loads (followed through modules), each with its size in KB. */
const kb = new Map();
function closure(file) {
  const seen = new Set();
  const stack = importsOf(file);
  while (stack.length) {
    const m = stack.pop();
    if (seen.has(m)) continue;
    seen.add(m);
    kb.set(m, statSync(m).size / 1024);
    stack.push(...importsOf(m));
  }
  return [...seen];
}
const key = (f) => f.slice(f.lastIndexOf('tests/'));
const modulesOf = new Map(walk(path.join(project, 'tests')).filter((f) => /\.test\.[cm]?[jt]s$/.test(f)).map((f) => [key(f), closure(f)]));

/** A run's files from its shardwise report: cost (the costs record) and start (its first test's start less its cost). */
function run(dir) {
  const file = walk(dir).find((p) => p.endsWith('report.json.br'));
  if (!file) return undefined;
  const report = api.decodeReport(new Uint8Array(readFileSync(file)));
  const bodies = new Map();
  for (const d of api.__testDurations(report)) if (d.file !== undefined) bodies.set(key(d.file), (bodies.get(key(d.file)) ?? 0) + d.durationMs);
  const record = JSON.parse(report.sources?.find((s) => s.filePath.endsWith('costs.json'))?.text ?? '{}');
  const firstTest = new Map();
  const visit = (s, f) => {
    for (const t of s.tests ?? []) for (const a of t.attempts ?? []) if (a.startTimestamp > 0) firstTest.set(f, Math.min(firstTest.get(f) ?? Infinity, a.startTimestamp));
    for (const c of s.suites ?? []) visit(c, f);
  };
  for (const s of report.suites ?? []) visit(s, key(s.title));
  const files = new Map();
  for (const [f, cost] of Object.entries(record.files ?? {})) if (modulesOf.has(key(f))) files.set(key(f), { cost, bodies: bodies.get(key(f)) ?? 0, start: (firstTest.get(key(f)) ?? Infinity) - cost });
  return files;
}

/** KB of modules each file of a run was the first to import. */
function firstKB(files) {
  const by = new Map([...files.keys()].map((f) => [f, 0]));
  const payer = new Map();
  for (const [f, v] of files) for (const m of modulesOf.get(f)) if (!payer.has(m) || v.start < files.get(payer.get(m)).start) payer.set(m, f);
  for (const [m, f] of payer) by.set(f, by.get(f) + kb.get(m));
  return by;
}
const unionKB = (files) => [...new Set(files.flatMap((f) => modulesOf.get(f)))].reduce((s, m) => s + kb.get(m), 0);

const seed = run(path.join(base, 'runs/seed'));
if (!seed) throw new Error(`no seed report in ${base}runs/seed`);
const seedFirst = firstKB(seed);
const xs = [];
const ys = [];
const shards = [];
const firstRound = new Map(); // dir -> files of each shard's first round (the balanced split each count ran)
const measured = []; // [files, wall ms] of every shard run bench:suites timed
const summary = JSON.parse(readFileSync(path.join(base, 'summary.json'), 'utf8'));
const wallOf = (d) => {
  const [, mode, n, i, r] = /^(\w+)-n(\d+)-(\d+)-r(\d+)$/.exec(d);
  return summary[mode]?.[n]?.[i - 1]?.[r - 1]?.ms;
};
const dirs = readdirSync(path.join(base, 'runs')).filter((d) => /^(balanced|report)-n\d+-\d+-r\d+$/.test(d)).sort();
for (const d of dirs) {
  const files = run(path.join(base, 'runs', d));
  if (!files?.size) continue;
  const first = firstKB(files);
  const t0 = Math.min(...[...files.values()].map((v) => v.start));
  for (const [f, v] of files) {
    if (v.start - t0 < 300 || !seed.has(f)) continue; // each worker's first files pay its warm-up too
    xs.push(first.get(f) - seedFirst.get(f));
    ys.push(v.cost - seed.get(f).cost);
  }
  if (wallOf(d)) measured.push([[...files.keys()], wallOf(d)]);
  if (d.endsWith('-r1')) firstRound.set(d, [...files.keys()]);
  if (d.endsWith('-r1')) shards.push(`${d.replace(/-r1$/, '')}: ${files.size} files, ${unionKB([...files.keys()]).toFixed(0)} KB`);
}
if (xs.length < 10) throw new Error(`too few shard runs with shardwise's reports in ${base}runs`);
const mean = (a) => a.reduce((s, v) => s + v, 0) / a.length;
const [mx, my] = [mean(xs), mean(ys)];
const sxy = xs.reduce((s, x, i) => s + (x - mx) * (ys[i] - my), 0);
const sxx = xs.reduce((s, x) => s + (x - mx) ** 2, 0);
const syy = ys.reduce((s, y) => s + (y - my) ** 2, 0);
const rate = sxy / sxx;
const totalKB = [...kb.values()].reduce((s, v) => s + v, 0);
console.log(`${suite}: ${modulesOf.size} test files importing ${kb.size} local modules (${totalKB.toFixed(0)} KB); ${dirs.length} shard runs`);
console.log(`per file, a shard run against the seed (${xs.length} files, each worker's first ones left out): +${rate.toFixed(2)} ms per KB it was first to import, r2 ${(sxy * sxy / (sxx * syy)).toFixed(2)}`);
console.log(`module KB each shard's files import (of ${totalKB.toFixed(0)}):\n  ${shards.join('\n  ')}`);

// 3. the model with that rate: a file its tests and its seed cost less the transforms it paid
// there, a shard its files and each module once; against the seed's costs as they are. Each with
// the fixed costs (start-up, workers' warm-up) that fit the measured shards best (the median).
const own = new Map([...seed].map(([f, v]) => [f, v.bodies + Math.max(0, v.cost - rate * seedFirst.get(f))]));
/** A shard's files longest first over its workers: the latest worker's end (ms). */
const lanes = (costs) => {
  const end = Array(WORKERS).fill(0);
  for (const c of [...costs].sort((a, b) => b - a)) end[end.indexOf(Math.min(...end))] += c;
  return Math.max(...end);
};
const work = (files) => lanes(files.map((f) => own.get(f))) + (rate * unionKB(files)) / WORKERS;
const seedWork = (files) => lanes(files.map((f) => seed.get(f).bodies + seed.get(f).cost));
const fixedOf = new Map();
for (const [name, model] of [['the seed\'s file costs', seedWork], ['with modules', work]]) {
  const fixed = median(measured.map(([files, ms]) => ms - model(files)));
  fixedOf.set(model, fixed);
  const off = measured.map(([files, ms]) => ms / (fixed + model(files)));
  const err = off.map((r) => Math.abs(r - 1));
  console.log(`predicting the ${measured.length} timed shards ${name}: ${(100 * mean(err)).toFixed(1)}% off on average, ${err.filter((e) => e > 0.15).length} beyond 15%, ${Math.min(...off).toFixed(2)}-${Math.max(...off).toFixed(2)} (fixed ${(fixed / 1000).toFixed(2)} s a shard)`);
}
const all = [...seed.keys()];
/** A split that weighs the modules a file would add to a shard: longest first, each file where the shard ends soonest, then files moved off the slowest shard while that lowers it. */
function byModules(n) {
  const s = Array.from({ length: n }, () => []);
  for (const f of [...all].sort((a, b) => own.get(b) - own.get(a))) {
    const loads = s.map((files) => work([...files, f]));
    s[loads.indexOf(Math.min(...loads))].push(f);
  }
  for (let moved = true; moved;) {
    moved = false;
    const loads = s.map(work);
    const top = loads.indexOf(Math.max(...loads));
    for (const f of s[top]) {
      const rest = s[top].filter((g) => g !== f);
      const to = s.findIndex((files, j) => j !== top && Math.max(work(rest), work([...files, f])) < loads[top] - 1);
      if (to >= 0) { s[top] = rest; s[to].push(f); moved = true; break; }
    }
  }
  return s;
}
/** The balanced split bench:suites ran at `n` shards (its first round's files), if it did. */
function shardwiseSplit(n) {
  const split = Array.from({ length: n }, (_, i) => firstRound.get(`balanced-n${n}-${i + 1}-r1`));
  return split.every(Boolean) ? split : undefined;
}
const fixedWith = fixedOf.get(work);
const splits = new Map([2, 3, 4].map((n) => [n, byModules(n)]));
const slowest = (split) => fixedWith + Math.max(...split.map(work));
const show = (split) => `${(slowest(split) / 1000).toFixed(2)} s [${split.map((f) => `${f.length} files ${unionKB(f).toFixed(0)} KB`).join(', ')}]`;
console.log(`the slowest shard, with modules (fixed ${(fixedWith / 1000).toFixed(2)} s a shard):`);
for (const n of [2, 3, 4]) {
  const [a, b] = [shardwiseSplit(n), splits.get(n)];
  if (!a) continue;
  console.log(`  ${n} shards: shardwise's balanced split ${show(a)}\n            weighing modules         ${show(b)}: ${(slowest(b) / slowest(a)).toFixed(2)}x`);
}

if (values.run) await runSplits(Number(values.run));

/** `--run R`: the split weighing modules against Jest's own, each shard a Jest process. */
async function runSplits(rounds) {
  const config = path.join(project, 'jest.config.cjs');
  if (!existsSync(config)) throw new Error(`--run runs the Jest suites (no ${config})`);
  const jest = fileURLToPath(new URL('../node_modules/jest/bin/jest.js', import.meta.url));
  const dir = path.join(base, 'runs', 'modules');
  const once = async (label, args, expected) => {
    const out = path.join(dir, label);
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const json = path.join(out, 'results.json');
    const { code, ms } = await timedRun({
      argv: [jest, '--config', config, '--json', `--outputFile=${json}`, ...args],
      cwd: project, env: cleanEnv({ SW_NATIVE: '1', SW_CACHE: path.join(out, 'cache') }), log: path.join(out, 'output.log'),
    });
    rmSync(path.join(out, 'cache'), { recursive: true, force: true });
    const ran = JSON.parse(readFileSync(json, 'utf8')).testResults.map((t) => key(t.name));
    if (code !== 0 || (expected && ran.length !== expected.length)) throw new Error(`${label}: exit ${code}, ${ran.length} files; see ${out}`);
    return { ms, ran };
  };
  console.log(`\nrunning them (${rounds} rounds, interleaved; Jest's own --shard against the split weighing modules):`);
  for (const n of [2, 3, 4]) {
    const split = splits.get(n);
    const walls = { native: Array.from({ length: n }, () => []), modules: Array.from({ length: n }, () => []) };
    const seen = new Set();
    for (let r = 1; r <= rounds; r++) {
      for (let i = 0; i < n; i++) {
        const native = await once(`native-n${n}-${i + 1}-r${r}`, [`--shard=${i + 1}/${n}`]);
        walls.native[i].push(native.ms);
        if (r === 1) native.ran.forEach((f) => seen.add(f));
        const files = split[i].map((f) => path.join(project, f));
        walls.modules[i].push((await once(`modules-n${n}-${i + 1}-r${r}`, ['--runTestsByPath', ...files], files)).ms);
      }
    }
    if (seen.size !== all.length) throw new Error(`Jest's ${n} shards ran ${seen.size} of ${all.length} files`);
    const slowestOf = (w) => Math.max(...w.map(median));
    const [a, b] = [slowestOf(walls.native), slowestOf(walls.modules)];
    const each = (w) => w.map((x) => (median(x) / 1000).toFixed(2)).join(' / ');
    console.log(`  ${n} shards: jest --shard ${(a / 1000).toFixed(2)} s (${each(walls.native)}), weighing modules ${(b / 1000).toFixed(2)} s (${each(walls.modules)}, predicted ${(slowest(split) / 1000).toFixed(2)}): ${(b / a).toFixed(2)}x`);
  }
}
