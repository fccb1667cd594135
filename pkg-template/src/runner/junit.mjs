// JUnit XML into the reporter skeleton (`shardwise run --junit`): Rust reads the XML
// (`__importJunit`, src/report/junit.rs: the dialects, the file and title rules, times in ms);
// here, its tests become the report's through the skeleton's builder, as every runner's results
// do (record.mjs). Pure but for the builder: no IO.
import path from 'node:path';
import { testFile } from './options.mjs';
import { addTest, addAttempt, distinctTitles } from './record.mjs';

/**
 * The error of a `<failure>` or `<error>`: its message (else its body's first line), an
 * `<error>`'s type before it (`java.lang.NullPointerException: ...`: a failure's type, such as
 * node:test's `testCodeFailure`, says less than its body), its body as the stack.
 */
function errorOf(e) {
  let message = e.message ?? e.body?.split('\n').find((l) => l.trim())?.trim();
  if (e.kind === 'error' && e.type && !(message ?? '').startsWith(e.type)) message = message ? `${e.type}: ${message}` : e.type;
  const out = {};
  if (message !== undefined) out.message = message;
  if (e.body !== undefined) out.stack = e.body;
  return out;
}

/**
 * Records `imported` (`__importJunit`'s result) on the builder: each test with its file (resolved
 * against `cwd`, then relative to the repository: `ctx.root`), its title path (one title path
 * per file and run: `distinctTitles`), one attempt with its status, duration, errors, skip or
 * todo, output and properties (as annotations). `ctx`: the skeleton's, with `environmentIdx` and
 * `startTimestamp` (the command's start: JUnit XML has no start per test).
 * @param {(file: string) => void} ran told each test file that had a test (absolute path)
 * @returns {{tests: number, withoutFile: number}}
 */
export function recordJunit(builder, ctx, imported, { cwd, ran = () => {} }) {
  const distinct = new Map();
  let withoutFile = 0;
  for (const t of imported.tests) {
    const abs = t.file === undefined ? undefined : path.resolve(cwd, t.file);
    if (abs === undefined) withoutFile += 1;
    else ran(abs);
    const key = abs ?? '';
    if (!distinct.has(key)) distinct.set(key, distinctTitles());
    const test = { titlePath: distinct.get(key)(t.titlePath), ...(abs ? { file: testFile(ctx, abs) } : {}) };
    if (test.file === undefined) delete test.file;
    if (t.line !== undefined) Object.assign(test, { line: t.line, column: 1 });
    const handle = addTest(builder, ctx, test);
    if (handle === undefined) continue;
    const attempt = {
      environmentIdx: ctx.environmentIdx,
      status: t.status,
      expectedStatus: t.status === 'skipped' ? 'skipped' : 'passed',
      startTimestamp: ctx.startTimestamp,
      duration: t.durationMs ?? 0,
    };
    const annotations = [];
    if (t.status === 'skipped') {
      annotations.push({ type: t.skipType === 'todo' ? 'todo' : 'skip', ...(t.skipMessage !== undefined ? { description: t.skipMessage } : {}) });
    }
    for (const [name, value] of t.properties ?? []) annotations.push({ type: name || 'property', ...(value ? { description: value } : {}) });
    if (annotations.length) attempt.annotations = annotations;
    if (t.errors?.length) attempt.errors = t.errors.map(errorOf);
    if (t.stdout?.length) attempt.stdout = t.stdout.map((text) => ({ text }));
    if (t.stderr?.length) attempt.stderr = t.stderr.map((text) => ({ text }));
    addAttempt(builder, ctx, handle, attempt);
  }
  return { tests: imported.tests.length, withoutFile };
}
