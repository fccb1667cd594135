// How many shards, checked against real runs (npm run bench:shards): a Playwright project whose
// global set-up takes 3 s (six files of two 800 ms tests), run once unsharded; `shardwise plan
// --shards auto` reads the fixed cost per shard from that run's report and recommends a count
// within 1.5x one shard's machine time; then every count from 1 to 4 runs for real, one shard
// at a time (as on separate CI machines), and the bench prints per count the predicted and the
// measured wall time (the slowest shard) and machine time (all shards), and which count the
// measurements pick by the same rule, beside the recommendation.
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const COMMIT = 'c0ffee'.padEnd(40, '0');

/** The project: six files of two 800 ms tests (9.6 s) and a global set-up of 3 s. */
export function writeProject(dir) {
  mkdirSync(dir, { recursive: true });
  for (let f = 0; f < 6; f++) {
    writeFileSync(path.join(dir, `f${f}.pw.js`), `import { test } from '@playwright/test';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
test('a', async () => { await sleep(800); });
test('b', async () => { await sleep(800); });
`);
  }
  writeFileSync(path.join(dir, 'setup.mjs'), 'export default async () => { await new Promise((r) => setTimeout(r, 3000)); };\n');
  writeFileSync(path.join(dir, 'playwright.config.mjs'), `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: '.', testMatch: '**/*.pw.js', workers: 1, fullyParallel: false, globalSetup: './setup.mjs',
  reporter: [['dot'], ['shardwise/playwright', { outputFolder: process.env.SW_OUTPUT }]],
  outputDir: process.env.SW_OUTPUT + '-artifacts',
});
`);
}

/**
 * One Playwright process of the project in `dir`, saving its report in `output`; a shard
 * (`i/n`) balances from the unsharded run's report (`<dir>/seed`). Resolves with its wall time.
 */
export function playwright(dir, output, shard) {
  const env = { ...process.env, FORCE_COLOR: '0', SW_OUTPUT: output, SHARDWISE_COMMIT_ID: COMMIT };
  for (const k of Object.keys(env)) if ((k.startsWith('SHARDWISE_') && k !== 'SHARDWISE_COMMIT_ID') || k === 'CI' || k.startsWith('GITHUB_')) delete env[k];
  if (shard) env.SHARDWISE_TIMINGS_FILE = path.join(dir, 'seed', 'report.json.br');
  const t0 = Date.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', path.join(dir, 'playwright.config.mjs'), ...(shard ? [`--shard=${shard}`] : [])],
      { cwd: ROOT, env, timeout: 180_000 }, (e, stdout, stderr) => resolve({ code: e ? e.code ?? 1 : 0, ms: Date.now() - t0, text: `${stdout}\n${stderr}` }));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = path.join(ROOT, 'bench', 'out', 'shards');
  rmSync(dir, { recursive: true, force: true });
  writeProject(dir);
  const seed = await playwright(dir, path.join(dir, 'seed'));
  if (seed.code !== 0) throw new Error(seed.text);
  const plan = spawnSync(process.execPath, [path.join(ROOT, 'pkg/bin/shardwise.mjs'), 'plan', path.join(dir, 'seed'), '--shards', 'auto', '--max-shards', '4', '--json'], { encoding: 'utf8' });
  if (plan.status !== 0) throw new Error(plan.stderr);
  const rec = JSON.parse(plan.stdout);
  const rows = [];
  for (const n of [1, 2, 3, 4]) {
    const runs = [];
    for (let i = 1; i <= n; i++) runs.push(await playwright(dir, path.join(dir, `n${n}-${i}`), n > 1 ? `${i}/${n}` : undefined));
    const bad = runs.find((r) => r.code !== 0);
    if (bad) throw new Error(bad.text);
    rows.push({ n, wall: Math.max(...runs.map((r) => r.ms)), machine: runs.reduce((a, r) => a + r.ms, 0) });
  }
  const s = (ms) => `${(ms / 1000).toFixed(1)}s`;
  console.log(`fixed cost read from the unsharded run: ${s(rec.perShardOverheadMs)} per shard (global set-up 3.0s); budget 1.5x one shard's machine time`);
  console.log('shards  predicted wall  measured wall  predicted machine  measured machine');
  for (const [i, m] of rows.entries()) {
    const p = rec.rows[i];
    console.log(`${String(m.n).padEnd(6)}  ${s(p.wallMs).padStart(14)}  ${s(m.wall).padStart(13)}  ${s(p.machineMs).padStart(17)}  ${s(m.machine).padStart(16)}`);
  }
  const budget = 1.5 * rows[0].machine;
  const best = rows.filter((r) => r.machine <= budget).reduce((a, r) => (r.wall < a.wall ? r : a));
  console.log(`recommended ${rec.shards}; by the measurements (least wall within 1.5x the measured one-shard machine time): ${best.n}`);
}
