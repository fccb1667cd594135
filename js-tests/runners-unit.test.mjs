// The runner integrations' translation code in the built package, against fakes (no runner):
// Playwright's suite tree -> units and groups, runner results -> ReportBuilder calls, timings
// files and the Jest/Vitest test list (through the wasm), the shared planning flow and its
// printed line, the saved folder and the upload fallback.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, existsSync, writeFileSync, realpathSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { playwrightSuite, FakeBuilder } from './helpers/fakes.mjs';
import {
  unitsFromSuite, modeResolver, recordResult, versionAtLeast, readonlyProjects, sharedProjects, setupsOf, testIdentity, environmentFor,
} from '../pkg/playwright/translate.mjs';
import { recordFileResult, statusOf, reporterOptions as jestOptions } from '../pkg/jest/translate.mjs';
import { recordTestCase, titlePathOf } from '../pkg/vitest/translate.mjs';
import { durationsFromReport, durationsByTest, durationsByFile, testKey } from '../pkg/src/runner/timings.mjs';
import { planThisShard, shardLine, actualLines, ShardStop, SharedReason, rerunKinds, projectStarts, runnerSplitLine } from '../pkg/src/runner/plan.mjs';
import { RunCosts, jestEnvironment, jestEnvironmentMs, firstLoads } from '../pkg/src/runner/costs.mjs';
import { vitestTransforms } from '../pkg/vitest/transforms.mjs';
import { unitsFromFiles, testListFromSources, runnerSplitOf, planFiles } from '../pkg/src/runner/files.mjs';
import { suiteModules, jestAliases, sourceReader } from '../pkg/src/runner/modules.mjs';
import { AttachmentStore, saveAndUpload, readSaved } from '../pkg/src/runner/report.mjs';
import { resolveOptions, relativePosix, reportPath, testFile, outsideRootOnce, gitInfo } from '../pkg/src/runner/options.mjs';
import { addAttempt, recordNotes, distinctTitles } from '../pkg/src/runner/record.mjs';
import * as shardwise from 'shardwise';
import { ReportBuilder, validateReport } from 'shardwise';
import PlaywrightReporter from 'shardwise/playwright';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'shardwise-runners-'));

describe('Playwright suite tree -> units', () => {
  const spec = {
    projects: [
      { name: 'chromium', files: [
        { path: 'a.pw.js', items: ['a1', { describe: 'd', items: ['a2', 'a3'] }] },
        { path: 'b.pw.js', mode: 'parallel', items: ['b1', { describe: 'ser', mode: 'serial', items: ['b2', { describe: 'inner', items: ['b3'] }] }, { describe: 'def', mode: 'default', items: ['b4', 'b5'] }] },
      ] },
      { name: 'fast', fullyParallel: true, files: [{ path: 'c.pw.js', items: ['c1', 'c2'] }] },
      { name: 'setup', files: [{ path: 's.pw.js', items: ['login'] }] },
    ],
  };
  const { root, mode } = playwrightSuite(spec);
  const units = unitsFromSuite(root, { root: '/repo', mode, readonly: new Set(['setup']) });
  const byTitle = Object.fromEntries(units.map((u) => [u.titlePath.at(-1), u]));

  test('one unit per test, with the report identity (project, repo-relative file, describes + title)', () => {
    assert.equal(units.length, 10);
    assert.deepEqual(byTitle.a3.titlePath, ['d', 'a3']);
    assert.equal(byTitle.a3.file, 'a.pw.js');
    assert.equal(byTitle.a3.project, 'chromium');
    assert.equal(new Set(units.map((u) => u.id)).size, units.length, 'ids are unique');
  });
  test('a file that is not fully parallel is one indivisible group', () => {
    assert.ok(byTitle.a1.group);
    assert.equal(byTitle.a1.group, byTitle.a2.group);
    assert.equal(byTitle.a1.group, byTitle.a3.group);
  });
  test('fully parallel tests are free; a serial suite stays whole; an explicit default suite is one group', () => {
    assert.equal(byTitle.b1.group, undefined);
    assert.equal(byTitle.c1.group, undefined);
    assert.ok(byTitle.b2.group);
    assert.equal(byTitle.b2.group, byTitle.b3.group, 'nested suite inside serial stays with it');
    assert.ok(byTitle.b4.group);
    assert.equal(byTitle.b4.group, byTitle.b5.group);
    assert.notEqual(byTitle.b4.group, byTitle.b2.group);
  });
  test('setup/dependency projects are read-only and left to Playwright', () => {
    assert.equal(byTitle.login, undefined);
    assert.deepEqual([...readonlyProjects({ projects: [{ name: 'x', dependencies: ['setup'], teardown: 'clean' }, { name: 'setup' }] })], ['setup', 'clean']);
  });
  // chromium needs auth, which needs setup, torn down by cleanup; fast needs nothing
  const setupChain = () => ({
    config: { projects: [
      { name: 'chromium', dependencies: ['auth'] }, { name: 'fast' }, { name: 'auth', dependencies: ['setup'] }, { name: 'setup', teardown: 'cleanup' }, { name: 'cleanup' },
    ] },
    tree: playwrightSuite({ projects: [
      { name: 'chromium', files: [{ path: 'a.pw.js', items: ['a1'] }] },
      { name: 'fast', files: [{ path: 'c.pw.js', items: ['c1'] }] },
      { name: 'auth', files: [{ path: 'auth.pw.js', items: ['token'] }] },
      { name: 'setup', files: [{ path: 's.pw.js', items: ['login'] }] },
      { name: 'cleanup', files: [{ path: 'z.pw.js', items: ['logout'] }] },
    ] }),
  });
  test('the shard record names setup and teardown projects: their tests, and the planned tests needing a setup (through other setups too)', () => {
    const { config, tree } = setupChain();
    const planned = unitsFromSuite(tree.root, { root: '/repo', mode: tree.mode, readonly: readonlyProjects(config) });
    assert.deepEqual(planned.map((u) => u.titlePath.at(-1)), ['a1', 'c1']);
    const a1 = planned[0].id;
    assert.deepEqual(sharedProjects(config, tree.root, planned, '/repo'), [
      { project: 'auth', units: [JSON.stringify(['auth', 'auth.pw.js', 'token'])], dependents: [a1] },
      { project: 'cleanup', units: [JSON.stringify(['cleanup', 'z.pw.js', 'logout'])] },
      { project: 'setup', units: [JSON.stringify(['setup', 's.pw.js', 'login'])], dependents: [a1] },
    ]);
    assert.deepEqual(sharedProjects({ projects: [{ name: 'fast' }] }, tree.root, planned, '/repo'), []);
    // --no-deps: Playwright leaves the dependencies out of the suite; their dependents are still named
    const bare = playwrightSuite({ projects: [{ name: 'chromium', files: [{ path: 'a.pw.js', items: ['a1'] }] }, { name: 'fast', files: [{ path: 'c.pw.js', items: ['c1'] }] }] });
    assert.deepEqual(sharedProjects(config, bare.root, planned, '/repo'), [
      { project: 'auth', units: [], dependents: [a1], leftOut: true },
      { project: 'setup', units: [], dependents: [a1], leftOut: true },
    ]);
    // a dependency Playwright runs with no test (its project suite there, empty): not left out
    const empty = playwrightSuite({ projects: [{ name: 'setup', files: [] }, { name: 'auth', files: [] }, { name: 'chromium', files: [{ path: 'a.pw.js', items: ['a1'] }] }] });
    assert.deepEqual(sharedProjects(config, empty.root, planned, '/repo'), [
      { project: 'auth', units: [], dependents: [a1] },
      { project: 'setup', units: [], dependents: [a1] },
    ]);
  });
  test('the planner\'s setups: each project\'s tests, the planned tests that make a shard run it (a teardown: its setup\'s), its level and whether it tears down', () => {
    const { config, tree } = setupChain();
    const readonly = readonlyProjects(config);
    const planned = unitsFromSuite(tree.root, { root: '/repo', mode: tree.mode, readonly });
    const sharedTests = tree.root.allTests().map((t) => ({ ...testIdentity(t, { root: '/repo' }) })).filter((t) => readonly.has(t.project));
    const setups = setupsOf(config, sharedProjects(config, tree.root, planned, '/repo'), sharedTests);
    const a1 = planned[0].id;
    assert.deepEqual(setups.map(({ id, dependents, level, teardown, tests }) => ({ id, dependents, level, teardown, tests: tests.map((t) => t.titlePath.at(-1)) })), [
      { id: 'auth', dependents: [a1], level: 1, teardown: false, tests: ['token'] },
      { id: 'cleanup', dependents: [a1], level: 0, teardown: true, tests: ['logout'] },
      { id: 'setup', dependents: [a1], level: 0, teardown: false, tests: ['login'] },
    ]);
  });
  test('the same input gives the same ids and groups (every shard computes the same units)', () => {
    const again = playwrightSuite(spec);
    const units2 = unitsFromSuite(again.root, { root: '/repo', mode: again.mode, readonly: new Set(['setup']) });
    assert.deepEqual(units2.map((u) => [u.id, u.group]), units.map((u) => [u.id, u.group]));
  });
  test('without testRun.mode, Playwright\'s suite mode field and fullyParallel are used', () => {
    const m = modeResolver({}, { fullyParallel: false });
    const project = { type: 'project', parent: undefined, project: () => ({ fullyParallel: true }) };
    const file = { type: 'file', parent: project, _parallelMode: 'none' };
    const ser = { type: 'describe', parent: file, _parallelMode: 'serial' };
    assert.equal(m(ser), 'serial');
    assert.equal(m(file), 'parallel');
    assert.equal(modeResolver({ mode: () => 'serial' })({}), 'serial');
  });
});

test('version gate: balancing needs Playwright >= 1.62', () => {
  assert.ok(versionAtLeast('1.62.0', '1.62'));
  assert.ok(versionAtLeast('1.65.1', '1.62'));
  assert.ok(versionAtLeast('2.0.0', '1.62'));
  assert.ok(!versionAtLeast('1.61.9', '1.62'));
  assert.ok(!versionAtLeast('1.9.0', '1.62'));
  assert.ok(!versionAtLeast(undefined, '1.62'));
});

test('Playwright result -> addTest/addAttempt/addAttachment on the builder', () => {
  const { root } = playwrightSuite({ projects: [{ name: 'chromium', files: [{ path: 'e2e/a.pw.js', items: [{ describe: 'login', items: ['works'] }] }] }] });
  const t = root.allTests()[0];
  Object.assign(t, { expectedStatus: 'passed', timeout: 30000, tags: ['@smoke'] });
  const folder = tmp();
  const b = new FakeBuilder({ category: 'playwright', commitId: 'c'.repeat(40) });
  const store = new AttachmentStore(folder);
  const result = {
    status: 'failed', startTime: new Date(1700000000000), duration: 1234.6, parallelIndex: 1,
    annotations: [{ type: 'issue', description: 'x' }],
    errors: [{ message: 'boom', stack: 'Error: boom', location: { file: '/repo/e2e/a.pw.js', line: 3, column: 7 } }],
    steps: [{ title: 'click', duration: 5, steps: [] }],
    stdout: ['hello', Buffer.from([0xff, 0x00])], stderr: ['warn'],
    attachments: [{ name: 'shot', contentType: 'image/png', body: Buffer.from('PNG') }, { name: 'trace', contentType: 'application/zip', path: '/x/trace.zip' }, { name: 'gone', contentType: 'text/plain' }],
  };
  recordResult(b, { root: '/repo', envIndex: new Map([['chromium', 0]]), store, readFile: () => Buffer.from('ZIP') }, t, result);
  const [[, added], ...rest] = b.calls.filter((c) => c[0] !== 'addEnvironment');
  assert.deepEqual(added, { titlePath: ['login', 'works'], file: 'e2e/a.pw.js', line: 1, column: 5, tags: ['@smoke'] });
  const attempt = rest.find((c) => c[0] === 'addAttempt')[2];
  assert.equal(attempt.status, 'failed');
  assert.equal(attempt.expectedStatus, 'passed');
  assert.equal(attempt.duration, 1235);
  assert.equal(attempt.startTimestamp, 1700000000000);
  assert.deepEqual(attempt.errors[0].location, { file: 'e2e/a.pw.js', line: 3, column: 7 });
  assert.deepEqual(attempt.stdio, [{ stream: 1, dts: 0, text: 'hello' }, { stream: 1, dts: 0, buffer: '/wA=' }, { stream: 2, dts: 0, text: 'warn' }]);
  assert.deepEqual(attempt.steps, [{ title: 'click', duration: 5 }]);
  assert.equal(attempt.attachments.length, 2, 'attachments without body or path are skipped');
  for (const a of attempt.attachments) assert.ok(existsSync(path.join(folder, 'attachments', a.id)), 'bytes saved at once');
  assert.deepEqual(store.list().map((a) => a.contentType), ['image/png', 'application/zip']);
});

test('environmentFor: project -> environment with OS data and scalar metadata', () => {
  const os = { osName: 'Linux', osVersion: '6', osArch: 'x64' };
  assert.deepEqual(environmentFor({ name: '', metadata: { a: 1, b: { no: 1 } }, use: { browserName: 'chromium' } }, os),
    { name: 'default', systemData: os, metadata: { a: 1, browserName: 'chromium' } });
});

test('Jest file result -> builder calls (statuses, retries, locations)', () => {
  const b = new FakeBuilder({ category: 'jest' });
  recordFileResult(b, { root: '/repo', environmentIdx: 0 }, {
    testFilePath: '/repo/t/a.spec.js', perfStats: { start: 100 },
    testResults: [
      { ancestorTitles: ['A'], title: 'ok', status: 'passed', duration: 12, location: { line: 3, column: 0 } },
      { ancestorTitles: [], title: 'flaky', status: 'passed', duration: 5, retryReasons: ['first try failed'], startAt: 200 },
      { ancestorTitles: [], title: 'todo', status: 'todo' },
      { ancestorTitles: [], title: 'bad', status: 'failed', duration: 1, failureMessages: ['Error: x'] },
    ],
  });
  const tests = b.build().tests;
  assert.deepEqual(tests.map((t) => [t.file, t.titlePath.join('>'), t.attempts.map((a) => a.status).join(',')]), [
    ['t/a.spec.js', 'A>ok', 'passed'], ['t/a.spec.js', 'flaky', 'failed,passed'], ['t/a.spec.js', 'todo', 'skipped'], ['t/a.spec.js', 'bad', 'failed'],
  ]);
  assert.equal(tests[0].line, 3);
  assert.equal(tests[0].column, 1, 'columns are 1-based');
  assert.equal(tests[2].attempts[0].expectedStatus, 'skipped');
  assert.deepEqual(tests[3].attempts[0].errors, [{ message: 'Error: x' }]);
  assert.equal(statusOf('disabled'), 'skipped');
  assert.deepEqual(jestOptions({ reporters: ['default', ['/x/node_modules/shardwise/jest/index.mjs', { timingsFile: 't.json' }]] }), { timingsFile: 't.json' });
});

test('Vitest test case -> builder calls', () => {
  const module = { type: 'module', moduleId: '/repo/v/a.spec.js' };
  const suite = { type: 'suite', name: 'S', parent: module };
  const mk = (name, state, diag, extra = {}) => ({
    type: 'test', name, parent: suite, module, project: { name: '' }, location: { line: 4, column: 3 }, tags: [], options: {},
    result: () => ({ state, errors: state === 'failed' ? [{ message: 'no', stack: 'at x' }] : undefined }),
    diagnostic: () => diag, logs: () => [{ content: 'hi', type: 'stdout', time: 1010 }], ...extra,
  });
  const b = new FakeBuilder({ category: 'vitest' });
  const ctx = { root: '/repo', envIndex: new Map([['default', 0]]) };
  assert.equal(recordTestCase(b, ctx, mk('p', 'pending', undefined)), false);
  recordTestCase(b, ctx, mk('ok', 'passed', { duration: 7.4, startTime: 1000, retryCount: 1 }));
  recordTestCase(b, ctx, mk('bad', 'failed', { duration: 3, startTime: 1000, retryCount: 0 }));
  const [ok, bad] = b.build().tests;
  assert.deepEqual(titlePathOf(mk('x', 'passed')), ['S', 'x']);
  assert.equal(ok.file, 'v/a.spec.js');
  assert.deepEqual(ok.attempts.map((a) => a.status), ['failed', 'passed']);
  assert.equal(ok.attempts[1].duration, 7);
  assert.deepEqual(ok.attempts[1].stdio, [{ stream: 1, dts: 10, text: 'hi' }]);
  assert.deepEqual(bad.attempts[0].errors, [{ message: 'no', stack: 'at x' }]);
});

describe('a test that never started has a start, never 0 (the year 1970)', () => {
  test('Jest: a skipped test starts with its file; a file Jest could not run with its end, else now', () => {
    const b = new FakeBuilder({ category: 'jest' });
    const skipped = { ancestorTitles: [], title: 'skipped', status: 'pending', startAt: null, duration: null };
    recordFileResult(b, { root: '/repo', environmentIdx: 0 }, {
      testFilePath: '/repo/a.spec.js', perfStats: { start: 900, end: 2000 },
      testResults: [{ ancestorTitles: [], title: 'ran', status: 'passed', duration: 20, startAt: 1000 }, skipped],
    });
    recordFileResult(b, { root: '/repo', environmentIdx: 0, now: () => 5000 }, { testFilePath: '/repo/b.spec.js', perfStats: { start: 0, end: 0 }, testResults: [skipped] });
    recordFileResult(b, { root: '/repo', environmentIdx: 0 }, { testFilePath: '/repo/c.spec.js', perfStats: { start: 0, end: 3000 }, testResults: [skipped] });
    assert.deepEqual(b.build().tests.map((t) => [t.file, t.titlePath.join(' > '), t.attempts.map((a) => a.startTimestamp)]), [
      ['a.spec.js', 'ran', [1000]], ['a.spec.js', 'skipped', [900]], ['b.spec.js', 'skipped', [5000]], ['c.spec.js', 'skipped', [3000]],
    ]);
  });

  test('Vitest: a declared skip or todo starts with its suite, else its module, else when its result arrived; one that skipped itself with its attempt', () => {
    const module = { type: 'module', moduleId: '/repo/v/a.spec.js', task: { result: { startTime: 500 } } };
    const suite = { type: 'suite', name: 'S', parent: module, task: { result: { startTime: 600 } } };
    const mk = (name, parent, state, diag, extra = {}) => ({
      type: 'test', name, parent, module, project: { name: '' }, options: {},
      result: () => ({ state }), diagnostic: () => diag, logs: () => [], ...extra,
    });
    const b = new FakeBuilder({ category: 'vitest' });
    const ctx = { root: '/repo', envIndex: new Map([['default', 0]]), now: () => 7000 };
    recordTestCase(b, ctx, mk('ran', suite, 'passed', { duration: 20, startTime: 1000 }));
    recordTestCase(b, ctx, mk('in suite', suite, 'skipped', undefined));
    recordTestCase(b, ctx, mk('in module', module, 'skipped', undefined));
    recordTestCase(b, ctx, mk('skips itself', module, 'skipped', undefined, { attempts: () => [{ state: 'skipped', startTime: 1100, duration: 0 }] }));
    const lone = { type: 'module', moduleId: '/repo/v/b.spec.js' };
    recordTestCase(b, ctx, mk('todo', lone, 'skipped', undefined, { module: lone }));
    assert.deepEqual(b.build().tests.map((t) => [t.titlePath.join(' > '), t.attempts.map((a) => a.startTimestamp)]), [
      ['S > ran', [1000]], ['S > in suite', [600]], ['in module', [500]], ['skips itself', [1100]], ['todo', [7000]],
    ]);
  });
});

describe('tests the runner keeps apart stay apart in the report', () => {
  test('distinctTitles: the 2nd, 3rd, ... test of a title path is numbered, passing over a number in use', () => {
    const distinct = distinctTitles();
    const paths = [['t'], ['t'], ['d', 't'], ['d', 't'], ['d', 't [3]'], ['d', 't'], ['t']];
    assert.deepEqual(paths.map((p) => distinct(p).join(' > ')), ['t', 't [2]', 'd > t', 'd > t [2]', 'd > t [3]', 'd > t [4]', 't [3]']);
  });

  test('Rust discover numbers the titles it reads as the reporters number them', async () => {
    const shardwise = await import('shardwise');
    const dir = tmp();
    const source = "test('t', () => {}); test('t', () => {});\ndescribe('d', () => { test('t'); });\ndescribe('d', () => { test('t'); test('t [3]'); test('t'); });\ntest('t');";
    writeFileSync(path.join(dir, 'a.spec.js'), source);
    const listed = testListFromSources({ api: shardwise, units: unitsFromFiles([{ path: path.join(dir, 'a.spec.js'), environment: 'jest' }], dir), category: 'jest', commitId: 'c'.repeat(40) });
    const fromSource = [];
    const walk = (s, t) => { for (const x of s.tests ?? []) fromSource.push([...t, x.title]); for (const c of s.suites ?? []) walk(c, c.type === 'file' ? t : [...t, c.title]); };
    for (const s of listed.report.suites) walk(s, []);
    const distinct = distinctTitles();
    const asReported = [['t'], ['t'], ['d', 't'], ['d', 't'], ['d', 't [3]'], ['d', 't'], ['t']].map((p) => distinct(p));
    assert.deepEqual(fromSource.map((p) => p.join(' > ')).sort(), asReported.map((p) => p.join(' > ')).sort());
    assert.equal(listed.tests, 7, 'seven tests asked for, none merged');
  });

  test('Jest: each entry of a file\'s testResults is a test (its retries are in retryReasons)', () => {
    const b = new FakeBuilder({ category: 'jest' });
    const each = (n) => ({ ancestorTitles: ['each'], title: 'same title', status: 'passed', duration: 20, startAt: 1000 + n * 20 });
    const file = (f) => ({ testFilePath: `/repo/${f}`, perfStats: { start: 900, end: 2000 }, testResults: [each(0), each(1), { ...each(2), retryReasons: ['flaky'] }] });
    recordFileResult(b, { root: '/repo', environmentIdx: 0 }, file('a.spec.js'));
    recordFileResult(b, { root: '/repo', environmentIdx: 0 }, file('b.spec.js'));
    assert.deepEqual(b.build().tests.map((t) => [t.file, t.titlePath.join(' > '), t.attempts.map((a) => a.status).join(',')]), [
      ['a.spec.js', 'each > same title', 'passed'], ['a.spec.js', 'each > same title [2]', 'passed'], ['a.spec.js', 'each > same title [3]', 'failed,passed'],
      ['b.spec.js', 'each > same title', 'passed'], ['b.spec.js', 'each > same title [2]', 'passed'], ['b.spec.js', 'each > same title [3]', 'failed,passed'],
    ]);
  });

  test('Jest: a retried test is flaky from its invocations alone (Jest keeps retryReasons only with logErrorsBeforeRetry)', () => {
    const b = new FakeBuilder({ category: 'jest' });
    const r = (title, more) => ({ ancestorTitles: [], title, status: 'passed', duration: 5, startAt: 1000, ...more });
    recordFileResult(b, { root: '/repo', environmentIdx: 0 }, { testFilePath: '/repo/r.spec.js', perfStats: { start: 900, end: 2000 }, testResults: [
      r('twice', { invocations: 2, retryReasons: [] }),
      r('kept', { invocations: 2, retryReasons: ['Error: boom'] }),
      r('three', { invocations: 3 }),
      r('once', { invocations: 1 }),
      r('odd', { invocations: 'x' }),
    ] });
    const tests = b.build().tests;
    assert.deepEqual(tests.map((t) => [t.titlePath[0], t.attempts.map((a) => a.status).join(',')]), [
      ['twice', 'failed,passed'], ['kept', 'failed,passed'], ['three', 'failed,failed,passed'], ['once', 'passed'], ['odd', 'passed'],
    ]);
    assert.equal(tests[1].attempts[0].errors[0].message, 'Error: boom');
    assert.match(tests[0].attempts[0].errors[0].message, /logErrorsBeforeRetry: true/);
  });

  test('Vitest: numbered in the module\'s declaration order, whatever order the results arrive in', () => {
    const module = { type: 'module', moduleId: '/repo/v/a.spec.js' };
    const suite = { type: 'suite', name: 'each', parent: module };
    const mk = (id, name, parent) => ({
      id, type: 'test', name, parent, module, project: { name: '' }, options: {},
      result: () => ({ state: 'passed' }), diagnostic: () => ({ duration: 20, startTime: 1000 + Number(id.slice(1)) }), logs: () => [],
    });
    const tests = [mk('t1', 'same title', suite), mk('t2', 'same title', suite), mk('t3', 'same title', suite), mk('t4', 'same title', module)];
    module.children = { *allTests() { yield* tests; } };
    const b = new FakeBuilder({ category: 'vitest' });
    const ctx = { root: '/repo', envIndex: new Map([['default', 0]]) };
    for (const i of [2, 0, 3, 1]) recordTestCase(b, ctx, tests[i]);
    const byTitle = Object.fromEntries(b.build().tests.map((t) => [t.titlePath.join(' > '), t.attempts.map((a) => a.startTimestamp)]));
    assert.deepEqual(byTitle, { 'each > same title': [1001], 'each > same title [2]': [1002], 'each > same title [3]': [1003], 'same title': [1004] });
  });
});

describe('timings (a report document) -> durations', () => {
  const report = {
    environments: [{ name: 'chromium' }, { name: 'firefox' }],
    suites: [{ type: 'file', title: 'a.pw.js', location: { file: 'a.pw.js', line: 0, column: 0 },
      tests: [{ title: 't1', attempts: [{ environmentIdx: 0, duration: 100 }, { environmentIdx: 1, duration: 300 }] }],
      suites: [{ type: 'suite', title: 'd', tests: [{ title: 't2', attempts: [{ duration: 50 }, { duration: 25 }] }, { title: 'new', attempts: [] }] }] }],
  };
  test('per test and environment (retries summed), tests without data absent', () => {
    assert.equal(durationsFromReport(report, shardwise).length, 3);
    const m = durationsByTest(report, shardwise);
    assert.equal(m.get(testKey('chromium', 'a.pw.js', ['t1'])), 100);
    assert.equal(m.get(testKey('firefox', 'a.pw.js', ['t1'])), 300);
    assert.equal(m.get(testKey('chromium', 'a.pw.js', ['d', 't2'])), 75);
    assert.equal(m.get(testKey('chromium', 'a.pw.js', ['d', 'new'])), undefined);
  });
  test('per file for file-sharding runners', () => {
    assert.deepEqual([...durationsByFile(report, shardwise)], [['a.pw.js', 475]]);
  });
});

describe('Jest/Vitest files -> the test list of the durations exchange', () => {
  test('one unit per file, with every environment it runs in', () => {
    const units = unitsFromFiles([{ path: '/r/a.js', environment: 'e1' }, { path: '/r/a.js', environment: 'e2' }, { path: '/r/b.js', environment: 'e1' }], '/r');
    assert.deepEqual(units.map(({ id, environments }) => [id, environments]), [['a.js', ['e1', 'e2']], ['b.js', ['e1']]]);
  });
  test('the tests each source declares (Rust discover), as the reporters name them', async () => {
    const shardwise = await import('shardwise');
    const dir = tmp();
    writeFileSync(path.join(dir, 'a.spec.js'), "describe('A', () => { test('one', () => {}); describe(`in`, () => { it('two', () => {}); }); });\ntest.each([1])('n %i', () => {});");
    writeFileSync(path.join(dir, 'b.spec.js'), "const t = 'x'; test(t, () => {});");
    const units = unitsFromFiles([
      { path: path.join(dir, 'a.spec.js'), environment: 'jest' }, { path: path.join(dir, 'b.spec.js'), environment: 'jest' },
      { path: path.join(dir, 'gone.spec.js'), environment: 'jest' },
    ], dir);
    const listed = testListFromSources({ api: shardwise, units, category: 'jest', commitId: 'c'.repeat(40) });
    assert.deepEqual({ tests: listed.tests, unnamed: listed.unnamed, files: listed.files }, { tests: 2, unnamed: 2, files: 1 });
    assert.deepEqual(listed.report.environments.map((e) => e.name), ['jest']);
    assert.equal(durationsFromReport(listed.report, shardwise).length, 0, 'no attempts: a list, not durations');
    const titles = [];
    const walk = (s, t) => { for (const x of s.tests ?? []) titles.push([...t, x.title].join(' > ')); for (const c of s.suites ?? []) walk(c, c.type === 'file' ? t : [...t, c.title]); };
    for (const s of listed.report.suites) walk(s, [s.location?.file ?? s.title]);
    assert.deepEqual(titles.sort(), ['a.spec.js > A > in > two', 'a.spec.js > A > one']);
  });
});

describe('planThisShard: the shared flow and its one line', () => {
  // the package itself: the planner, not a stand-in for it
  const api = shardwise;
  const units = unitsFromFiles(['/r/a.js', '/r/b.js', '/r/c.js', '/r/d.js'], '/r');
  const known = { 'a.js': 4000, 'b.js': 1000, 'c.js': 3000 };
  const getDurations = async () => ({ durationOf: (u) => known[u.file], source: 'timings file t.json' });

  test('durations flow into the plan; the line names shard, times, estimates and fingerprint', async () => {
    const p = await planThisShard({ api, units, shardIndex: 2, shardCount: 2, getDurations, unitLabel: 'files' });
    const [line, note, ...rest] = p.line.split('\n');
    // d.js is estimated as the mean of the others (2667 ms): 10.7 s over two shards
    assert.match(line, /^\[shardwise\] shard 2\/2: predicted \S+, makespan 5\.7s, lower bound 5\.3s, 1 of 4 files estimated \(durations: timings file t\.json; costs: (?:unknown runner )?defaults\), fingerprint [0-9a-f]+$/);
    assert.equal(p.plan.estimated, 1);
    // over a fifth of the units estimated: a second line says the split is partly a guess
    assert.equal(note, '[shardwise] 1 of 4 files (25%) had no duration and were estimated: the split is a guess for them. A timings file from a recent full run, or a service that has seen one, gives them durations');
    assert.deepEqual(rest, []);
    const most = await planThisShard({ api, units, shardIndex: 2, shardCount: 2, getDurations: async () => ({ durationOf: (u) => (u.file === 'd.js' ? undefined : 1000), source: 's' }) });
    assert.equal(most.line.split('\n').length, 2);
    const none = await planThisShard({ api, units: units.slice(0, 3), shardIndex: 2, shardCount: 2, getDurations });
    assert.equal(none.line.split('\n').length, 1, 'none estimated: one line');
  });

  test('the end of a shard: its wall and its tests\' own time against their predictions, and one line naming the cause', () => {
    const at = (actualMs, testsMs, expected, predictedMs = 4000) => actualLines({ shardIndex: 2, shardCount: 3, predictedMs, actualMs, testsMs, expected });
    const known = { bodiesMs: 3000, estimated: 0, costs: 'learned from a run: 8 files\' costs measured, start-up from its wall time' };
    assert.deepEqual(at(4200), ['[shardwise] shard 2/3 took 4.2s (predicted 4.0s, +5%)']);
    assert.deepEqual(at(4200, 3100, known), ['[shardwise] shard 2/3 took 4.2s (predicted 4.0s, +5%): its tests\' own time 3.1s (predicted 3.0s), the rest 1.1s start-up, files and workers (predicted 1.0s)']);
    // the tests took what was predicted, the rest did not: the costs, not the durations
    const costs = at(9000, 3100, known);
    assert.equal(costs.length, 2);
    assert.match(costs[1], /^\[shardwise\] shard 2\/3: its tests took about what was predicted, the rest did not: the costs of start-up, files and workers \(learned from a run: .*\) took 5\.9s against 1\.0s predicted\. They were learned on a run of another size or machine/);
    assert.match(at(9000, 3100, { ...known, costs: 'jest defaults' })[1], /\(jest defaults\) took 5\.9s against 1\.0s predicted\. A timings file that is a saved report of a full run/);
    // with workers, the tests' own time is shared over them: the rest is the wall less that share
    // (a shard of 2 workers: 28.0 s of tests in a 22.7 s wall leaves 8.7 s, not nothing)
    const two = { bodiesMs: 34400, testsMs: 34400, estimated: 0, costs: 'learned from a run', workers: 2 };
    const chain = actualLines({ shardIndex: 1, shardCount: 4, predictedMs: 29100, actualMs: 22700, testsMs: 28000, expected: two });
    assert.equal(chain[0], '[shardwise] shard 1/4 took 22.7s (predicted 29.1s, -22%): its tests\' own time 28.0s over 2 workers (predicted 34.4s), the rest 8.7s start-up, files and workers (predicted 11.9s)');
    // 22% off: within a busy machine's noise, no second line
    assert.equal(chain.length, 1);
    // the tests 24% under (the same shard another round): most of the miss, said as the noise of
    // one run's durations, not as costs that were off, nor as stale durations
    const noisy = actualLines({ shardIndex: 1, shardCount: 4, predictedMs: 29100, actualMs: 21600, testsMs: 26000, expected: two });
    assert.equal(noisy.length, 2);
    assert.match(noisy[1], /^\[shardwise\] shard 1\/4: most of the miss was its tests: they took 26\.0s against 34\.4s predicted \(-24%\), within what one run's durations vary by \(under 25%: not stale\)\. .*a timings folder of several runs \(each test at its mean\)/);
    assert.doesNotMatch(noisy.join('\n'), /stale\. Refresh|took about what was predicted/);
    // the tests took 2 s more: stale durations, said once
    const stale = at(9000, 5000, known);
    assert.equal(stale.length, 2);
    assert.match(stale[1], /^\[shardwise\] shard 2\/3: its tests took 5\.0s against 3\.0s predicted \(\+67%\): the durations it planned with are stale\. Refresh the timings file/);
    assert.match(at(2500, 1000, known)[1], /\(-67%\)/);
    // the tests took half their predicted time but the shard still ended when predicted (costs
    // predicted too low hid it): the durations moved all the same, and the next split rests on them
    const hidden = at(4100, 1500, known);
    assert.equal(hidden.length, 2);
    assert.match(hidden[1], /its tests took 1\.5s against 3\.0s predicted \(-50%\): the durations it planned with are stale/);
    // the tests a fifth slower on a shard that ended when predicted: a busy machine's noise, no line
    assert.equal(at(4100, 3600, known).length, 1);
    // never the stale line without durations: the estimate is said to be one
    const none = at(9000, 5000, { bodiesMs: 0, estimated: 4, costs: 'jest defaults' });
    assert.equal(none.length, 2);
    assert.match(none[1], /none of its tests had a duration, so its prediction was an estimate/);
    assert.doesNotMatch(none.join('\n'), /stale/);
    // under 1 s off, or under 25%: noise, one line
    assert.equal(at(1900, 1800, { bodiesMs: 1000, estimated: 0 }, 1000).length, 1, '+90% but under 1 s');
    assert.equal(at(4900, 3600, known).length, 1, '+22.5%');
  });
  test('every shard derives the same plan, and the shards are disjoint and complete', async () => {
    const parts = await Promise.all([1, 2, 3].map((i) => planThisShard({ api, units, shardIndex: i, shardCount: 3, getDurations })));
    assert.equal(new Set(parts.map((p) => p.plan.fingerprint)).size, 1);
    const all = parts.flatMap((p) => [...p.mine]);
    assert.deepEqual(all.sort(), units.map((u) => u.id).sort());
  });
  test('a shard with an estimated file expects its tests to take what the plan counted: no stale line when they do', async () => {
    // the runner fixture's shape: files known at 3.2, 3.8, 3.4 and 0.5 s, and one whose
    // `test.each` titles no listing finds (estimated: the mean of the known, 2.7 s). The shard
    // that ran it beside the 3.2 s file was told its tests would take 6.4 s (the estimate at its
    // own file's mean), took 3.8 s, and said its durations were stale
    const five = unitsFromFiles(['/r/alpha.js', '/r/bravo.js', '/r/charlie.js', '/r/delta.js', '/r/foxtrot.js'], '/r');
    const ms = { 'alpha.js': 3200, 'bravo.js': 3800, 'charlie.js': 3400, 'delta.js': 500 };
    const durations = async () => ({ durationOf: (u) => ms[u.file], source: 'timings file t.json' });
    const parts = await Promise.all([1, 2, 3].map((i) => planThisShard({ api, units: five, shardIndex: i, shardCount: 3, getDurations: durations, unitLabel: 'files' })));
    const withEstimate = parts.find((p) => p.mine.has(five[4].id));
    const estimate = Math.round((3200 + 3800 + 3400 + 500) / 4);
    const knownMs = [...withEstimate.mine].filter((id) => id !== five[4].id).reduce((a, id) => a + ms[five.find((u) => u.id === id).file], 0);
    assert.equal(withEstimate.expected.estimated, 1);
    assert.equal(withEstimate.expected.bodiesMs, knownMs, 'the known durations alone');
    assert.equal(withEstimate.expected.testsMs, knownMs + estimate, 'the estimate as the plan made it');
    assert.equal(withEstimate.expected.testsMs, withEstimate.shard.testsMs);
    for (const p of parts) assert.equal(p.expected.testsMs, p.shard.testsMs);
    // the shard's tests took what was predicted, the estimated file its mean: one line
    const lines = actualLines({ shardIndex: withEstimate.shard.index, shardCount: 3, predictedMs: withEstimate.shard.predictedMs, actualMs: withEstimate.shard.predictedMs + 300, testsMs: knownMs + estimate - 200, expected: withEstimate.expected });
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0], new RegExp(`its tests' own time \\S+ \\(predicted ${(withEstimate.expected.testsMs / 1000).toFixed(1)}s\\)`));
  });
  test('durations this shard alone may lack (the service, a timings file): the shard stops, one line, no plan of its own', async () => {
    for (const e of [new Error('service down'), Object.assign(new Error('HTTP 401'), { code: 'HTTP_STATUS' })]) {
      await assert.rejects(planThisShard({ api, units, shardIndex: 1, shardCount: 2, getDurations: async () => { throw e; } }), (stop) => {
        assert.ok(stop instanceof ShardStop);
        assert.match(stop.line, /^\[shardwise\] shard 1\/2 stopped: durations unavailable \((HTTP_STATUS: )?(service down|HTTP 401)\)\. .* runs nothing and fails\. Re-run this shard: the same commit and run id give the same plan\.$/);
        return true;
      });
    }
  });
  test('durations no shard has (nothing configured): the estimate-only plan, the same on every shard, said in the line', async () => {
    const none = async () => { throw new SharedReason('no timingsFile and no SHARDWISE_BASE_URL / SHARDWISE_ACCESS_TOKEN'); };
    const parts = await Promise.all([1, 2].map((i) => planThisShard({ api, units, shardIndex: i, shardCount: 2, getDurations: none })));
    assert.match(parts[0].line, /durations: none \(no timingsFile .*\); estimates only, the same plan on every shard/);
    assert.equal(parts[0].plan.estimated, 4);
    assert.equal(parts[0].record.fingerprint, parts[1].record.fingerprint);
  });
  test('the shard record names the plan, every unit and this shard\'s', async () => {
    const p = await planThisShard({ api, units, shardIndex: 2, shardCount: 2, getDurations, unitLabel: 'files' });
    assert.deepEqual(p.record, { fingerprint: p.plan.fingerprint, shardIndex: 2, shardCount: 2, units: units.map((u) => u.id), assigned: [...p.mine] });
  });
  test('a shard with nothing to run says so, and stops unless allowEmptyShards', async () => {
    const plan = shardwise.planShards({ units: [{ id: 'x' }], shardCount: 2 });
    const line = shardLine({ plan, shardIndex: 2, shardCount: 2, unitCount: 1, source: 's' });
    assert.match(line, /this shard has nothing to run/);
    const one = unitsFromFiles(['/r/a.js'], '/r');
    await assert.rejects(planThisShard({ api, units: one, shardIndex: 2, shardCount: 2, getDurations }), (e) => e instanceof ShardStop && /nothing to run.*fails rather than pass having run nothing/.test(e.line));
    const p = await planThisShard({ api, units: one, shardIndex: 2, shardCount: 2, getDurations, options: { allowEmptyShards: true } });
    assert.equal(p.mine.size, 0);
  });
  test('a setup project is planned as the cost of the shards that run a test needing it: its dependents share a shard, every shard agrees', async () => {
    // 4 files of 1 s, 2 of them needing a 4 s setup: counted per test, each shard would get one
    // of them and both pay the setup (6 s each); planned with it, one shard runs both (6 s) and
    // the other shard the two that need nothing (2 s)
    const four = unitsFromFiles(['/r/d1.js', '/r/d2.js', '/r/i1.js', '/r/i2.js'], '/r');
    const setupTest = { id: 'login', file: 'login.setup.js' };
    const durations = async () => ({ durationOf: (u) => (u.id === 'login' ? 4000 : 1000), source: 'timings file t.json' });
    const setups = [{ id: 'setup', tests: [setupTest], dependents: [four[0].id, four[1].id], level: 0, teardown: false }];
    const plain = await planThisShard({ api, units: four, shardIndex: 1, shardCount: 2, getDurations: durations, unitLabel: 'files' });
    const shards = await Promise.all([1, 2].map((i) => planThisShard({ api, units: four, shardIndex: i, shardCount: 2, getDurations: durations, unitLabel: 'files', setups })));
    assert.equal(shards[0].plan.fingerprint, shards[1].plan.fingerprint, 'every shard plans alike');
    assert.notEqual(shards[0].plan.fingerprint, plain.plan.fingerprint, 'the setup is part of the plan');
    const withDeps = shards.find((p) => p.mine.has(four[0].id));
    assert.ok(withDeps.mine.has(four[1].id), 'the dependents share the shard that runs the setup');
    assert.equal(withDeps.shard.predictedMs, 6000, 'its setup, then its two files');
    assert.equal(withDeps.expected.bodiesMs, 6000, 'the tests it runs include the setup\'s');
    assert.equal(withDeps.expected.testsMs, 6000, 'as the plan counts them, the setup\'s beside');
    const other = shards.find((p) => p !== withDeps);
    assert.equal(other.shard.predictedMs, 2000);
    assert.equal(other.expected.bodiesMs, 2000, 'no setup on the shard that runs no dependent');
    assert.equal(other.expected.testsMs, 2000);
    for (const p of shards) {
      assert.match(p.line, /\n\[shardwise\] 1 setup or teardown test runs on each shard that needs them: 4\.0s, planned as the cost of the 1 of 2 shards that run a test needing them$/m);
    }
    // no duration for the setup: still planned in its phases, said so
    const unknown = await planThisShard({ api, units: four, shardIndex: 1, shardCount: 2, unitLabel: 'files', setups,
      getDurations: async () => ({ durationOf: (u) => (u.id === 'login' ? undefined : 1000), source: 's' }) });
    assert.match(unknown.line, /1 setup or teardown test runs on each shard that needs them, with no duration: not counted in the plan$/m);
  });
  test('a re-run plans only what the timings file\'s run failed; its empty shards pass; its kinds are two', async () => {
    assert.deepEqual(rerunKinds('failed'), { flaky: false });
    assert.deepEqual(rerunKinds('flaky, failed'), { flaky: true });
    assert.deepEqual(rerunKinds('failed+flaky'), { flaky: true });
    for (const odd of ['', 'flaky', 'failed,skipped', 'FAILED']) assert.equal(rerunKinds(odd), undefined, odd);
    assert.equal(resolveOptions({}, { SHARDWISE_RERUN: 'failed' }).rerun, 'failed');
    assert.equal(resolveOptions({}, { SHARDWISE_RERUN: '' }).rerun, undefined);
    const failed = new Set([units[1].id]);
    const withRerun = async () => ({ ...(await getDurations()), rerun: ({ flaky }) => (u) => failed.has(u.id) || (flaky && u.id === units[0].id) });
    const shards = await Promise.all([1, 2].map((i) => planThisShard({ api, units, shardIndex: i, shardCount: 2, getDurations: withRerun, unitLabel: 'files', options: { rerun: 'failed' } })));
    assert.deepEqual(shards.flatMap((p) => [...p.mine]), [units[1].id], 'the failed unit, on one shard');
    assert.deepEqual(shards[0].record.units, [units[1].id], 'the record lists what the re-run planned');
    assert.match(shards[0].line, /\n\[shardwise\] re-running 1 of \d+ files: those that failed in the run the timings file holds$/);
    const flaky = await planThisShard({ api, units, shardIndex: 1, shardCount: 2, getDurations: withRerun, unitLabel: 'files', options: { rerun: 'failed,flaky' } });
    assert.equal(flaky.record.units.length, 2);
    // durations with nothing to pick from (the service): the shard stops
    await assert.rejects(planThisShard({ api, units, shardIndex: 1, shardCount: 2, getDurations, options: { rerun: 'failed' } }),
      (e) => e instanceof ShardStop && /needs the run that failed/.test(e.line));
  });
});

describe("the runner's own split: kept unless balancing is predicted 10% sooner", () => {
  // Jest-like: 12 files, 2 workers, 3 shards; the runner's split deals them out in turn
  const units = Array.from({ length: 12 }, (_, i) => ({ id: `f${String(i).padStart(2, '0')}.test.js`, file: `f${String(i).padStart(2, '0')}.test.js`, path: `/r/f${String(i).padStart(2, '0')}.test.js` }));
  const paths = units.map((u) => u.path);
  const runnerShard = async (index) => paths.filter((_, i) => i % 3 === index - 1);
  const plan = async (ms, shardIndex, workers = 2) => planThisShard({
    api: shardwise, units, shardIndex, shardCount: 3, workers, unitLabel: 'files', runner: 'jest',
    runnerSplit: await runnerSplitOf(units, 3, runnerShard),
    getDurations: async () => ({ durationOf: (u) => ms(u), source: 'timings file t.json', costs: { perShardOverheadMs: 500, costs: { perWorkerMs: 0, perFileMs: 300, perTestMs: 0, files: {} }, source: 'learned' } }),
  });

  test('runnerSplitOf: per unit its shard; undefined when the runner\'s shards miss a unit or hold one twice', async () => {
    assert.deepEqual(await runnerSplitOf(units, 3, runnerShard), units.map((_, i) => (i % 3) + 1));
    assert.equal(await runnerSplitOf(units, 3, async (index) => paths.filter((_, i) => i % 3 === index - 1 && i !== 5)), undefined, 'a unit on no shard');
    assert.deepEqual(await runnerSplitOf(units, 3, async (index) => (index === 3 ? [] : paths.filter((_, i) => i % 2 === index - 1))), units.map((_, i) => (i % 2) + 1), 'an empty shard is a split');
    assert.equal(await runnerSplitOf(units, 3, async () => paths.slice(0, 4)), undefined, 'a unit on every shard');
  });

  test('even files: every shard keeps the runner\'s split, says so, and records it as its plan', async () => {
    const shards = await Promise.all([1, 2, 3].map((i) => plan(() => 1000, i)));
    assert.equal(new Set(shards.map((s) => s.plan.fingerprint)).size, 1);
    for (const s of shards) {
      assert.ok(s.plan.keptRunnerSplit);
      assert.deepEqual(s.shard.units, units.filter((_, i) => i % 3 === s.shard.index - 1).map((u) => u.id));
      assert.match(s.line, /\n\[shardwise\] kept jest's own split \(--shard\), predicted 3\.1s: a balanced plan replaces it only when predicted 10% sooner/);
      assert.deepEqual(s.record.assigned, s.shard.units);
    }
  });

  test('one slow file where the runner puts three others beside it: balanced, and by how much', async () => {
    // one worker: the runner's first shard 0.5 + 4.3 + 3 x 1.3 = 8.7 s, the others 5.7 s
    const shards = await Promise.all([1, 2, 3].map((i) => plan((u) => (u.id === 'f00.test.js' ? 4000 : 1000), i, 1)));
    for (const s of shards) {
      assert.ok(!s.plan.keptRunnerSplit);
      assert.equal(s.plan.runnerSplitMs, 8700);
      assert.match(s.line, new RegExp(`\\n\\[shardwise\\] balanced: predicted ${Math.round((100 * (8700 - s.plan.makespanMs)) / 8700)}% sooner than jest's own split \\(--shard\\), 8\\.7s`));
    }
    assert.ok(shards[0].plan.makespanMs <= 8700 * 0.9, `${shards[0].plan.makespanMs}`);
    assert.equal(new Set(shards.map((s) => s.plan.fingerprint)).size, 1);
  });

  test('a re-run of what failed plans its few units without the runner\'s split of the whole suite', async () => {
    const failed = { durationOf: () => 1000, source: 'timings file t.json', rerun: () => (u) => u.id < 'f03', costs: { perShardOverheadMs: 0, costs: { perWorkerMs: 0, perFileMs: 0, perTestMs: 0, files: {} }, source: 'learned' } };
    const s = await planThisShard({ api: shardwise, units, shardIndex: 1, shardCount: 3, unitLabel: 'files', runner: 'jest', options: { rerun: 'failed' }, runnerSplit: await runnerSplitOf(units, 3, runnerShard), getDurations: async () => failed });
    assert.equal(s.plan.runnerSplitMs, undefined);
    assert.doesNotMatch(s.line, /own split/);
  });

  test('alwaysBalance (SHARDWISE_ALWAYS_BALANCE=1): planFiles asks the runner for no split', async () => {
    assert.equal(resolveOptions({}, { SHARDWISE_ALWAYS_BALANCE: '1' }).alwaysBalance, true);
    assert.equal(resolveOptions({}, {}).alwaysBalance, false);
    assert.equal(resolveOptions({ alwaysBalance: true }, {}).alwaysBalance, true);
    const dir = mkdtempSync(path.join(tmpdir(), 'sw-always-'));
    const files = ['a', 'b', 'c', 'd'].map((n) => path.join(dir, `${n}.test.js`));
    for (const f of files) writeFileSync(f, "test('x', () => {});\n");
    let asked = 0;
    const runnerShard = async (index) => { asked += 1; return files.filter((_, i) => i % 2 === index - 1); };
    const plan = (options) => planFiles({ api: shardwise, files, shardIndex: 1, shardCount: 2, options: { commitId: 'c'.repeat(40), ...options }, cwd: dir, testRunner: 'jest', log: () => {}, runnerShard });
    await plan(resolveOptions({}, {}));
    assert.equal(asked, 2, 'the runner\'s split, shard by shard');
    await plan(resolveOptions({}, { SHARDWISE_ALWAYS_BALANCE: '1' }));
    assert.equal(asked, 2, 'not asked again');
  });

  test('runnerSplitLine: the runner named, the margin the planner uses', () => {
    assert.equal(runnerSplitLine({ keptRunnerSplit: true, runnerSplitMs: 4200, makespanMs: 4200 }, 'vitest', shardwise.__runnerSplitMargin()),
      "[shardwise] kept vitest's own split (--shard), predicted 4.2s: a balanced plan replaces it only when predicted 10% sooner");
    assert.equal(runnerSplitLine({ runnerSplitMs: 10000, makespanMs: 7500 }, 'jest', 0.1), "[shardwise] balanced: predicted 25% sooner than jest's own split (--shard), 10.0s");
  });
});

describe('a worker per project: each project on a shard starts its own workers', () => {
  // Playwright runs a project's tests in workers of that project: a shard of three projects
  // starts three sets of workers. 3 projects of 8 tests of 1 s, a worker's start 3 s, 3 shards
  // of 1 worker: each project on a shard of its own (3 + 8 = 11 s), not every shard paying all
  // three starts (9 + 8 = 17 s)
  const units = ['app', 'admin', 'public'].flatMap((project) => Array.from({ length: 8 }, (_, i) => ({ id: `${project}/t${i}`, file: `${project}/t${i}.spec.js`, project })));
  const costs = { perWorkerMs: 3000, perFileMs: 0, perTestMs: 0, files: {} };
  const getDurations = async () => ({ durationOf: () => 1000, source: 'timings file t.json', costs: { perShardOverheadMs: 0, costs, source: 'learned' } });

  test('projectStarts: a start cost per project in place of one worker per shard; as they were with one project', () => {
    const { planCosts, workerMs } = projectStarts(units, costs, 0);
    assert.equal(workerMs, 3000);
    assert.equal(planCosts.perWorkerMs, 0);
    assert.deepEqual(planCosts.starts.map((s) => [s.id, s.durationMs, s.units.length]), [
      ['workers of project app', 3000, 8], ['workers of project admin', 3000, 8], ['workers of project public', 3000, 8]]);
    const one = units.filter((u) => u.project === 'app');
    assert.deepEqual(projectStarts(one, costs, 0), { planCosts: costs, workerMs: 0 }, 'one project: a worker per shard, as before');
    assert.equal(projectStarts(one, costs, 1).workerMs, 3000, 'a setup project runs in a worker of its own');
    assert.deepEqual(projectStarts(units, { ...costs, perWorkerMs: 0 }, 0).workerMs, 0, 'no worker start known: nothing to keep together');
    assert.equal(projectStarts(units, costs, 62, shardwise.__maxSetupsAndStarts()).workerMs, 0, 'past the planner\'s 64 setups and starts: as before');
  });

  test('planned: each project on a shard of its own, every shard predicting its one start', async () => {
    const shards = await Promise.all([1, 2, 3].map((shardIndex) => planThisShard({ api: shardwise, units, shardIndex, shardCount: 3, getDurations, runner: 'playwright' })));
    for (const s of shards) {
      const projects = new Set(s.shard.units.map((id) => id.split('/')[0]));
      assert.equal(projects.size, 1, `shard ${s.shard.index}: ${[...projects]}`);
      assert.equal(s.shard.predictedMs, 11000);
    }
    assert.equal(new Set(shards.map((s) => s.plan.fingerprint)).size, 1, 'every shard the same plan');
  });
});

describe('Jest: each file\'s test environment and its load, for the planner', () => {
  test('jestEnvironment reads the docblock as Jest does, else the project\'s, named by package', () => {
    const node = '/r/node_modules/jest-environment-node/build/index.js';
    assert.equal(jestEnvironment('/**\n * @jest-environment jsdom\n */\ntest()', node), 'jest-environment-jsdom');
    assert.equal(jestEnvironment('test()', node), 'jest-environment-node');
    assert.equal(jestEnvironment('// first\n/** @jest-environment jsdom */', 'node'), 'jest-environment-node', 'only a docblock that opens the file');
    assert.equal(jestEnvironment('/** @jest-environment ./env.js */', node), './env.js');
    assert.equal(jestEnvironment('x', '/r/node_modules/.pnpm/a@1/node_modules/@happy-dom/jest-environment/lib/index.js'), '@happy-dom/jest-environment');
    assert.equal(jestEnvironment('x', undefined), undefined);
  });

  test('the record names the environments once and each file\'s by index, with its load', () => {
    assert.equal(jestEnvironmentMs({ perfStats: { loadTestEnvironmentStart: 1000, loadTestEnvironmentEnd: 1370 } }), 370);
    assert.equal(jestEnvironmentMs({ perfStats: {} }), undefined);
    const c = new RunCosts('jest', 2);
    c.add('b.test.js', 90);
    c.add('a.test.js', 1200);
    c.environment('a.test.js', 'jest-environment-jsdom', 370);
    c.environment('b.test.js', 'jest-environment-node', 3);
    c.environment('c.test.js', '', 3);
    const report = c.addTo({ sources: [] });
    const record = JSON.parse(report.sources[0].text);
    assert.deepEqual(record.environments, ['jest-environment-jsdom', 'jest-environment-node']);
    assert.deepEqual(record.environmentOf, { 'a.test.js': 0, 'b.test.js': 1 });
    assert.deepEqual(record.environmentMs, { 'a.test.js': 370, 'b.test.js': 3 });
  });
});

describe("Vitest: the suite's transforms, by the file that asked for each first", () => {
  test('firstLoads: each module once, to the file that started first (ties: the given order; no start: last)', () => {
    const durations = new Map([['m1', 100], ['m2', 40], ['m3', 7], ['m4', 0]]);
    const { byFile, totalMs } = firstLoads([
      { file: 'late.ts', start: 50, modules: ['m1', 'm3'] },
      { file: 'none.ts', start: Infinity, modules: ['m3', 'm9'] },
      { file: 'early.ts', start: 10, modules: ['m1', 'm2', 'm4'] },
      { file: 'tie.ts', start: 50, modules: ['m3'] },
    ], durations);
    assert.deepEqual([...byFile].sort(), [['early.ts', 140], ['late.ts', 7]]);
    assert.equal(totalMs, 147, 'm9 was not transformed this run; m4 took no time');
  });

  // Vitest's internals as its versions keep them: 3 (vite-node's durations and vite's graph) and
  // 4+ (durations by url in its state, a graph per vite environment)
  const node = (file, imports = []) => ({ file, id: file, importedModules: new Set(imports) });
  const graphOf = (nodes) => ({ getModuleById: (id) => nodes.find((n) => n.id === id) });
  const root = '/repo';
  const shared = node('/repo/src/shared.ts');
  const heavy = node('/repo/src/heavy.ts', [shared, node('/repo/node_modules/dep/index.js')]);
  const aTest = node('/repo/src/a.test.ts', [heavy]);
  const bTest = node('/repo/src/b.test.ts', [shared]);
  const modules = (aStart, bStart) => [
    { moduleId: '/repo/src/a.test.ts', project: undefined, task: { result: { startTime: aStart } }, diagnostic: () => ({ collectDuration: 30, setupDuration: 5 }) },
    { moduleId: '/repo/src/b.test.ts', project: undefined, task: { result: { startTime: bStart } }, diagnostic: () => ({ collectDuration: 2, setupDuration: 0 }) },
  ];

  test('Vitest 3: vite-node durations by path; test files and packages are not the suite\'s modules', () => {
    const project = { config: { root }, vitenode: {
      durations: { ssr: new Map([['/repo/src/heavy.ts', [300]], ['/repo/src/shared.ts', [20, 1]], ['/repo/src/a.test.ts', [50]], ['/repo/node_modules/dep/index.js', [9]]]), web: new Map() },
      server: { moduleGraph: graphOf([aTest, bTest, heavy, shared]) },
    } };
    const ms = modules(1000, 1100).map((m) => ({ ...m, project }));
    const { byFile, totalMs } = vitestTransforms({ config: { root }, projects: [project] }, ms, root);
    assert.deepEqual([...byFile], [['src/a.test.ts', 321]]);
    assert.equal(totalMs, 321);
    // b began loading first (its suite started at 1,010 after 2 ms of collection; a's at 1,100 after 35)
    const later = vitestTransforms({ config: { root }, projects: [project] }, modules(1100, 1010).map((m) => ({ ...m, project })), root);
    assert.deepEqual([...later.byFile].sort(), [['src/a.test.ts', 300], ['src/b.test.ts', 21]]);
  });

  test('Vitest 4+: durations by url in its state, the graph of a vite environment', () => {
    const project = { name: 'unit', config: { root }, vite: { environments: { ssr: { moduleGraph: graphOf([aTest, bTest, heavy, shared]) } } } };
    const ctx = { config: { root }, projects: [project], state: { metadata: { unit: { duration: { '/src/heavy.ts?v=1': [300], '/@fs/repo/src/shared.ts': [21], '\0virtual': [5] } } } } };
    const { byFile, totalMs } = vitestTransforms(ctx, modules(1000, 1100).map((m) => ({ ...m, project })), root);
    assert.deepEqual([...byFile], [['src/a.test.ts', 321]]);
    assert.equal(totalMs, 321);
    assert.equal(vitestTransforms({ config: { root }, projects: [{ name: 'x' }] }, [], root), undefined, 'no figures: nothing');
  });

  test('3,000 test files that each import the same 3,000-module app: each module once, to the file that began loading first', () => {
    // an app of a chain of 3,000 modules (each imports the next), each test file its own module
    // and the app's entry; 1 ms each
    const app = Array.from({ length: 3000 }, (_, i) => node(`/repo/app/m${i}.ts`));
    for (let i = 0; i + 1 < app.length; i++) app[i].importedModules.add(app[i + 1]);
    const tests = Array.from({ length: 3000 }, (_, i) => node(`/repo/t/${i}.test.ts`, [node(`/repo/t/own${i}.ts`), app[0]]));
    const all = [...app, ...tests, ...tests.map((t) => [...t.importedModules][0])];
    const byId = new Map(all.map((n) => [n.id, n]));
    const durations = new Map(all.filter((n) => !n.id.endsWith('.test.ts')).map((n) => [n.id, [1]]));
    const project = { config: { root }, vitenode: { durations: { ssr: durations }, server: { moduleGraph: { getModuleById: (id) => byId.get(id) } } } };
    // file 1,234 began loading first
    const ms = tests.map((t, i) => ({ moduleId: t.id, project, task: { result: { startTime: i === 1234 ? 5 : 100 + i } }, diagnostic: () => ({ collectDuration: 1 }) }));
    const { byFile, byModule, totalMs } = vitestTransforms({ config: { root }, projects: [project] }, ms, root);
    assert.equal(totalMs, 6000);
    assert.equal(byFile.get('t/1234.test.ts'), 3001, 'the app and its own module');
    assert.equal(byFile.get('t/0.test.ts'), 1, 'its own module only');
    assert.equal(byFile.size, 3000);
    assert.equal(byModule.size, 6000);
    assert.equal(byModule.get('app/m2999.ts'), 1);
  });

  test('the record: taken off the files that asked first (never below 0), their sum as transformMs', () => {
    const c = new RunCosts('vitest', 2);
    c.add('src/a.test.ts', 400);
    c.add('src/b.test.ts', 10);
    c.transforms = { byFile: new Map([['src/a.test.ts', 321], ['src/b.test.ts', 25], ['src/gone.ts', 99]]), totalMs: 445 };
    const record = JSON.parse(c.addTo({ sources: [] }).sources[0].text);
    assert.deepEqual(record.files, { 'src/a.test.ts': 79, 'src/b.test.ts': 0 });
    assert.equal(record.transformMs, 331);
    // a suite of 6,000 modules: the 5,000 longest transforms kept (as many as a plan reads)
    const big = new RunCosts('vitest', 2);
    big.add('src/a.test.ts', 10_000);
    big.transforms = { byFile: new Map([['src/a.test.ts', 6000]]), byModule: new Map(Array.from({ length: 6000 }, (_, i) => [`m/${i}.ts`, i < 1000 ? 0.2 : 1])), totalMs: 5200 };
    const kept = JSON.parse(big.addTo({ sources: [] }).sources[0].text).transforms;
    assert.equal(Object.keys(kept).length, 5000);
    assert.ok(Object.values(kept).every((ms) => ms === 1));
    const none = new RunCosts('vitest', 2);
    none.add('src/a.test.ts', 400);
    assert.equal(JSON.parse(none.addTo({ sources: [] }).sources[0].text).transformMs, undefined);
  });
});

describe('saved folder and upload', () => {
  const report = { category: 'jest' };
  const encodeReport = (r) => new TextEncoder().encode(JSON.stringify(r));
  const setup = () => {
    const folder = tmp();
    const store = new AttachmentStore(folder);
    store.add(new FakeBuilder({}), { name: 'log', contentType: 'text/plain', data: new TextEncoder().encode('log!') });
    return { folder, store };
  };
  test('without a token: saved, not uploaded, and it says how to enable upload', async () => {
    const { folder, store } = setup();
    const lines = [];
    const r = await saveAndUpload({ api: { encodeReport }, report, store, options: resolveOptions({}, {}), log: (l) => lines.push(l) });
    assert.equal(r.uploaded, undefined);
    assert.match(lines[0], /SHARDWISE_ACCESS_TOKEN/);
    const saved = readSaved(folder);
    assert.deepEqual(JSON.parse(new TextDecoder().decode(saved.bytes)), report);
    assert.equal(saved.attachments.length, 1);
    assert.equal(readFileSync(saved.attachments[0].path, 'utf8'), 'log!');
  });
  test('with a token: uploads the encoded bytes and the attachments by path', async () => {
    const { folder, store } = setup();
    let got;
    const uploadReport = async (o) => { got = o; return { reportUrl: 'http://x/r/1', webUrl: '/r/1', attachments: 1, bytes: 9 }; };
    const r = await saveAndUpload({ api: { encodeReport, uploadReport }, report, store, options: resolveOptions({ baseUrl: 'http://x', accessToken: 'tok' }, {}), log: () => {} });
    assert.equal(r.uploaded.reportUrl, 'http://x/r/1');
    assert.ok(got.report instanceof Uint8Array);
    assert.equal(got.attachments[0].path, path.join(folder, 'attachments', got.attachments[0].id));
  });
  test('a failed upload keeps the folder, never throws, and gives the recovery command without the token', async () => {
    const { folder, store } = setup();
    const lines = [];
    const uploadReport = async () => { throw Object.assign(new Error('service said 503'), { code: 'HTTP_STATUS' }); };
    const r = await saveAndUpload({ api: { encodeReport, uploadReport }, report, store, options: resolveOptions({}, { SHARDWISE_BASE_URL: 'http://x', SHARDWISE_ACCESS_TOKEN: 'secret-token' }), log: (l) => lines.push(l) });
    assert.ok(r.error);
    assert.match(lines[0], new RegExp(`npx shardwise upload ${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.doesNotMatch(lines.join('\n'), /secret-token/);
  });
});

test('options: explicit values win, then SHARDWISE_* variables; an env timings path is relative to the cwd', () => {
  assert.equal(resolveOptions({}, { SHARDWISE_TIMINGS_FILE: 't.json' }).timingsFile, path.resolve('t.json'));
  assert.equal(resolveOptions({ timingsFile: 'x.json' }, { SHARDWISE_TIMINGS_FILE: 't.json' }).timingsFile, 'x.json');
  const o = resolveOptions({ baseUrl: 'http://a' }, { SHARDWISE_BASE_URL: 'http://b', SHARDWISE_ACCESS_TOKEN: 'k', GITHUB_SHA: 'f'.repeat(40), GITHUB_RUN_ID: '7' });
  assert.deepEqual([o.baseUrl, o.accessToken, o.commitId, o.runId, o.outputFolder, o.upload], ['http://a', 'k', 'f'.repeat(40), '7', 'shardwise-report', true]);
});

test('gitInfo: the checkout\'s root and commit from a folder inside it; a checkout with no commit yet, a given commit id, and no checkout', () => {
  const repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'sw-git-')));
  const inside = path.join(repo, 'packages', 'app');
  mkdirSync(inside, { recursive: true });
  const git = (...args) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  git('init', '-q');
  // no commit yet: the root, and no commit id (the run is not reported)
  assert.deepEqual(gitInfo(inside), { root: repo, commitId: undefined });
  writeFileSync(path.join(repo, 'a.txt'), 'a');
  git('add', 'a.txt');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'one');
  const head = git('rev-parse', 'HEAD');
  assert.match(head, /^[0-9a-f]{40}$/);
  assert.deepEqual(gitInfo(inside), { root: repo, commitId: head });
  assert.deepEqual(gitInfo(inside, 'f'.repeat(40)), { root: repo, commitId: 'f'.repeat(40) });
  const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'sw-nogit-')));
  assert.deepEqual(gitInfo(outside), { root: outside, commitId: undefined });
});

test('relativePosix: repo-relative POSIX paths', () => {
  assert.equal(relativePosix('/repo', '/repo/a/b.js'), 'a/b.js');
  assert.equal(relativePosix('/repo', 'already/rel.js'), 'already/rel.js');
});

test('reportPath: a location inside the repository, or none for a file outside it', () => {
  assert.equal(reportPath('/repo', '/repo/a/b.js'), 'a/b.js');
  assert.equal(reportPath('/repo', 'already/rel.js'), 'already/rel.js');
  assert.equal(reportPath('/repo', '/usr/lib/node_modules/x/index.js'), undefined);
  assert.equal(reportPath('/repo', '/repo-other/a.js'), undefined);
  assert.equal(reportPath('/repo', '/'), undefined);
  assert.equal(reportPath('/repo', undefined), undefined);
  // asked again (each path is worked out once per root), and of another root: the same answers
  for (let i = 0; i < 2; i++) {
    assert.equal(reportPath('/repo', '/repo/a/b.js'), 'a/b.js');
    assert.equal(reportPath('/repo/a', '/repo/a/b.js'), 'b.js');
    assert.equal(reportPath('/other', '/repo/a/b.js'), undefined);
    assert.equal(reportPath('/repo', '/usr/lib/node_modules/x/index.js'), undefined);
  }
});

test('tests in files outside the repository root are reported without their file, said once: the report is kept', async () => {
  const said = [];
  const onOutsideRoot = outsideRootOnce((l) => said.push(l), '/repo');
  assert.equal(testFile({ root: '/repo', onOutsideRoot }, '/repo/a.spec.js'), 'a.spec.js');
  assert.equal(said.length, 0, 'a file inside the root is not a case to tell');
  // Playwright: a testDir beside the repository (../shared), next to one inside it
  const spec = { projects: [{ name: 'chromium', files: [
    { path: '../shared/a.pw.js', items: ['same title'] }, { path: '../shared/b.pw.js', items: ['same title'] }, { path: 'in.pw.js', items: ['inside'] },
  ] }] };
  const { root: suite, mode } = playwrightSuite(spec);
  const units = unitsFromSuite(suite, { root: '/repo', mode });
  assert.deepEqual(units.map((u) => u.file), [undefined, undefined, 'in.pw.js']);
  assert.equal(new Set(units.map((u) => u.id)).size, 3, 'planner ids still tell the outside files apart');
  assert.notEqual(units[0].group, units[1].group);
  const b = new ReportBuilder({ category: 'playwright', commitId: 'c'.repeat(40) });
  b.addEnvironment({ name: 'chromium' });
  const ctx = { root: '/repo', envIndex: new Map([['chromium', 0]]), store: new AttachmentStore(tmp()), readFile: () => Buffer.from(''), onOutsideRoot };
  for (const t of suite.allTests()) recordResult(b, ctx, t, { status: 'passed', startTime: new Date(1700000000000), duration: 3, parallelIndex: 0 });
  const doc = b.build();
  assert.deepEqual(validateReport(doc), []);
  assert.deepEqual(doc.tests.map((t) => [t.title, t.location, t.attempts.length]), [['same title', undefined, 2]],
    'without a file, tests of the same title are one test (the report cannot tell them apart)');
  assert.deepEqual(doc.suites.map((s) => [s.type, s.title]), [['file', 'in.pw.js']]);
  assert.equal(said.length, 1, 'said once');
  assert.equal(said[0], '[shardwise] test files outside the repository root (/repo) are reported without their file, e.g. /repo/../shared/a.pw.js: report paths are relative to that root');
  // Jest and Vitest: the same, through their translators
  const jb = new ReportBuilder({ category: 'jest', commitId: 'c'.repeat(40) });
  jb.addEnvironment({ name: 'jest' });
  recordFileResult(jb, { root: '/repo', environmentIdx: 0 }, {
    testFilePath: '/elsewhere/a.spec.js', testResults: [{ ancestorTitles: ['A'], title: 'ok', status: 'passed', duration: 1, location: { line: 3, column: 1 } }],
  });
  const jdoc = jb.build();
  assert.deepEqual(validateReport(jdoc), []);
  assert.deepEqual(jdoc.suites.map((s) => [s.type, s.title, s.location, s.tests.map((t) => [t.title, t.location])]), [['suite', 'A', undefined, [['ok', undefined]]]]);
  const vb = new ReportBuilder({ category: 'vitest', commitId: 'c'.repeat(40) });
  vb.addEnvironment({ name: 'default' });
  const module = { type: 'module', moduleId: '/elsewhere/v.spec.js' };
  recordTestCase(vb, { root: '/repo', envIndex: new Map([['default', 0]]) }, {
    type: 'test', name: 'v', parent: module, module, project: { name: '' }, location: { line: 2, column: 1 }, options: {},
    result: () => ({ state: 'passed' }), diagnostic: () => ({ duration: 1, startTime: 1 }), logs: () => [],
  });
  assert.deepEqual(vb.build().tests.map((t) => [t.title, t.location]), [['v', undefined]]);
  // Jest/Vitest balancing: the outside file is a unit of its own, left out of the test list (estimated)
  const shardwise = await import('shardwise');
  const dir = tmp();
  mkdirSync(path.join(dir, 'repo'));
  writeFileSync(path.join(dir, 'repo', 'in.spec.js'), "test('one', () => {});");
  writeFileSync(path.join(dir, 'out.spec.js'), "test('two', () => {});");
  const fileUnits = unitsFromFiles([path.join(dir, 'repo', 'in.spec.js'), path.join(dir, 'out.spec.js')].map((p) => ({ path: p, environment: 'jest' })), path.join(dir, 'repo'));
  assert.deepEqual(fileUnits.map((u) => [u.id, u.file]), [['in.spec.js', 'in.spec.js'], ['../out.spec.js', undefined]]);
  const listed = testListFromSources({ api: shardwise, units: fileUnits, category: 'jest', commitId: 'c'.repeat(40) });
  assert.deepEqual({ tests: listed.tests, files: listed.files }, { tests: 1, files: 1 });
  assert.deepEqual(validateReport(listed.report), []);
});

test('a value the format cannot hold is left out where it stands, every other part of the attempt kept, said once', () => {
  const { root } = playwrightSuite({ projects: [{ name: 'chromium', files: [{ path: 'e2e/a.pw.js', items: ['works', 'also'] }] }] });
  const [t1, t2] = root.allTests();
  const b = new ReportBuilder({ category: 'playwright', commitId: 'c'.repeat(40) });
  b.addEnvironment({ name: 'chromium' });
  const said = [];
  const ctx = { root: '/repo', envIndex: new Map([['chromium', 0]]), store: new AttachmentStore(tmp()), readFile: () => Buffer.from(''), notes: recordNotes((l) => said.push(l)) };
  const result = (extra) => ({ status: 'failed', startTime: new Date(1700000000000), duration: 12, parallelIndex: 0, ...extra });
  // a location outside the repository: the attempt keeps its error, without the location
  recordResult(b, ctx, t1, result({ errors: [{ message: 'boom', location: { file: '/usr/lib/node_modules/pkg/x.js', line: 3, column: 1 } }],
    steps: [{ title: 'fixture', duration: 1, location: { file: '/elsewhere/f.js', line: 1, column: 1 } }] }));
  // Playwright's "no location" (line 0), and a declared skip that never ran on a worker (parallelIndex -1): no note
  recordResult(b, ctx, t2, result({ steps: [{ title: 'odd', duration: 1, location: { file: '/repo/e2e/a.pw.js', line: 0, column: 0 } }] }));
  recordResult(b, ctx, t2, result({ status: 'skipped', parallelIndex: -1, annotations: [{ type: 'skip', location: { file: '/repo/e2e/a.pw.js', line: 0, column: 0 } }] }));
  assert.deepEqual(said, []);
  // values nobody foresaw: each left out where it stands, the rest kept, said once
  recordResult(b, ctx, t2, result({ status: 'passed', duration: -4, errors: [{ message: 'kept', stack: 7 }],
    steps: [{ title: 'step', duration: 2, steps: [{ title: 'inner', error: { message: 'inner error', location: { file: '/repo/e2e/a.pw.js', line: 2, column: 0.5 } } }] }],
    stdout: ['out'], stderr: [Buffer.from([0, 1, 2])] }));
  const doc = b.build();
  assert.deepEqual(validateReport(doc), []);
  const [a1, a2] = doc.suites[0].tests.map((t) => t.attempts);
  assert.deepEqual(a1[0].errors, [{ message: 'boom' }]);
  assert.deepEqual(a1[0].steps, [{ title: 'fixture', duration: 1 }]);
  assert.deepEqual(a2[0].steps, [{ title: 'odd', duration: 1 }]);
  assert.deepEqual([a2[1].status, a2[1].parallelIndex, a2[1].annotations], ['skipped', undefined, [{ type: 'skip' }]]);
  assert.deepEqual(a2[2].errors, [{ message: 'kept' }]);
  assert.equal(a2[2].duration, 0, 'a negative duration is no duration');
  assert.deepEqual(a2[2].steps, [{ title: 'step', duration: 2, steps: [{ title: 'inner', duration: 0, error: { message: 'inner error', location: { file: 'e2e/a.pw.js', line: 2, column: 1 } } }] }]);
  assert.deepEqual(a2[2].stdio, [{ stream: 1, dts: 0, text: 'out' }, { stream: 2, dts: 0, buffer: 'AAEC' }]);
  assert.equal(said.length, 1, 'said once');
  assert.match(said[0], /^\[shardwise\] values the report format cannot hold were left out of the report, e\.g\. attempt\.errors\[0\]\.stack: must be a string, got a number; everything else of those results is recorded/);
  // a handle that is not a test's: nothing recorded, said once, no throw
  addAttempt(b, ctx, 99, { status: 'passed' });
});

test('Playwright reporter preprocess with a fake core: skipSharding, excludes the other shards, prints the line', async () => {
  const spec = { projects: [{ name: 'p', fullyParallel: true, files: [{ path: 'a.pw.js', items: ['t1', 't2', 't3', 't4', 't5'] }] }] };
  const dir = tmp();
  const runs = [];
  for (const current of [1, 2]) {
    const { root, mode } = playwrightSuite(spec);
    const excluded = [];
    let skipped = false;
    const lines = [];
    const reporter = new PlaywrightReporter({ api: shardwise, commitId: 'a'.repeat(40) });
    reporter.log = (l) => lines.push(l);
    await reporter.preprocess({
      config: { shard: { current, total: 2 }, version: '1.65.1', projects: [{ name: 'p' }], configFile: path.join(dir, 'playwright.config.js') },
      suite: root,
      testRun: { mode, skipSharding: () => { skipped = true; }, exclude: (t) => excluded.push(t.title) },
    });
    assert.ok(skipped);
    // the line, and the note that every test was estimated
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0], /shard \d\/2: .*durations: none .*; costs: playwright defaults\), fingerprint [0-9a-f]+\n\[shardwise\] 5 of 5 tests \(100%\) had no duration/);
    runs.push({ excluded, fp: lines[0].match(/fingerprint (\S+)/)[1] });
  }
  assert.equal(runs[0].fp, runs[1].fp);
  const ran = (r) => ['t1', 't2', 't3', 't4', 't5'].filter((t) => !r.excluded.includes(t));
  assert.deepEqual([...ran(runs[0]), ...ran(runs[1])].sort(), ['t1', 't2', 't3', 't4', 't5']);
});

test('Playwright reporter: planning failure falls back to native sharding and says so', async () => {
  const { root, mode } = playwrightSuite({ projects: [{ name: 'p', files: [{ path: 'a.pw.js', items: ['t1'] }] }] });
  const lines = [];
  const reporter = new PlaywrightReporter({ api: {}, commitId: 'a'.repeat(40) });
  reporter.log = (l) => lines.push(l);
  let skipped = false;
  await reporter.preprocess({ config: { shard: { current: 1, total: 2 }, version: '1.65.1', projects: [] }, suite: root,
    testRun: { mode, skipSharding: () => { skipped = true; }, exclude: () => {} } });
  assert.equal(skipped, false);
  assert.match(lines[0], /balancing failed .* Playwright shards natively/);
  reporter.onBegin({ shard: { current: 1, total: 2 }, version: '1.61.0', projects: [] });
  assert.match(lines[1], /needs Playwright >= 1\.62 \(this is 1\.61\.0\); Playwright shards natively/);
});

describe('durationsSource: timings file, else the live exchange', async () => {
  const { durationsSource } = await import('../pkg/src/runner/durations.mjs');
  const { writeFileSync } = await import('node:fs');
  const annotated = { environments: [{ name: 'p' }], suites: [{ type: 'file', title: 'a.pw.js', tests: [{ title: 't', attempts: [{ duration: 42 }] }] }] };
  const lookup = (report) => { const m = durationsByTest(report, shardwise); return (u) => m.get(testKey('p', u.file, u.titlePath)); };
  const unit = { file: 'a.pw.js', titlePath: ['t'] };

  test('a timings file is read with decodeReport, relative to the config directory', async () => {
    const dir = tmp();
    writeFileSync(path.join(dir, 't.json'), JSON.stringify(annotated));
    const api = { decodeReport: (b) => JSON.parse(new TextDecoder().decode(b)), shardCosts: shardwise.shardCosts };
    const d = await durationsSource({ api, options: resolveOptions({ timingsFile: 't.json' }, {}), cwd: dir, testRunner: 'playwright', lookup })();
    assert.equal(d.durationOf(unit), 42);
    assert.equal(d.source, 'timings file t.json');
    // the costs the file teaches (a durations document: its runner's defaults)
    assert.deepEqual(d.costs, shardwise.shardCosts(annotated));
  });
  test("a file runner's timings file: its files' time from the package, a document without the run's fields planned, one that is no report refused", async () => {
    const dir = tmp();
    const byFile = (report) => { const m = durationsByFile(report, shardwise); return (u) => m.get(u.file); };
    // the durations of a run, without what a saved run has (category, commit, start, wall): the
    // published schema refuses it, a plan reads all it needs
    const bare = { environments: [{ name: 'p' }], suites: [{ type: 'file', title: 'a.test.js', tests: [{ title: 't', attempts: [{ duration: 42 }] }, { title: 'u', attempts: [{ duration: 0.5 }] }] }] };
    assert.throws(() => shardwise.decodeReport(new TextEncoder().encode(JSON.stringify(bare))), /category: is required/);
    writeFileSync(path.join(dir, 'bare.json'), JSON.stringify(bare));
    const read = (file) => durationsSource({ api: shardwise, options: resolveOptions({ timingsFile: file }, {}), cwd: dir, testRunner: 'jest', lookup: byFile, byFile: true })();
    const d = await read('bare.json');
    assert.equal(d.durationOf({ file: 'a.test.js' }), 42.5);
    assert.equal(d.durationOf({ file: 'b.test.js' }), undefined);
    assert.deepEqual(d.costs, shardwise.shardCosts(bare));
    // Jest's own JSON results, or text that is no JSON: the shard says what the file is not
    writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ numTotalTests: 2, testResults: [] }));
    await assert.rejects(read('results.json'), (e) => e.code === 'INVALID_INPUT' && /^the timings report is not a report document: missing field `environments`/.test(e.message));
    writeFileSync(path.join(dir, 'notes.txt'), 'a list of slow tests');
    await assert.rejects(read('notes.txt'), (e) => e.code === 'INVALID_INPUT' && /neither Brotli-compressed JSON .* nor plain JSON/.test(e.message));
    // a sharded run's folder (read in one call, `__readTimingsRuns`): the shards' files summed
    // over the runs' mean; a shard's report that is no report stops it the same way
    const run = { ...bare, category: 'jest', commitId: 'c'.repeat(40), startTimestamp: 1, duration: 50 };
    const other = { ...run, suites: [{ type: 'file', title: 'b.test.js', tests: [{ title: 'v', attempts: [{ duration: 7, startTimestamp: 2 }] }] }] };
    run.suites = [{ type: 'file', title: 'a.test.js', tests: [{ title: 't', attempts: [{ duration: 42, startTimestamp: 1 }] }, { title: 'u', attempts: [{ duration: 1, startTimestamp: 1 }] }] }];
    for (const [name, doc] of [['shard-1-of-2', run], ['shard-2-of-2', other]]) {
      mkdirSync(path.join(dir, 'run', name), { recursive: true });
      writeFileSync(path.join(dir, 'run', name, 'report.json.br'), shardwise.encodeReport(doc));
    }
    const folder = await read('run');
    assert.deepEqual([folder.durationOf({ file: 'a.test.js' }), folder.durationOf({ file: 'b.test.js' })], [43, 7]);
    assert.match(folder.source, /timings file run \(2 shard reports, read as one run\)/);
    writeFileSync(path.join(dir, 'run', 'shard-2-of-2', 'report.json.br'), JSON.stringify({ numTotalTests: 2, testResults: [] }));
    // the shard's line names the report, under the folder as its timingsFile names it
    await assert.rejects(read('run'), (e) => e.code === 'INVALID_INPUT' && e.message.startsWith(`${path.join('run', 'shard-2-of-2', 'report.json.br')}: a timings report does not fit the report model: missing field \`category\``));
    writeFileSync(path.join(dir, 'run', 'shard-2-of-2', 'report.json.br'), 'a list of slow tests');
    await assert.rejects(read('run'), (e) => e.code === 'INVALID_INPUT' && e.message.startsWith(`${path.join('run', 'shard-2-of-2', 'report.json.br')}: `) && /neither Brotli-compressed JSON .* nor plain JSON/.test(e.message));
  });
  test('live: fetchDurations gets the test list, commit and a shardGroupKeyFor key (no undefined fields)', async () => {
    const calls = {};
    const api = {
      shardGroupKeyFor: (o) => { calls.key = o; return 'key-1'; },
      fetchDurations: async (o) => { calls.fetch = o; return annotated; },
      shardCosts: (r) => { calls.costs = r; return { source: 'x' }; },
    };
    const options = resolveOptions({ baseUrl: 'http://s', accessToken: 'tok', commitId: 'c'.repeat(40) }, {});
    const d = await durationsSource({ api, options, cwd: '/', testRunner: 'playwright', testList: () => ({ list: true }), lookup })();
    assert.equal(d.durationOf(unit), 42);
    assert.equal(d.source, 'service');
    assert.equal(calls.costs, annotated, 'the costs of the document the service gave');
    assert.deepEqual(calls.key, { commitId: 'c'.repeat(40), testRunner: 'playwright' });
    assert.deepEqual(calls.fetch, { baseUrl: 'http://s', accessToken: 'tok', commitId: 'c'.repeat(40), shardGroupKey: 'key-1', report: { list: true } });
  });
  test('no source: rejects with the reason (the shard then plans on estimates)', async () => {
    await assert.rejects(durationsSource({ api: {}, options: resolveOptions({}, {}), cwd: '/', testRunner: 'jest', lookup })(), /no timingsFile/);
    const live = resolveOptions({ baseUrl: 'http://s', accessToken: 'tok' }, {});
    const noTests = () => { throw new Error('no test titles found'); };
    await assert.rejects(durationsSource({ api: {}, options: live, cwd: '/', testRunner: 'jest', lookup, testList: noTests })(), /no commit id/);
    await assert.rejects(durationsSource({ api: {}, options: { ...live, commitId: 'c'.repeat(40) }, cwd: '/', testRunner: 'jest', lookup, testList: noTests })(), /no test titles found/);
  });
});

describe('CLI progress', async () => {
  const { progress, fmtBytes } = await import('../pkg/src/runner/progress.mjs');
  const screen = (isTTY) => ({ isTTY, out: '', write(s) { this.out += s; } });
  const last = (s) => s.out.split('\r\x1b[K').filter(Boolean).pop();

  test('on a terminal: attachments stored out of the total, bytes sent, retries', () => {
    const s = screen(true);
    const p = progress(s, { attachments: 3 });
    p.onEvent({ step: 'start', attempt: 1, status: 200, bytes: 10 });
    p.onEvent({ step: 'upload-report', attempt: 1, status: 200, bytes: 2000 });
    assert.equal(last(s), 'upload-report, 2.0 KB sent');
    p.onEvent({ step: 'upload-attachment', attempt: 1, status: 200, bytes: 1024 * 1024 });
    p.onEvent({ step: 'upload-attachment', attempt: 1, status: 503, bytes: 500 });
    assert.equal(last(s), 'upload-attachment, 1/3 attachments, 1.0 MB sent, HTTP 503');
    p.onEvent({ step: 'upload-attachment', attempt: 2 });
    assert.equal(last(s), 'upload-attachment, 1/3 attachments, 1.0 MB sent, try 2, no answer');
    p.onEvent({ step: 'upload-attachment', attempt: 3, status: 200, bytes: 500 });
    assert.equal(last(s), 'upload-attachment, 2/3 attachments, 1.0 MB sent, try 3');
    p.done();
    assert.ok(s.out.endsWith('\r\x1b[K'), 'the line is cleared for the summary');
  });

  test('not a terminal: no events are asked for and nothing is written', () => {
    const s = screen(false);
    const p = progress(s, { attachments: 3 });
    assert.equal(p.onEvent, undefined);
    p.done();
    assert.equal(s.out, '');
  });

  test('fmtBytes', () => {
    assert.deepEqual([0, 1023, 1024, 1536 * 1024, 3 * 1024 ** 3].map(fmtBytes), ['0 B', '1023 B', '1.0 KB', '1.5 MB', '3.0 GB']);
  });
});

test('Jest < 30 makes its sequencer without the global config: the workers come from its command line as Jest reads them', async () => {
  const { workersFromArgv } = await import('../pkg/jest/sequencer.mjs');
  assert.equal(workersFromArgv(['node', 'jest', '--maxWorkers=3'], 8), 3);
  assert.equal(workersFromArgv(['node', 'jest', '-w', '2'], 8), 2);
  assert.equal(workersFromArgv(['node', 'jest', '--maxWorkers', '50%'], 8), 4);
  assert.equal(workersFromArgv(['node', 'jest', '--runInBand', '--maxWorkers=3'], 8), 1);
  assert.equal(workersFromArgv(['node', 'jest'], 8), 7, 'Jest\'s default: the cores less one');
  assert.equal(workersFromArgv(['node', 'jest'], 1), 1);
});

test('Vitest 3 and 4 leave maxWorkers unset in their config: the workers come from the pool as Vitest counts them', async () => {
  const { vitestWorkers } = await import('../pkg/vitest/translate.mjs');
  // Vitest 3 and 4 without the option (date-fns' config: isolate off, nothing else): the cores less one
  assert.equal(vitestWorkers({ pool: 'forks', poolOptions: { forks: { isolate: false }, threads: { isolate: false } } }, 4), 3);
  assert.equal(vitestWorkers({}, 4), 3);
  assert.equal(vitestWorkers({}, 1), 1);
  assert.equal(vitestWorkers({ watch: true }, 4), 2, 'watch mode: half the cores');
  // Vitest 5 resolves it in its config
  assert.equal(vitestWorkers({ maxWorkers: 3 }, 8), 3);
  assert.equal(vitestWorkers({ maxWorkers: '50%' }, 8), 4);
  assert.equal(vitestWorkers({ fileParallelism: false, maxWorkers: 4 }, 8), 1);
  // Vitest 3's pool options come first, of the pool the run uses
  assert.equal(vitestWorkers({ pool: 'forks', maxWorkers: 6, poolOptions: { forks: { maxForks: 2 } } }, 8), 2);
  assert.equal(vitestWorkers({ pool: 'threads', poolOptions: { threads: { maxThreads: 5 }, forks: { maxForks: 2 } } }, 8), 5);
  assert.equal(vitestWorkers({ pool: 'vmForks', poolOptions: { vmForks: { maxForks: 2 } } }, 8), 2);
  assert.equal(vitestWorkers({ pool: 'vmThreads', poolOptions: { vmThreads: { maxThreads: 3 } } }, 8), 3);
  assert.equal(vitestWorkers({ pool: 'forks', maxWorkers: 4, poolOptions: { forks: { singleFork: true } } }, 8), 1);
  assert.equal(vitestWorkers({ pool: 'threads', maxWorkers: 4, poolOptions: { threads: { singleThread: true } } }, 8), 1);
  assert.equal(vitestWorkers(undefined, 4), 1);
});

test('files.mjs and timings.mjs reach the wasm through the api they are given, as the rest of the runners', () => {
  const dir = tmp();
  writeFileSync(path.join(dir, 'a.spec.js'), 'whatever the source');
  const seen = [];
  const api = {
    ReportBuilder: shardwise.ReportBuilder,
    __discoverTests: (source) => { seen.push(source); return { tests: [['from the fake']], unnamed: 0 }; },
    __testDurations: (report) => [{ environment: 'e', file: 'a.spec.js', titlePath: ['t'], durationMs: 5 }, { environment: 'e', file: 'a.spec.js', titlePath: ['u'], durationMs: 6 }, { environment: 'e', titlePath: ['v'], durationMs: 1 }],
  };
  const listed = testListFromSources({ api, units: unitsFromFiles([{ path: path.join(dir, 'a.spec.js'), environment: 'jest' }], dir), category: 'jest', commitId: 'c'.repeat(40) });
  assert.deepEqual(seen.map((b) => Buffer.from(b).toString('utf8')), ['whatever the source']);
  assert.ok(seen[0] instanceof Uint8Array, 'the file\'s bytes, carried into wasm in one copy (a string goes a character at a time)');
  assert.equal(listed.tests, 1);
  assert.deepEqual(listed.report.suites[0].tests.map((t) => t.title), ['from the fake']);
  assert.deepEqual([...durationsByFile({}, api)], [['a.spec.js', 11]]);
  assert.equal(durationsByTest({}, api).get(testKey('e', 'a.spec.js', ['u'])), 6);
  assert.equal(durationsFromReport({}, api).length, 3);
});

describe('suiteModules: the suite\'s own modules each test file loads (the Jest planner\'s modules)', () => {
  test('relative imports resolved as Node and Jest find them, followed through modules, packages and assets left out', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'sw-modules-'));
    const write = (rel, text) => {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    };
    // a.test.js: a module without its extension, which loads another (a cycle back), a folder's
    // index, a package and a stylesheet; b.test.ts: a TypeScript source named `.js`, as tsc wants,
    // a module another folder names too (one file, found once), and a file's path taken for a folder
    write('tests/a.test.js', "const x = require('../src/x');\nimport '../lib';\nimport _ from 'lodash';\nimport './a.css';\ntest('a', () => {});\n");
    write('tests/a.css', 'body {}');
    write('tests/b.test.ts', "import { z } from '../src/z.js';\nimport type { T } from '../src/types';\nimport '../src/y';\nimport '../src/z.ts/index';\ntest('b', () => {});\n");
    write('src/x.js', "const y = require('./y');\nmodule.exports = { y };\n");
    write('src/y.js', "const x = require('./x');\nmodule.exports = 1;\n");
    write('lib/index.js', 'module.exports = 2;\n');
    write('src/z.ts', "export const z = 1;\n");
    write('src/types.ts', 'export type T = number;\n');
    write('node_modules/lodash/index.js', 'module.exports = {};\n');
    const units = unitsFromFiles([path.join(root, 'tests/a.test.js'), path.join(root, 'tests/b.test.ts')], root);
    const { modules, bytes } = suiteModules({ api: shardwise, units, root });
    const byId = Object.fromEntries(modules.map((m) => [m.id, m]));
    assert.deepEqual(Object.keys(byId).sort(), ['lib/index.js', 'src/types.ts', 'src/x.js', 'src/y.js', 'src/z.ts']);
    assert.deepEqual(byId['src/y.js'].files, ['tests/a.test.js', 'tests/b.test.ts']);
    assert.deepEqual(byId['src/x.js'].files, ['tests/a.test.js', 'tests/b.test.ts']); // through y, from either folder
    assert.deepEqual(byId['src/z.ts'].files, ['tests/b.test.ts']);
    assert.equal(byId['src/x.js'].bytes, readFileSync(path.join(root, 'src/x.js')).length);
    assert.equal(bytes, modules.reduce((s, m) => s + m.bytes, 0));
  });

  test('with the durations exchange, each file is read and tokenized once: for the test list, then for its modules', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sw-modules-once-'));
    writeFileSync(path.join(dir, 'a.test.js'), "import { x } from './lib.js';\ntest('a', () => {});\n");
    writeFileSync(path.join(dir, 'b.test.js'), "import { x } from './lib.js';\ntest('b', () => {});\n");
    writeFileSync(path.join(dir, 'lib.js'), 'export const x = 1;\n');
    const tokenized = new Map();
    const importsOnly = [];
    const api = {
      ...shardwise,
      __discoverTests: (source) => { tokenized.set(source, (tokenized.get(source) ?? 0) + 1); return shardwise.__discoverTests(source); },
      __discoverImports: (source) => {
        importsOnly.push(Buffer.from(source).toString('utf8'));
        tokenized.set(source, (tokenized.get(source) ?? 0) + 1);
        return shardwise.__discoverImports(source);
      },
      shardGroupKeyFor: () => 'key',
      fetchDurations: async ({ report }) => report, // every test listed, no duration: estimates
      __timingsOf: undefined, // the costs: this fake's shardCosts
      shardCosts: () => ({ source: 'the service', perShardOverheadMs: 0, costs: { perWorkerMs: 0, coldMs: 1000, perFileMs: 0, perTestMs: 0, files: {} } }),
    };
    const lines = [];
    const planned = await planFiles({
      api, files: ['a.test.js', 'b.test.js'].map((f) => ({ path: path.join(dir, f), environment: 'jest' })), shardIndex: 1, shardCount: 1,
      options: resolveOptions({ baseUrl: 'http://127.0.0.1:9', accessToken: 'tok', commitId: 'c'.repeat(40) }, {}), cwd: dir, testRunner: 'jest', log: (l) => lines.push(l),
    });
    assert.ok(planned, lines.join('\n'));
    assert.match(lines.join('\n'), /cold 1\.0s over 1 module of the suite/);
    assert.equal(tokenized.size, 3, 'both test files and the module');
    assert.deepEqual([...tokenized.values()], [1, 1, 1]);
    assert.deepEqual(importsOnly, ['export const x = 1;\n'], 'the module, which has no tests to list, read for its imports alone');
  });

  test('a module, and a test file planned from a timings file, are read for their imports alone, the same as a whole read gives', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'sw-modules-imports-'));
    writeFileSync(path.join(root, 'a.test.js'), "import { x } from './lib.js';\ndescribe('d', () => { test('a', () => {}); test('a', () => {}); });\n");
    writeFileSync(path.join(root, 'lib.js'), "export * from './deep.js';\nimport 'lodash';\n");
    writeFileSync(path.join(root, 'deep.js'), 'export const x = 1;\n');
    const calls = { tests: 0, imports: 0 };
    const api = {
      __discoverTests: (b) => { calls.tests += 1; return shardwise.__discoverTests(b); },
      __discoverImports: (b) => { calls.imports += 1; return shardwise.__discoverImports(b); },
    };
    const units = unitsFromFiles([path.join(root, 'a.test.js')], root);
    const alone = suiteModules({ api, units, root });
    assert.deepEqual(calls, { tests: 0, imports: 3 }, 'no test titles read, and none carried across from wasm');
    // a reader that read the files whole first (the exchange's test list) gives the same modules
    const whole = sourceReader(shardwise);
    for (const f of ['a.test.js', 'lib.js', 'deep.js']) whole(path.join(root, f));
    assert.deepEqual(suiteModules({ api: shardwise, units, root, readSource: whole }), alone);
    assert.deepEqual(alone.modules.map((m) => [m.id, m.files]).sort(), [['deep.js', ['a.test.js']], ['lib.js', ['a.test.js']]]);
    // a whole read asked for after an imports-only one reads the file again, for its tests
    const reader = sourceReader(api);
    const p = path.join(root, 'a.test.js');
    assert.equal(reader(p, { importsOnly: true }).found.tests, undefined);
    assert.equal(reader(p).found.tests.length, 2);
    assert.equal(reader(p, { importsOnly: true }).found.tests.length, 2, 'the whole read serves an imports-only one');
    assert.equal(reader(path.join(root, 'missing.js'), { importsOnly: true }), undefined);
  });

  test('names Jest\'s configuration maps to the suite\'s files (moduleNameMapper, moduleDirectories, modulePaths), packages left out', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'sw-modules-aliases-'));
    const write = (rel, text) => {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    };
    write('tests/a.test.ts', [
      "import { x } from '@/lib/x';", // mapped, $1 of the pattern
      "import y from '~y';", // mapped to two targets: the first is not a file, the second is
      "import 'components/button';", // a moduleDirectories name (src), from the file's folders up
      "import 'helpers/h';", // modulePaths
      "import styles from './a.module.css';", // mapped to a package: none of the suite's
      "import React from 'react';", // a package
      "test('a', () => {});",
    ].join('\n'));
    write('src/lib/x.ts', "import { z } from '@/lib/z';\nexport const x = z;\n");
    write('src/lib/z.ts', 'export const z = 1;\n');
    write('src/y/index.js', 'module.exports = 2;\n');
    write('src/components/button.tsx', 'export default 3;\n');
    write('support/helpers/h.js', 'module.exports = 4;\n');
    write('node_modules/react/index.js', 'module.exports = {};\n');
    const config = {
      rootDir: root,
      // normalized as Jest gives a project's config: [pattern, target | targets], <rootDir> replaced
      moduleNameMapper: [['^@/(.*)$', `${root}/src/$1`], ['^~(.*)$', [`${root}/missing/$1`, `${root}/src/$1`]], ['\\.css$', 'identity-obj-proxy']],
      moduleDirectories: ['node_modules', 'src'],
      modulePaths: ['<rootDir>/support'],
    };
    const aliases = jestAliases([config]);
    const units = unitsFromFiles([path.join(root, 'tests/a.test.ts')], root);
    const ids = (a) => suiteModules({ api: shardwise, units, root, aliases: a }).modules.map((m) => m.id).sort();
    assert.deepEqual(ids(aliases), ['src/components/button.tsx', 'src/lib/x.ts', 'src/lib/z.ts', 'src/y/index.js', 'support/helpers/h.js']);
    // without the configuration's maps, relative imports only: none here
    assert.deepEqual(ids(undefined), []);
    // a configuration that maps nothing gives no aliases; Jest's object form is read too
    assert.equal(jestAliases([{ rootDir: root, moduleNameMapper: [], moduleDirectories: ['node_modules'] }]), undefined);
    assert.deepEqual(ids(jestAliases({ rootDir: root, moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' } })), ['src/lib/x.ts', 'src/lib/z.ts']);
  });

  test('a suite of 3,000 test files and 300 modules (a cycle through 200, families of 100): each module and the files that load it, and the plan\'s shares', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'sw-modules-big-'));
    const write = (rel, text) => {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    };
    // src/core/m000..m199 import the next (m199 the first: one cycle), each about 2 KB; ten
    // families' modules src/fam/f0..f9/x00..x09 load one of the cycle; test file i loads its
    // family's first module, and every tenth one the cycle too
    const pad = (n) => `/* ${'x'.repeat(n)} */\n`;
    for (let i = 0; i < 200; i++) write(`src/core/m${String(i).padStart(3, '0')}.js`, `import './m${String((i + 1) % 200).padStart(3, '0')}';\n${pad(2000)}`);
    for (let f = 0; f < 10; f++) {
      for (let k = 0; k < 10; k++) {
        const next = k < 9 ? `import './x${String(k + 1).padStart(2, '0')}.js';\n` : '';
        write(`src/fam/f${f}/x${String(k).padStart(2, '0')}.js`, `${next}${pad(500 * (f + 1))}`);
      }
    }
    const files = [];
    for (let i = 0; i < 3000; i++) {
      const rel = `tests/t${String(i).padStart(4, '0')}.test.js`;
      write(rel, `import '../src/fam/f${i % 10}/x00';\n${i % 10 === 0 ? "import '../src/core/m000.js';\n" : ''}test('t', () => {});\n`);
      files.push(path.join(root, rel));
    }
    const units = unitsFromFiles(files, root);
    const { modules, bytes } = suiteModules({ api: shardwise, units, root });
    assert.equal(modules.length, 300);
    const byId = Object.fromEntries(modules.map((m) => [m.id, m]));
    // the cycle, from any of its modules: every one, by the 300 files that import it
    for (const id of ['src/core/m000.js', 'src/core/m123.js', 'src/core/m199.js']) assert.equal(byId[id].files.length, 300, id);
    assert.equal(byId['src/fam/f3/x09.js'].files.length, 300);
    assert.ok(byId['src/fam/f3/x09.js'].files.every((f) => Number(f.slice(7, 11)) % 10 === 3));
    assert.equal(bytes, modules.reduce((s, m) => s + m.bytes, 0));
    // planned over 4 shards with a cold cost: each shard's share is the bytes its files load
    const planned = await planThisShard({
      api: shardwise, units, shardIndex: 2, shardCount: 4, unitLabel: 'files', runner: 'jest', workers: 2, modules: () => ({ modules, bytes }),
      getDurations: async () => ({ source: 'test', durationOf: () => 200, costs: { source: 'a run', perShardOverheadMs: 0, costs: { perWorkerMs: 0, coldMs: 4000, perFileMs: 20, perTestMs: 0, files: {} } } }),
    });
    const mine = new Set(planned.shard.units);
    const loaded = modules.filter((m) => m.files.some((f) => mine.has(f))).reduce((s, m) => s + m.bytes, 0);
    assert.equal(planned.expected.modulesShare, Math.round((1000 * loaded) / bytes) / 1000);
    assert.ok(planned.expected.modulesShare < 1, 'a shard of a quarter of the files loads less than every module');
  });

  test('planThisShard reads them only where a cold cost is shared out, and says so', async () => {
    const units = ['a.test.js', 'b.test.js', 'c.test.js', 'd.test.js'].map((f) => ({ id: f, file: f }));
    const modules = [{ id: 'src/ab.js', bytes: 4000, files: ['a.test.js', 'b.test.js'] }, { id: 'src/cd.js', bytes: 4000, files: ['c.test.js', 'd.test.js'] }];
    let reads = 0;
    const read = () => { reads += 1; return { modules, bytes: 8000 }; };
    const plan = (costs) => planThisShard({
      api: shardwise, units, shardIndex: 1, shardCount: 2, unitLabel: 'files', runner: 'jest', modules: read,
      getDurations: async () => ({ source: 'test', durationOf: () => 1000, costs: { source: 'a run', perShardOverheadMs: 0, costs } }),
    });
    const without = await plan({ perWorkerMs: 0, perFileMs: 0, perTestMs: 0, files: {} });
    assert.equal(reads, 0);
    assert.doesNotMatch(without.line, /modules/);
    const withCold = await plan({ perWorkerMs: 0, coldMs: 2000, perFileMs: 0, perTestMs: 0, files: {} });
    assert.equal(reads, 1);
    assert.match(withCold.line, /costs: a run, cold 2\.0s over 2 modules of the suite \(8 KB\)/);
    // the files that load the same module together: 2 s of files and 1 s of a module each
    assert.ok(['a.test.js,b.test.js', 'c.test.js,d.test.js'].includes([...withCold.mine].sort().join()), [...withCold.mine].join());
    assert.equal(withCold.shard.predictedMs, 3000);
    // the share of the modules it loads, as the plan counts it: the report's costs record keeps it
    assert.equal(withCold.shard.modulesShare, 0.5);
    assert.equal(withCold.expected.modulesShare, 0.5);
    assert.equal(without.expected.modulesShare, undefined);
    // a cold cost too small to share out (luxon's shards learn 0.1-0.4 s): not read, charged by
    // the shard's number of files, the plan of no modules
    const small = await plan({ perWorkerMs: 0, coldMs: 300, perFileMs: 0, perTestMs: 0, files: {} });
    assert.equal(reads, 1, 'the modules were not read again');
    assert.doesNotMatch(small.line, /modules/);
    assert.equal(small.expected.modulesShare, undefined);
    assert.ok(!shardwise.__chargesModules(300) && shardwise.__chargesModules(2000));
  });
});
