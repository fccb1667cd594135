// How many shards (issue 22): `shardwise plan --shards auto` plans every count up to
// --max-shards with a fixed cost per shard read from past runs' reports (their time outside any
// test), and recommends the count with the least wall time whose machine time stays within the
// budget; --matrix prints it for a GitHub Actions matrix. Checked on a report whose figures are
// known, and against real Playwright runs of a project whose global set-up takes 3 s: the fixed
// cost the CLI reads from one unsharded run covers that set-up, and the count it recommends is,
// when each count is then run for real, within the budget and faster than the counts below it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from 'shardwise';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = path.join(ROOT, 'js-tests', '.out', 'shard-count');
const BIN = path.join(ROOT, 'pkg', 'bin', 'shardwise.mjs');
const COMMIT = 'c0ffee'.padEnd(40, '0');
const cli = (...args) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

/** A past run: 40 tests of 1 s on 2 workers from t = 4 s, in a run of 28 s: 7.5 s outside them. */
function pastRun(wallMs = 28_000) {
  const b = new api.ReportBuilder({ category: 'playwright', commitId: COMMIT, startTimestamp: 1000 });
  b.addEnvironment({ name: 'chromium' });
  for (let i = 0; i < 40; i++) {
    const h = b.addTest({ titlePath: [`t${i}`], file: `f${i % 8}.spec.ts` });
    b.addAttempt(h, { environmentIdx: 0, status: 'passed', startTimestamp: 5000 + i * 500, duration: 1000, parallelIndex: i % 2 });
  }
  const r = b.build();
  r.duration = wallMs;
  return r;
}

before(() => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  writeFileSync(path.join(OUT, 'past.json'), JSON.stringify(pastRun()));
  writeFileSync(path.join(OUT, 'slow-machine.json.br'), api.encodeReport(pastRun(88_000)));
  writeFileSync(path.join(OUT, 'fast-machine.json'), JSON.stringify(pastRun(26_000)));
});

test('plan --shards auto: every count\'s wall and machine time with the fixed cost the report shows, and the count chosen by the budget', () => {
  const r = cli('plan', path.join(OUT, 'past.json'), '--shards', 'auto', '--max-shards', '8');
  assert.equal(r.status, 0, r.stderr);
  // 40 s of tests; each shard pays 7.5 s: n shards take 7.5 + 40/n s, cost 7.5 n + 40 s
  const rows = r.stdout.split('\n').filter((l) => /^\d+\s/.test(l)).map((l) => l.split(/\s+/));
  assert.deepEqual(rows.map((x) => x.slice(0, 3)), [
    ['1', '47.5s', '47.5s'], ['2', '27.5s', '55.0s'], ['3', '21.5s', '62.5s'], ['4', '17.5s', '70.0s'],
    ['5', '15.5s', '77.5s'], ['6', '14.5s', '85.0s'], ['7', '13.5s', '92.5s'], ['8', '12.5s', '100.0s'],
  ]);
  assert.match(r.stdout, /^4 +17\.5s +70\.0s +<- recommended$/m);
  assert.match(r.stdout, /^5 .* over budget$/m);
  assert.match(r.stdout, /^fixed cost +7\.5s per shard \(the report's time outside its tests/m);
  assert.match(r.stdout, /^budget +machine time at most 1\.5x one shard's, 71\.3s$/m);
  assert.match(r.stdout, /^recommended +4 shards: wall 17\.5s, machine 70\.0s$/m);

  // a larger budget buys more shards; an absolute one too
  const matrix = (...extra) => JSON.parse(cli('plan', path.join(OUT, 'past.json'), '--shards', 'auto', '--max-shards', '8', '--matrix', ...extra).stdout);
  assert.deepEqual(matrix('--budget', '2x'), { shardIndex: [1, 2, 3, 4, 5, 6, 7], shardTotal: [7] });
  assert.deepEqual(matrix('--budget', '1m'), { shardIndex: [1, 2], shardTotal: [2] });
  assert.deepEqual(matrix('--budget', '1x'), { shardIndex: [1], shardTotal: [1] });
  // --overhead overrides what the reports show: no fixed cost, every count costs the same
  assert.deepEqual(matrix('--overhead', '0'), { shardIndex: [1, 2, 3, 4, 5, 6, 7, 8], shardTotal: [8] });

  // several past runs (each shard's report of a past run): the median, so one slow machine does not decide
  const j = JSON.parse(cli('plan', path.join(OUT, 'past.json'), '--shards', 'auto', '--max-shards', '8', '--json',
    '--overhead-from', path.join(OUT, 'slow-machine.json.br'), '--overhead-from', path.join(OUT, 'fast-machine.json')).stdout);
  assert.equal(j.perShardOverheadMs, 7500);
  assert.match(j.fixedCost.how, /the median of 3 reports' time outside their tests \(7\.5s, 1\.1 ?min|67\.5s/);
  assert.equal(j.rows.length, 8);
  assert.deepEqual(Object.keys(j.rows[0]).sort(), ['fingerprint', 'machineMs', 'shards', 'wallMs', 'withinBudget']);
  // each row's fingerprint is the plan planShards makes for that count with that fixed cost
  assert.equal(j.rows[2].fingerprint, api.planShards({ report: pastRun(), shardCount: 3, perShardOverheadMs: 7500 }).fingerprint);
});

test('plan --shards auto: no more shards than there are units to spread; usage problems in one line', () => {
  const units = path.join(OUT, 'units.json');
  writeFileSync(units, JSON.stringify([{ id: 'a', durationMs: 5000 }, { id: 'b', durationMs: 100 }, { id: 'c', durationMs: 100 }]));
  const r = cli('plan', units, '--shards', 'auto', '--max-shards', '8', '--overhead', '1000', '--budget', '3x');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^stopped at +3 shards: more would leave a shard empty$/m);
  assert.match(r.stdout, /^recommended +2 shards: wall 6\.0s/m);
  // a units list has no wall time: the fixed cost must be given
  assert.match(cli('plan', units, '--shards', 'auto').stdout, /^fixed cost +0ms per shard \(none: no report given; set it with --overhead\)$/m);

  for (const [args, line] of [
    [['--shards', '3', '--matrix'], "shardwise plan: --matrix goes with --shards auto; see 'shardwise plan --help'"],
    [['--shards', 'auto', '--budget', 'cheap'], "shardwise plan: --budget must be a multiple of one shard's machine time ('1.5x') or a duration ('90m', '2h', '600s'), got 'cheap'"],
    [['--shards', 'auto', '--budget', '0.5x'], "shardwise plan: --budget 0.5x: a multiple of one shard's machine time is at least 1x"],
    [['--shards', 'auto', '--max-shards', '0'], /^shardwise plan: INVALID_INPUT: maxShards must be a whole number from 1 to 100000/],
    [['--shards', 'auto', '--overhead-from', units], /^shardwise plan: .*units\.json: .*a units list has no wall time: give a past run's report/],
  ]) {
    const x = cli('plan', units, ...args);
    assert.notEqual(x.status, 0);
    assert.doesNotMatch(x.stderr, /\n\s+at /);
    if (typeof line === 'string') assert.equal(x.stderr.trim(), line);
    else assert.match(x.stderr.trim(), line);
  }
});

// ---------------------------------------------------------------- real runs

const PW = path.join(OUT, 'pw');
const FILES = 6; // six files of two 800 ms tests: 9.6 s of tests
function writeProject() {
  mkdirSync(PW, { recursive: true });
  for (let f = 0; f < FILES; f++) {
    writeFileSync(path.join(PW, `f${f}.pw.js`), `import { test } from '@playwright/test';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
test('a', async () => { await sleep(800); });
test('b', async () => { await sleep(800); });
`);
  }
  // a global set-up of 3 s: what every shard pays before its first test
  writeFileSync(path.join(PW, 'setup.mjs'), 'export default async () => { await new Promise((r) => setTimeout(r, 3000)); };\n');
  writeFileSync(path.join(PW, 'playwright.config.mjs'), `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: '.', testMatch: '**/*.pw.js', workers: 1, fullyParallel: false, globalSetup: './setup.mjs',
  reporter: [['dot'], ['shardwise/playwright', { outputFolder: process.env.SW_OUTPUT }]],
  outputDir: process.env.SW_OUTPUT + '-artifacts',
});
`);
}

/** One Playwright process; resolves with its wall time as its caller sees it. */
function playwright(output, shard) {
  const env = { ...process.env, FORCE_COLOR: '0', SW_OUTPUT: output, SHARDWISE_COMMIT_ID: COMMIT };
  for (const k of Object.keys(env)) if ((k.startsWith('SHARDWISE_') && k !== 'SHARDWISE_COMMIT_ID') || k === 'CI' || k.startsWith('GITHUB_')) delete env[k];
  if (shard) env.SHARDWISE_TIMINGS_FILE = path.join(PW, 'seed', 'report.json.br');
  const t0 = Date.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', path.join(PW, 'playwright.config.mjs'), ...(shard ? [`--shard=${shard}`] : [])],
      { cwd: ROOT, env, timeout: 180_000 }, (e, stdout, stderr) => resolve({ code: e ? e.code ?? 1 : 0, ms: Date.now() - t0, text: `${stdout}\n${stderr}` }));
  });
}

test('real Playwright runs with a 3 s global set-up: the fixed cost read from one run is what each further shard costs, and it changes the recommendation', { timeout: 600_000 }, async () => {
  writeProject();
  const seed = await playwright(path.join(PW, 'seed'));
  assert.equal(seed.code, 0, seed.text);
  const auto = (...extra) => {
    const r = cli('plan', path.join(PW, 'seed'), '--shards', 'auto', '--max-shards', '4', '--json', ...extra);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const rec = auto();
  // the report's wall time runs from the process's start: boot, config and global set-up are in it
  assert.ok(rec.perShardOverheadMs >= 3000, `the fixed cost read from the run covers its 3 s global set-up: ${rec.perShardOverheadMs} ms`);
  // 9.6 s of tests and ~4-5 s per shard: 2 shards fit 1.5x one shard's machine time, 3 do not;
  // without the fixed cost every count costs the same and the most shards would be recommended
  assert.equal(rec.shards, 2, JSON.stringify(rec.rows));
  assert.equal(auto('--overhead', '0').shards, 4);

  // 1 and 2 shards for real, one shard at a time (as on separate CI machines): the second shard
  // costs the machine time of one more fixed cost, which is what the reports said it would
  const one = await playwright(path.join(PW, 'n1'));
  const two = [];
  for (const i of [1, 2]) two.push(await playwright(path.join(PW, `n2-${i}`), `${i}/2`));
  for (const x of [one, ...two]) assert.equal(x.code, 0, x.text);
  const machine2 = two[0].ms + two[1].ms;
  const extra = machine2 - one.ms;
  const figures = `fixed cost read ${rec.perShardOverheadMs} ms; measured: 1 shard ${one.ms} ms, 2 shards ${two.map((x) => x.ms).join(' + ')} ms (one more shard costs ${extra} ms); `
    + `predicted: 1 shard ${rec.rows[0].wallMs} ms, 2 shards wall ${rec.rows[1].wallMs} machine ${rec.rows[1].machineMs} ms`;
  console.log(`# ${figures}`);
  assert.ok(Math.abs(extra - rec.perShardOverheadMs) <= 0.5 * extra, figures);
  assert.ok(Math.max(...two.map((x) => x.ms)) < one.ms, figures);
  assert.ok(machine2 <= 1.5 * one.ms, `2 shards stay within 1.5x one shard's machine time as measured: ${figures}`);
});
