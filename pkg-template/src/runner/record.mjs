// Recording a runner's results without losing the report. No single value of one test can stop
// the reporter: a test or attempt the builder refuses is recorded with what the report format
// can hold (the Rust builder leaves out, where it stands, what its rules refuse: a (0, 0)
// location, a negative number, a field of the wrong type), and the reporter says so once. Only a
// result of which nothing can be kept is left out, also said once. Pure: no IO.

/**
 * What a reporter says about mended and lost results, once each for the run.
 * @param {(line: string) => void} log
 */
export function recordNotes(log) {
  let mendedSaid = false;
  let lostSaid = false;
  return {
    /** @param {string} detail e.g. `attempt.parallelIndex: must be an integer >= 0, got -1` */
    mended(detail) {
      if (mendedSaid) return;
      mendedSaid = true;
      log(`[shardwise] values the report format cannot hold were left out of the report, e.g. ${detail}; everything else of those results is recorded (said once)`);
    },
    /** @param {string} detail what was not recorded and why */
    lost(detail) {
      if (lostSaid) return;
      lostSaid = true;
      log(`[shardwise] ${detail}; the rest of the report is kept (said once)`);
    },
  };
}

const message = (e) => `${e?.code ? `${e.code}: ` : ''}${e?.message ?? e}`;
const refused = (e) => e?.code === 'INVALID_INPUT';

/**
 * A string that crosses into the wasm as JSON (a lone surrogate does not: it becomes U+FFFD).
 * A value without a string form (an object without prototype, a throwing toString) is ''.
 */
export const text = (v) => {
  let s;
  try {
    s = typeof v === 'string' ? v : String(v ?? '');
  } catch {
    s = '';
  }
  return typeof s.toWellFormed === 'function' ? s.toWellFormed() : s;
};

/** Deeper than this the builder stores nothing (its limit is 120 levels of JSON). */
const MAX_DEPTH = 120;

/**
 * A copy of a plain value that JSON can carry, every string well-formed (only on the error path):
 * a BigInt becomes its digits (JSON has none; the fields a runner gives as-is are strings), a
 * cycle or anything deeper than the builder stores becomes null (absent), `toJSON` is applied
 * as JSON.stringify would.
 */
function wellFormed(v, ancestors = []) {
  if (typeof v === 'string') return text(v);
  if (typeof v === 'bigint') return String(v);
  if (v === null || typeof v !== 'object') return v;
  if (ancestors.includes(v) || ancestors.length >= MAX_DEPTH) return null;
  if (typeof v.toJSON === 'function') {
    let j;
    try {
      j = v.toJSON();
    } catch {
      return null;
    }
    if (j !== v) return wellFormed(j, ancestors);
  }
  ancestors.push(v);
  let out;
  if (Array.isArray(v)) out = v.map((x) => wellFormed(x, ancestors));
  else {
    out = {};
    for (const [k, x] of Object.entries(v)) out[text(k)] = wellFormed(x, ancestors);
  }
  ancestors.pop();
  return out;
}

/**
 * `builder.addTest(test)`, or, when the builder refuses it, the test with what it refused left
 * out: titles, file and tags as well-formed strings, then without line, column and tags, then
 * without its file. Returns the handle, or undefined when no form was taken (said once).
 * `ctx.notes`: from `recordNotes`.
 */
export function addTest(builder, ctx, test) {
  let first;
  const titlePath = Array.isArray(test?.titlePath) && test.titlePath.length ? test.titlePath.map(text) : [text(test?.titlePath)];
  const file = test?.file === undefined ? undefined : text(test.file);
  const tags = Array.isArray(test?.tags) ? test.tags.map(text) : undefined;
  const forms = [
    () => test,
    () => ({ ...test, titlePath, ...(file !== undefined ? { file } : {}), ...(tags ? { tags } : {}) }),
    () => ({ titlePath, ...(file !== undefined ? { file } : {}) }),
    () => ({ titlePath }),
  ];
  for (const form of forms) {
    try {
      const handle = builder.addTest(form());
      if (first) ctx.notes?.mended(`test "${titlePath.join(' › ')}": ${first.message}`);
      return handle;
    } catch (e) {
      if (!refused(e)) throw e;
      first ??= e;
    }
  }
  ctx.notes?.lost(`a test could not be recorded (${message(first)})`);
  return undefined;
}

/**
 * Tests the runner keeps apart stay apart in the report; this is the one place the rule is decided
 * (Rust `discover::distinct_titles` applies the same rule to the titles it reads from source, so
 * the durations exchange asks for the names the reports use). The report's identity of a test is
 * its file, suite titles and title (docs/report-format.md §3.4), and `builder.addTest` finds the
 * test of an identity already added, so that a runner's retries become attempts of one test. Two
 * distinct tests of one title path in one file (`test.each` without a placeholder in its title, a
 * title written twice, two `describe` blocks of one title) would become one test whose extra runs
 * read as retries. So, per file and run, in the runner's declaration order (the same every run),
 * the first test of a title path keeps it, and each further one has its title numbered:
 * `same title [2]`, `same title [3]`, ... (a number a title of the file already uses is passed
 * over: `t`, `t [2]`, `t` gives `t`, `t [2]`, `t [3]`). Distinct Test entries of one identity would
 * not do: the service, a timings file and the durations exchange find a test by its identity, so
 * the second one's durations could not be found again next run.
 * Returns `(titlePath) => titlePath`, to call once for each test of one file, in order.
 */
export function distinctTitles() {
  const used = new Set();
  const next = new Map();
  return (titlePath) => {
    const key = JSON.stringify(titlePath);
    if (!used.has(key)) {
      used.add(key);
      return titlePath;
    }
    const suites = titlePath.slice(0, -1);
    const title = titlePath.at(-1);
    for (let n = next.get(key) ?? 2; ; n++) {
      const numbered = [...suites, `${title} [${n}]`];
      const k = JSON.stringify(numbered);
      if (!used.has(k)) {
        used.add(k);
        next.set(key, n + 1);
        return numbered;
      }
    }
  };
}

/**
 * `builder.addAttempt(handle, attempt)`, or, when the builder refuses it, the attempt with what
 * its rules refuse left out (Rust: `ReportBuilder.__addAttemptMended`), said once. An attempt of
 * which nothing can be kept is left out, said once. Never throws for the attempt's content.
 */
export function addAttempt(builder, ctx, handle, attempt) {
  if (handle === undefined) return;
  try {
    builder.addAttempt(handle, attempt);
    return;
  } catch (e) {
    if (!refused(e)) throw e;
  }
  try {
    const left = builder.__addAttemptMended(handle, wellFormed(attempt));
    if (left.length) ctx.notes?.mended(`${left[0].path}: ${left[0].message}`);
  } catch (e) {
    if (!refused(e)) throw e;
    ctx.notes?.lost(`a test's result could not be recorded (${message(e)})`);
  }
}

/**
 * Runs `record()` for one test's result; an unexpected failure (a runner object of an
 * unforeseen shape) loses that result only, said once, never the report.
 */
export function guarded(ctx, what, record) {
  try {
    return record();
  } catch (e) {
    ctx.notes?.lost(`${what} could not be recorded (${message(e)})`);
    return undefined;
  }
}

/** `v` when it is an array, else none: a runner field of an unforeseen type reads as empty. */
export const list = (v) => (Array.isArray(v) ? v : []);

/** Milliseconds as the report wants them: a whole number >= 0, or undefined for no number. */
export function wholeMs(v) {
  let n;
  try {
    n = Math.round(typeof v === 'number' ? v : Number(v));
  } catch {
    return undefined; // a Symbol, an object without prototype: no number
  }
  return Number.isFinite(n) ? Math.max(0, n) : undefined;
}

/**
 * A start time as the runner gave it (ms since the epoch) when it is one: a whole number > 0,
 * else undefined. 0 or none is no start: a test that never started (a skip, a todo) is given one
 * by its reporter, since a start of 0 reads as the year 1970 and stretches the run's tests over
 * decades.
 */
export function startedMs(v) {
  const n = typeof v === 'number' ? wholeMs(v) : undefined;
  return n > 0 ? n : undefined;
}

/**
 * A 1-based line or column as the runner gave it when it is a number >= 1 (the builder mends a
 * fraction or one out of range), else undefined: 0 is Playwright's "no location", and a value of
 * another type is none (comparing a Symbol or a BigInt would throw, or not cross as JSON).
 */
export const position = (v) => (typeof v === 'number' && v >= 1 ? v : undefined);
