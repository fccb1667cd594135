// node:test's balanced shards, for real (issue 34): `shardwise node-test --shard=i/3` on a project
// written into js-tests/.out/node-test-shards/ (a git repository of its own; the project of
// helpers/node-test-project.mjs, with a slow file and quick ones) with nested
// describe/it, subtests, t.skip/t.todo, a failing assertion with a diff, a file that fails to
// load, one slow file and quick ones. A first run without --shard (node:test's default patterns)
// seeds the local service (`shardwise serve`'s server on 127.0.0.1); then 3 shards planned from the
// service with --test-concurrency=2, and 3 from the seed's saved report as the timings file with
// --test-concurrency=1. Every shard prints the same fingerprint, runs its planned files only, and
// together they run every test exactly once (their saved reports; `shardwise verify` exits 0);
// the exit code is each shard's own node --test's (the shard with the failing file fails, the
// others pass); the slow file is alone on its shard when the timings say so; a shard the plan
// leaves no file passes and still counts for verify.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from 'shardwise';
import { createServer } from '../pkg/server/index.mjs';
import { nodeTestFiles } from '../pkg/node-test/files.mjs';
import { nodeTestArgs } from '../pkg/cli/node-test.mjs';
import { durationsByFile } from '../pkg/src/runner/timings.mjs';
import { nodeTestProject, runNode, writeProject } from './helpers/node-test-project.mjs';
import { costsRecordOf } from '../pkg/src/sources.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = path.join(ROOT, 'js-tests', '.out', 'node-test-shards');
const DIR = path.join(OUT, 'project');
const BIN = path.join(ROOT, 'pkg', 'bin', 'shardwise.mjs');
const COMMIT = '5ba4d5000000000000000000000000000000000a';
// long enough to stay alone on its shard when the machine is busy: the other 7 files' measured
// costs (a process each, 200-450 ms on 2 busy cores) must not fill a third shard beyond it
const SLOW_MS = 3000;
let service;

const sleep = 'const sleep = (ms) => new Promise((r) => setTimeout(r, ms));\n';
const FILES = {
  ...nodeTestProject('node-test-shards'),
  'test/slow.test.mjs': `import { test } from 'node:test';\n${sleep}test('takes its time', () => sleep(${SLOW_MS}));\n`,
  'src/helpers.mjs': 'export const x = 1;\n',
};
for (let i = 1; i <= 4; i++) {
  FILES[`test/quick-${i}.test.mjs`] = `import { describe, it } from 'node:test';\n${sleep}describe('quick ${i}', () => {\n`
    + Array.from({ length: 4 }, (_, k) => `  it('case ${k}', () => sleep(${10 * ((i + k) % 3)}));\n`).join('') + '});\n';
}
const TEST_FILES = Object.keys(FILES).filter((f) => f.startsWith('test/')).sort();

before(async () => {
  rmSync(OUT, { recursive: true, force: true });
  writeProject(DIR, FILES);
  service = await createServer({ dataDir: path.join(OUT, 'service'), computeDelayMs: 0 });
});
after(() => service?.close());

/** `shardwise <args>` in the project, asynchronously (the service answers in this process). */
function shardwise(args, env = {}) {
  // not the service or timings of the outer environment
  return runNode([BIN, ...args], { cwd: DIR, env: { SHARDWISE_COMMIT_ID: COMMIT, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    drop: ['SHARDWISE_BASE_URL', 'SHARDWISE_ACCESS_TOKEN', 'SHARDWISE_TIMINGS_FILE'] });
}

const withService = () => ({ SHARDWISE_BASE_URL: service.baseUrl, SHARDWISE_ACCESS_TOKEN: service.accessToken });

/** Every test of a saved report: `file › suites › title`. */
function testsOf(folder) {
  const report = api.decodeReport(new Uint8Array(readFileSync(path.join(folder, 'report.json.br'))));
  assert.deepEqual(api.validateReport(report), []);
  const out = [];
  const walk = (s, titles) => {
    for (const t of s.tests ?? []) out.push([t.location?.file, ...titles, t.title].join(' › '));
    for (const c of s.suites ?? []) walk(c, c.type === 'file' ? titles : [...titles, c.title]);
  };
  walk(report, []);
  return out;
}

/** The 3 shards, side by side: each one's exit code, output, plan line's fingerprint and record. */
async function shards(output, args, env) {
  const runs = await Promise.all([1, 2, 3].map((i) => shardwise(['node-test', `--shard=${i}/3`, ...args], { SHARDWISE_OUTPUT_FOLDER: output, ...env })));
  return runs.map((r, k) => {
    const i = k + 1;
    const line = new RegExp(`^\\[shardwise\\] shard ${i}/3: predicted .*fingerprint ([0-9a-f]{16,})`, 'm').exec(r.text);
    assert.ok(line, `shard ${i}'s plan line:\n${r.text}`);
    const folder = path.join(DIR, output, `shard-${i}-of-3`);
    const record = JSON.parse(readFileSync(path.join(folder, 'shard.json'), 'utf8'));
    return { ...r, i, line: line[0], fingerprint: line[1], folder, record };
  });
}

/** What every sharded run must be: one plan, each file on one shard, each test run exactly once, verify whole, node's exit codes. */
async function assertWhole(runs, output, seedTests) {
  assert.equal(new Set(runs.map((r) => r.fingerprint)).size, 1, 'one fingerprint on every shard');
  const assigned = runs.flatMap((r) => r.record.assigned);
  assert.deepEqual([...assigned].sort(), TEST_FILES, 'every test file on exactly one shard');
  for (const r of runs) {
    assert.deepEqual([...r.record.ran].sort(), [...r.record.assigned].sort(), `shard ${r.i} ran its planned files, no other`);
    assert.match(r.text, new RegExp(`^\\[shardwise\\] shard ${r.i}/3 took \\S+ \\(predicted`, 'm'), 'the predicted-against-actual line');
    const fails = r.record.assigned.some((f) => /cart|broken/.test(f));
    assert.equal(r.code, fails ? 1 : 0, `shard ${r.i} exits as its node --test (${r.record.assigned.join(', ')}):\n${r.text}`);
    if (r.record.assigned.includes('test/cart.test.mjs')) assert.match(r.text, /✖ shows the total/, 'the spec reporter prints the shard\'s run');
    if (r.record.assigned.includes('test/broken.test.mjs')) assert.match(r.text, /^\[shardwise\] 1 test file failed to load \(test\/broken\.test\.mjs\)/m);
  }
  assert.ok(runs.some((r) => r.code === 0) && runs.some((r) => r.code === 1), 'the failing shard fails, another passes');
  const ran = runs.flatMap((r) => testsOf(r.folder));
  assert.deepEqual([...ran].sort(), [...seedTests].sort(), 'together the shards ran every test of the unsharded run exactly once');
  const verify = await shardwise(['verify', output]);
  assert.equal(verify.code, 0, verify.text);
  assert.match(verify.text, /^shards whole: 3 of 3 planned alike/m);
}

test('node:test balanced 3 ways from the service and from a timings file: one plan, every test once, verify whole, node\'s exit codes, the slow file alone', { timeout: 180_000 }, async () => {
  // the seed: no --shard, node:test's default patterns (src/helpers.mjs is not run)
  const seed = await shardwise(['node-test', '--', '--test-concurrency=2'], { SHARDWISE_OUTPUT_FOLDER: 'out/seed', ...withService() });
  assert.equal(seed.code, 1, seed.text);
  assert.match(seed.text, /✖ shows the total/);
  assert.match(seed.text, /^\[shardwise\] report uploaded: /m, seed.text);
  const seedTests = testsOf(path.join(DIR, 'out/seed'));
  assert.equal(seedTests.length, 6 + 5 + 1 + 4 * 4, seedTests.join('\n'));
  assert.ok(seedTests.includes('test/search.test.mjs › search › ranks by date'));

  const svc = await shards('out/svc', ['--', '--test-concurrency=2'], { ...withService(), SHARDWISE_RUN_ID: `svc-${process.pid}` });
  for (const r of svc) {
    assert.match(r.line, /over 2 workers, .*\(durations: service/, r.line);
    // what the shard spent before node:test started (its planning) is in its record, for the
    // fixed cost per shard to leave out, and in the prediction its end line compares with
    const ms = (t) => (t?.endsWith('ms') ? Number(t.slice(0, -2)) : Number(t?.slice(0, -1)) * 1000);
    const planned = ms(/predicted (\S+) over/.exec(r.line)?.[1]);
    const report = api.decodeReport(new Uint8Array(readFileSync(path.join(r.folder, 'report.json.br'))));
    const launchMs = costsRecordOf(report).launchMs;
    assert.ok(Number.isSafeInteger(launchMs) && launchMs > 0, `launchMs ${launchMs}`);
    const ended = ms(new RegExp(`shard ${r.i}/3 took \\S+ \\(predicted ([^,]+),`).exec(r.text)?.[1]);
    assert.ok(Math.abs(ended - (planned + launchMs)) <= 120, `the end line's prediction ${ended} ms is the plan's ${planned} ms and the launch's ${launchMs} ms`);
  }
  await assertWhole(svc, 'out/svc', seedTests);

  const tf = await shards('out/tf', ['--', '--test-concurrency=1'], { SHARDWISE_TIMINGS_FILE: 'out/seed' });
  for (const r of tf) assert.match(r.line, /\(durations: timings file .*out\/seed/, r.line);
  await assertWhole(tf, 'out/tf', seedTests);
  const slow = tf.find((r) => r.record.assigned.includes('test/slow.test.mjs'));
  assert.deepEqual(slow.record.assigned, ['test/slow.test.mjs'], `the slow file alone on its shard:\n${slow.text}`);
});

test('a shard the plan leaves no file says so, passes without starting node:test, and counts for verify; node options reach node --test and its files', { timeout: 60_000 }, async () => {
  // two files over three shards (the seed's timings: a saved report from the first test, else
  // estimates), with coverage and an --import that notes each test file it was imported in
  const timings = existsSync(path.join(DIR, 'out/seed/report.json.br')) ? { SHARDWISE_TIMINGS_FILE: 'out/seed' } : {};
  mkdirSync(path.join(DIR, 'support'), { recursive: true });
  writeFileSync(path.join(DIR, 'support/note.mjs'), "import { appendFileSync } from 'node:fs';\n"
    + "if (process.argv[1]?.endsWith('.test.mjs')) appendFileSync(process.env.NOTE_FILE, `${process.argv[1]}\\n`);\n");
  const noted = path.join(OUT, 'imported.txt');
  const runs = await Promise.all([1, 2, 3].map((i) => shardwise(['node-test', `--shard=${i}/3`, 'test/quick-1.test.mjs', 'test/quick-2.test.mjs', '--', '--experimental-test-coverage', '--import', './support/note.mjs'],
    { SHARDWISE_OUTPUT_FOLDER: 'out/empty', NOTE_FILE: noted, ...timings })));
  assert.deepEqual(runs.map((r) => r.code), [0, 0, 0], runs.map((r) => r.text).join('\n'));
  const empty = runs.filter((r) => /no test file to run/.test(r.text));
  assert.equal(empty.length, 1, runs.map((r) => r.text).join('\n'));
  assert.match(empty[0].text, /this shard has nothing to run/);
  assert.doesNotMatch(empty[0].text, /^# tests|ℹ tests/m, 'node:test did not start');
  for (const r of runs.filter((x) => x !== empty[0])) assert.match(r.text, /start of coverage report/, 'the coverage report of --experimental-test-coverage');
  assert.deepEqual(readFileSync(noted, 'utf8').trim().split('\n').map((f) => path.relative(DIR, f)).sort(), ['test/quick-1.test.mjs', 'test/quick-2.test.mjs'], '--import ran in each test file\'s process, once');
  const verify = await shardwise(['verify', 'out/empty']);
  assert.equal(verify.code, 0, verify.text);
  assert.match(verify.text, /^shards whole: 3 of 3/m);
});

test('node-test: a wrong --shard or a path that names nothing is one line and an exit code', async () => {
  const bad = await shardwise(['node-test', '--shard=4/3']);
  assert.equal(bad.code, 2);
  assert.equal(bad.text, "shardwise node-test: --shard must be <i>/<n> with 1 <= i <= n, got '4/3'; see 'shardwise node-test --help'\n");
  const twice = await shardwise(['node-test', '--shard=1/3', '--', '--test-shard=1/3']);
  assert.equal(twice.code, 2);
  assert.match(twice.text, /^shardwise node-test: --shard and node's --test-shard both split the files: give --shard only/);
  const none = await shardwise(['node-test', 'no/such/dir']);
  assert.equal(none.code, 1);
  assert.match(none.text, /^shardwise node-test: INVALID_INPUT: could not find 'no\/such\/dir': no test file matches/);
  assert.doesNotMatch(none.text, /\n\s+at /, 'no stack');
});

test('the files node --test would run (Node 20\'s rules; globs where Node has fs.globSync), and the node --test command line', () => {
  const rel = (files) => files.map((f) => path.relative(DIR, f).split(path.sep).join('/'));
  // Node 20: the working directory searched, node_modules left out; a file named is run whatever its name
  mkdirSync(path.join(DIR, 'node_modules/dep/test'), { recursive: true });
  writeFileSync(path.join(DIR, 'node_modules/dep/test/x.test.mjs'), '');
  assert.deepEqual(rel(nodeTestFiles([], { cwd: DIR, globSync: undefined })), TEST_FILES);
  assert.deepEqual(rel(nodeTestFiles(['src/helpers.mjs', 'test/slow.test.mjs'], { cwd: DIR, globSync: undefined })), ['src/helpers.mjs', 'test/slow.test.mjs']);
  assert.throws(() => nodeTestFiles(['nope.mjs'], { cwd: DIR, globSync: undefined }), /could not find 'nope\.mjs'/);
  // Node >= 21: globs, the default pattern; a folder searched with it
  const calls = [];
  const globSync = (patterns, o) => { calls.push([patterns, typeof o.exclude]); return patterns[0].startsWith('test/**') ? ['test/slow.test.mjs'] : ['test']; };
  assert.deepEqual(rel(nodeTestFiles(['test'], { cwd: DIR, globSync })), ['test/slow.test.mjs']);
  assert.deepEqual(calls, [[['test'], 'function'], [['test/**/{test,test/**/*,test-*,*[._-]test}.{js,mjs,cjs}'], 'function']]);
  calls.length = 0;
  nodeTestFiles([], { cwd: DIR, globSync, nodeArgs: ['--experimental-strip-types'] });
  assert.deepEqual(calls[0][0], ['**/{test,test/**/*,test-*,*[._-]test}.{js,mjs,cjs,ts,mts,cts}']);

  // spec beside shardwise's unless the user names reporters; a lone reporter of the user's gets its destination
  const reporter = (args) => args.filter((a) => a.startsWith('--test-reporter'));
  assert.deepEqual(reporter(nodeTestArgs(['--test-concurrency=2'], ['/a.test.mjs'])).map((a) => a.replace(/file:\S+/, 'OURS')),
    ['--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=OURS', '--test-reporter-destination=stdout']);
  assert.deepEqual(reporter(nodeTestArgs(['--test-reporter=dot'], [])).map((a) => a.replace(/file:\S+/, 'OURS')),
    ['--test-reporter=dot', '--test-reporter-destination=stdout', '--test-reporter=OURS', '--test-reporter-destination=stdout']);
  assert.deepEqual(reporter(nodeTestArgs(['--test-reporter', 'shardwise/node-test'], [])), ['--test-reporter'], 'the user\'s shardwise reporter is not doubled');
  assert.deepEqual(nodeTestArgs(['--import', 'tsx'], ['/x.test.ts']).filter((a) => !a.startsWith('--test-reporter')), ['--test', '--import', 'tsx', '/x.test.ts'], 'node options first, then the files');
});

test('a node:test file\'s predicted time counts its outermost tests: a test with subtests holds their time', () => {
  const test = (title, durationMs) => ({ title, attempts: [{ status: 'passed', duration: durationMs }] });
  const report = (category) => ({
    category, commitId: 'c0ffee', startTimestamp: 1, duration: 1, environments: [{ name: 'node' }],
    suites: [
      { type: 'file', title: 'test/search.test.mjs', tests: [test('search', 100), test('a slow one', 150)],
        suites: [{ type: 'suite', title: 'search', tests: [test('finds by title', 60)], suites: [{ type: 'suite', title: 'finds by title', tests: [test('deeper', 20)] }] }] },
      { type: 'file', title: 'test/cart.test.mjs', suites: [{ type: 'suite', title: 'cart', tests: [test('adds an item', 5)], suites: [{ type: 'suite', title: 'coupons', tests: [test('applies one', 7)] }] }] },
    ],
  });
  assert.deepEqual(durationsByFile(report('node-test'), api), new Map([['test/search.test.mjs', 250], ['test/cart.test.mjs', 12]]));
  // other runners have no test inside a test: every test counts
  assert.equal(durationsByFile(report('jest'), api).get('test/search.test.mjs'), 330);
});
