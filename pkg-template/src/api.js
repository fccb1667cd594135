// The public API: the wasm exports under the names index.d.ts declares, plus the error class.
// Rust does the work; nothing here re-implements it.
import { planShards as planShardsJson, __planShardsColumns, __planIdsPush } from '../wasm/shardwise.js';
export { verifyShards } from '../wasm/shardwise.js';
import { ReportBuilder as WasmReportBuilder, __testStatusCode } from '../wasm/shardwise.js';
export { compress, decompress, Compressor, Decompressor } from '../wasm/shardwise.js';
export { encodeReport, decodeReport, validateReport, normalizeReport } from '../wasm/shardwise.js';
export { fetchDurations, uploadReport, shardGroupKeyFor } from '../wasm/shardwise.js';
export { shardCosts } from '../wasm/shardwise.js';
export { ShardwiseError } from './errors.js';

/**
 * planShards(opts) (types/plan.d.ts). `opts.units` crosses into the wasm as columns (ids
 * joined by NUL, in pieces; files and groups interned, each ending with a NUL; durations in a
 * Float64Array) and the plan comes back as indices into `opts.units`, which is several times
 * faster than JSON both ways for 100,000 units. This glue only packs and unpacks: every check, error and
 * decision is Rust's. Anything the columns cannot say exactly as JSON would (a unit that is not
 * a plain object of string `id`, string `file`/`group`, number `durationMs`; another key;
 * ill-formed strings, which Rust sees as U+FFFD; a report) takes the general JSON path, so the
 * result, or the error, is always the same.
 */
export function planShards(opts) {
  const fast = planColumns(opts);
  return fast === undefined ? planShardsJson(opts) : fast;
}

const NONE = 0xffffffff;
const IDS_PER_PIECE = 1024;

/**
 * The index of `value` in `list` (appended when new); `index`, an object without prototype, maps
 * values to indices: property lookups are about twice as fast as a Map's for strings like paths
 * (V8 internalizes the key once and then compares pointers).
 */
function intern(value, list, index) {
  let ix = index[value];
  if (ix === undefined) { ix = list.length; list.push(value); index[value] = ix; }
  return ix;
}

function planColumns(opts) {
  if (opts === null || typeof opts !== 'object' || Object.getPrototypeOf(opts) !== Object.prototype) return undefined;
  // what JSON.stringify would see differently from plain property reads
  const proto = Object.prototype;
  if ('toJSON' in opts || 'id' in proto || 'file' in proto || 'group' in proto || 'durationMs' in proto) return undefined;
  const units = opts.units;
  if (!Array.isArray(units) || units.toJSON !== undefined || opts.report !== undefined) return undefined;
  const n = units.length;
  const ids = new Array(n);
  const fileOf = new Uint32Array(n);
  const groupOf = new Uint32Array(n);
  const durations = new Float64Array(n);
  const files = [], fileIx = Object.create(null);
  const groups = [], groupIx = Object.create(null);
  for (let i = 0; i < n; i++) {
    const u = units[i];
    if (u === null || typeof u !== 'object' || Object.getPrototypeOf(u) !== proto || u.toJSON !== undefined) return undefined;
    for (const k in u) {
      if (k !== 'id' && k !== 'file' && k !== 'group' && k !== 'durationMs') return undefined;
    }
    const id = u.id;
    if (typeof id !== 'string') return undefined;
    ids[i] = id;
    const file = u.file;
    if (typeof file === 'string') fileOf[i] = intern(file, files, fileIx);
    else if (file === undefined || file === null) fileOf[i] = NONE;
    else return undefined;
    const group = u.group;
    if (typeof group === 'string') groupOf[i] = intern(group, groups, groupIx);
    else if (group === undefined || group === null) groupOf[i] = NONE;
    else return undefined;
    const d = u.durationMs;
    // absent is 0 (both unknown); NaN and infinities go to Rust as they are, which refuses them
    // (JSON would say null for them: only this path can tell)
    if (typeof d === 'number') durations[i] = d;
    else if (d !== undefined && d !== null) return undefined;
  }
  // the ids cross in pieces joined by NUL, each of which Rust ends with one (see
  // __planIdsPush), the first starting over even when empty
  let at = 0;
  do __planIdsPush(ids.slice(at, at + IDS_PER_PIECE).join('\0'), at === 0);
  while ((at += IDS_PER_PIECE) < n);
  // each name ending with a NUL as well
  const fileText = files.length === 0 ? '' : files.join('\0') + '\0';
  const groupText = groups.length === 0 ? '' : groups.join('\0') + '\0';
  const rest = { ...opts };
  delete rest.units;
  const p = __planShardsColumns(JSON.stringify(rest), fileText, files.length, fileOf, groupText, groups.length, groupOf, durations);
  if (p === undefined) return undefined;
  // the documented shape, in the key order of the JSON path
  const shards = new Array(p.predictedMs.length);
  let atUnit = 0, atFile = 0;
  for (let s = 0; s < shards.length; s++) {
    const unitIds = new Array(p.unitCounts[s]);
    for (let j = 0; j < unitIds.length; j++) unitIds[j] = ids[p.units[atUnit++]];
    const fileNames = new Array(p.fileCounts[s]);
    for (let j = 0; j < fileNames.length; j++) fileNames[j] = files[fileOf[p.files[atFile++]]];
    shards[s] = { index: s + 1, predictedMs: p.predictedMs[s], testsMs: p.testsMs[s], units: unitIds, files: fileNames };
    if (p.modulesShare !== undefined) shards[s].modulesShare = p.modulesShare[s];
  }
  const plan = { fingerprint: p.fingerprint, lowerBoundMs: p.lowerBoundMs, makespanMs: p.makespanMs, shards, estimated: p.estimated };
  if (p.runnerSplitMs !== undefined) plan.runnerSplitMs = p.runnerSplitMs;
  if (p.keptRunnerSplit) plan.keptRunnerSplit = true;
  return plan;
}

/**
 * ReportBuilder (types/report.d.ts). `addTest` and `addAttempt` are called once per test and
 * per run; a test of the usual fields, or an attempt of only primitive fields, crosses into the
 * wasm field by field, which takes half the time of JSON.stringify and a JSON parse for 100,000
 * tests. Only what JSON would say the same way goes that way (plain objects of known keys,
 * well-formed strings, titles without NUL, integers in range, statuses Rust takes); anything
 * else goes through JSON, so the report, or the error, is the same either way.
 */
export class ReportBuilder extends WasmReportBuilder {
  addTest(test) {
    if (!plainObject(test, TEST_KEYS)) return super.addTest(test);
    const { titlePath, file, line, column, tags } = test;
    if (!titles(titlePath) || !optional(file, wellFormed) || !optional(line, u32) || !optional(column, u32)
      || !optional(tags, strings)) return super.addTest(test);
    return this.__addTestFields(titlePath.join('\0'), file ?? undefined, line ?? undefined, column ?? undefined, tags ?? undefined);
  }

  addAttempt(handle, attempt) {
    if (plainObject(attempt, ATTEMPT_KEYS)) {
      const { environmentIdx: env, status, expectedStatus, startTimestamp, duration, timeout, parallelIndex } = attempt;
      const s = optionalStatus(status), e = optionalStatus(expectedStatus);
      if (s !== NOT_TAKEN && e !== NOT_TAKEN && optional(env, u32) && optional(startTimestamp, whole)
        && optional(duration, whole) && optional(timeout, whole) && optional(parallelIndex, u32)) {
        return this.__addAttemptFields(handle, env ?? undefined, s, e, startTimestamp ?? undefined, duration ?? undefined,
          timeout ?? undefined, parallelIndex ?? undefined);
      }
    }
    super.addAttempt(handle, attempt);
  }
}

const TEST_KEYS = new Set(['titlePath', 'file', 'line', 'column', 'tags']);
const ATTEMPT_KEYS = new Set(['environmentIdx', 'status', 'expectedStatus', 'startTimestamp', 'duration', 'timeout', 'parallelIndex']);

/** An object JSON.stringify would write as its own keys, all in `keys`, no toJSON anywhere. */
function plainObject(v, keys) {
  if (v === null || typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype || 'toJSON' in v
    || 'toJSON' in String.prototype || 'toJSON' in Number.prototype || 'toJSON' in Array.prototype) return false;
  for (const k in v) if (!keys.has(k)) return false;
  return true;
}
/** Absent (JSON: no key, or null) or passing `check`. */
const optional = (v, check) => v === undefined || v === null || check(v);
/** A string that crosses into the wasm as JSON would carry it (a lone surrogate would not). */
const wellFormed = (v) => typeof v === 'string' && typeof v.isWellFormed === 'function' && v.isWellFormed();
/** A title path that crosses as its titles joined by NUL: at least one title, none with a NUL. */
function titles(v) {
  if (!strings(v) || v.length === 0) return false;
  for (let i = 0; i < v.length; i++) if (v[i].includes('\0')) return false;
  return true;
}
/** Rust's number for each status name it takes (`__testStatusCode`), as it answers. */
const statusCodes = new Map();
const NOT_TAKEN = -1;
/** A status's number, undefined when absent, NOT_TAKEN for what only JSON can answer. */
function optionalStatus(v) {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') return NOT_TAKEN;
  let code = statusCodes.get(v);
  if (code === undefined) {
    code = __testStatusCode(v);
    if (code !== NOT_TAKEN) statusCodes.set(v, code);
  }
  return code;
}
/** An array of such strings (a hole reads as JSON reads it, through the prototype: not a string). */
function strings(v) {
  if (!Array.isArray(v) || 'toJSON' in v) return false;
  for (let i = 0; i < v.length; i++) if (!wellFormed(v[i])) return false;
  return true;
}
const u32 = (v) => Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
const whole = (v) => Number.isSafeInteger(v) && v >= 0;
