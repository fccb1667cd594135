// Re-predicts every shard of a `npm run bench:suites` run with the planner's current cost model,
// offline, against the walls the shards measured: to try a change of the model on the runs already
// made (a bench round takes minutes, this a second). Each shard (native or balanced) is predicted
// from the files it ran: the fixed costs, the cold cost for its number of files, and its files
// (tests' durations + each file's cost) longest first over the workers, as the planner predicts a
// shard (Rust plan::cost, plan::assign).
//
//   node bench/replan.mjs jest-slow                 # costs learned from the suite's seed run
//   node bench/replan.mjs jest --from balanced:3    # from the balanced N=3 shards' reports, read
//                                                   # as one run (as a sharded run's folder is);
//                                                   # those shards are left out of the score
//
// Reads bench/out/suites/<suite>/ (summary.json, runs/*/results.json, runs/*/shardwise/).
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import * as api from '../pkg/node.mjs';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { from: { type: 'string' } } });
const suite = positionals[0];
if (!suite) throw new Error('usage: node bench/replan.mjs <suite> [--from balanced:N]');
const base = fileURLToPath(new URL(`./out/suites/${suite}/`, import.meta.url));
const decode = (file) => api.decodeReport(new Uint8Array(readFileSync(file)));

const seed = decode(path.join(base, 'runs/seed/shardwise/report.json.br'));
let learnedFrom = 'the seed run';
let learned = api.shardCosts(seed);
let skip;
if (values.from) {
  const [mode, n] = values.from.split(':');
  const reports = Array.from({ length: Number(n) }, (_, i) => decode(path.join(base, `runs/${mode}-n${n}-${i + 1}/shardwise/shard-${i + 1}-of-${n}/report.json.br`)));
  learned = api.shardCosts(api.__mergeRuns(reports));
  learnedFrom = `the ${mode} N=${n} shards`;
  skip = `${mode}:${n}`;
}
const { costs, perShardOverheadMs, workers = 1 } = learned;

// per file (as the seed names it): its tests' durations and its number of tests
const bodies = new Map();
for (const d of api.__testDurations(seed)) if (d.file !== undefined) bodies.set(d.file, (bodies.get(d.file) ?? 0) + d.durationMs);
const tests = new Map();
for (const d of api.__testDurations(seed)) if (d.file !== undefined) tests.set(d.file, (tests.get(d.file) ?? 0) + 1);
const fileCost = (f) => costs.files[f] ?? costs.perFileMs + costs.perTestMs * (tests.get(f) ?? 0);
const cold = (files) => (costs.coldMs ?? 0) * (1 - 0.8 ** Math.min(files, 200));

/** The files a shard's run ran (Jest's and Vitest's --json, Playwright's JSON), as the seed names them. */
function filesRun(dir) {
  const json = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
  const out = new Set();
  if (json.testResults) for (const r of json.testResults) out.add(r.name ?? r.testFilePath);
  else {
    const walk = (s) => { if (s.file) out.add(s.file); for (const c of s.suites ?? []) walk(c); for (const sp of s.specs ?? []) if (sp.file) out.add(sp.file); };
    for (const s of json.suites ?? []) walk(s);
  }
  return [...out].map((abs) => [...bodies.keys()].find((k) => abs.endsWith(k) || k.endsWith(abs))).filter(Boolean);
}

const summary = JSON.parse(readFileSync(path.join(base, 'summary.json'), 'utf8'));
console.log(`${suite}: costs learned from ${learnedFrom} (${learned.source}): ${perShardOverheadMs} ms a shard, ${costs.perWorkerMs} ms a worker, cold ${costs.coldMs ?? 0} ms at full, ${workers} workers`);
const ratios = [];
for (const mode of ['native', 'balanced']) {
  for (const row of summary.rows) {
    if (skip === `${mode}:${row.n}`) continue;
    const walls = mode === 'native' ? row.nat : row.bal;
    const cells = walls.map((wall, i) => {
      // a run of several rounds keeps each round's shard apart (`-r1`…, the same files each round: the
      // medians are of those); a folder without the suffix is of an older single-round run
      const single = path.join(base, `runs/${mode}-n${row.n}-${i + 1}`);
      const dir = existsSync(`${single}-r1`) ? `${single}-r1` : single;
      if (!existsSync(path.join(dir, 'results.json'))) return 'no results';
      const files = filesRun(dir);
      const free = Array(workers).fill(0);
      for (const w of files.map((f) => (bodies.get(f) ?? 0) + fileCost(f)).sort((a, b) => b - a)) free[free.indexOf(Math.min(...free))] += w;
      const predicted = perShardOverheadMs + costs.perWorkerMs + cold(files.length) + Math.max(...free);
      ratios.push(wall / predicted);
      return `${(predicted / 1000).toFixed(1)}/${(wall / 1000).toFixed(1)}s=${(wall / predicted).toFixed(2)}`;
    });
    console.log(`${mode.padEnd(8)} N=${row.n}  predicted/measured=measured÷predicted: ${cells.join('  ')}`);
  }
}
ratios.sort((a, b) => a - b);
const within = ratios.filter((r) => Math.abs(r - 1) <= 0.15).length;
console.log(`measured÷predicted: min ${ratios[0].toFixed(2)}, median ${ratios[ratios.length >> 1].toFixed(2)}, max ${ratios.at(-1).toFixed(2)}; within ±15%: ${within} of ${ratios.length}`);
