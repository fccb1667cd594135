// Pure translations of node:test's reporter events (no wasm, no IO): unit-tested with plain
// objects. node:test (Node >= 20) streams events to a `--test-reporter` module; per test file
// (each run in a process of its own by default) they arrive in order: `test:start` as a test or
// suite begins (with its `nesting`), `test:pass` / `test:fail` as it ends (suites after their
// tests; `details.type === 'suite'` for a `describe`), and one test named by the file's own path
// at nesting 0 for the file itself (a `test:fail` of it, with no test of the file before, is a file
// that failed to load; its error text came as the file's `test:stderr`).
import { resolve } from 'node:path';
import { testFile } from '../src/runner/options.mjs';
import { addTest, addAttempt, distinctTitles, text, wholeMs, position } from '../src/runner/record.mjs';

/** The report environment of a node:test run (one: each file runs once). */
export const ENVIRONMENT = 'node';

/**
 * The parallel files of the run (`--test-concurrency`, else node:test's default: the available
 * parallelism less one), from the command line of the process the reporter runs in.
 */
export function concurrencyOf(argv = [...process.execArgv, ...process.argv], cores = 1) {
  for (let i = 0; i < argv.length; i++) {
    const m = /^--test-concurrency(?:=(.*))?$/.exec(argv[i]);
    if (m) {
      const n = Number(m[1] ?? argv[i + 1]);
      if (Number.isSafeInteger(n) && n >= 1) return n;
    }
  }
  return Math.max(1, cores - 1);
}

/**
 * A test's `duration_ms` as a number of ms, 0 when it is none (a value of another type, a Symbol
 * included, never throws: one odd value must not cost the report).
 */
function durationOf(details) {
  const v = details?.duration_ms;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : 0;
}

/** The error a test failed with: node:test wraps it (ERR_TEST_FAILURE); its `cause` is the test's own. */
function errorOf(details) {
  const e = details?.error;
  if (!e) return undefined;
  const own = e.cause && typeof e.cause === 'object' ? e.cause : e;
  const out = {};
  const message = own.message ?? e.message;
  if (message !== undefined) out.message = text(message);
  if (typeof own.stack === 'string' && own.stack) out.stack = text(own.stack);
  return out.message !== undefined || out.stack !== undefined ? out : undefined;
}

/**
 * Follows one run's events (`onEvent`) and records its tests on the builder; a file's errors
 * outside its tests go to `runError(e, {file, loaded})`, each file's cost beyond its tests to
 * `fileCost(file, ms)`. `ctx`: `{ root, environmentIdx, cwd?, notes?, onOutsideRoot?, now? }` (`cwd`: node:test's working
 * directory, which relative file names are resolved against).
 */
/** The `t.diagnostic()` messages kept per test (as annotations of type `diagnostic`). */
export const MAX_DIAGNOSTICS = 50;

export class NodeTestRun {
  constructor(builder, ctx, { runError = () => {}, fileCost = () => {}, ran = () => {} } = {}) {
    this.builder = builder;
    this.ctx = ctx;
    this.runError = runError;
    this.fileCost = fileCost;
    this.ran = ran;
    /** per file: the titles of the open tests and suites by nesting, numbered titles, tests recorded, top-level time, stderr */
    this.files = new Map();
  }

  fileOf(path) {
    let f = this.files.get(path);
    if (!f) {
      f = { stack: [], distinct: distinctTitles(), tests: 0, topMs: 0, stderr: '' };
      this.files.set(path, f);
    }
    return f;
  }

  onEvent(event) {
    const data = event?.data ?? {};
    // a file as node:test names it: absolute for a test's, as given for a file's own test and its
    // output (Node >= 21: relative to its working directory, `ctx.cwd`)
    const at = (f) => (this.ctx.cwd !== undefined ? resolve(this.ctx.cwd, f) : f);
    // an empty file name (node:test gives none for some events) is a file of its own, '': its
    // tests are recorded without a file rather than lost
    const path = typeof data.file === 'string' ? (data.file ? at(data.file) : '') : undefined;
    if (path === undefined) return;
    const file = this.fileOf(path);
    const nesting = Number.isSafeInteger(data.nesting) && data.nesting >= 0 ? data.nesting : 0;
    // the test node:test makes of the file itself, named as the file
    const isFile = nesting === 0 && typeof data.name === 'string' && (data.name === data.file || at(data.name) === path);
    // a test's `t.diagnostic()` messages follow its pass or fail, at its nesting and line: they
    // go with it, so its recording waits for the file's next event
    const pending = file.pending;
    if (event.type === 'test:diagnostic' && pending && pending.nesting === nesting && (data.line === undefined || data.line === pending.data.line)) {
      if (pending.diagnostics.length < MAX_DIAGNOSTICS) pending.diagnostics.push(text(data.message));
      return;
    }
    this.flushFile(file);
    switch (event.type) {
      case 'test:stderr':
        if (file.stderr.length < 64 * 1024) file.stderr += text(data.message);
        return;
      case 'test:start':
        if (isFile) return;
        file.stack.length = nesting;
        file.stack[nesting] = text(data.name);
        return;
      case 'test:complete':
        // the file's own test ends with its whole time: what it cost beyond its tests
        if (isFile) this.fileCost(path, Math.max(0, durationOf(data.details) - file.topMs));
        return;
      case 'test:pass':
      case 'test:fail':
        break;
      default:
        return;
    }
    if (isFile) {
      this.ran(path);
      if (event.type === 'test:fail' && file.tests === 0) {
        const stderr = file.stderr.trim();
        const why = errorOf(data.details);
        this.runError({ message: stderr || why?.message || 'the file failed to run', ...(why?.stack && !stderr ? { stack: why.stack } : {}) }, { file: path, loaded: false });
      }
      return;
    }
    const ms = durationOf(data.details);
    if (nesting === 0) file.topMs += ms;
    if (data.details?.type === 'suite') {
      // a describe's failure of its own (a hook): not its tests' ("N subtests failed")
      const e = data.details?.error;
      if (event.type === 'test:fail' && e?.failureType !== 'subtestsFailed') this.runError(errorOf(data.details) ?? { message: `${text(data.name)} failed` }, { file: path });
      return;
    }
    file.tests++;
    this.ran(path);
    this.record(path, file, nesting, data, event.type === 'test:fail', ms);
  }

  /** A test that ended: recorded at the file's next event (or `flush`), with its diagnostics. */
  record(path, file, nesting, data, failed, ms) {
    file.pending = { path, nesting, data, failed, ms, end: (this.ctx.now ?? Date.now)(), diagnostics: [] };
  }

  /** Records every test still waiting for its diagnostics: the run ended. */
  flush() {
    for (const file of this.files.values()) this.flushFile(file);
  }

  flushFile(file) {
    const p = file.pending;
    if (!p) return;
    file.pending = undefined;
    this.recordNow(p, file);
  }

  recordNow({ path, nesting, data, failed, ms, end, diagnostics }, file) {
    const titles = [...file.stack.slice(0, nesting), text(data.name)];
    const test = { titlePath: file.distinct(titles), file: testFile(this.ctx, path) };
    const line = position(data.line);
    if (line) {
      test.line = line;
      test.column = position(data.column) ?? 1;
    }
    const handle = addTest(this.builder, this.ctx, test);
    if (handle === undefined) return;
    const skip = data.skip !== undefined && data.skip !== false;
    const todo = data.todo !== undefined && data.todo !== false;
    const status = todo || (skip && !failed) ? 'skipped' : failed ? 'failed' : 'passed';
    const attempt = {
      environmentIdx: this.ctx.environmentIdx,
      status,
      expectedStatus: status === 'skipped' ? 'skipped' : 'passed',
      // events of a file arrive when it ends: the test's start is its end less its time
      startTimestamp: Math.max(1, wholeMs(end - ms) ?? 1),
      duration: wholeMs(ms) ?? 0,
    };
    const annotations = [];
    if (skip) annotations.push({ type: 'skip', ...(typeof data.skip === 'string' ? { description: text(data.skip) } : {}) });
    if (todo) annotations.push({ type: 'todo', ...(typeof data.todo === 'string' ? { description: text(data.todo) } : {}) });
    for (const d of diagnostics) annotations.push({ type: 'diagnostic', description: d });
    if (annotations.length) attempt.annotations = annotations;
    if (failed) {
      const e = errorOf(data.details);
      if (e) attempt.errors = [e];
    }
    addAttempt(this.builder, this.ctx, handle, attempt);
  }
}
