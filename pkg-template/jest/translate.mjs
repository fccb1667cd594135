// Pure translations of Jest's objects (no wasm, no IO): unit-tested with plain objects.
import { testFile } from '../src/runner/options.mjs';
import { addAttempt } from '../src/runner/attempt.mjs';

/** The options of the `shardwise/jest` reporter entry in Jest's `reporters`, if any. */
export function reporterOptions(globalConfig) {
  for (const r of globalConfig?.reporters ?? []) {
    const [name, opts] = Array.isArray(r) ? r : [r, {}];
    if (typeof name === 'string' && /shardwise/.test(name) && /jest/.test(name)) return opts ?? {};
  }
  return {};
}

/** The report environment of a Jest run (one: Jest runs each file once). */
export const ENVIRONMENT = 'jest';

const STATUS = { passed: 'passed', failed: 'failed' };

/** Jest's assertion status -> the report's status (pending, todo, disabled, ... are skips). */
export const statusOf = (s) => STATUS[s] ?? 'skipped';

/**
 * One test file's result -> `addTest` / `addAttempt` calls on the builder. Retries Jest recorded
 * (`retryReasons`) become failed attempts before the final one.
 * `ctx`: `{ root, environmentIdx, onDetailsDropped?, onOutsideRoot? }`.
 */
export function recordFileResult(builder, ctx, testResult) {
  const file = testFile(ctx, testResult.testFilePath);
  const fileStart = testResult.perfStats?.start ?? 0;
  for (const r of testResult.testResults ?? []) {
    const test = { titlePath: [...(r.ancestorTitles ?? []), r.title], file };
    if (r.location?.line >= 1) {
      test.line = r.location.line;
      test.column = Math.max(1, r.location.column ?? 1);
    }
    const handle = builder.addTest(test);
    const status = statusOf(r.status);
    const startTimestamp = Math.max(0, Math.round(r.startAt ?? fileStart));
    for (const reason of r.retryReasons ?? []) {
      addAttempt(builder, ctx, handle, {
        environmentIdx: ctx.environmentIdx, status: 'failed', expectedStatus: 'passed', startTimestamp, duration: 0,
        errors: [{ message: String(reason) }],
      });
    }
    const attempt = {
      environmentIdx: ctx.environmentIdx,
      status,
      expectedStatus: status === 'skipped' ? 'skipped' : 'passed',
      startTimestamp,
      duration: Math.max(0, Math.round(r.duration ?? 0)),
    };
    if (r.failureMessages?.length) attempt.errors = r.failureMessages.map((m) => ({ message: String(m) }));
    addAttempt(builder, ctx, handle, attempt);
  }
}
