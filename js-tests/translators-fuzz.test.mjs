// Issue 18, "a report is never lost to one value": seeded fuzz of Playwright, Jest, Vitest and
// node:test result objects through the real reporters (onBegin/onTestEnd/onEnd, onRunStart/
// onTestResult/onRunComplete, onInit/onTestCaseResult/onTestRunEnd, node:test's events through
// onStart/onEvent/end; saving only: upload off), where every
// field is independently absent, null, a number out of range, of the wrong type, an odd string,
// ... or (most of the time) a realistic value. After each run the saved report.json.br decodes,
// validates (validateReport and the published schema), holds every test given a usable title,
// and the reporter said each mend and each loss once. Then deterministic cases for real-world
// shapes, and the regressions the fuzz found.
//   SHARDWISE_FUZZ_SEED=<n> node --test js-tests/translators-fuzz.test.mjs   (replays a run)
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Schema } from '@flakiness/flakiness-report';
import { decodeReport, validateReport } from 'shardwise';
import PlaywrightReporter from 'shardwise/playwright';
import JestReporter from 'shardwise/jest';
import VitestReporter from 'shardwise/vitest';
import { ShardwiseNodeTestReporter } from 'shardwise/node-test';

const SEED = process.env.SHARDWISE_FUZZ_SEED !== undefined
  ? Number(process.env.SHARDWISE_FUZZ_SEED) >>> 0
  : (Date.now() ^ (process.pid << 8)) >>> 0;
const COMMIT = 'f00d'.padEnd(40, '0');
/** Results per runner per run, and runs per runner: 300 results per runner in all. */
const PER_RUN = 100;
const RUNS = 3;
/**
 * Describe blocks around a deeply nested test: deeper than the builder keeps (24 suites; it joins
 * the rest into the last), so the report's nesting bound is exercised.
 */
const DEEP_SUITES = 70;

const MENDED = /values the report format cannot hold were left out of the report/;
const LOST = /the rest of the report is kept \(said once\)/;

const scratch = mkdtempSync(path.join(tmpdir(), 'shardwise-fuzz-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
let dirs = 0;
const tmp = () => {
  const d = path.join(scratch, String(dirs++));
  mkdirSync(d);
  return d;
};

/** A failure names the seed that replays it. */
async function seeded(seed, body) {
  try {
    await body();
  } catch (e) {
    throw new Error(`fuzz failure; replay with SHARDWISE_FUZZ_SEED=${SEED} (run seed ${seed}): ${e?.message ?? e}`, { cause: e });
  }
}

// ---------------------------------------------------------------------------------------------
// The generator: mulberry32, and values that are valid most of the time.

function gen(seed) {
  let a = seed >>> 0;
  const r = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(r() * n);
  return { r, int, pick: (xs) => xs[int(xs.length)], chance: (p) => r() < p };
}

const WORDS = ['login', 'renders', 'cart', 'checkout', 'retries', 'search', 'the dialog', 'dark mode', 'api', 'upload'];
const T0 = 1_760_000_000_000;

/** One value no runner should give, but one might. */
function weird(g, depth = 0) {
  const makers = [
    () => undefined, () => null, () => -1, () => -0.5, () => 1e300, () => 2 ** 53 + 1, () => NaN, () => Infinity,
    () => -Infinity, () => 0.5, () => 12.75, () => 0, () => '', () => '\ud800', () => 'a\udc00b', () => 'x'.repeat(20_000 + g.int(20_000)),
    () => 'text', () => '42', () => true, () => false, () => [], () => [1, 'a', null], () => ({}), () => ({ nested: { deep: [1] } }),
    () => function f() {}, () => Symbol('s'), () => 10n, () => new Date(T0), () => new Date(NaN), () => Buffer.from('buffer'),
    () => new Uint8Array([1, 2, 3]), () => Object.create(null), () => ({ toString: () => 'custom' }),
    () => (depth < 2 ? [weird(g, depth + 1), weird(g, depth + 1)] : 'x'),
    () => 'constructor', () => '__proto__', () => 'a\0b', () => 2 ** 32, () => -(2 ** 31), () => -0,
  ];
  return g.pick(makers)();
}

/** `valid()` most of the time, else absent (`NONE`), else a weird value. */
const NONE = Symbol('none');
function field(g, valid, p = 0.75) {
  const x = g.r();
  if (x < p) return valid();
  if (x < p + 0.07) return NONE;
  return weird(g);
}
/** An object of fields, each from `field`. */
function obj(g, fields, p) {
  const out = {};
  for (const [k, valid] of Object.entries(fields)) {
    const v = field(g, valid, p);
    if (v !== NONE) out[k] = v;
  }
  return out;
}
/** A list of 0..max elements, each valid or (sometimes) weird (through `field`, the list itself may be weird). */
const listOf = (g, valid, max = 3) => () => Array.from({ length: g.int(max + 1) }, () => (g.chance(0.85) ? valid() : weird(g)));

const words = (g) => () => `${g.pick(WORDS)} ${g.pick(WORDS)}`;
const line = (g) => () => 1 + g.int(400);
const wholeMs = (g) => () => (g.chance(0.8) ? g.int(5000) : g.int(500_000) / 7);

// ---------------------------------------------------------------------------------------------
// Fake runner objects (the fields the reporters read, plus the usual others).

function pwLocation(g, root) {
  return obj(g, {
    file: () => g.pick([
      path.join(root, 'tests', 'a.spec.ts'), path.join(root, 'tests', 'b.spec.ts'), 'tests/rel.spec.ts',
      '/usr/lib/node_modules/@playwright/test/lib/x.js', path.join(root, '..', 'outside.spec.ts'), path.join(root, 'tests'),
    ]),
    line: () => g.pick([0, 1 + g.int(300), 1 + g.int(300), -3]),
    column: () => g.pick([0, 1 + g.int(80), 1 + g.int(80), -1]),
  });
}

function pwError(g, root) {
  return obj(g, {
    message: () => `Error: expect(received).toBe(expected) ${g.pick(WORDS)}`,
    stack: () => `Error: boom\n    at ${root}/tests/a.spec.ts:${1 + g.int(99)}:3`,
    snippet: () => '  12 |   await page.click()\n> 13 |   expect(x).toBe(1)',
    value: () => 'thrown value',
    location: () => pwLocation(g, root),
  });
}

function pwStep(g, root, depth, parent) {
  const s = obj(g, {
    title: words(g), category: () => g.pick(['test.step', 'expect', 'pw:api', 'hook', 'fixture']),
    duration: wholeMs(g), startTime: () => new Date(T0 + g.int(1e6)), location: () => pwLocation(g, root),
    error: () => (g.chance(0.2) ? pwError(g, root) : undefined),
    attachments: () => [], annotations: () => [],
  });
  s.parent = parent; // Playwright's steps point back at their parent: a cycle
  if (depth < 4 && g.chance(0.4)) {
    const steps = field(g, listOf(g, () => pwStep(g, root, depth + 1, s), 3), 0.85);
    if (steps !== NONE) s.steps = steps;
  } else s.steps = [];
  return s;
}

/** A chain of steps `n` deep. */
function deepSteps(n, leaf = {}) {
  let s = { title: 'leaf', duration: 1, steps: [], ...leaf };
  for (let i = 0; i < n; i++) s = { title: `level ${n - i}`, duration: 1, steps: [s] };
  return [s];
}

function attachmentOf(g, files) {
  const a = obj(g, {
    name: () => g.pick(['screenshot', 'trace', 'video', 'stdout']),
    contentType: () => g.pick(['image/png', 'application/zip', 'text/plain', 'video/webm']),
  });
  const way = g.int(9);
  if (way === 0) a.body = Buffer.from(`png ${g.int(1000)}`);
  else if (way === 1) a.body = new Uint8Array([137, 80, 78, 71, g.int(256)]);
  else if (way === 2) a.body = `text body ${g.int(1000)}`;
  else if (way === 3) a.body = weird(g);
  else if (way === 4) a.path = files.existing;
  else if (way === 5) a.path = path.join(files.dir, `missing-${g.int(1000)}.zip`);
  else if (way === 6) a.path = files.dir; // a directory
  else if (way === 7) a.path = g.pick([42, weird(g)]);
  return a; // way 8: neither body nor path
}

/** The Playwright suite tree around a test: root > project > file > describes > test. */
function pwParent(g, root, i) {
  const rootSuite = { type: 'root', title: '', parent: undefined, suites: [], tests: [] };
  const project = { type: 'project', title: field(g, () => g.pick(['chromium', 'firefox']), 0.9), parent: rootSuite, suites: [], tests: [] };
  const file = { type: 'file', title: 'tests/a.spec.ts', parent: project, location: { file: g.pick([path.join(root, 'tests', `f${i % 7}.spec.ts`), path.join(root, '..', 'shared', 'x.spec.ts')]), line: 0, column: 0 }, suites: [], tests: [] };
  let parent = file;
  const describes = g.chance(0.02) ? DEEP_SUITES : g.int(3);
  for (let d = 0; d < describes; d++) {
    const title = field(g, words(g), 0.85);
    parent = { type: 'describe', title: title === NONE ? undefined : title, parent, suites: [], tests: [] };
  }
  return g.chance(0.03) ? weird(g) : parent;
}

/**
 * A Playwright test and its results (1..3 attempts; 1 in 100 a weird value instead of a result);
 * `marker` ("fz<i>", the title's first word) when the title is usable (a string), else undefined.
 */
function pwCase(g, root, files, i) {
  const marker = `fz${i}`;
  const title = g.chance(0.9) ? `${marker} ${g.pick(WORDS)}` : weird(g);
  const t = {
    type: 'test', title, id: `id${i}`, parent: pwParent(g, root, i), results: [], retries: 2,
    ...obj(g, {
      location: () => pwLocation(g, root),
      expectedStatus: () => g.pick(['passed', 'passed', 'failed', 'skipped']),
      timeout: () => g.pick([30_000, 0, 5000]),
      tags: listOf(g, () => g.pick(['@smoke', '@slow', '@flaky'])),
      annotations: listOf(g, () => obj(g, { type: () => g.pick(['skip', 'fixme', 'issue', 'slow']), description: words(g), location: () => pwLocation(g, root) })),
      repeatEachIndex: () => g.int(3),
    }),
  };
  t.titlePath = () => [];
  t.outcome = () => 'expected';
  const results = [];
  const attempts = g.chance(0.2) ? 2 + g.int(2) : 1;
  for (let retry = 0; retry < attempts; retry++) {
    const steps = g.chance(0.03) ? deepSteps(200, { error: pwError(g, root) }) : field(g, listOf(g, () => pwStep(g, root, 0, undefined), 3));
    const result = {
      retry, workerIndex: g.int(4),
      ...obj(g, {
        status: () => g.pick(['passed', 'passed', 'failed', 'timedOut', 'skipped', 'interrupted']),
        startTime: () => new Date(T0 + g.int(1e7)),
        duration: wholeMs(g),
        parallelIndex: () => g.pick([0, 1, 2, -1]),
        errors: listOf(g, () => pwError(g, root), 2),
        stdout: listOf(g, () => (g.chance(0.7) ? `out ${g.int(100)}\n` : Buffer.from(`bytes ${g.int(100)}`)), 3),
        stderr: listOf(g, () => (g.chance(0.5) ? `err ${g.int(100)}\n` : new Uint8Array([0xff, g.int(256)])), 2),
        attachments: listOf(g, () => attachmentOf(g, files), 2),
        annotations: listOf(g, () => obj(g, { type: () => 'issue', description: words(g) })),
      }),
    };
    if (steps !== NONE) result.steps = steps;
    if (g.chance(0.02)) result.startTime = new Date(NaN);
    results.push(g.chance(0.01) ? weird(g) : result);
  }
  return { test: t, results, marker: typeof title === 'string' && title.startsWith(marker) ? marker : undefined };
}

function jestAssertion(g, root, i) {
  const marker = `fz${i}`;
  const title = g.chance(0.9) ? `${marker} ${g.pick(WORDS)}` : weird(g);
  const r = {
    title,
    ...obj(g, {
      ancestorTitles: listOf(g, words(g), 2),
      fullName: words(g),
      status: () => g.pick(['passed', 'passed', 'failed', 'pending', 'todo', 'skipped', 'disabled', 'focused']),
      duration: wholeMs(g),
      failureMessages: listOf(g, () => `Error: expect(received).toBe(expected)\n    at ${root}/t.spec.js:3:5`, 2),
      failureDetails: listOf(g, () => ({ matcherResult: { pass: false } }), 1),
      location: () => obj(g, { line: line(g), column: () => g.int(40) }),
      retryReasons: listOf(g, () => 'Error: first try failed', 2),
      invocations: () => 1 + g.int(2),
      startAt: () => T0 + g.int(1e6),
      numPassingAsserts: () => g.int(5),
    }),
  };
  // a retry is an invocation beyond the first, with its error when Jest kept one (retryReasons)
  const kept = Array.isArray(r.retryReasons) ? r.retryReasons.length : 0;
  const invocations = Number.isSafeInteger(r.invocations) && r.invocations > 1 ? Math.min(r.invocations, 101) : 1;
  return { r, marker: typeof title === 'string' && title.startsWith(marker) ? marker : undefined, attempts: 1 + Math.max(kept, invocations - 1) };
}

/** A Jest file result of 1..5 assertion results; cases: the markers given. */
function jestFile(g, root, first, n) {
  const cases = Array.from({ length: n }, (_, k) => jestAssertion(g, root, first + k));
  const given = g.chance(0.97);
  const testResult = {
    testResults: given ? cases.map((c) => c.r) : weird(g),
    ...obj(g, {
      testFilePath: () => g.pick([path.join(root, 'src', `f${first % 5}.test.js`), path.join(root, '..', 'elsewhere.test.js'), 'rel/x.test.js']),
      perfStats: () => obj(g, { start: () => T0 + g.int(1e6), end: () => T0 + 1e6 + g.int(1e6), runtime: wholeMs(g), slow: () => false }),
      failureMessage: () => null,
      numFailingTests: () => g.int(3),
      console: () => undefined,
    }),
  };
  return g.chance(0.01) ? { testResult: weird(g), cases: [] } : { testResult, cases: given ? cases : [] };
}

function vitestCase(g, root, i) {
  const marker = `fz${i}`;
  const name = g.chance(0.9) ? `${marker} ${g.pick(WORDS)}` : weird(g);
  const module = { type: 'module', ...obj(g, { moduleId: () => g.pick([path.join(root, 'src', `m${i % 5}.test.ts`), path.join(root, '..', 'out.test.ts'), 'virtual:x']) }) };
  let parent = module;
  const depth = g.chance(0.02) ? DEEP_SUITES : g.int(3);
  for (let d = 0; d < depth; d++) parent = { type: 'suite', ...obj(g, { name: words(g) }), parent, module };
  const result = field(g, () => obj(g, {
    state: () => g.pick(['passed', 'passed', 'failed', 'skipped', 'pending']),
    errors: listOf(g, () => obj(g, { message: () => 'expected 1 to be 2', stack: () => `AssertionError: expected 1 to be 2\n    at ${root}/src/m.test.ts:4:7`, name: () => 'AssertionError', diff: () => '- 1\n+ 2' }), 2),
  }));
  const diagnostic = field(g, () => obj(g, {
    duration: wholeMs(g), startTime: () => T0 + g.int(1e6), retryCount: () => g.pick([0, 0, 1, 2]), repeatCount: () => 0,
    flaky: () => false, slow: () => false, heap: () => undefined,
    annotations: listOf(g, () => obj(g, { type: () => g.pick(['todo', 'issue']), message: words(g) }), 2),
  }));
  const logs = field(g, listOf(g, () => obj(g, { content: () => `log ${g.int(100)}\n`, type: () => g.pick(['stdout', 'stderr']), time: () => T0 + g.int(1e6), taskId: () => 'x', size: () => 6 }), 3));
  const testCase = {
    type: 'test', name, id: `v${i}`, fullName: typeof name === 'string' ? name : 'odd', parent, module,
    ...obj(g, {
      project: () => obj(g, { name: () => g.pick(['', 'unit', 'browser']) }),
      location: () => obj(g, { line: line(g), column: () => g.int(40) }),
      options: () => obj(g, { fails: () => g.chance(0.1), mode: () => 'run', retry: () => 0, repeats: () => 0 }),
      tags: listOf(g, () => g.pick(['slow', 'db'])),
    }),
    result: () => (result === NONE ? undefined : result),
    diagnostic: () => (diagnostic === NONE ? undefined : diagnostic),
    logs: () => (logs === NONE ? undefined : logs),
  };
  const state = result !== NONE && result !== null && typeof result === 'object' ? result.state : undefined;
  // retries become attempts: counted exactly when retryCount is a plain count, else at least one
  const count = diagnostic !== NONE && diagnostic !== null && typeof diagnostic === 'object' ? diagnostic.retryCount : undefined;
  const attempts = count === undefined ? 1 : Number.isInteger(count) && count >= 0 && count <= 1000 ? 1 + count : undefined;
  return {
    testCase, pending: state === 'pending', attempts,
    marker: typeof name === 'string' && name.startsWith(marker) ? marker : undefined,
  };
}

/**
 * node:test's events of one test (reporter events: `test:start` of its suites and of it, maybe
 * its stderr, its `test:pass`/`test:fail`, then its suites' ends), in one of five files (or an odd
 * file); every field may be odd. `marker`: a test the report must hold (a string title in a file
 * named by a string: node:test names the file of every test it runs).
 */
function nodeTestCase(g, root, i) {
  const marker = `fz${i}`;
  const file = g.chance(0.96)
    ? g.pick([path.join(root, 'test', `f${i % 5}.test.mjs`), path.join(root, 'test', `f${i % 5}.test.mjs`), path.join(root, '..', 'out.test.mjs'), 'test/relative.test.mjs'])
    : weird(g);
  const name = g.chance(0.9) ? `${marker} ${g.pick(WORDS)}` : weird(g);
  const depth = g.chance(0.02) ? DEEP_SUITES : g.int(3);
  const suites = Array.from({ length: depth }, () => (g.chance(0.95) ? words(g)() : weird(g)));
  const events = suites.map((s, d) => ({ type: 'test:start', data: { file, nesting: d, name: s } }));
  events.push({ type: 'test:start', data: { file, nesting: depth, name, ...obj(g, { line: line(g), column: () => g.int(40) }) } });
  if (g.chance(0.1)) events.push({ type: 'test:stderr', data: { file, ...obj(g, { message: () => `warning ${g.pick(WORDS)}\n` }) } });
  const failed = g.chance(0.2);
  const error = () => {
    const cause = obj(g, { message: () => 'Expected values to be strictly equal:\n\n1 !== 2\n', stack: () => `AssertionError [ERR_ASSERTION]: Expected values\n    at ${root}/test/f.test.mjs:4:7`, code: () => 'ERR_ASSERTION', actual: () => 1, expected: () => 2 });
    return { message: 'test failed', failureType: g.pick(['testCodeFailure', 'hookFailed', weird(g)]), code: 'ERR_TEST_FAILURE', ...obj(g, { cause: () => cause }) };
  };
  const data = {
    file, nesting: depth, name,
    ...obj(g, {
      line: line(g), column: () => g.int(40), testNumber: () => 1 + g.int(9),
      skip: () => g.pick([undefined, undefined, true, 'not on CI']), todo: () => g.pick([undefined, undefined, true, 'later']),
      details: () => obj(g, { duration_ms: wholeMs(g), type: () => 'test', ...(failed ? { error } : {}) }),
    }),
  };
  events.push({ type: failed ? 'test:fail' : 'test:pass', data: g.chance(0.005) ? weird(g) : data });
  for (let d = depth - 1; d >= 0; d--) events.push({ type: 'test:pass', data: { file, nesting: d, name: suites[d], details: { type: 'suite', duration_ms: 1 } } });
  const usable = typeof name === 'string' && name.startsWith(marker) && typeof file === 'string' && events.at(-1 - depth).data === data;
  return { events, marker: usable ? marker : undefined };
}

// ---------------------------------------------------------------------------------------------
// The saved report and what it must hold.

/** Every test in a report document with its title path. */
function testsOf(report) {
  const out = [];
  const walk = (suite, titles) => {
    for (const t of suite.tests ?? []) out.push({ titlePath: [...titles, t.title], test: t });
    for (const s of suite.suites ?? []) walk(s, s.type === 'file' ? titles : [...titles, s.title]);
  };
  walk(report, []);
  return out;
}

/** Reads the saved folder and checks it: decodes, validates, passes the schema; attachments on disk. */
function readSavedReport(folder) {
  const file = path.join(folder, 'report.json.br');
  assert.ok(existsSync(file), `no saved report in ${folder}`);
  const report = decodeReport(readFileSync(file));
  assert.deepEqual(validateReport(report), [], 'validateReport of the saved report');
  const parsed = Schema.Report.safeParse(report);
  assert.ok(parsed.success, `the schema refuses the saved report: ${JSON.stringify(parsed.error?.issues?.slice(0, 3))}`);
  const manifest = JSON.parse(readFileSync(path.join(folder, 'attachments.json'), 'utf8'));
  const ids = new Set(manifest.map((a) => a.id));
  for (const { test: t } of testsOf(report)) {
    for (const a of t.attempts) {
      for (const x of a.attachments ?? []) {
        assert.ok(ids.has(x.id), `attachment ${x.id} not in attachments.json`);
        assert.ok(existsSync(path.join(folder, 'attachments', x.id)), `attachment ${x.id} not saved`);
      }
    }
  }
  return report;
}

/**
 * The checks after one run: nothing escaped a hook, the report is saved and valid, at most one
 * mended and one loss line (said once), never "reporting stopped", and every test given a usable
 * title is there with its attempts, unless the loss was said (and losses are rare).
 * `given`: [{marker, attempts}].
 */
function checkRun({ folder, log, escaped, given }) {
  assert.deepEqual(escaped, [], 'an exception escaped a reporter hook');
  assert.equal(log.filter((l) => /reporting stopped/.test(l)).length, 0, log.join('\n'));
  assert.equal(log.filter((l) => /report saved to/.test(l)).length, 1, log.join('\n'));
  const mended = log.filter((l) => MENDED.test(l));
  const lost = log.filter((l) => LOST.test(l));
  assert.ok(mended.length <= 1, `mended said ${mended.length} times`);
  assert.ok(lost.length <= 1, `loss said ${lost.length} times`);
  const report = readSavedReport(folder);
  const byMarker = new Map();
  for (const { test: t } of testsOf(report)) {
    const m = /^(fz\d+) /.exec(t.title)?.[1];
    if (m) byMarker.set(m, (byMarker.get(m) ?? 0) + t.attempts.length);
  }
  const missing = [];
  for (const { marker, attempts } of given) {
    if (!marker) continue;
    const got = byMarker.get(marker);
    if (got === undefined) missing.push(`${marker}: no test`);
    else if (attempts === undefined ? got < 1 : got !== attempts) missing.push(`${marker}: ${got} of ${attempts} attempts`);
  }
  const usable = given.filter((c) => c.marker).length;
  if (missing.length) {
    assert.equal(lost.length, 1, `results lost without a word: ${missing.slice(0, 5).join(', ')}\n${log.join('\n')}`);
    assert.ok(missing.length <= Math.max(1, usable * 0.02), `${missing.length} of ${usable} results lost: ${missing.slice(0, 5).join(', ')}; said: ${lost[0]}`);
  }
  return { report, usable, missing: missing.length, mended: mended.length, lost: lost.length };
}

/** Calls a hook, recording what escapes it. */
async function hook(escaped, name, call) {
  try {
    await call();
  } catch (e) {
    escaped.push(`${name}: ${e?.stack ?? e}`);
  }
}

/** Attachment files: one that exists, and their folder. */
function attachmentFiles(root) {
  const dir = path.join(root, 'attachments-src');
  mkdirSync(dir, { recursive: true });
  const existing = path.join(dir, 'trace.zip');
  writeFileSync(existing, 'PK fake zip');
  return { dir, existing };
}

async function playwrightRun(g, { n, first = 0, make } = {}) {
  const root = tmp();
  const folder = path.join(root, 'out');
  const files = attachmentFiles(root);
  const log = [];
  const escaped = [];
  const reporter = new PlaywrightReporter({ commitId: COMMIT, outputFolder: folder, upload: false });
  reporter.log = (l) => log.push(l);
  const config = { configFile: path.join(root, 'playwright.config.ts'), version: '1.65.1', projects: [{ name: 'chromium' }, { name: 'firefox', metadata: { headless: true } }] };
  await hook(escaped, 'onBegin', () => reporter.onBegin(config, { allTests: () => [] }));
  const cases = make ? make(root, files) : Array.from({ length: n }, (_, k) => pwCase(g, root, files, first + k));
  for (const c of cases) for (const r of c.results) await hook(escaped, 'onTestEnd', () => reporter.onTestEnd(c.test, r));
  await hook(escaped, 'onEnd', () => reporter.onEnd({ status: 'passed', duration: 1234 }));
  return { folder, log, escaped, root, given: cases.map((c) => ({ marker: c.marker, attempts: c.results.length })) };
}

async function jestRun(g, { n, first = 0, make } = {}) {
  const root = tmp();
  const folder = path.join(root, 'out');
  const log = [];
  const escaped = [];
  const reporter = new JestReporter({ rootDir: root }, { commitId: COMMIT, outputFolder: folder, upload: false });
  reporter.log = (l) => log.push(l);
  await hook(escaped, 'onRunStart', () => reporter.onRunStart({ numTotalTestSuites: 1 }, {}));
  const files = make ? make(root) : [];
  for (let made = 0; !make && made < n;) {
    const k = Math.min(1 + g.int(5), n - made);
    files.push(jestFile(g, root, first + made, k));
    made += k;
  }
  for (const f of files) await hook(escaped, 'onTestResult', () => reporter.onTestResult({ path: f.testResult?.testFilePath }, f.testResult, {}));
  await hook(escaped, 'onRunComplete', () => reporter.onRunComplete(new Set(), {}));
  // as Jest does once every reporter has completed (the reporter's closing lines come then)
  await hook(escaped, 'getLastError', () => reporter.getLastError());
  return { folder, log, escaped, root, given: files.flatMap((f) => f.cases.map((c) => ({ marker: c.marker, attempts: c.attempts }))) };
}

async function vitestRun(g, { n, first = 0, make } = {}) {
  const root = tmp();
  const folder = path.join(root, 'out');
  const log = [];
  const escaped = [];
  const reporter = new VitestReporter({ commitId: COMMIT, outputFolder: folder, upload: false });
  reporter.log = (l) => log.push(l);
  await hook(escaped, 'onInit', () => reporter.onInit({ config: { root }, projects: [{ name: '' }, { name: 'unit' }, { name: 'browser' }], version: '3.2.4' }));
  const cases = make ? make(root) : Array.from({ length: n }, (_, k) => vitestCase(g, root, first + k));
  for (const c of cases) await hook(escaped, 'onTestCaseResult', () => reporter.onTestCaseResult(c.testCase));
  await hook(escaped, 'onTestRunEnd', () => reporter.onTestRunEnd([], [], 'passed'));
  return { folder, log, escaped, root, given: cases.filter((c) => !c.pending).map((c) => ({ marker: c.marker, attempts: c.attempts })) };
}

async function nodeTestRun(g, { n, first = 0, make } = {}) {
  const root = tmp();
  const folder = path.join(root, 'out');
  const log = [];
  const escaped = [];
  const reporter = new ShardwiseNodeTestReporter({ commitId: COMMIT, outputFolder: folder, upload: false });
  reporter.log = (l) => log.push(l);
  await hook(escaped, 'onStart', () => reporter.onStart({ cwd: root }));
  const cases = make ? make(root) : Array.from({ length: n }, (_, k) => nodeTestCase(g, root, first + k));
  for (const c of cases) for (const e of c.events) await hook(escaped, 'onEvent', () => reporter.onEvent(e));
  // each file's own test at its end, as node:test ends a file (one failing: a file that did not load)
  for (let f = 0; f < 5; f++) {
    const file = path.join(root, 'test', `f${f}.test.mjs`);
    const ok = g.chance(0.9);
    await hook(escaped, 'onEvent', () => reporter.onEvent({ type: ok ? 'test:pass' : 'test:fail', data: { file, nesting: 0, name: file, details: { duration_ms: g.int(900), ...(ok ? {} : { error: { message: 'test failed', failureType: 'testCodeFailure' } }) } } }));
    await hook(escaped, 'onEvent', () => reporter.onEvent({ type: 'test:complete', data: { file, nesting: 0, name: file, details: { duration_ms: field(g, () => g.int(900)) } } }));
  }
  await hook(escaped, 'end', () => reporter.end());
  return { folder, log, escaped, root, given: cases.map((c) => ({ marker: c.marker, attempts: 1 })) };
}

// ---------------------------------------------------------------------------------------------
// The fuzz.

const RUNNERS = { playwright: playwrightRun, jest: jestRun, vitest: vitestRun, 'node-test': nodeTestRun };

describe(`fuzz: ${RUNS} runs of ${PER_RUN} results per runner, seed ${SEED} (SHARDWISE_FUZZ_SEED replays)`, () => {
  Object.entries(RUNNERS).forEach(([name, run], r) => {
    test(`${name}: every run saves a valid report with every usable test, each mend and loss said once`, async (t) => {
      const totals = { usable: 0, missing: 0, mendedRuns: 0, lostRuns: 0 };
      const started = Date.now();
      for (let k = 0; k < RUNS; k++) {
        const seed = (SEED + 7919 * (r * RUNS + k + 1)) >>> 0;
        await seeded(seed, async () => {
          const out = await run(gen(seed), { n: PER_RUN, first: k * PER_RUN });
          const c = checkRun(out);
          totals.usable += c.usable;
          totals.missing += c.missing;
          totals.mendedRuns += c.mended;
          totals.lostRuns += c.lost;
        });
      }
      t.diagnostic(`${name}: ${RUNS * PER_RUN} results, ${totals.usable} with a usable title, ${totals.missing} lost; runs with a mend ${totals.mendedRuns}/${RUNS}, with a loss ${totals.lostRuns}/${RUNS}; ${Date.now() - started} ms`);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Deterministic cases: real-world shapes, and what the fuzz found.

/** A Playwright test in `root`: root > project > file > describes > test. */
function pwTest(root, title, { describes = [], file = 'tests/a.spec.ts', project = 'chromium', fullyParallel = false, ...fields } = {}) {
  const rootSuite = { type: 'root', title: '', suites: [], tests: [] };
  const proj = { type: 'project', title: project, parent: rootSuite, suites: [], tests: [], project: () => ({ name: project, fullyParallel }) };
  const fileSuite = { type: 'file', title: file, parent: proj, location: { file: path.join(root, file), line: 0, column: 0 }, suites: [], tests: [] };
  let parent = fileSuite;
  for (const d of describes) parent = { type: 'describe', title: d, parent, suites: [], tests: [] };
  return {
    type: 'test', title, parent, location: { file: path.join(root, file), line: 3, column: 5 }, expectedStatus: 'passed',
    timeout: 30_000, tags: [], annotations: [], repeatEachIndex: 0, retries: 0, results: [], ...fields,
  };
}
const pwResult = (fields) => ({
  retry: 0, parallelIndex: 0, workerIndex: 0, status: 'passed', startTime: new Date(T0), duration: 12,
  errors: [], steps: [], stdout: [], stderr: [], attachments: [], annotations: [], ...fields,
});
/** The one test of `report` titled `title`, with its title path. */
function only(report, title) {
  const found = testsOf(report).filter((t) => t.test.title === title);
  assert.equal(found.length, 1, `tests titled ${title}: ${found.length}`);
  return found[0];
}
const quiet = (log) => log.filter((l) => MENDED.test(l) || LOST.test(l));

describe('real-world shapes', () => {
  test('Playwright: a declared skip under fullyParallel (parallelIndex -1, a skip annotation at line 0) is recorded without a mended or lost line', async () => {
    const out = await playwrightRun(undefined, {
      make: (root) => {
        const annotations = [{ type: 'skip', description: undefined, location: { file: path.join(root, 'tests/a.spec.ts'), line: 0, column: 0 } }];
        const t = pwTest(root, 'fz0 declared skip', { fullyParallel: true, expectedStatus: 'skipped', annotations });
        return [{ test: t, marker: 'fz0', results: [pwResult({ status: 'skipped', parallelIndex: -1, workerIndex: -1, duration: 0, annotations })] }];
      },
    });
    const { report } = checkRun(out);
    assert.deepEqual(quiet(out.log), [], out.log.join('\n'));
    const { titlePath, test: t } = only(report, 'fz0 declared skip');
    assert.deepEqual(titlePath, ['fz0 declared skip']);
    assert.deepEqual(t.location, { file: 'tests/a.spec.ts', line: 3, column: 5 });
    assert.equal(t.attempts.length, 1);
    const [a] = t.attempts;
    assert.equal(a.status, 'skipped');
    assert.equal(a.expectedStatus, 'skipped');
    assert.equal(a.parallelIndex, undefined);
    assert.deepEqual(a.annotations, [{ type: 'skip' }]);
  });

  test('Playwright: annotations, errors with stack/snippet/location, nested steps with an error, stdout strings, stderr Buffers and a screenshot are kept field by field', async () => {
    const png = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);
    const out = await playwrightRun(undefined, {
      make: (root) => {
        const at = (line, column) => ({ file: path.join(root, 'tests/a.spec.ts'), line, column });
        const stepError = { message: 'Error: locator.click: Timeout 500ms exceeded', stack: 'Error: locator.click\n    at tests/a.spec.ts:9:20', location: at(9, 20) };
        const inner = { title: 'click "Save"', category: 'pw:api', duration: 501, location: at(9, 20), error: stepError, steps: [], attachments: [], startTime: new Date(T0 + 5) };
        const outer = { title: 'save the form', category: 'test.step', duration: 520.4, location: at(8, 7), steps: [inner], attachments: [], startTime: new Date(T0 + 1) };
        inner.parent = outer;
        const t = pwTest(root, 'fz0 saves the form', {
          describes: ['settings'], tags: ['@smoke', '@forms'], location: at(7, 3),
          annotations: [{ type: 'issue', description: 'https://github.com/o/r/issues/1', location: at(6, 1) }],
        });
        const result = pwResult({
          status: 'failed', parallelIndex: 1, startTime: new Date(T0 + 1000), duration: 1234.4,
          annotations: [{ type: 'issue', description: 'https://github.com/o/r/issues/1', location: at(6, 1) }, { type: 'slow' }],
          errors: [{
            message: 'Error: expect(received).toBe(expected)', stack: 'Error: expect(received).toBe(expected)\n    at tests/a.spec.ts:12:15',
            snippet: '  11 |   await save();\n> 12 |   expect(saved).toBe(true);\n     |                 ^', location: at(12, 15), value: 'false',
          }],
          steps: [outer],
          stdout: ['saving\n', 'saved?\n'], stderr: [Buffer.from('warn: slow\n'), Buffer.from([0xff, 0xfe, 0x00])],
          attachments: [{ name: 'screenshot', contentType: 'image/png', body: png }],
        });
        return [{ test: t, marker: 'fz0', results: [result] }];
      },
    });
    const { report } = checkRun(out);
    assert.deepEqual(quiet(out.log), [], out.log.join('\n'));
    const { titlePath, test: t } = only(report, 'fz0 saves the form');
    assert.deepEqual(titlePath, ['settings', 'fz0 saves the form']);
    assert.deepEqual(t.location, { file: 'tests/a.spec.ts', line: 7, column: 3 });
    assert.deepEqual(t.tags, ['@smoke', '@forms']);
    const [a] = t.attempts;
    const loc = (line, column) => ({ file: 'tests/a.spec.ts', line, column });
    assert.equal(a.status, 'failed');
    assert.equal(a.expectedStatus ?? 'passed', 'passed');
    assert.equal(a.startTimestamp, T0 + 1000);
    assert.equal(a.duration, 1234);
    assert.equal(a.timeout, 30_000);
    assert.equal(a.parallelIndex, 1);
    assert.deepEqual(a.annotations, [{ type: 'issue', description: 'https://github.com/o/r/issues/1', location: loc(6, 1) }, { type: 'slow' }]);
    assert.deepEqual(a.errors, [{
      message: 'Error: expect(received).toBe(expected)', stack: 'Error: expect(received).toBe(expected)\n    at tests/a.spec.ts:12:15',
      snippet: '  11 |   await save();\n> 12 |   expect(saved).toBe(true);\n     |                 ^', value: 'false', location: loc(12, 15),
    }]);
    assert.deepEqual(a.steps, [{
      title: 'save the form', duration: 520, location: loc(8, 7),
      steps: [{ title: 'click "Save"', duration: 501, location: loc(9, 20), error: { message: 'Error: locator.click: Timeout 500ms exceeded', stack: 'Error: locator.click\n    at tests/a.spec.ts:9:20', location: loc(9, 20) } }],
    }]);
    assert.deepEqual(a.stdio, [
      { stream: 1, dts: 0, text: 'saving\n' }, { stream: 1, dts: 0, text: 'saved?\n' },
      { stream: 2, dts: 0, buffer: Buffer.from('warn: slow\n').toString('base64') }, { stream: 2, dts: 0, buffer: Buffer.from([0xff, 0xfe, 0x00]).toString('base64') },
    ]);
    assert.equal(a.attachments.length, 1);
    const [shot] = a.attachments;
    assert.deepEqual({ name: shot.name, contentType: shot.contentType }, { name: 'screenshot', contentType: 'image/png' });
    assert.deepEqual(readFileSync(path.join(out.folder, 'attachments', shot.id)), png);
  });
});

describe('regressions the fuzz found', () => {
  /** Every test given is there with all its attempts, nothing lost; returns the report and the log. */
  const kept = (out) => {
    const c = checkRun(out);
    assert.equal(c.missing, 0);
    assert.deepEqual(out.log.filter((l) => LOST.test(l)), [], out.log.join('\n'));
    return c.report;
  };
  const statuses = (report, title) => only(report, title).test.attempts.map((a) => a.status);

  test('node:test: a Symbol, a BigInt or an object as a test\'s or a file\'s duration_ms loses nothing (it stopped the report)', async () => {
    const odd = [Symbol('ms'), 10n, { ms: 1 }, '12.5'];
    const out = await nodeTestRun(gen(1), {
      make: (root) => odd.map((ms, i) => {
        const file = path.join(root, 'test', `f${i}.test.mjs`);
        return { marker: `fz${i}`, events: [
          { type: 'test:start', data: { file, nesting: 0, name: `fz${i} odd` } },
          { type: 'test:pass', data: { file, nesting: 0, name: `fz${i} odd`, details: { duration_ms: ms } } },
          { type: 'test:complete', data: { file, nesting: 0, name: file, details: { duration_ms: ms } } },
        ] };
      }),
    });
    const report = kept(out);
    assert.deepEqual(odd.map((_, i) => only(report, `fz${i} odd`).test.attempts[0].duration), [0, 0, 0, 13]);
  });

  test('node:test: a test whose file is the empty string is recorded without a file (seed 433412211: it was dropped without a word)', async () => {
    const out = await nodeTestRun(gen(1), {
      make: () => [{ marker: 'fz0', events: [
        { type: 'test:start', data: { file: '', nesting: 0, name: 'fz0 nameless file', line: 3, column: 1 } },
        { type: 'test:pass', data: { file: '', nesting: 0, name: 'fz0 nameless file', line: 3, column: 1, details: { duration_ms: 4 } } },
      ] }],
    });
    const report = kept(out);
    assert.equal(only(report, 'fz0 nameless file').test.attempts[0].status, 'passed');
  });

  test('Playwright: a location file of another type, a Symbol line, an object without prototype for a duration lose nothing but themselves', async () => {
    const out = await playwrightRun(undefined, {
      make: (root) => [
        // was: path.relative threw for the number, and the whole result was lost
        { test: pwTest(root, 'fz0 file 42', { location: { file: 42, line: 3, column: 1 } }), marker: 'fz0', results: [pwResult({})] },
        // was: "Cannot convert a Symbol value to a number" (loc.line >= 1, parallelIndex >= 0, wholeMs), the result lost
        { test: pwTest(root, 'fz1 symbols', { location: { file: path.join(root, 'a.spec.ts'), line: Symbol('l'), column: 1 } }), marker: 'fz1', results: [pwResult({
          duration: Symbol('d'), parallelIndex: Symbol('p'), errors: [{ message: 'x', location: { file: path.join(root, 'a.spec.ts'), line: Symbol('l'), column: 2 } }],
        })] },
        // was: "Cannot convert object to primitive value" (wholeMs, text, parallelIndex >= 0), the result lost
        { test: pwTest(root, 'fz2 no prototype', { describes: [Object.create(null)] }), marker: 'fz2', results: [pwResult({
          duration: Object.create(null), parallelIndex: Object.create(null), steps: [{ title: Object.create(null), duration: Object.create(null) }],
        })] },
      ],
    });
    const report = kept(out);
    assert.deepEqual(only(report, 'fz0 file 42').test.location, { file: 'tests/a.spec.ts', line: 3, column: 1 }, 'the file of its file suite');
    assert.deepEqual(only(report, 'fz1 symbols').test.attempts[0].errors, [{ message: 'x' }]);
    assert.deepEqual(only(report, 'fz2 no prototype').titlePath, ['', 'fz2 no prototype']);
    assert.deepEqual(only(report, 'fz2 no prototype').test.attempts[0].steps, [{ title: '' }]);
  });

  test('Playwright: a BigInt where a string belongs is kept as its digits; a cycle inside a wrong value is left out', async () => {
    const cyclic = { a: 1 };
    cyclic.self = cyclic;
    const out = await playwrightRun(undefined, {
      make: (root) => [
        // was: "attempt cannot be converted to JSON (a cycle or a BigInt?)" also when mended: the attempt lost
        { test: pwTest(root, 'fz0 bigint'), marker: 'fz0', results: [pwResult({ errors: [{ message: 'thrown', value: 10n }], annotations: [{ type: 'issue', description: 7n }] })] },
        { test: pwTest(root, 'fz1 cycle'), marker: 'fz1', results: [pwResult({ errors: [{ message: 'thrown', value: cyclic }] })] },
      ],
    });
    const report = kept(out);
    const [a] = only(report, 'fz0 bigint').test.attempts;
    assert.deepEqual(a.errors, [{ message: 'thrown', value: '10' }]);
    assert.deepEqual(a.annotations, [{ type: 'issue', description: '7' }]);
    assert.deepEqual(only(report, 'fz1 cycle').test.attempts[0].errors, [{ message: 'thrown' }]);
    assert.equal(out.log.filter((l) => MENDED.test(l)).length, 1, 'the cycle was said');
  });

  test('Playwright: a status the format does not know (none, a later version\'s, another type) is a skip, never lost or passed', async () => {
    const out = await playwrightRun(undefined, {
      make: (root) => [
        // was: the builder cannot leave a status out (it would read as passed): the attempt was lost
        { test: pwTest(root, 'fz0 statuses'), marker: 'fz0', results: [pwResult({ status: 'flaky' }), pwResult({ status: {} }), pwResult({ status: undefined }), pwResult({ status: 'timedOut' })] },
      ],
    });
    assert.deepEqual(statuses(kept(out), 'fz0 statuses'), ['skipped', 'skipped', 'skipped', 'timedOut']);
  });

  test('Jest: Symbol and BigInt lines, objects without prototype, an inherited key as a status lose nothing', async () => {
    const out = await jestRun(undefined, {
      make: (root) => [{
        testResult: {
          testFilePath: path.join(root, 'a.test.js'), perfStats: { start: T0 },
          testResults: [
            // was: "Cannot convert a Symbol value to a number" / "... a BigInt value to a number" (Math.max): lost
            { title: 'fz0 symbol line', status: 'passed', location: { line: Symbol('l'), column: 1 } },
            { title: 'fz1 bigint', status: 'passed', location: { line: 10n, column: 10n } },
            // was: "Cannot convert object to primitive value" (text, wholeMs): lost
            { title: 'fz2 no prototype', status: 'failed', ancestorTitles: [Object.create(null)], duration: Object.create(null), failureMessages: [Object.create(null)] },
            // was: STATUS['constructor'] is Object: no status, read as passed
            { title: 'fz3 constructor', status: 'constructor' },
          ],
        },
        cases: [0, 1, 2, 3].map((i) => ({ marker: `fz${i}`, attempts: 1 })),
      }],
    });
    const report = kept(out);
    assert.equal(only(report, 'fz1 bigint').test.location, undefined);
    assert.deepEqual(only(report, 'fz2 no prototype').titlePath, ['', 'fz2 no prototype']);
    assert.deepEqual(statuses(report, 'fz3 constructor'), ['skipped']);
  });

  test('Vitest: Symbol and BigInt lines and durations, objects without prototype, an inherited key as a state lose nothing', async () => {
    const make = (root) => {
      const module = { type: 'module', moduleId: path.join(root, 'a.test.ts') };
      const tc = (name, fields = {}, result = { state: 'passed' }, diagnostic = { duration: 1, startTime: T0 }) => ({
        type: 'test', name, parent: module, module, project: { name: '' }, location: { line: 2, column: 1 }, options: {},
        result: () => result, diagnostic: () => diagnostic, logs: () => [], ...fields,
      });
      return [
        tc('fz0 symbol', { location: { line: Symbol('l'), column: 1 } }, undefined, { duration: Symbol('d'), startTime: T0 }),
        tc('fz1 bigint', { location: { line: 10n, column: 10n } }, undefined, { duration: 10n, startTime: T0 }),
        tc('fz2 no prototype', { parent: { type: 'suite', name: Object.create(null), parent: module } }, { state: 'failed', errors: [{ message: Object.create(null) }] }, { duration: Object.create(null) }),
        tc('fz3 constructor', {}, { state: 'constructor' }),
      ].map((testCase, i) => ({ testCase, marker: `fz${i}`, attempts: 1 }));
    };
    const report = kept(await vitestRun(undefined, { make }));
    assert.equal(only(report, 'fz1 bigint').test.location, undefined);
    assert.equal(only(report, 'fz1 bigint').test.attempts[0].duration, 10);
    assert.deepEqual(only(report, 'fz2 no prototype').titlePath, ['', 'fz2 no prototype']);
    assert.deepEqual(statuses(report, 'fz3 constructor'), ['skipped']);
  });
});

describe('tests nested deeper than a report can be read back', () => {
  // ReportBuilder.addTest took a title path of any depth, but encodeReport (and validateReport)
  // read the built report with serde_json, whose limit is 128 levels: a test 61 describes deep,
  // or 30 deep with steps 32 deep (as deep as the Playwright translator keeps them), failed the
  // encoding at the end of the run, and the reporter lost the whole report. The builder now keeps
  // 24 suites (joining the rest into the last) and attempts of at most 74 levels.
  test('a test 61 describes deep does not lose the report', async () => {
    const out = await playwrightRun(undefined, {
      make: (root) => [{ test: pwTest(root, 'fz0 deep', { describes: Array.from({ length: 61 }, (_, i) => `d${i}`) }), marker: 'fz0', results: [pwResult({})] }],
    });
    checkRun(out);
  });
  test('a test 30 describes deep with steps 32 deep does not lose the report', async () => {
    const out = await playwrightRun(undefined, {
      make: (root) => [{ test: pwTest(root, 'fz0 deep', { describes: Array.from({ length: 30 }, (_, i) => `d${i}`) }), marker: 'fz0', results: [pwResult({ steps: deepSteps(31) })] }],
    });
    checkRun(out);
  });
});
