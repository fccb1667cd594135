// The messages between the page and its worker (worker.mjs): the one table both sides import.
// A message is `{type, ...fields}`. `message()` builds one from the table (a field the table
// does not name throws, so a field added on one side only fails at once instead of vanishing);
// `dispatcher()` takes one handler per type of a table (a type without one, or a handler for a
// type not in the table, throws when the page starts).
//
// `seq` fields: each section of the page numbers its requests and drops replies to older ones.
// A test is asked for by `ref`: its key (summary.mjs keyOf: the link that survives other
// reports) or, for links made before keys, its position in the report.

/** Page -> worker: type -> its fields. */
export const TO_WORKER = Object.freeze({
  /** a report to decode and keep (`bytes`: an ArrayBuffer, transferred; .json.br or .json) */
  open: ['bytes'],
  /** plan the open report over `shardCount` shards (`environment`: an index, or all) */
  plan: ['seq', 'shardCount', 'environment'],
  /** more rows of a capped list (`list`: 'slowest' | 'flaky'), rows `from` to `to` */
  rows: ['list', 'from', 'to'],
  /** the unit ids of shard `index` (1-based) of plan `seq`, `from` to `to` */
  shard: ['seq', 'index', 'from', 'to'],
  /** the test list's rows `from` to `to` under `query` ({status, env, file, text, sort, desc}) */
  tests: ['seq', 'query', 'from', 'to'],
  /** one test's page */
  test: ['ref'],
  /** the shards of a run side by side (`reports`: [{name, bytes}], the bytes transferred) */
  shards: ['seq', 'reports'],
  /** the open report against another (`name`: what it is; `bytes` transferred) */
  compare: ['seq', 'name', 'bytes'],
});

/** Worker -> page: type -> its fields. */
export const FROM_WORKER = Object.freeze({
  /** the open report's figures (its long lists as `{count, rows}`: the first rows) and what it is */
  report: ['summary', 'meta'],
  /** what the chart shows of a plan (not its unit ids) */
  plan: ['seq', 'plan'],
  rows: ['list', 'from', 'rows'],
  /** `count`: the shard's units in all; `units`: those asked for */
  shard: ['seq', 'index', 'from', 'count', 'units'],
  /** `count`: the rows the query selects; `ms`: the worker's time for it */
  tests: ['seq', 'count', 'from', 'rows', 'ms'],
  /** `test` left out: the report has no such test */
  test: ['ref', 'test'],
  /** each shard's figures (summary.mjs shardFigures, with its `name`) and the tests that ran on several */
  shards: ['seq', 'shards', 'twice'],
  compare: ['seq', 'name', 'diff'],
  /** a request failed: `of` is its type (and `seq` its number) */
  error: ['of', 'seq', 'code', 'step', 'message'],
});

/**
 * A message of `type` in `table`, carrying `fields` (each one the table names; undefined ones left out).
 * @param {Readonly<Record<string, string[]>>} table
 * @param {string} type
 * @param {Record<string, unknown>} [fields]
 */
export function message(table, type, fields = {}) {
  const names = Object.hasOwn(table, type) ? table[type] : undefined;
  if (!names) throw new Error(`internal: no message type ${type}`);
  const m = { type };
  for (const [k, v] of Object.entries(fields)) {
    if (!names.includes(k)) throw new Error(`internal: a ${type} message has no field ${k}`);
    if (v !== undefined) m[k] = v;
  }
  return m;
}

/**
 * A function that hands a message of `table` to its type's handler.
 * @param {Readonly<Record<string, string[]>>} table
 * @param {Record<string, (data: any) => unknown>} handlers one for each type of `table`, no other
 */
export function dispatcher(table, handlers) {
  const missing = Object.keys(table).filter((t) => typeof handlers[t] !== 'function');
  const extra = Object.keys(handlers).filter((t) => !Object.hasOwn(table, t));
  if (missing.length || extra.length) throw new Error(`internal: handlers missing for ${missing.join(', ') || '-'}; for no message: ${extra.join(', ') || '-'}`);
  return (data) => {
    if (!Object.hasOwn(handlers, data?.type)) throw new Error(`internal: no message type ${data?.type}`);
    return handlers[data.type](data);
  };
}
