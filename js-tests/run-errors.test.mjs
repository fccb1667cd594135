// Errors outside the tests (files that failed to load, hooks outside tests, a global set-up that
// threw): what the runners give -> the report's `unattributedErrors` and the closing lines. The
// runners themselves are run in runners.test.mjs ("a run whose files fail to load").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunErrors, MAX_RUN_ERRORS, reportError, firstLine } from '../pkg/src/runner/run-errors.mjs';
import { recordFileErrors } from '../pkg/jest/translate.mjs';
import { recordModuleErrors, recordRunEnd } from '../pkg/vitest/translate.mjs';
import { ReportBuilder, validateReport, encodeReport, decodeReport } from 'shardwise';

const ROOT = '/repo';
const COMMIT = 'a'.repeat(40);

test('a Jest file that failed to load: its error, named by file, and the closing line counts it', () => {
  const errors = new RunErrors();
  recordFileErrors(errors, { root: ROOT }, {
    testFilePath: '/repo/tests/missing.test.js', testResults: [],
    testExecError: { message: "Cannot find module './nope' from 'tests/missing.test.js'", stack: "Error: Cannot find module './nope'\n    at x" },
  });
  recordFileErrors(errors, { root: ROOT }, { testFilePath: '/repo/tests/ok.test.js', testResults: [{ title: 't' }] });
  const report = { unattributedErrors: undefined };
  errors.addTo(report);
  assert.equal(report.unattributedErrors.length, 1);
  assert.deepEqual(report.unattributedErrors[0].location, { file: 'tests/missing.test.js', line: 1, column: 1 });
  assert.match(report.unattributedErrors[0].message, /^Cannot find module '.\/nope' from 'tests\/missing.test.js'$/, 'the file is named once');
  assert.match(report.unattributedErrors[0].stack, /^Error: Cannot find module/);
  assert.deepEqual(errors.lines(), ['[shardwise] 1 test file failed to load (tests/missing.test.js): the run failed; the errors are in the report']);
});

test('a hook outside the tests failed in a file whose tests ran: an error outside the tests, not a file that failed to load', () => {
  const errors = new RunErrors();
  recordFileErrors(errors, { root: ROOT }, { testFilePath: '/repo/tests/a.test.js', testResults: [{ title: 't' }], testExecError: { message: 'afterAll: \u001b[31mconnection reset\u001b[39m' } });
  assert.equal(errors.failedFiles.size, 0);
  assert.deepEqual(errors.lines(), ['[shardwise] an error outside the tests (afterAll: connection reset): the run failed; the errors are in the report']);
  const report = {};
  errors.addTo(report);
  assert.equal(report.unattributedErrors[0].message, 'afterAll: \u001b[31mconnection reset\u001b[39m', 'kept as the runner gave it (the viewer renders its colours)');
  assert.deepEqual(report.unattributedErrors[0].location, { file: 'tests/a.test.js', line: 1, column: 1 });
});

test('Vitest: a module whose import failed, and a run that failed before any module (a global set-up)', () => {
  const errors = new RunErrors();
  const failed = { moduleId: '/repo/tests/syntax.test.ts', errors: () => [{ message: 'Transform failed with 1 error', stack: 'Error: Transform failed' }], children: { allTests: function* () {} } };
  const hooked = { moduleId: '/repo/tests/b.test.ts', errors: () => [{ message: 'beforeAll timed out' }], children: { allTests: function* () { yield {}; } } };
  const clean = { moduleId: '/repo/tests/c.test.ts', errors: () => [], children: { allTests: function* () { yield {}; } } };
  for (const m of [failed, hooked, clean]) recordModuleErrors(errors, { root: ROOT }, m);
  recordRunEnd(errors, { root: ROOT }, [failed, hooked, clean], [{ message: 'Unhandled rejection: EPIPE' }], 'failed');
  assert.deepEqual([...errors.failedFiles], ['tests/syntax.test.ts']);
  assert.deepEqual(errors.lines(), [
    '[shardwise] 1 test file failed to load (tests/syntax.test.ts): the run failed; the errors are in the report',
    '[shardwise] and 2 errors outside the tests (beforeAll timed out)',
  ]);

  const early = new RunErrors();
  recordRunEnd(early, { root: ROOT }, [], [], 'failed');
  const report = {};
  early.addTo(report);
  assert.equal(report.unattributedErrors.length, 1);
  assert.match(report.unattributedErrors[0].message, /before any test file ran/);
  assert.match(early.lines()[0], /^\[shardwise\] Vitest ended the run as failed before any test file ran .*: the report says so$/);
  const passed = new RunErrors();
  recordRunEnd(passed, { root: ROOT }, [], [], 'passed');
  assert.deepEqual(passed.lines(), [], 'a run with no test files that passed is no error');
});

test('a run where every file fails keeps the first errors, says how many more, and names at most 3 files', () => {
  const errors = new RunErrors();
  for (let i = 0; i < MAX_RUN_ERRORS + 50; i++) recordFileErrors(errors, { root: ROOT }, { testFilePath: `/repo/t/${i}.test.js`, testResults: [], testExecError: { message: `boom ${i}` } });
  const report = {};
  errors.addTo(report);
  assert.equal(report.unattributedErrors.length, MAX_RUN_ERRORS + 1);
  assert.match(report.unattributedErrors.at(-1).message, /^50 more errors outside the tests were left out/);
  assert.equal(errors.lines()[0], `[shardwise] ${MAX_RUN_ERRORS + 50} test files failed to load (t/0.test.js, t/1.test.js, t/2.test.js, and ${MAX_RUN_ERRORS + 47} more): the run failed; the errors are in the report`);
});

test('the errors make a valid report that round-trips, with none of the tests', () => {
  const errors = new RunErrors();
  recordFileErrors(errors, { root: ROOT }, { testFilePath: '/repo/tests/x.test.js', testResults: [], testExecError: { message: 'SyntaxError: Unexpected token (2:0)', stack: 'SyntaxError\n  at x' } });
  errors.add({ message: 'outside the root', location: { file: '/elsewhere/setup.js', line: 3, column: 2 } }, { root: ROOT });
  errors.add(Object.create(null), { root: ROOT });
  const report = new ReportBuilder({ category: 'jest', commitId: COMMIT, startTimestamp: 1 }).build();
  errors.addTo(report);
  assert.deepEqual(validateReport(report), []);
  const back = decodeReport(encodeReport(report));
  assert.equal(back.unattributedErrors.length, 3);
  assert.equal(back.unattributedErrors[1].location, undefined, 'a location outside the root is left out');
  assert.equal(back.unattributedErrors[2].message, 'an error without a message');
});

test('reportError and firstLine', () => {
  assert.deepEqual(reportError({ message: 'm', stack: 's', snippet: 'x', location: { file: '/repo/a.spec.ts', line: 4 } }, ROOT), { message: 'm', stack: 's', snippet: 'x', location: { file: 'a.spec.ts', line: 4, column: 1 } });
  assert.deepEqual(reportError('plain', ROOT), { message: 'plain' });
  assert.equal(firstLine('\n\n  \u001b[31mError\u001b[39m: x\nmore'), 'Error: x');
  assert.equal(firstLine('y'.repeat(300)).length, 200);
});
