// npm run demo [-- --serve]: shardwise's main job, end to end, on one machine.
//
// Sets up and builds when needed, starts the local service (with the report preview), runs
// examples/playwright once unsharded to seed the durations history (the run's report is uploaded),
// then as 4 shards balanced by shardwise (the `shardwise/playwright` reporter asks the service for
// predicted durations and plans with `planShards`), then as 4 native Playwright shards (a split by
// test count), all shards of a mode in parallel. Prints per shard the predicted time (the seed's
// durations of the tests it ran), the plan's predicted wall time, the actual time and the test count, the makespan of each mode, and the preview URL of each uploaded run.
// Leaves nothing running (the service and every Playwright process are stopped, also on failure
// and on Ctrl-C), unless --serve keeps the service and preview up until Ctrl-C.
//
// Environment: SHARDWISE_DEMO_SKIP_BUILD=1 skips set-up and build (pkg/ must be built);
// SHARDWISE_DEMO_DIR (default .demo/) holds the service's data and each run's output.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runPlaywright, killRuns, executedTests } from './lib/playwright-runs.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PKG = path.join(ROOT, 'pkg');
const EXAMPLE = path.join(ROOT, 'examples', 'playwright');
const CONFIG = path.join(EXAMPLE, 'playwright.config.mjs');
const DIR = path.resolve(process.env.SHARDWISE_DEMO_DIR ?? path.join(ROOT, '.demo'));
const SHARDS = 4;
const SERVE = process.argv.includes('--serve');

const say = (line = '') => process.stdout.write(`${line}\n`);
const sec = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Newest modification time under `p` (files only; skips node_modules and target). */
function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let t = 0;
  for (const e of readdirSync(p)) if (e !== 'node_modules' && e !== 'target') t = Math.max(t, newest(path.join(p, e)));
  return t;
}

function setUpAndBuild() {
  if (process.env.SHARDWISE_DEMO_SKIP_BUILD === '1') return;
  const run = (cmd, args) => execFileSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (!existsSync(path.join(ROOT, 'node_modules', '@playwright', 'test')) || !existsSync(path.join(ROOT, '.tools', 'bin', 'wasm-bindgen'))) {
    say('== set-up (bash scripts/setup.sh)');
    run('bash', ['scripts/setup.sh']);
  }
  const wasm = path.join(PKG, 'wasm', 'shardwise_bg.wasm');
  const sources = Math.max(...['src', 'pkg-template', 'Cargo.toml', 'Cargo.lock', 'scripts/build.mjs'].map((p) => newest(path.join(ROOT, p))));
  if (!existsSync(wasm) || !existsSync(path.join(ROOT, 'node_modules', 'shardwise')) || statSync(wasm).mtimeMs < sources) {
    say('== build (node scripts/build.mjs)');
    run(process.execPath, ['scripts/build.mjs']);
  }
}

function commitId() {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '0'.repeat(40); // not a git checkout: any commit id will do for the demo
  }
}

/** Runs every shard of one mode in parallel; returns per shard what ran and how long it took. */
async function runShards(mode, env, predictions) {
  const runs = await Promise.all(Array.from({ length: SHARDS }, (_, i) => runPlaywright({
    config: CONFIG, shard: i + 1, total: SHARDS, json: path.join(DIR, `${mode}-${i + 1}.json`),
    env: { ...env, SW_OUTPUT: path.join(DIR, `${mode}-${i + 1}`), SW_NATIVE: mode === 'native' ? '1' : '0' },
  })));
  const seen = new Set();
  return runs.map((r, i) => {
    if (r.code !== 0 || !r.json) throw new Error(`${mode} shard ${i + 1}/${SHARDS} failed (exit ${r.code ?? r.signal}):\n${r.text.slice(-3000)}`);
    const executed = executedTests(r.json);
    for (const k of executed.keys()) {
      if (seen.has(k)) throw new Error(`${k} ran on two ${mode} shards`);
      seen.add(k);
    }
    return {
      shard: i + 1,
      tests: executed.size,
      predictedMs: [...executed.keys()].reduce((s, k) => s + (predictions.get(k) ?? 0), 0),
      actualMs: Math.round(r.json.stats?.duration ?? r.wallMs),
      text: r.text,
    };
  });
}

function table(rows) {
  const w = [10, 8, 7, 11, 9, 10];
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(w[i]) : String(c).padStart(w[i]))).join('  ');
  say(line(['mode', 'shard', 'tests', 'predicted', 'planned', 'actual']));
  const planned = (ms) => (ms === undefined ? '-' : sec(ms));
  for (const [mode, shards] of rows) {
    for (const s of shards) say(line([mode, s.shard, s.tests, sec(s.predictedMs), planned(s.plannedMs), sec(s.actualMs)]));
    const most = shards.some((s) => s.plannedMs === undefined) ? undefined : Math.max(...shards.map((s) => s.plannedMs));
    say(line([mode, 'makespan', '', sec(Math.max(...shards.map((s) => s.predictedMs))), planned(most), sec(Math.max(...shards.map((s) => s.actualMs)))]));
  }
}

/** Seconds or milliseconds as the package prints them ("9.2s", "850ms"), in ms. */
const ms = (text) => (text.endsWith('ms') ? Number(text.slice(0, -2)) : Math.round(Number(text.slice(0, -1)) * 1000));

let srv;
let serving = false; // --serve: waiting for Ctrl-C
async function main() {
  setUpAndBuild();
  const { createServer } = await import(pathToFileURL(path.join(PKG, 'server', 'index.mjs')).href);
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  srv = await createServer({ dataDir: path.join(DIR, 'service'), staticDir: PKG });
  say(`== local service at ${srv.baseUrl} (data in ${path.relative(ROOT, DIR) || DIR}/service)`);
  const env = { SHARDWISE_BASE_URL: srv.baseUrl, SHARDWISE_ACCESS_TOKEN: srv.accessToken, SHARDWISE_COMMIT_ID: commitId() };

  say('== 1. seeding the durations history: examples/playwright unsharded (4 workers), report uploaded');
  const seed = await runPlaywright({ config: CONFIG, workers: 4, json: path.join(DIR, 'seed.json'), env: { ...env, SW_OUTPUT: path.join(DIR, 'seed') } });
  if (seed.code !== 0 || !seed.json) throw new Error(`the seed run failed (exit ${seed.code ?? seed.signal}):\n${seed.text.slice(-3000)}`);
  const predictions = executedTests(seed.json); // one run of history: the service predicts these durations
  if (!/\[shardwise\] report uploaded/.test(seed.text)) throw new Error(`the seed run's report was not uploaded:\n${seed.text.slice(-3000)}`);
  say(`   ${predictions.size} tests, ${sec([...predictions.values()].reduce((a, b) => a + b, 0))} of test time, in ${sec(seed.wallMs)}`);

  say(`== 2. ${SHARDS} shards balanced by shardwise, in parallel`);
  const balanced = await runShards('balanced', { ...env, SHARDWISE_RUN_ID: `demo-${Date.now()}` }, predictions);
  const plans = balanced.map((s) => s.text.match(/\[shardwise\] shard \d+\/\d+: predicted (\S+)(?: over \d+ workers)?, makespan (\S+), lower bound (\S+), .*\(durations: ([^;)]*)(?:; costs: [^)]*)?\), fingerprint (\w+)/));
  if (plans.some((m) => !m)) throw new Error(`a balanced shard did not plan:\n${balanced.map((s) => s.text).join('\n---\n').slice(-4000)}`);
  balanced.forEach((s, i) => { s.plannedMs = ms(plans[i][1]); });
  say(`   every shard planned from durations: ${plans[0][4]}; plan fingerprint ${plans[0][5].slice(0, 16)} `
    + `(${new Set(plans.map((m) => m[5])).size === 1 ? 'the same on all shards' : 'DIFFERENT across shards'}); `
    + `makespan ${sec(ms(plans[0][2]))}, lower bound ${sec(ms(plans[0][3]))}`);

  say(`== 3. ${SHARDS} native Playwright shards (split by test count), in parallel`);
  const native = await runShards('native', env, predictions);

  for (const [mode, shards] of [['balanced', balanced], ['native', native]]) {
    const n = shards.reduce((s, x) => s + x.tests, 0);
    if (n !== predictions.size) throw new Error(`the ${mode} shards ran ${n} tests, the project has ${predictions.size}`);
  }
  say();
  table([['balanced', balanced], ['native', native]]);
  const mb = Math.max(...balanced.map((s) => s.actualMs));
  const mn = Math.max(...native.map((s) => s.actualMs));
  say();
  say(`makespan: balanced ${sec(mb)}, native ${sec(mn)}: the balanced run finishes ${(mn / mb).toFixed(1)}x sooner`);
  say('(predicted: the seed run\'s durations of the tests each shard ran; planned: the wall time shardwise\'s plan');
  say(' predicted for the shard, with what it pays per worker, file and test; actual: the shard\'s whole run as');
  say(' Playwright timed it, with its start-up and, for balanced shards, the exchange that fetches the predicted durations)');

  // Each run printed the address of its upload (…/reports/<id>); the preview opens it by id.
  const uploaded = [['seed run', seed.text], ...balanced.map((s) => [`balanced shard ${s.shard}`, s.text])]
    .map(([label, text]) => [label, text.match(/\[shardwise\] report uploaded: \S*\/reports\/([\w-]+)/)?.[1]]);
  say();
  say('Report preview of the uploaded runs:');
  for (const [label, id] of uploaded)
    say(`  ${`${label}:`.padEnd(18)} ${id ? `${srv.baseUrl}/preview/?url=/api/reports/${id}/report.json.br` : '(not uploaded)'}`);
  if (SERVE) {
    say('The service and the preview stay up until Ctrl-C.');
    serving = true;
    await new Promise((resolve) => { process.once('SIGINT', resolve); process.once('SIGTERM', resolve); });
  } else {
    const port = new URL(srv.baseUrl).port;
    say(`The service stops now. To open these again: node pkg/bin/shardwise.mjs serve --data ${path.relative(process.cwd(), path.join(DIR, 'service')) || '.'} --port ${port}`);
    say('(or run the demo with `npm run demo -- --serve` to keep it up)');
  }
}

// Ctrl-C / kill: stop the Playwright processes and the service, then exit.
let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  killRuns();
  await srv?.close();
  process.exitCode = code;
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (serving) return; // handled by main: the --serve wait ends
    say(`\n${sig}: stopping`);
    stop(130).then(() => process.exit(130));
  });
}

main().then(() => stop(0), async (e) => {
  process.stderr.write(`demo failed: ${e?.stack ?? e}\n`);
  await stop(1);
});
