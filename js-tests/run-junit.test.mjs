// `shardwise run` (issue 34, any runner by file), for real: Mocha with mocha-junit-reporter
// against the local service, and node:test with its built-in junit reporter from a timings file,
// each sharded 3 ways in a project of its own under js-tests/.out/ (a git repository), every
// shard a real `shardwise run` process running the real runner. Every test runs exactly once
// across the shards, skipped and failing tests are recorded as such, `shardwise verify` passes;
// a malformed JUnit XML fails the run with its line and column, and nothing is saved.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from 'shardwise';
import { createServer } from '../pkg/server/index.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = path.join(ROOT, 'js-tests', '.out', 'run-junit');
const BIN = path.join(ROOT, 'pkg', 'bin', 'shardwise.mjs');
const MOCHA = path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
const COMMIT = '12c0ffee00000000000000000000000000000000';
let service;

before(async () => {
  rmSync(OUT, { recursive: true, force: true });
  service = await createServer({ dataDir: path.join(OUT, 'service'), computeDelayMs: 0 });
});
after(() => service?.close());

function project(name, files) {
  const dir = path.join(OUT, name);
  for (const [f, t] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), t);
  }
  execFileSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

function shardwise(dir, args, env = {}) {
  // not NODE_TEST_CONTEXT: a node --test started with it reports to this run's parent instead
  const { NODE_TEST_CONTEXT, SHARDWISE_BASE_URL, SHARDWISE_ACCESS_TOKEN, SHARDWISE_TIMINGS_FILE, ...outer } = process.env;
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir, env: { ...outer, SHARDWISE_COMMIT_ID: COMMIT, NO_COLOR: '1', FORCE_COLOR: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { err += d; });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err, text: out + err })));
}

/** A saved report's tests: `file › suites › title` -> status (and the first error's message). */
function testsOf(file) {
  const report = api.decodeReport(new Uint8Array(readFileSync(file)));
  assert.deepEqual(api.validateReport(report), []);
  const tests = new Map();
  const walk = (s, file, titles) => {
    for (const t of s.tests ?? []) {
      const key = [t.location?.file ?? file, ...titles, t.title].join(' › ');
      assert.ok(!tests.has(key), `${key} twice in one report`);
      tests.set(key, { status: t.attempts[0].status, error: t.attempts[0].errors?.[0]?.message, annotations: (t.attempts[0].annotations ?? []).map((a) => a.type) });
    }
    for (const c of s.suites ?? []) walk(c, c.type === 'file' ? c.title : file, c.type === 'file' ? titles : [...titles, c.title]);
  };
  walk(report, undefined, []);
  return { report, tests };
}

/** Runs the 3 shards one after the other; returns their results and their tests, merged (each once). */
async function threeShards(dir, args, env) {
  const shards = [];
  const all = new Map();
  for (let i = 1; i <= 3; i++) {
    const r = await shardwise(dir, ['run', `--shard=${i}/3`, ...args], env);
    const line = /^\[shardwise\] shard (\d)\/3: predicted .* fingerprint ([0-9a-f]+)/m.exec(r.out);
    assert.ok(line, `shard ${i} prints the plan line:\n${r.text}`);
    const saved = path.join(dir, 'shardwise-report', `shard-${i}-of-3`, 'report.json.br');
    const { report, tests } = testsOf(saved);
    assert.equal(report.title, `shard ${i}/3`);
    for (const [k, v] of tests) {
      assert.ok(!all.has(k), `${k} ran on two shards`);
      all.set(k, v);
    }
    shards.push({ ...r, fingerprint: line[2], tests });
  }
  assert.equal(new Set(shards.map((s) => s.fingerprint)).size, 1, 'one plan on every shard');
  return { shards, all };
}

const MOCHA_FILES = {
  'package.json': '{"name":"mocha-project","private":true}\n',
  'test/cart.spec.js': `const assert = require('node:assert');
describe('cart', function () {
  it('adds an item', function (done) { setTimeout(done, 40); });
  it('shows the total', function () { assert.deepStrictEqual({ total: 999 }, { total: 899 }); });
  it('pays by card');
  describe('coupons', function () {
    it('applies one', function () {});
  });
});
`,
  'test/search.spec.js': `describe('search', function () {
  it('finds by title', function (done) { setTimeout(done, 60); });
  it.skip('finds by tag', function () {});
});
`,
  'test/login.spec.js': "describe('login', function () { it('logs in', function (done) { setTimeout(done, 30); }); });\n",
  'test/profile.spec.js': "describe('profile', function () { it('shows the name', function () {}); it('edits the name', function () {}); });\n",
  'test/lib/helpers.spec.js': "it('a root-level test', function () {});\n",
  'test/not-a-test.js': "throw new Error('never loaded: not matched by the glob');\n",
};

test('Mocha with mocha-junit-reporter through shardwise run, 3 shards against the local service: every test once, verify passes', { timeout: 120_000 }, async () => {
  const dir = project('mocha', MOCHA_FILES);
  const env = { SHARDWISE_BASE_URL: service.baseUrl, SHARDWISE_ACCESS_TOKEN: service.accessToken, SHARDWISE_RUN_ID: 'mocha-run-1' };
  const { shards, all } = await threeShards(dir, ['--files', 'test/**/*.spec.js', '--junit', 'junit.xml', '--runner', 'mocha', '--',
    process.execPath, MOCHA, '--reporter', 'mocha-junit-reporter', '--reporter-options', 'mochaFile=junit.xml,includePending=true'], env);
  assert.deepEqual([...all.keys()].sort(), [
    'test/cart.spec.js › cart › adds an item', 'test/cart.spec.js › cart › pays by card', 'test/cart.spec.js › cart › shows the total',
    'test/cart.spec.js › cart coupons › applies one',
    'test/lib/helpers.spec.js › a root-level test',
    'test/login.spec.js › login › logs in',
    'test/profile.spec.js › profile › edits the name', 'test/profile.spec.js › profile › shows the name',
    'test/search.spec.js › search › finds by tag', 'test/search.spec.js › search › finds by title',
  ].sort(), 'every test of the matched files exactly once across the shards, with its file');
  assert.equal(all.get('test/cart.spec.js › cart › shows the total').status, 'failed');
  assert.match(all.get('test/cart.spec.js › cart › shows the total').error, /Expected values to be strictly deep-equal/);
  assert.equal(all.get('test/cart.spec.js › cart › pays by card').status, 'skipped');
  assert.equal(all.get('test/search.spec.js › search › finds by tag').status, 'skipped');
  assert.equal(all.get('test/login.spec.js › login › logs in').status, 'passed');
  for (const s of shards) {
    const failing = [...s.tests.keys()].some((k) => k.endsWith('shows the total'));
    assert.equal(s.code, failing ? 1 : 0, `the exit code is Mocha's: ${s.text}`);
    assert.match(s.out, /^\[shardwise\] report uploaded: /m, s.text);
    assert.match(s.out, /^\[shardwise\] shard \d\/3 took /m, s.text);
    assert.match(s.out, /durations: service/, 'planned with the service');
  }
  const v = await shardwise(dir, ['verify', 'shardwise-report']);
  assert.equal(v.code, 0, v.text);
});

const NODE_FILES = {
  'package.json': '{"name":"node-test-project","private":true,"type":"module"}\n',
  'test/cart.test.mjs': `import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
describe('cart', () => {
  it('adds an item', async () => { await new Promise((r) => setTimeout(r, 40)); });
  it('shows the total', () => assert.deepEqual({ total: 999 }, { total: 899 }));
  it.skip('pays by card', () => {});
  it.todo('pays by invoice');
  describe('coupons', () => { it('applies one', () => {}); });
});
`,
  'test/search.test.mjs': `import { test } from 'node:test';
test('search', async (t) => {
  await t.test('finds by title', () => {});
  await t.test('finds nothing', (t) => { t.skip('index not built'); });
});
test('a slow one', async () => { await new Promise((r) => setTimeout(r, 120)); });
`,
  'test/login.test.mjs': "import { test } from 'node:test';\ntest('logs in', () => {});\n",
  'test/profile.test.mjs': "import { describe, it } from 'node:test';\ndescribe('profile', () => { it('shows the name', () => {}); });\n",
};

const NODE_COMMAND = ['--', process.execPath, '--test', '--test-reporter=junit', '--test-reporter-destination=junit.xml'];

test('node:test with its junit reporter through shardwise run: a full run, then 3 shards planned from its saved report; verify passes', { timeout: 120_000 }, async () => {
  const dir = project('node-test', NODE_FILES);
  const args = ['--files', 'test/*.test.mjs', '--junit', 'junit.xml', '--runner', 'node-test'];
  // without --shard: every matching file, one report, the timings of the shards below
  // two files at once (--workers 2 as --test-concurrency=2): the report's record says so, and a
  // plan from it counts them
  const full = await shardwise(dir, ['run', ...args, '--workers', '2', '--output-folder', 'full', ...NODE_COMMAND, '--test-concurrency=2']);
  assert.equal(full.code, 1, `node:test's exit code (a test fails): ${full.text}`);
  assert.match(full.out, /^\[shardwise\] 10 tests read from junit\.xml$/m, full.text);
  const { report: fullReport, tests: whole } = testsOf(path.join(dir, 'full', 'report.json.br'));
  assert.equal(whole.size, 10);
  assert.equal(api.shardCosts(fullReport).workers, 2, 'the run\'s workers, recorded');

  const { all } = await threeShards(dir, args.concat(NODE_COMMAND), { SHARDWISE_TIMINGS_FILE: path.join(dir, 'full') });
  assert.deepEqual([...all.keys()].sort(), [...whole.keys()].sort(), 'the shards ran every test of the full run, once');
  assert.deepEqual([...all.keys()].sort(), [
    'test/cart.test.mjs › cart › adds an item', 'test/cart.test.mjs › cart › coupons › applies one', 'test/cart.test.mjs › cart › pays by card',
    'test/cart.test.mjs › cart › pays by invoice', 'test/cart.test.mjs › cart › shows the total',
    'test/login.test.mjs › logs in', 'test/profile.test.mjs › profile › shows the name',
    'test/search.test.mjs › a slow one', 'test/search.test.mjs › search › finds by title', 'test/search.test.mjs › search › finds nothing',
  ], 'node:test\'s JUnit XML names no file: each test\'s is the matched file that declares it');
  assert.equal(all.get('test/cart.test.mjs › cart › shows the total').status, 'failed');
  assert.deepEqual(all.get('test/cart.test.mjs › cart › pays by card'), { status: 'skipped', error: undefined, annotations: ['skip'] });
  assert.deepEqual(all.get('test/cart.test.mjs › cart › pays by invoice').annotations, ['todo']);
  assert.equal(all.get('test/search.test.mjs › search › finds nothing').status, 'skipped');
  const v = await shardwise(dir, ['verify', 'shardwise-report']);
  assert.equal(v.code, 0, v.text);
});

// A runner's JUnit XML of thousands of tests: written by a script (the command), 100 tests a file,
// its time growing with the file's number, some failing and some skipped.
const BIG_WRITER = `const fs = require('node:fs');
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
let xml = '<?xml version="1.0" encoding="UTF-8"?>\\n<testsuites>\\n';
for (const file of process.argv.slice(2)) {
  const n = Number(/f(\\d+)/.exec(file)[1]);
  xml += '<testsuite name="' + esc(file + ' <suite> & co') + '" file="' + esc(file) + '" timestamp="2026-01-01T00:00:00">\\n';
  for (let t = 0; t < 100; t++) {
    xml += '<testcase name="case ' + t + '" classname="' + esc(file) + '" time="' + ((n + 1) * 0.0031).toFixed(4) + '">';
    if (t === 7) xml += '<failure message="expected 1 to equal 2" type="AssertionError"><![CDATA[AssertionError: expected 1 to equal 2\\n    at ' + file + ':8:3]]></failure>';
    if (t === 9) xml += '<skipped/>';
    xml += '</testcase>\\n';
  }
  xml += '</testsuite>\\n';
}
fs.writeFileSync('junit.xml', xml + '</testsuites>\\n');
process.exitCode = 1;
`;

test('3,000 tests in 30 files: a full run\'s report is the timings file of 3 shards, every test once, verify passes', { timeout: 120_000 }, async () => {
  const files = { 'write-junit.cjs': BIG_WRITER };
  for (let i = 0; i < 30; i++) files[`test/f${String(i).padStart(2, '0')}.test.js`] = `// file ${i}\n`;
  const dir = project('big', files);
  const args = ['--files', 'test/*.test.js', '--junit', 'junit.xml', '--', process.execPath, 'write-junit.cjs'];
  const full = await shardwise(dir, ['run', '--output-folder', 'full', ...args]);
  assert.equal(full.code, 1, `the command's exit code: ${full.text}`);
  assert.match(full.out, /^\[shardwise\] 3000 tests read from junit\.xml$/m, full.text);
  const { shards, all } = await threeShards(dir, args, { SHARDWISE_TIMINGS_FILE: path.join(dir, 'full') });
  assert.equal(all.size, 3000, 'every test once across the shards');
  for (const s of shards) assert.match(s.out, /, 0 of 30 files estimated \(durations: timings file /, 'every file had its duration from the full run');
  const failed = [...all.values()].filter((t) => t.status === 'failed');
  assert.equal(failed.length, 30);
  assert.equal(failed[0].error, 'expected 1 to equal 2');
  assert.equal([...all.values()].filter((t) => t.status === 'skipped').length, 30);
  assert.ok([...all.keys()].includes('test/f29.test.js › test/f29.test.js <suite> & co › case 99'), 'titles with markup, read back');
  const v = await shardwise(dir, ['verify', 'shardwise-report']);
  assert.equal(v.code, 0, v.text);
});

test('a malformed JUnit XML fails the run with its line and column; nothing is saved or uploaded', { timeout: 60_000 }, async () => {
  const dir = project('malformed', { 'a.test.js': '', 'b.test.js': '' });
  // an earlier run's saved report in the shard's folder: gone, never taken for this run's
  const earlier = path.join(dir, 'shardwise-report', 'shard-1-of-2');
  mkdirSync(earlier, { recursive: true });
  writeFileSync(path.join(earlier, 'report.json.br'), 'an earlier run');
  writeFileSync(path.join(earlier, 'shard.json'), '{}');
  const write = "require('fs').writeFileSync('junit.xml', '<testsuites>\\n  <testsuite name=\"a\">\\n    <testcase name=\"t\" time=\"0.1\">')";
  const r = await shardwise(dir, ['run', '--shard=1/2', '--files', '*.test.js', '--junit', 'junit.xml', '--', process.execPath, '-e', write],
    { SHARDWISE_BASE_URL: service.baseUrl, SHARDWISE_ACCESS_TOKEN: service.accessToken });
  assert.equal(r.code, 1, r.text);
  assert.equal(r.err.trim(), 'shardwise run: INVALID_INPUT: junit.xml line 3, column 35: the file ends inside <testcase> (opened at line 3, column 5): expected </testcase>; nothing was saved or uploaded');
  assert.doesNotMatch(r.out, /uploaded/);
  assert.ok(!existsSync(path.join(dir, 'shardwise-report', 'shard-1-of-2', 'report.json.br')), 'no report saved');
  assert.ok(!existsSync(path.join(dir, 'shardwise-report', 'shard-1-of-2', 'shard.json')), 'no earlier record left');
});

test('a command that writes no JUnit XML (it crashed) is a failed run: its report says why, is uploaded, and verify names the files not run', { timeout: 60_000 }, async () => {
  const dir = project('no-xml', { 'a.test.js': '', 'b.test.js': '', 'c.test.js': '' });
  const env = { SHARDWISE_BASE_URL: service.baseUrl, SHARDWISE_ACCESS_TOKEN: service.accessToken };
  const runs = [];
  for (const i of [1, 2]) {
    runs.push(await shardwise(dir, ['run', `--shard=${i}/2`, '--files', '*.test.js', '--junit', 'junit.xml', '--', process.execPath, '-e', 'process.exit(3)'], env));
  }
  for (const [i, r] of runs.entries()) {
    assert.equal(r.code, 3, `the command's exit code: ${r.text}`);
    const why = `the command (${process.execPath}) exited with code 3 and wrote no JUnit XML at junit.xml: is its JUnit reporter set to write there?`;
    assert.match(r.out, new RegExp(`^\\[shardwise\\] an error outside the tests \\(${why.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\): the run failed; the errors are in the report$`, 'm'), r.out);
    assert.match(r.out, /\[shardwise\] report uploaded/, 'the failed run is reported, not lost');
    const { report, tests } = testsOf(path.join(dir, 'shardwise-report', `shard-${i + 1}-of-2`, 'report.json.br'));
    assert.equal(tests.size, 0);
    assert.deepEqual(report.unattributedErrors.map((e) => e.message), [why]);
  }
  const v = await shardwise(dir, ['verify', 'shardwise-report']);
  assert.equal(v.code, 1, v.text);
  for (const f of ['a.test.js', 'b.test.js', 'c.test.js']) assert.match(v.text, new RegExp(f.replace('.', '\\.')), `verify names ${f}, planned and not run:\n${v.text}`);
});

test('a CI job cancelled (SIGTERM to shardwise run) ends the command too: it gets the signal, and its exit code is the run\'s', { timeout: 60_000 }, async () => {
  const dir = project('signal', { 'a.test.js': '' });
  // the command says when it is up, and on SIGTERM writes a mark and exits 5
  const child = "require('fs').writeFileSync('up', ''); process.on('SIGTERM', () => { require('fs').writeFileSync('got-sigterm', ''); process.exit(5); }); setInterval(() => {}, 1000)";
  const { NODE_TEST_CONTEXT, ...outer } = process.env;
  const p = spawn(process.execPath, [BIN, 'run', '--files', '*.test.js', '--', process.execPath, '-e', child], { cwd: dir, env: { ...outer, SHARDWISE_COMMIT_ID: COMMIT, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  p.stdout.on('data', (d) => { out += d; });
  p.stderr.on('data', (d) => { out += d; });
  const closed = new Promise((resolve) => p.on('close', (code, signal) => resolve({ code, signal })));
  for (let i = 0; i < 200 && !existsSync(path.join(dir, 'up')); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(existsSync(path.join(dir, 'up')), `the command started:\n${out}`);
  p.kill('SIGTERM');
  const { code } = await closed;
  assert.ok(existsSync(path.join(dir, 'got-sigterm')), `the command got SIGTERM:\n${out}`);
  assert.equal(code, 5, `the command's exit code:\n${out}`);
});

test('the command gets its shard\'s files in place of {files}, a shard with none runs nothing, and --help says how', { timeout: 60_000 }, async () => {
  const dir = project('args', { 'a.test.js': '', 'b.test.js': '', 'c.txt': '' });
  const record = "require('fs').writeFileSync('args-' + process.argv[1] + '.json', JSON.stringify(process.argv.slice(1)))";
  const runs = [];
  for (let i = 1; i <= 3; i++) runs.push(await shardwise(dir, ['run', `--shard=${i}/3`, '--files', '*.test.js', '--', process.execPath, '-e', record, String(i), '{files}', '--last']));
  const ran = [];
  for (let i = 1; i <= 3; i++) {
    if (!existsSync(path.join(dir, `args-${i}.json`))) {
      assert.equal(runs[i - 1].code, 1, 'an empty shard fails unless allowed');
      assert.match(runs[i - 1].out, new RegExp(`^\\[shardwise\\] shard ${i}/3 has no files to run: the command is not run`, 'm'));
      continue;
    }
    const argv = JSON.parse(readFileSync(path.join(dir, `args-${i}.json`), 'utf8'));
    assert.equal(argv[0], String(i));
    assert.equal(argv.at(-1), '--last', 'the files went where {files} was');
    ran.push(...argv.slice(1, -1));
    assert.equal(runs[i - 1].code, 0);
    assert.match(runs[i - 1].out, /no --junit: the files run, and no report is made/);
  }
  assert.deepEqual(ran.sort(), ['a.test.js', 'b.test.js'], 'each file on one shard; c.txt not matched');
  const v = await shardwise(dir, ['verify', 'shardwise-report']);
  assert.equal(v.code, 0, `the shard records of a run without --junit still verify: ${v.text}`);

  const help = await shardwise(dir, ['run', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.out, /^Usage: shardwise run --files <glob> \[--shard i\/n\] \[--junit <path>\]/);
  assert.match(help.out, /mocha-junit-reporter/);
  const top = await shardwise(dir, ['--help']);
  assert.match(top.out, /^ {2}run {8}Run any runner on a balanced shard of files; report its JUnit XML$/m);
  const bad = await shardwise(dir, ['run', '--shard=4/3', '--files', '*.js', '--', 'true']);
  assert.equal(bad.code, 2);
  assert.equal(bad.err.trim(), "shardwise run: --shard must be i/n with 1 <= i <= n (e.g. --shard=2/3), got '4/3'");
  const badWorkers = await shardwise(dir, ['run', '--shard=1/3', '--workers', '0', '--files', '*.js', '--', 'true']);
  assert.equal(badWorkers.code, 2);
  assert.equal(badWorkers.err.trim(), "shardwise run: --workers must be a whole number of at least 1, got '0'");
  // the files the command runs at once: the plan's makespan over them, said in the plan line
  const two = await shardwise(dir, ['run', '--shard=1/2', '--workers', '2', '--files', '*.test.js', '--', 'true']);
  assert.equal(two.code, 0, two.text);
  assert.match(two.out, /^\[shardwise\] shard 1\/2: predicted [\d.]+m?s over 2 workers, /m);
  const none = await shardwise(dir, ['run', '--files', 'nothing/*.js', '--', 'true']);
  assert.equal(none.code, 1);
  assert.match(none.out, /no file matches 'nothing\/\*\.js'/);
});
