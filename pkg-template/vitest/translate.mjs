// Pure translations of Vitest's reported objects (no wasm, no IO): unit-tested with plain objects.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { testFile, listsReporter, noReporterLine } from '../src/runner/options.mjs';
import { addTest, addAttempt, distinctTitles, text, list, wholeMs, position, startedMs } from '../src/runner/record.mjs';


/** This package's vitest reporter, as the runner may resolve its entry (to the real path, past a link). */
const OWN_REPORTER = fileURLToPath(new URL('./index.mjs', import.meta.url));

/** A reporters entry's name that is shardwise's: `shardwise/vitest`, a path to it, or its file. */
const isOwnReporter = (name) => typeof name === 'string' && (name === OWN_REPORTER || (/shardwise/.test(name) && /vitest/.test(name)));
/** The options of the `shardwise/vitest` reporter entry in Vitest's `reporters`, if any. */
export function reporterOptions(config) {
  for (const r of config?.reporters ?? []) {
    const [name, opts] = Array.isArray(r) ? r : [r, {}];
    if (isOwnReporter(name)) return opts ?? {};
  }
  return {};
}

/**
 * The workers Vitest runs a run's files on, as its pool counts them: 1 without file parallelism
 * (`fileParallelism: false`, Vitest 3's `poolOptions.<pool>.singleFork`/`singleThread`), else Vitest
 * 3's `poolOptions.<pool>.maxForks`/`maxThreads`, else `maxWorkers`, else its default, the cores
 * less one (half of them in watch mode). Vitest 5 resolves `maxWorkers` to that default in its
 * config; Vitest 3 and 4 leave it unset there and count it in their pools (3.2.4:
 * `createForksPool`'s `threadsCount`; 4.1: `resolveMaxWorkers`), where a run without the option,
 * the usual one, read as 1 worker: on a CI machine of 4 cores, 3 workers planned and learned as 1.
 * `cores`: `os.availableParallelism()`, as Vitest reads them.
 */
export function vitestWorkers(config, cores = os.availableParallelism?.() ?? os.cpus().length) {
  if (!config || config.fileParallelism === false) return 1;
  const count = (v) => {
    if (typeof v === 'string' && v.trim().endsWith('%')) return Math.max(1, Math.min(cores, Math.round((Number.parseFloat(v) / 100) * cores)));
    const n = Number(v);
    return v != null && v !== '' && Number.isFinite(n) && n >= 1 ? Math.floor(n) : undefined;
  };
  const pool = typeof config.pool === 'string' ? config.pool : 'forks';
  const own = config.poolOptions?.[pool];
  if (own?.singleFork || own?.singleThread) return 1;
  const fromPool = count(/forks$/i.test(pool) ? own?.maxForks : own?.maxThreads);
  return fromPool ?? count(config.maxWorkers) ?? (config.watch ? Math.max(Math.floor(cores / 2), 1) : Math.max(cores - 1, 1));
}

/** The report environment of a Vitest project (one per project). */
export const environmentName = (project) => project?.name || 'default';

/** Suite names between the module and the test, then the test's name. */
export function titlePathOf(testCase) {
  const titles = [text(testCase.name)];
  for (let s = testCase.parent; s && s.type === 'suite'; s = s.parent) titles.unshift(text(s.name));
  return titles;
}

/**
 * The test's title path in the report: `titlePathOf`, numbered by `distinctTitles` when an
 * earlier test of its module has the same one. Counted over the module's tests in declaration
 * order (the module's tree, complete before any result; results may arrive in another order),
 * once per module and run (`ctx.distinct`).
 */
function distinctTitlePath(ctx, testCase) {
  const module = testCase.module;
  if (typeof module?.children?.allTests !== 'function') return titlePathOf(testCase);
  ctx.distinct ??= new WeakMap();
  let byId = ctx.distinct.get(module);
  if (!byId?.has(testCase.id)) {
    byId = new Map();
    const distinct = distinctTitles();
    for (const t of module.children.allTests()) byId.set(t.id, distinct(titlePathOf(t)));
    ctx.distinct.set(module, byId);
  }
  return byId.get(testCase.id) ?? titlePathOf(testCase);
}

/**
 * When the test started. One that never started (a declared skip or todo: Vitest gives it no
 * diagnostic; one that skipped itself has only its attempt's start) starts with its suite, else
 * its module (the runner's task behind each: not in Vitest's typed API, so read if there), else
 * when its result arrived; never 0 (see `startedMs`).
 */
function startOf(ctx, testCase, diag) {
  const attempts = typeof testCase.attempts === 'function' ? list(testCase.attempts()) : [];
  return startedMs(diag?.startTime) ?? startedMs(attempts[0]?.startTime)
    ?? startedMs(testCase.parent?.task?.result?.startTime) ?? startedMs(testCase.module?.task?.result?.startTime)
    ?? wholeMs((ctx.now ?? Date.now)());
}

/** A console log list -> timed stdio entries (dts: ms since the previous entry). */
function stdioOf(logs, start) {
  let prev = start;
  return list(logs).map((l) => {
    const time = Number.isFinite(l?.time) ? l.time : prev;
    const entry = { stream: l?.type === 'stderr' ? 2 : 1, dts: wholeMs(time - prev) ?? 0, text: text(l?.content) };
    prev = Math.max(prev, time);
    return entry;
  });
}

/**
 * Vitest's result state -> the report's status (a state this version does not know: skipped; own
 * keys only: 'constructor' is no state).
 */
const STATES = { passed: 'passed', failed: 'failed', skipped: 'skipped' };

/**
 * One finished test case -> `addTest` / `addAttempt` calls. Retries become failed attempts before
 * the final one. Returns false for tests that did not run to an end (pending). A value the report
 * format cannot hold is left out where it stands (see src/runner/record.mjs).
 * Each test case is a distinct test (its retries are in its diagnostic), kept apart by
 * `distinctTitles`. `ctx`: `{ root, envIndex: Map<projectName, number>, notes?, onOutsideRoot?,
 * now? }`.
 */
export function recordTestCase(builder, ctx, testCase) {
  const result = testCase.result?.() ?? {};
  if (result.state === 'pending') return false;
  const diag = testCase.diagnostic?.();
  const moduleId = testCase.module?.moduleId;
  const test = { titlePath: distinctTitlePath(ctx, testCase), file: testFile(ctx, typeof moduleId === 'string' ? moduleId : undefined) };
  const line = position(testCase.location?.line);
  if (line) {
    test.line = line;
    test.column = position(testCase.location.column) ?? 1;
  }
  if (Array.isArray(testCase.tags) && testCase.tags.length) test.tags = testCase.tags.map(text);
  const handle = addTest(builder, ctx, test);
  if (handle === undefined) return true;
  const environmentIdx = ctx.envIndex.get(environmentName(testCase.project)) ?? 0;
  const status = typeof result.state === 'string' && Object.hasOwn(STATES, result.state) ? STATES[result.state] : 'skipped';
  const expectedStatus = status === 'skipped' ? 'skipped' : testCase.options?.fails ? 'failed' : 'passed';
  const startTimestamp = startOf(ctx, testCase, diag);
  const errors = list(result.errors).map((e) => {
    const out = {};
    // the message, with the expected/received diff Vitest prints under it (Jest's carries its own)
    const diff = typeof e?.diff === 'string' && e.diff.trim() ? `\n\n${text(e.diff)}` : '';
    if (e?.message || diff) out.message = `${e?.message ? text(e.message) : ''}${diff}`;
    if (e?.stack) out.stack = text(e.stack);
    return out;
  });
  const retries = Math.min(wholeMs(diag?.retryCount) ?? 0, 1000);
  for (let i = 0; i < retries; i++) {
    addAttempt(builder, ctx, handle, { environmentIdx, status: 'failed', expectedStatus, startTimestamp, duration: 0, ...(errors.length ? { errors } : {}) });
  }
  const attempt = { environmentIdx, status, expectedStatus, startTimestamp, duration: wholeMs(diag?.duration ?? 0) ?? 0 };
  if (status === 'failed' && errors.length) attempt.errors = errors;
  const stdio = stdioOf(testCase.logs?.(), startTimestamp);
  if (stdio.length) attempt.stdio = stdio;
  const annotations = list(diag?.annotations).map((a) => ({ type: text(a?.type), ...(a?.message ? { description: text(a.message) } : {}) }));
  if (annotations.length) attempt.annotations = annotations;
  addAttempt(builder, ctx, handle, attempt);
  return true;
}

/**
 * A test module's errors outside its tests -> `runErrors` (src/runner/run-errors.mjs): the import
 * or transform failed, or its top level threw (then it has no tests: it failed to load), or a
 * `beforeAll`/`afterAll` failed.
 */
export function recordModuleErrors(runErrors, ctx, testModule) {
  const errors = typeof testModule?.errors === 'function' ? list(testModule.errors()) : [];
  if (!errors.length) return;
  const file = typeof testModule?.moduleId === 'string' ? testModule.moduleId : undefined;
  const tests = typeof testModule?.children?.allTests === 'function' ? [...testModule.children.allTests()] : [];
  for (const e of errors) runErrors.add(e, { root: ctx.root, file, loaded: tests.length > 0 });
}

/**
 * The end of a Vitest run -> `runErrors`: its unhandled errors, and, when it failed before any
 * test module ran with no error of its own (a global set-up that threw, a configuration error:
 * Vitest prints it, but gives the reporters none), a line that says so.
 */
export function recordRunEnd(runErrors, ctx, testModules, unhandledErrors, reason) {
  for (const e of list(unhandledErrors)) runErrors.add(e, { root: ctx.root });
  if (reason === 'failed' && !list(testModules).length && !list(unhandledErrors).length) {
    runErrors.stoppedBeforeTests('Vitest ended the run as failed before any test file ran (a global set-up or the configuration failed; Vitest printed why)');
  }
}

/** Whether Vitest's reporters include shardwise's (a `--reporter` flag replaces the config's list). */
export const hasShardwiseReporter = (config) => listsReporter(config?.reporters, isOwnReporter, 'ShardwiseVitestReporter');

/** The line a balanced shard prints when the shardwise reporter is not among Vitest's reporters. */
export const NO_REPORTER_LINE = (index, count) => noReporterLine({ index, count, runner: 'Vitest', flag: '--reporter', entry: 'shardwise/vitest' });
