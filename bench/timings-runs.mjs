// One run's durations against several runs' mean, on a finished `npm run bench:peer-playwright`
// suite (npm run bench:timings-runs -- <suite> [--shards N]): for each round of shardwise's N
// shards, how far each shard's tests' own time was from what the timings predicted for those
// tests, (a) from the seed run alone (what the bench's shards planned with), (b) from a timings
// folder of the seed and the other rounds' shards (read as a shard reads one: readTimings, every
// test at its mean over the runs that had it). Printed per shard as measured / predicted, and the
// mean distance from 1 of each. The shards' own plans do not change (they ran from the seed
// alone): this measures the durations, not the split.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import * as api from '../pkg/node.mjs';
import { readTimings } from '../pkg/src/runner/durations.mjs';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { shards: { type: 'string', default: '4' } } });
const suite = positionals[0] ?? 'chain';
const N = Number(values.shards);
const runs = path.join(path.dirname(fileURLToPath(import.meta.url)), 'out', 'peer', suite, 'runs');
const shardDir = (round, i) => path.join(runs, `shardwise-n${N}-${i}-r${round}`, 'shardwise', `shard-${i}-of-${N}`);
const rounds = [];
for (let r = 1; existsSync(shardDir(r, 1)); r += 1) rounds.push(r);
if (!existsSync(path.join(runs, 'seed', 'shardwise')) || rounds.length < 2) {
  console.error(`${runs} has no seed or fewer than 2 rounds of ${N} shards: run npm run bench:peer-playwright -- --suite ${suite} --shards ${N} --rounds 3 first`);
  process.exit(1);
}

/** Each test's time in a report (its attempts summed), by its file, suites and title. */
function times(report) {
  const out = new Map();
  const walk = (suite, at) => {
    for (const t of suite.tests ?? []) out.set(`${at} > ${t.title}`, (out.get(`${at} > ${t.title}`) ?? 0) + t.attempts.reduce((s, a) => s + (a.duration ?? 0), 0));
    for (const s of suite.suites ?? []) walk(s, `${at} > ${s.title}`);
  };
  for (const s of report.suites ?? []) walk(s, s.title);
  return out;
}

/** A timings folder of the seed and the given rounds' shards, read as a shard reads it. */
function timingsOf(withRounds) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'shardwise-timings-runs-'));
  try {
    cpSync(path.join(runs, 'seed', 'shardwise'), path.join(dir, 'seed'), { recursive: true });
    for (const r of withRounds) for (let i = 1; i <= N; i += 1) cpSync(shardDir(r, i), path.join(dir, `run-${r}`, `shard-${i}-of-${N}`), { recursive: true });
    return times(readTimings(dir, api).report);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const seedAlone = timingsOf([]);
const off = { seed: [], runs: [] };
console.log(`${suite}, ${N} shards, ${rounds.length} rounds: each shard's tests' own time, measured / predicted`);
console.log('round | from the seed alone | from the seed and the other rounds');
for (const round of rounds) {
  const several = timingsOf(rounds.filter((r) => r !== round));
  const cells = { seed: [], runs: [] };
  for (let i = 1; i <= N; i += 1) {
    const measured = times(readTimings(shardDir(round, i), api).report);
    let ms = 0; let a = 0; let b = 0;
    for (const [k, v] of measured) { ms += v; a += seedAlone.get(k) ?? 0; b += several.get(k) ?? 0; }
    cells.seed.push(ms / a);
    cells.runs.push(ms / b);
  }
  off.seed.push(...cells.seed);
  off.runs.push(...cells.runs);
  const f = (v) => v.map((x) => x.toFixed(2)).join(' ');
  console.log(`${round} | ${f(cells.seed)} | ${f(cells.runs)}`);
}
const mean = (v) => v.reduce((s, x) => s + Math.abs(x - 1), 0) / v.length;
console.log(`mean distance from 1: ${mean(off.seed).toFixed(3)} from the seed alone, ${mean(off.runs).toFixed(3)} with the other rounds`);
