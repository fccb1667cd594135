// Pure translations of Vitest's reported objects (no wasm, no IO): unit-tested with plain objects.
import { testFile } from '../src/runner/options.mjs';
import { addAttempt } from '../src/runner/attempt.mjs';

/** The options of the `shardwise/vitest` reporter entry in Vitest's `reporters`, if any. */
export function reporterOptions(config) {
  for (const r of config?.reporters ?? []) {
    const [name, opts] = Array.isArray(r) ? r : [r, {}];
    if (typeof name === 'string' && /shardwise/.test(name) && /vitest/.test(name)) return opts ?? {};
  }
  return {};
}

/** The report environment of a Vitest project (one per project). */
export const environmentName = (project) => project?.name || 'default';

/** Suite names between the module and the test, then the test's name. */
export function titlePathOf(testCase) {
  const titles = [testCase.name];
  for (let s = testCase.parent; s && s.type === 'suite'; s = s.parent) titles.unshift(s.name);
  return titles;
}

/** A console log list -> timed stdio entries (dts: ms since the previous entry). */
function stdioOf(logs, start) {
  let prev = start;
  return (logs ?? []).map((l) => {
    const time = Number.isFinite(l.time) ? l.time : prev;
    const entry = { stream: l.type === 'stderr' ? 2 : 1, dts: Math.max(0, Math.round(time - prev)), text: String(l.content) };
    prev = Math.max(prev, time);
    return entry;
  });
}

/**
 * One finished test case -> `addTest` / `addAttempt` calls. Retries become failed attempts before
 * the final one. Returns false for tests that did not run to an end (pending).
 * `ctx`: `{ root, envIndex: Map<projectName, number>, onDetailsDropped?, onOutsideRoot? }`.
 */
export function recordTestCase(builder, ctx, testCase) {
  const result = testCase.result();
  if (result.state === 'pending') return false;
  const diag = testCase.diagnostic?.();
  const test = { titlePath: titlePathOf(testCase), file: testFile(ctx, testCase.module.moduleId) };
  if (testCase.location?.line >= 1) {
    test.line = testCase.location.line;
    test.column = Math.max(1, testCase.location.column ?? 1);
  }
  if (testCase.tags?.length) test.tags = [...testCase.tags];
  const handle = builder.addTest(test);
  const environmentIdx = ctx.envIndex.get(environmentName(testCase.project)) ?? 0;
  const status = result.state === 'skipped' ? 'skipped' : result.state;
  const expectedStatus = status === 'skipped' ? 'skipped' : testCase.options?.fails ? 'failed' : 'passed';
  const startTimestamp = Math.max(0, Math.round(diag?.startTime ?? 0));
  const errors = (result.errors ?? []).map((e) => {
    const out = {};
    if (e?.message) out.message = String(e.message);
    if (e?.stack) out.stack = String(e.stack);
    return out;
  });
  for (let i = 0; i < (diag?.retryCount ?? 0); i++) {
    addAttempt(builder, ctx, handle, { environmentIdx, status: 'failed', expectedStatus, startTimestamp, duration: 0, ...(errors.length ? { errors } : {}) });
  }
  const attempt = { environmentIdx, status, expectedStatus, startTimestamp, duration: Math.max(0, Math.round(diag?.duration ?? 0)) };
  if (status === 'failed' && errors.length) attempt.errors = errors;
  const stdio = stdioOf(testCase.logs?.(), startTimestamp);
  if (stdio.length) attempt.stdio = stdio;
  const annotations = (diag?.annotations ?? []).map((a) => ({ type: String(a.type), ...(a.message ? { description: String(a.message) } : {}) }));
  if (annotations.length) attempt.annotations = annotations;
  addAttempt(builder, ctx, handle, attempt);
  return true;
}
