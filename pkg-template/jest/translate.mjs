// Pure translations of Jest's objects (no wasm, no IO): unit-tested with plain objects.
import { fileURLToPath } from 'node:url';
import { testFile, listsReporter, noReporterLine } from '../src/runner/options.mjs';
import { addTest, addAttempt, distinctTitles, guarded, text, list, wholeMs, position, startedMs } from '../src/runner/record.mjs';


/** This package's jest reporter, as the runner may resolve its entry (to the real path, past a link). */
const OWN_REPORTER = fileURLToPath(new URL('./index.mjs', import.meta.url));

/** A reporters entry's name that is shardwise's: `shardwise/jest`, a path to it, or its file. */
const isOwnReporter = (name) => typeof name === 'string' && (name === OWN_REPORTER || (/shardwise/.test(name) && /jest/.test(name)));
/** The options of the `shardwise/jest` reporter entry in Jest's `reporters`, if any. */
export function reporterOptions(globalConfig) {
  for (const r of globalConfig?.reporters ?? []) {
    const [name, opts] = Array.isArray(r) ? r : [r, {}];
    if (isOwnReporter(name)) return opts ?? {};
  }
  return {};
}

/** The report environment of a Jest run (one: Jest runs each file once). */
export const ENVIRONMENT = 'jest';

const STATUS = { passed: 'passed', failed: 'failed' };

/**
 * Jest's assertion status -> the report's status (pending, todo, disabled, ... are skips; own
 * keys only: 'constructor' is no status).
 */
/** At most this many retries of one test are recorded (a runaway count stays bounded). */
const MAX_RETRIES = 100;

export const statusOf = (s) => (typeof s === 'string' && Object.hasOwn(STATUS, s) ? STATUS[s] : 'skipped');

/**
 * One test file's result -> `addTest` / `addAttempt` calls on the builder. Retries Jest recorded
 * (`invocations` beyond the first, with their errors when `retryReasons` has them) become failed
 * attempts before the final one. A value the report format cannot
 * hold is left out where it stands; a result of an unforeseen shape loses only itself (see
 * src/runner/record.mjs). Each entry of `testResults` is a distinct test (its retries are in
 * `retryReasons`), kept apart by `distinctTitles`. `ctx`: `{ root, environmentIdx, notes?,
 * onOutsideRoot?, now? }`.
 */
export function recordFileResult(builder, ctx, testResult) {
  const file = testFile(ctx, typeof testResult?.testFilePath === 'string' ? testResult.testFilePath : undefined);
  // a test that never started (a skip, a todo: startAt null) starts with its file; a file Jest
  // could not run has no start (perfStats 0): then its end, else now, never 0 (the year 1970)
  const fileStart = startedMs(testResult?.perfStats?.start) ?? startedMs(testResult?.perfStats?.end) ?? wholeMs((ctx.now ?? Date.now)());
  const distinct = distinctTitles();
  for (const r of list(testResult?.testResults)) {
    guarded(ctx, 'a test result', () => recordTestResult(builder, ctx, file, fileStart, r, distinct));
  }
}

function recordTestResult(builder, ctx, file, fileStart, r, distinct) {
  const test = { titlePath: distinct([...list(r?.ancestorTitles).map(text), text(r?.title)]), file };
  const line = position(r?.location?.line);
  if (line) {
    test.line = line;
    test.column = position(r.location.column) ?? 1;
  }
  const handle = addTest(builder, ctx, test);
  if (handle === undefined) return;
  const status = statusOf(r?.status);
  const startTimestamp = startedMs(r?.startAt) ?? fileStart;
  // Jest keeps a retried attempt's error only under retryTimes(n, { logErrorsBeforeRetry: true });
  // `invocations` counts the attempts either way: the ones without a kept error are failed too
  const reasons = list(r?.retryReasons);
  const invocations = Number.isSafeInteger(r?.invocations) && r.invocations > 1 ? Math.min(r.invocations, MAX_RETRIES + 1) : 1;
  const retried = Math.max(reasons.length, invocations - 1);
  for (let i = 0; i < retried; i++) {
    const message = i < reasons.length ? text(reasons[i])
      : 'failed, then retried (Jest keeps the error of an attempt it retries only with jest.retryTimes(n, { logErrorsBeforeRetry: true }))';
    addAttempt(builder, ctx, handle, {
      environmentIdx: ctx.environmentIdx, status: 'failed', expectedStatus: 'passed', startTimestamp, duration: 0,
      errors: [{ message }],
    });
  }
  const attempt = {
    environmentIdx: ctx.environmentIdx,
    status,
    expectedStatus: status === 'skipped' ? 'skipped' : 'passed',
    startTimestamp,
    duration: wholeMs(r?.duration ?? 0) ?? 0,
  };
  const failures = list(r?.failureMessages);
  if (failures.length) attempt.errors = failures.map((m) => ({ message: text(m) }));
  addAttempt(builder, ctx, handle, attempt);
}

/**
 * A test file's error outside its tests -> `runErrors` (src/runner/run-errors.mjs): Jest's
 * `testExecError`, set when the file failed to run (a syntax error, a missing module, a throw at
 * its top level: then it has no test results, and it failed to load) or a hook outside its tests
 * failed.
 */
export function recordFileErrors(runErrors, ctx, testResult) {
  const e = testResult?.testExecError;
  if (!e) return;
  const file = typeof testResult?.testFilePath === 'string' ? testResult.testFilePath : undefined;
  runErrors.add(e, { root: ctx.root, file, loaded: list(testResult?.testResults).length > 0 });
}

/** Whether Jest's reporters include shardwise's (a `--reporters` flag replaces the config's list). */
export const hasShardwiseReporter = (globalConfig) => listsReporter(globalConfig?.reporters, isOwnReporter, 'ShardwiseJestReporter');

/** The line a balanced shard prints when the shardwise reporter is not among Jest's reporters. */
export const NO_REPORTER_LINE = (index, count) => noReporterLine({ index, count, runner: 'Jest', flag: '--reporters', entry: 'shardwise/jest' });
