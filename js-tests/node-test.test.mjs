// node:test, for real (issue 34, its reporter): a project written into js-tests/.out/node-test/
// (a git repository of its own; helpers/node-test-project.mjs) with nested describe/it, subtests, a skip with a reason, todos,
// a failing assertion with a diff, and a file that fails to load, run by `node --test` with
// `--test-concurrency=2` and shardwise's reporter beside the spec reporter, against the local
// service. The saved and uploaded report must hold every test node:test counted, as it counted
// them, and the broken file as an error outside the tests. At scale: a generated project of 3000
// tests (nested describes, subtests, skips, failures) saved whole. Its balanced shards
// (`shardwise node-test --shard`): node-test-shards.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from 'shardwise';
import { createServer } from '../pkg/server/index.mjs';
import { concurrencyOf, NodeTestRun } from '../pkg/node-test/translate.mjs';
import { nodeTestProject, runNode, writeProject } from './helpers/node-test-project.mjs';
import { costsRecordOf } from '../pkg/src/sources.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIR = path.join(ROOT, 'js-tests', '.out', 'node-test');
const COMMIT = '0de7e57000000000000000000000000000000000';
let service;

before(async () => {
  service = await createServer({ dataDir: path.join(ROOT, 'js-tests', '.out', 'node-test-service'), computeDelayMs: 0 });
});
after(() => service?.close());

const run = (args, env) => runNode(args, { cwd: DIR, env });

test('a node:test run with describe/it, subtests, skip, todo, a failure and a file that fails to load: saved and uploaded as node:test counted it', { timeout: 120_000 }, async () => {
  writeProject(DIR, nodeTestProject('node-test-project', { diagnostics: true }));
  const r = await run(['--test', '--test-concurrency=2',
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=shardwise/node-test', '--test-reporter-destination=stdout', 'test/'],
  { SHARDWISE_COMMIT_ID: COMMIT, SHARDWISE_BASE_URL: service.baseUrl, SHARDWISE_ACCESS_TOKEN: service.accessToken, NO_COLOR: '1', FORCE_COLOR: '0' });
  assert.equal(r.code, 1, r.text);
  assert.match(r.text, /✖ shows the total/, 'the spec reporter still prints the run');
  assert.match(r.text, /^\[shardwise\] 1 test file failed to load \(test\/broken\.test\.mjs\): the run failed; the errors are in the report$/m);
  const link = /^\[shardwise\] report uploaded: (\S+) /m.exec(r.text);
  assert.ok(link, r.text);

  const saved = api.decodeReport(new Uint8Array(readFileSync(path.join(DIR, 'shardwise-report', 'report.json.br'))));
  const uploaded = api.decodeReport(new Uint8Array(await (await fetch(`${service.baseUrl}/api/reports/${link[1].split('/').pop()}/report.json.br`)).arrayBuffer()));
  for (const report of [saved, uploaded]) {
    assert.deepEqual(api.validateReport(report), []);
    assert.equal(report.category, 'node-test');
    assert.equal(report.testRunner?.version, process.versions.node);
    const tests = [];
    const walk = (s, path) => {
      for (const t of s.tests ?? []) tests.push({ title: [...path, t.title].join(' › '), file: t.location?.file, line: t.location?.line, status: t.attempts[0].status, annotations: (t.attempts[0].annotations ?? []).map((a) => `${a.type}${a.description ? `: ${a.description}` : ''}`), error: t.attempts[0].errors?.[0]?.message });
      for (const c of s.suites ?? []) walk(c, c.type === 'file' ? path : [...path, c.title]);
    };
    walk(report, []);
    const by = Object.fromEntries(tests.map((t) => [t.title, t]));
    assert.deepEqual(Object.keys(by).sort(), [
      'a slow one', 'cart › adds an item', 'cart › coupons › applies one', 'cart › coupons › refuses an expired one',
      'cart › pays by card', 'cart › pays by invoice', 'cart › shows the total',
      'search', 'search › finds by title', 'search › finds nothing', 'search › ranks by date',
    ].sort(), 'every test node:test counted, with its suites; no suite and no file as a test');
    assert.equal(by['cart › adds an item'].status, 'passed');
    // its t.diagnostic() message, with it and with no other test (they follow its pass)
    assert.deepEqual(by['cart › adds an item'].annotations, ['diagnostic: stock checked']);
    assert.deepEqual(by['search › finds by title'].annotations, ['diagnostic: index warm', 'diagnostic: 3 hits']);
    assert.deepEqual(tests.filter((t) => t.annotations.some((a) => a.startsWith('diagnostic'))).map((t) => t.title).sort(), ['cart › adds an item', 'search › finds by title']);
    assert.deepEqual([by['cart › adds an item'].file, by['cart › adds an item'].line], ['test/cart.test.mjs', 4]);
    assert.equal(by['cart › shows the total'].status, 'failed');
    assert.match(by['cart › shows the total'].error, /Expected values to be strictly deep-equal:\n\+ actual - expected/);
    assert.deepEqual([by['cart › pays by card'].status, by['cart › pays by card'].annotations], ['skipped', ['skip']]);
    assert.deepEqual([by['cart › pays by invoice'].status, by['cart › pays by invoice'].annotations], ['skipped', ['todo']]);
    assert.deepEqual([by['search › finds nothing'].status, by['search › finds nothing'].annotations], ['skipped', ['skip: index not built']]);
    assert.deepEqual([by['search › ranks by date'].status, by['search › ranks by date'].annotations], ['skipped', ['todo: needs dates']]);
    assert.deepEqual(report.unattributedErrors.map((e) => e.location?.file), ['test/broken.test.mjs']);
    assert.match(report.unattributedErrors[0].message, /does-not-exist\.mjs/);
    // each file's cost beyond its tests, for the planner; the run's parallel files
    const costs = costsRecordOf(report);
    assert.equal(costs.runner, 'node-test');
    assert.equal(costs.workers, 2);
    assert.deepEqual(Object.keys(costs.files).sort(), ['test/broken.test.mjs', 'test/cart.test.mjs', 'test/search.test.mjs']);
  }
});

test('Node >= 21 names a globbed file relative to its working directory: its own test is the file (its cost, a failure to load), not a test', () => {
  // node --test 'test/**/*.test.mjs' on Node 22: a file's own test and its stderr carry the name as
  // globbed; its tests' events the absolute path (node:test reads it from their call site)
  const cwd = '/repo/pkg';
  const tests = [];
  const builder = { addTest: (t) => tests.push(t) - 1, addAttempt: (h, a) => { tests[h].status = a.status; } };
  const errors = [];
  const costs = {};
  const run = new NodeTestRun(builder, { root: '/repo', cwd, environmentIdx: 0 }, {
    runError: (e, at) => errors.push([at.file, at.loaded, e.message]), fileCost: (f, ms) => { costs[f] = ms; },
  });
  const ok = '/repo/pkg/test/ok.test.mjs';
  for (const event of [
    { type: 'test:start', data: { file: ok, nesting: 0, name: 'adds', line: 2, column: 1 } },
    { type: 'test:pass', data: { file: ok, nesting: 0, name: 'adds', line: 2, column: 1, details: { duration_ms: 5 } } },
    { type: 'test:complete', data: { file: ok, nesting: 0, name: 'test/ok.test.mjs', details: { duration_ms: 120 } } },
    { type: 'test:stderr', data: { file: 'test/broken.test.mjs', message: "Error [ERR_MODULE_NOT_FOUND]: Cannot find module './gone.mjs'\n" } },
    { type: 'test:fail', data: { file: '/repo/pkg/test/broken.test.mjs', nesting: 0, name: 'test/broken.test.mjs', details: { duration_ms: 40, error: { message: 'test failed', failureType: 'testCodeFailure' } } } },
    { type: 'test:complete', data: { file: '/repo/pkg/test/broken.test.mjs', nesting: 0, name: 'test/broken.test.mjs', details: { duration_ms: 40 } } },
  ]) run.onEvent(event);
  assert.deepEqual(tests.map((t) => [t.file, t.titlePath.join(' › '), t.status]), [['pkg/test/ok.test.mjs', 'adds', 'passed']], 'the files are no tests');
  assert.deepEqual(errors, [['/repo/pkg/test/broken.test.mjs', false, "Error [ERR_MODULE_NOT_FOUND]: Cannot find module './gone.mjs'"]]);
  assert.deepEqual(costs, { [ok]: 115, '/repo/pkg/test/broken.test.mjs': 40 });
});

test('concurrencyOf reads --test-concurrency, else node:test\'s default', () => {
  assert.equal(concurrencyOf(['--test', '--test-concurrency=3'], 8), 3);
  assert.equal(concurrencyOf(['--test-concurrency', '4'], 8), 4);
  assert.equal(concurrencyOf(['--test'], 8), 7);
  assert.equal(concurrencyOf([], 1), 1);
});

test('at scale: a generated node:test project of 3000 tests in 5 files, nested describes and subtests, is saved whole', { timeout: 120_000 }, async () => {
  const dir = path.join(ROOT, 'js-tests', '.out', 'node-test-scale');
  const files = { 'package.json': '{"name":"node-test-scale","private":true,"type":"module"}\n' };
  // per file: 6 describes of 4 nested describes of 20 tests (480), and 20 tests of 5 subtests (120):
  // 600 (a file is a process of node:test's: few files keep the run short)
  const FILES = 5;
  for (let f = 0; f < FILES; f++) {
    let src = "import { describe, it, test } from 'node:test';\nimport assert from 'node:assert/strict';\n";
    for (let a = 0; a < 6; a++) {
      src += `describe('area ${a}', () => {\n`;
      for (let b = 0; b < 4; b++) {
        src += `  describe('case ${b}', () => {\n`;
        for (let c = 0; c < 20; c++) {
          const body = c === 4 && b === 0 && a === 0 && f % 2 === 0 ? "assert.equal('got', 'want')" : c === 3 ? 't.skip()' : '';
          src += `    it('checks ${c}', (t) => { ${body} });\n`;
        }
        src += '  });\n';
      }
      src += '});\n';
    }
    for (let t = 0; t < 20; t++) src += `test('flow ${t}', async (t) => {\n${[0, 1, 2, 3, 4].map((s) => `  await t.test('step ${s}', () => {});\n`).join('')}});\n`;
    files[`test/f${f}.test.mjs`] = src;
  }
  writeProject(dir, files);
  const started = Date.now();
  const r = await runNode(['--test', '--test-reporter=dot', '--test-reporter-destination=stdout',
    '--test-reporter=shardwise/node-test', '--test-reporter-destination=stdout', 'test/'],
  { cwd: dir, env: { SHARDWISE_COMMIT_ID: COMMIT, NO_COLOR: '1' } });
  const ms = Date.now() - started;
  assert.equal(r.code, 1, r.text.slice(-2000));
  assert.match(r.text, /\[shardwise\] report saved to /, "the dot reporter's last row may end without a newline");
  const report = api.decodeReport(new Uint8Array(readFileSync(path.join(dir, 'shardwise-report', 'report.json.br'))));
  assert.deepEqual(api.validateReport(report), []);
  const statuses = {};
  let count = 0;
  const walk = (s) => {
    for (const t of s.tests ?? []) {
      count++;
      statuses[t.attempts[0].status] = (statuses[t.attempts[0].status] ?? 0) + 1;
    }
    for (const c of s.suites ?? []) walk(c);
  };
  walk(report);
  // a skip in each case's 4th test; the files 0, 2 and 4 fail once
  assert.equal(count, FILES * 600);
  assert.deepEqual(statuses, { passed: FILES * 600 - FILES * 24 - 3, skipped: FILES * 24, failed: 3 });
  console.log(`# node:test at scale: 3000 tests in ${FILES} files, node --test with the reporter took ${ms} ms`);
});
