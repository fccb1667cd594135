// Errors of a run that belong to no test: a test file that failed to load (a syntax or type
// error, a missing import, a throw at its top level), a failing `beforeAll`/`afterAll` of a file,
// a global set-up that threw, an error the runner reports outside any test. They go in the
// report's `unattributedErrors` (report-format.md), so a run that could not load its files is
// saved and uploaded as what it was, not as an empty green report, and the reporter's closing
// line says how many files failed to load. Pure: no IO, no wasm.
import { reportPath } from './options.mjs';
import { text, position } from './record.mjs';
import { plain } from '../ansi.js';

/** At most this many errors are kept (a run whose every file fails keeps the first ones, and says how many more). */
export const MAX_RUN_ERRORS = 200;

/** A thrown value, or an error-like object a runner gives, as a ReportError (its location made relative to `root`). */
export function reportError(e, root, at = {}) {
  const out = {};
  const message = e?.message ?? (typeof e === 'string' ? e : undefined);
  if (message !== undefined) out.message = text(message);
  if (typeof e?.stack === 'string' && e.stack) out.stack = text(e.stack);
  if (typeof e?.snippet === 'string' && e.snippet) out.snippet = text(e.snippet);
  const loc = e?.location ?? at;
  const file = reportPath(root, typeof loc?.file === 'string' ? loc.file : undefined);
  const line = position(loc?.line);
  if (file && line) out.location = { file, line, column: position(loc.column) ?? 1 };
  if (out.message === undefined && out.stack === undefined) out.message = 'an error without a message';
  return out;
}

/** The first line of a message, without terminal colour codes, at most 200 characters. */
export function firstLine(message) {
  const line = plain(text(message)).split('\n').map((l) => l.trim()).find(Boolean) ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** A run's errors outside its tests, collected as the runner reports them. */
export class RunErrors {
  constructor() {
    /** @type {object[]} */
    this.errors = [];
    /** test files (report paths, or absolute when outside the root) that failed to load */
    this.failedFiles = new Set();
    /** errors past MAX_RUN_ERRORS, counted */
    this.dropped = 0;
    /** why the run stopped before its tests, when the runner says only that */
    this.stoppedEarly = undefined;
    /** errors not of a file that failed to load: how many, and the first one's message */
    this.others = 0;
    this.firstOther = undefined;
  }

  /** An error outside any test. `file`: the test file it belongs to (`loaded: false` when that file never loaded). */
  add(e, { root, file, loaded = true } = {}) {
    if (file && !loaded) this.failedFiles.add(reportPath(root, file) ?? file);
    else if (this.others++ === 0) this.firstOther = e?.message ?? e?.stack ?? e;
    if (this.errors.length >= MAX_RUN_ERRORS) {
      this.dropped++;
      return;
    }
    const err = reportError(e, root, file ? { file, line: 1 } : {});
    if (file && !loaded && err.message !== undefined && !err.message.includes(reportPath(root, file) ?? file)) {
      err.message = `${reportPath(root, file) ?? file}: ${err.message}`;
    }
    this.errors.push(err);
  }

  /** The runner ended the run before any test file ran, without an error of its own to give. */
  stoppedBeforeTests(why) {
    this.stoppedEarly = why;
  }

  /** Puts the errors into a built report (`unattributedErrors`, after any it has). */
  addTo(report) {
    if (!report) return;
    const errors = [...this.errors];
    if (this.stoppedEarly && !errors.length) errors.push({ message: this.stoppedEarly });
    if (this.dropped) errors.push({ message: `${this.dropped} more errors outside the tests were left out of this report (the first ${MAX_RUN_ERRORS} are kept)` });
    if (!errors.length) return;
    report.unattributedErrors = [...(Array.isArray(report.unattributedErrors) ? report.unattributedErrors : []), ...errors];
  }

  /** What the reporter's closing lines say (none when the run had no such error). */
  lines() {
    const out = [];
    const files = [...this.failedFiles];
    if (files.length) {
      const named = files.slice(0, 3).join(', ');
      out.push(`[shardwise] ${files.length === 1 ? '1 test file' : `${files.length} test files`} failed to load (${named}${files.length > 3 ? `, and ${files.length - 3} more` : ''}): the run failed; the errors are in the report`);
    }
    if (this.others) {
      const what = this.others === 1 ? 'an error' : `${this.others} errors`;
      out.push(`[shardwise] ${files.length ? 'and ' : ''}${what} outside the tests (${firstLine(this.firstOther)})${files.length ? '' : ': the run failed; the errors are in the report'}`);
    }
    if (this.stoppedEarly && !this.errors.length) out.push(`[shardwise] ${this.stoppedEarly}: the report says so`);
    return out;
  }
}
