// How many shards (issue 22): `shardwise plan --shards auto` plans every count up to
// --max-shards with a fixed cost per shard read from past runs' reports (their time outside any
// test), and recommends the count with the least wall time whose machine time stays within the
// budget; --matrix prints it for a GitHub Actions matrix. Checked on a report whose figures are
// known, and on a real Playwright run of a project whose global set-up takes 3 s: the fixed cost
// the CLI reads from it covers that set-up and changes the count recommended. (How the counts then
// measure when run is a time: `npm run bench:shards` prints it.)
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeProject, playwright } from '../bench/shards.mjs';
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
  // the past run had two workers (its attempts' parallelIndex): 40 s of tests, busy from 5 s to
  // 25.5 s with no gap between tests (no file cost), so 7.5 s of its 28 s outside them.
  // Planned here for one worker per shard (--workers 1): n shards take 7.5 + 40/n s.
  const auto = (...extra) => cli('plan', path.join(OUT, 'past.json'), '--shards', 'auto', '--max-shards', '8', '--workers', '1', ...extra);
  const r = auto();
  assert.equal(r.status, 0, r.stderr);
  const rows = r.stdout.split('\n').filter((l) => /^\d+\s/.test(l)).map((l) => l.split(/\s+/));
  assert.deepEqual(rows.map((x) => x.slice(0, 3)), [
    ['1', '47.5s', '47.5s'], ['2', '27.5s', '55.0s'], ['3', '21.5s', '62.5s'], ['4', '17.5s', '70.0s'],
    ['5', '15.5s', '77.5s'], ['6', '14.5s', '85.0s'], ['7', '13.5s', '92.5s'], ['8', '12.5s', '100.0s'],
  ]);
  assert.match(r.stdout, /^4 +17\.5s +70\.0s +<- recommended$/m);
  assert.match(r.stdout, /^5 .* over budget$/m);
  assert.match(r.stdout, /^fixed cost +7\.5s per shard \(the report's wall time outside its workers' busy time/m);
  assert.match(r.stdout, /^budget +machine time at most 1\.5x one shard's, 71\.3s$/m);
  assert.match(r.stdout, /^recommended +4 shards: wall 17\.5s, machine 70\.0s$/m);
  // without --workers, the run's two workers: half the tests' time a shard
  assert.match(cli('plan', path.join(OUT, 'past.json'), '--shards', 'auto', '--max-shards', '8').stdout, /^1 +27\.5s +27\.5s/m);

  // a larger budget buys more shards; an absolute one too
  const matrix = (...extra) => JSON.parse(auto('--matrix', ...extra).stdout);
  assert.deepEqual(matrix('--budget', '2x'), { shardIndex: [1, 2, 3, 4, 5, 6, 7], shardTotal: [7] });
  assert.deepEqual(matrix('--budget', '1m'), { shardIndex: [1, 2], shardTotal: [2] });
  assert.deepEqual(matrix('--budget', '1x'), { shardIndex: [1], shardTotal: [1] });
  // --overhead overrides what the reports show: no fixed cost, every count costs the same
  assert.deepEqual(matrix('--overhead', '0'), { shardIndex: [1, 2, 3, 4, 5, 6, 7, 8], shardTotal: [8] });

  // several past runs (each shard's report of a past run): the median, so one slow machine does not decide
  const j = JSON.parse(auto('--json', '--overhead-from', path.join(OUT, 'slow-machine.json.br'), '--overhead-from', path.join(OUT, 'fast-machine.json')).stdout);
  assert.equal(j.perShardOverheadMs, 7500);
  assert.match(j.fixedCost.how, /the median of 3 reports' wall time outside their workers' busy time \(7\.5s, 67\.5s, 5\.5s\)/);
  assert.equal(j.rows.length, 8);
  assert.deepEqual(Object.keys(j.rows[0]).sort(), ['fingerprint', 'machineMs', 'shards', 'wallMs', 'withinBudget']);
  // each row's fingerprint is the plan planShards makes for that count with that fixed cost and the report's costs
  const { costs } = api.shardCosts(pastRun());
  assert.equal(j.rows[2].fingerprint, api.planShards({ report: pastRun(), shardCount: 3, perShardOverheadMs: 7500, costs }).fingerprint);
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
    [['--shards', 'auto', '--overhead', '0', '--overhead-from', 'no-such-report.json'], "shardwise plan: --overhead and --overhead-from both set the fixed cost per shard: give one; see 'shardwise plan --help'"],
    [['--shards', 'auto', '--overhead-from', units], /^shardwise plan: .*units\.json: .*a units list has no wall time: give a past run's report/],
  ]) {
    const x = cli('plan', units, ...args);
    assert.notEqual(x.status, 0);
    assert.doesNotMatch(x.stderr, /\n\s+at /);
    if (typeof line === 'string') assert.equal(x.stderr.trim(), line);
    else assert.match(x.stderr.trim(), line);
  }
});

// ---------------------------------------------------------------- a real run

test('a real Playwright run with a 3 s global set-up: the fixed cost read from its report covers the set-up, and changes the recommendation', { timeout: 300_000 }, async () => {
  const dir = path.join(OUT, 'pw');
  writeProject(dir);
  const seed = await playwright(dir, path.join(dir, 'seed'));
  assert.equal(seed.code, 0, seed.text);
  const auto = (...extra) => {
    const r = cli('plan', path.join(dir, 'seed'), '--shards', 'auto', '--max-shards', '4', '--json', ...extra);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const rec = auto();
  // the report's wall time runs from the process's start: boot, config and global set-up are in it
  assert.ok(rec.perShardOverheadMs >= 3000, `the fixed cost read from the run covers its 3 s global set-up: ${rec.perShardOverheadMs} ms`);
  // 9.6 s of tests: with a fixed cost of 3 s or more, 4 shards cost more than 1.5x one shard's
  // machine time; without it every count costs the same and the most shards win
  assert.ok(rec.shards < 4, JSON.stringify(rec.rows));
  assert.equal(auto('--overhead', '0').shards, 4);
  // how the counts then measure, one shard at a time as on separate machines: npm run bench:shards
});
