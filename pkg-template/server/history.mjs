// Each test's history across the reports the local service holds: per test and report, its status
// (passed, failed, flaky, skipped) and duration, kept so that one test's runs, and every test's
// figures over the last N runs, are read without reading any report.
//
// A test is named as the report preview names it (src/tests.js): the planner's unit id that Rust
// lists for it (`__decodeReportTests`), and its key, a hash of that id (`#test=<key>`), the key
// the predictions are kept by too (predict.mjs). Its status is the preview's outcome (src/tests.js
// outcomeOf), its duration the sum of its attempts'.
//
// The state, in memory and in <dataDir>/history/:
//   - a dictionary: test index -> [key, unit id, seq of the newest report that ran it], kept in
//     the store's snapshot (state.json), so it grows with the tests, not tests x runs; with
//     retention, of the tests the kept runs have (forgetBefore: a forgotten test's index is null
//     until a new test takes it);
//   - the runs since the last snapshot, in memory (a crash replays them from the journal's
//     reports, as the durations are);
//   - sealed chunks: at each snapshot, the runs since the previous one are written as one file,
//     test-major, before the snapshot that lists it (a crash in between leaves a file no
//     snapshot lists: removed at start, its runs replayed from the journal):
//       'SWH1' | u32 header length | header JSON {seqs: [R seqs], tests: [T test indexes, ascending]}
//       | padding to 4 | status bytes T x R | padding to 4 | durations u32 (ms, little-endian) T x R
//     so one test's runs in a chunk are two reads at known offsets, and every test's figures over
//     a chunk one read of the file.
import { openSync, readSync, closeSync, readFileSync, readdirSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import '../node.mjs'; // the package's wasm, instantiated
import { __decodeReportTests } from '../wasm/shardwise.js';
import { listedTests, outcomeOf, durationOf } from '../src/tests.js';

/** Status codes as stored: 0 = the report did not have the test. */
export const STATUS = ['', 'passed', 'failed', 'flaky', 'skipped'];
const CODE = Object.fromEntries(STATUS.map((s, i) => [s, i]));
const MAGIC = 0x31485753; // 'SWH1' little-endian
const pad4 = (n) => (n + 3) & ~3;
const MAX_MS = 0xffffffff;

/**
 * A report's tests as Rust lists them, from its bytes (Brotli or plain JSON): `{report, tests}`
 * (`report`: the document, as JSON.parse reads it; `tests`: src/tests.js `listedTests`, each
 * `{test, path, file, unitId, key}` with `test` the object in `report`). The one reader of a
 * report's test names in the service: the history's rows and the predictions (predict.mjs) key
 * a test by the same `key`. Throws what `__decodeReportTests` throws for a report it cannot read.
 */
export function readTests(bytes) {
  const decoded = __decodeReportTests(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
  return { report: decoded.report, tests: listedTests(decoded) };
}

/** A report's history rows from its listed tests (readTests): `{keys, unitIds, status: Uint8Array, durations: Uint32Array}`. */
export function rowsOf(tests) {
  const n = tests.length;
  const rows = { keys: new Array(n), unitIds: new Array(n), status: new Uint8Array(n), durations: new Uint32Array(n) };
  for (let i = 0; i < n; i++) {
    const t = tests[i];
    rows.keys[i] = t.key;
    rows.unitIds[i] = t.unitId;
    rows.status[i] = CODE[outcomeOf(t.test).outcome];
    rows.durations[i] = Math.min(MAX_MS, Math.max(0, Math.round(durationOf(t.test)) || 0));
  }
  return rows;
}

/** A report read for the history: `{report, tests, rows}` (readTests, rowsOf). */
export function readForHistory(bytes) {
  const read = readTests(bytes);
  return { ...read, rows: rowsOf(read.tests) };
}
/** A report's history rows (readForHistory). */
export const historyRows = (bytes) => readForHistory(bytes).rows;

/** The index of `v` in the ascending `arr`, or -1. */
function find(arr, v) {
  let lo = 0;
  let hi = arr.length - 1;
  while (lo <= hi) {
    const m = (lo + hi) >>> 1;
    const x = arr[m];
    if (x === v) return m;
    if (x < v) lo = m + 1; else hi = m - 1;
  }
  return -1;
}

export class History {
  /** @param {string} dir where the chunks are kept (<dataDir>/history) */
  constructor(dir) {
    this.dir = dir;
    this.keys = []; // test index -> key (null: a free index, its test forgotten)
    this.unitIds = []; // test index -> unit id
    this.last = []; // test index -> seq of the newest report that ran it
    this.byKey = new Map(); // key -> test index
    this.free = []; // indexes of forgotten tests, given to new ones
    this.floor = 0; // retention: runs older than this seq are no one's (an index given again may have some in a kept chunk)
    this.chunks = []; // sealed: {file, seqs: number[], tests: Uint32Array, statusOff, durOff, bytes?}
    this.runs = []; // since the last seal: {seq, idx: Uint32Array ascending, status: Uint8Array, durations: Uint32Array}
    this.version = 0; // moves with every change (the figures' cache)
    this.cache = undefined;
  }

  /** Folds in one finished report's rows (reports in finishing order); no rows: nothing known of its tests. */
  add(seq, rows) {
    this.version++;
    if (!rows) return;
    const n = rows.keys.length;
    const order = new Array(n);
    const idxOf = new Uint32Array(n);
    const seen = new Set();
    let m = 0;
    for (let i = 0; i < n; i++) {
      const key = rows.keys[i];
      if (seen.has(key)) continue; // keys are unique per report (listedTests), but a report is someone else's
      seen.add(key);
      let idx = this.byKey.get(key);
      if (idx === undefined) {
        idx = this.free.length ? this.free.pop() : this.keys.length;
        this.byKey.set(key, idx);
        this.keys[idx] = key;
        this.unitIds[idx] = rows.unitIds[i];
        this.last[idx] = seq;
      } else this.last[idx] = seq;
      idxOf[i] = idx;
      order[m++] = i;
    }
    order.length = m;
    order.sort((a, b) => idxOf[a] - idxOf[b]);
    const run = { seq, idx: new Uint32Array(m), status: new Uint8Array(m), durations: new Uint32Array(m) };
    for (let j = 0; j < m; j++) {
      const i = order[j];
      run.idx[j] = idxOf[i];
      run.status[j] = rows.status[i];
      run.durations[j] = rows.durations[i];
    }
    this.runs.push(run);
  }

  /**
   * The runs since the last seal as one chunk (kept in memory with its bytes until `written`),
   * or undefined without any. Called when the store snapshots.
   */
  seal() {
    if (!this.runs.length) return undefined;
    const runs = this.runs;
    this.runs = [];
    const posOf = new Int32Array(this.keys.length).fill(-1);
    let t = 0;
    for (const r of runs) for (const i of r.idx) if (posOf[i] < 0) { posOf[i] = 0; t++; }
    const tests = new Uint32Array(t);
    for (let i = 0, p = 0; i < posOf.length; i++) if (posOf[i] === 0) { posOf[i] = p; tests[p++] = i; }
    const R = runs.length;
    const seqs = runs.map((r) => r.seq);
    const header = Buffer.from(JSON.stringify({ seqs, tests: [...tests] }));
    const statusOff = pad4(8 + header.length);
    const durOff = pad4(statusOff + t * R);
    const bytes = Buffer.alloc(durOff + 4 * t * R);
    bytes.writeUInt32LE(MAGIC, 0);
    bytes.writeUInt32LE(header.length, 4);
    header.copy(bytes, 8);
    const status = bytes.subarray(statusOff, statusOff + t * R);
    const durs = new Uint32Array(bytes.buffer, bytes.byteOffset + durOff, t * R);
    runs.forEach((r, k) => {
      for (let j = 0; j < r.idx.length; j++) {
        const at = posOf[r.idx[j]] * R + k;
        status[at] = r.status[j];
        durs[at] = r.durations[j];
      }
    });
    const chunk = { file: `${seqs[0]}-${seqs[R - 1]}.bin`, seqs, tests, statusOff, durOff, bytes };
    this.chunks.push(chunk);
    return chunk;
  }
  /** The chunk's file is on disk: its bytes leave memory. */
  written(chunk) { chunk.bytes = undefined; }
  path(chunk) { return join(this.dir, chunk.file); }

  /**
   * Retention, the runs older than `seq` gone: the chunks whose every run is older are dropped
   * from the list (their files for the caller to delete), and the tests no run from `seq` on has
   * are forgotten (key, unit id: the dictionary holds the tests of the kept runs only); their
   * indexes go to new tests (a kept chunk's runs of the old test are older than `seq`: read by
   * no one, see `floor`).
   */
  forgetBefore(seq) {
    if (seq <= this.floor) return [];
    this.floor = seq;
    this.version++;
    this.cache = undefined;
    const gone = this.chunks.filter((c) => c.seqs[c.seqs.length - 1] < seq);
    if (gone.length) this.chunks = this.chunks.filter((c) => !gone.includes(c));
    for (let i = 0; i < this.keys.length; i++) {
      if (this.keys[i] === null || this.last[i] >= seq) continue;
      this.byKey.delete(this.keys[i]);
      this.keys[i] = null;
      this.unitIds[i] = null;
      this.last[i] = 0;
    }
    // free indexes at the end are given up; the others are given again, the lowest first
    while (this.keys.length && this.keys[this.keys.length - 1] === null) { this.keys.pop(); this.unitIds.pop(); this.last.pop(); }
    this.free = [];
    for (let i = this.keys.length - 1; i >= 0; i--) if (this.keys[i] === null) this.free.push(i);
    return gone.map((c) => this.path(c));
  }

  /** What the store's snapshot keeps: the dictionary (null: a free index), the retention floor and the list of chunks. */
  dump() {
    return { tests: this.keys.map((k, i) => (k === null ? null : [k, this.unitIds[i], this.last[i]])), floor: this.floor, chunks: this.chunks.map((c) => c.file) };
  }
  /** Loads a snapshot's part (undefined: none yet); a chunk file not listed is removed (a crash before its snapshot). */
  load(state, warn) {
    mkdirSync(this.dir, { recursive: true });
    for (const t of state?.tests ?? []) {
      if (t === null) { this.keys.push(null); this.unitIds.push(null); this.last.push(0); continue; }
      const [key, unitId, last] = t;
      this.byKey.set(key, this.keys.length);
      this.keys.push(key);
      this.unitIds.push(unitId);
      this.last.push(last);
    }
    for (let i = this.keys.length - 1; i >= 0; i--) if (this.keys[i] === null) this.free.push(i);
    this.floor = state?.floor ?? 0;
    const listed = new Set(state?.chunks ?? []);
    for (const f of readdirSync(this.dir)) if (!listed.has(f)) rmSync(join(this.dir, f), { force: true });
    for (const file of state?.chunks ?? []) {
      try {
        this.chunks.push(this.readHeader(file));
      } catch (e) {
        warn?.(`the history chunk ${file} cannot be read (${e.message}): the history of its runs is left out`);
      }
    }
    this.version++;
  }
  readHeader(file) {
    const fd = openSync(join(this.dir, file), 'r');
    try {
      const head = Buffer.alloc(8);
      if (readSync(fd, head, 0, 8, 0) !== 8 || head.readUInt32LE(0) !== MAGIC) throw new Error('not a history chunk');
      const len = head.readUInt32LE(4);
      const text = Buffer.alloc(len);
      if (readSync(fd, text, 0, len, 8) !== len) throw new Error('cut short');
      const { seqs, tests } = JSON.parse(text.toString('utf8'));
      const statusOff = pad4(8 + len);
      return { file, seqs, tests: Uint32Array.from(tests), statusOff, durOff: pad4(statusOff + tests.length * seqs.length) };
    } finally { closeSync(fd); }
  }

  /** A test's index by its key, or undefined. */
  indexOf(key) { return this.byKey.get(key); }

  /**
   * Every run of test `idx` the state holds, oldest first: `[{seq, status, durationMs}]`
   * (status by name). Two reads per chunk that has the test, none of any report.
   */
  testRuns(idx) {
    const out = [];
    for (const c of this.chunks) {
      const p = find(c.tests, idx);
      if (p < 0) continue;
      const R = c.seqs.length;
      let status;
      let durs;
      if (c.bytes) {
        status = c.bytes.subarray(c.statusOff + p * R, c.statusOff + (p + 1) * R);
        durs = Buffer.from(c.bytes.subarray(c.durOff + 4 * p * R, c.durOff + 4 * (p + 1) * R));
      } else {
        const fd = openSync(this.path(c), 'r');
        try {
          status = Buffer.alloc(R);
          durs = Buffer.alloc(4 * R);
          readSync(fd, status, 0, R, c.statusOff + p * R);
          readSync(fd, durs, 0, 4 * R, c.durOff + 4 * p * R);
        } finally { closeSync(fd); }
      }
      for (let r = 0; r < R; r++) if (status[r] && c.seqs[r] >= this.floor) out.push({ seq: c.seqs[r], status: STATUS[status[r]], durationMs: durs.readUInt32LE(4 * r) });
    }
    for (const run of this.runs) {
      const j = find(run.idx, idx);
      if (j >= 0 && run.status[j]) out.push({ seq: run.seq, status: STATUS[run.status[j]], durationMs: run.durations[j] });
    }
    return out;
  }

  /**
   * Every test's figures over a window of runs, `window` = {seqs: its reports' seqs, ascending;
   * recent: per seq, 1 when it is in the newer half of the window} (history-api.mjs: the reports
   * of the last N runs, a run's shards together): per test index, the runs it passed, failed, was
   * flaky and skipped in, its newest status, and the mean duration of its runs that passed (a
   * retry would count twice) in the older half (earlier) and the newer (recent). A chunk whose
   * every run is in the window, on one side, adds its own figures (computed once: a chunk never
   * changes); the others are read whole; the answer is kept until the state changes (a page after
   * another, the other sort).
   */
  figures(window) {
    const tag = `${this.version}:${window.seqs.join(',')}:${window.recent.join('')}`;
    if (this.cache?.tag === tag) return this.cache.figures;
    const n = this.keys.length;
    const f = {
      passed: new Uint32Array(n), failed: new Uint32Array(n), flaky: new Uint32Array(n), skipped: new Uint32Array(n),
      lastStatus: new Uint8Array(n), earlierSum: new Float64Array(n), earlierN: new Uint32Array(n), recentSum: new Float64Array(n), recentN: new Uint32Array(n),
    };
    // seq -> 1 in the older half, 2 in the newer (absent: not in the window)
    const side = new Map();
    window.seqs.forEach((seq, j) => { if (seq >= this.floor) side.set(seq, window.recent[j] ? 2 : 1); });
    const counts = [null, f.passed, f.failed, f.flaky, f.skipped];
    const one = (i, s, d, recent) => {
      counts[s][i]++;
      f.lastStatus[i] = s;
      if (s === 1) {
        if (recent) { f.recentSum[i] += d; f.recentN[i]++; } else { f.earlierSum[i] += d; f.earlierN[i]++; }
      }
    };
    for (const c of this.chunks) {
      const R = c.seqs.length;
      const sides = c.seqs.map((seq) => side.get(seq) ?? 0);
      if (sides.every((x) => x === 0)) continue;
      if (sides.every((x) => x === sides[0])) {
        // every run of the chunk in the window, on one side of its middle: its own figures, kept (a chunk never changes)
        const part = (c.part ??= this.chunkFigures(c));
        const [sum, cnt] = sides[0] === 2 ? [f.recentSum, f.recentN] : [f.earlierSum, f.earlierN];
        for (let p = 0; p < c.tests.length; p++) {
          const i = c.tests[p];
          f.passed[i] += part.passed[p]; f.failed[i] += part.failed[p]; f.flaky[i] += part.flaky[p]; f.skipped[i] += part.skipped[p];
          if (part.lastStatus[p]) f.lastStatus[i] = part.lastStatus[p];
          sum[i] += part.durSum[p]; cnt[i] += part.durN[p];
        }
        continue;
      }
      const { status, durs, T } = this.chunkData(c);
      const rs = [];
      for (let r = 0; r < R; r++) if (sides[r]) rs.push(r);
      for (let p = 0; p < T; p++) {
        const i = c.tests[p];
        const base = p * R;
        for (const r of rs) {
          const s = status[base + r];
          if (s) one(i, s, durs[base + r], sides[r] === 2);
        }
      }
    }
    for (const run of this.runs) {
      const sd = side.get(run.seq);
      if (!sd) continue;
      for (let j = 0; j < run.idx.length; j++) if (run.status[j]) one(run.idx[j], run.status[j], run.durations[j], sd === 2);
    }
    this.cache = { tag, figures: f };
    return f;
  }

  /** A chunk's status and duration blocks (one read of its file). */
  chunkData(c) {
    const R = c.seqs.length;
    const T = c.tests.length;
    const buf = c.bytes ?? readFileSync(this.path(c));
    const status = buf.subarray(c.statusOff, c.statusOff + T * R);
    const durs = (buf.byteOffset + c.durOff) % 4 === 0
      ? new Uint32Array(buf.buffer, buf.byteOffset + c.durOff, T * R)
      : new Uint32Array(Uint8Array.prototype.slice.call(buf, c.durOff, c.durOff + 4 * T * R).buffer);
    return { status, durs, T, R };
  }
  /** Per test of a chunk (by its position in `c.tests`): its runs by status, newest status, passed runs' duration sum and count. */
  chunkFigures(c) {
    const { status, durs, T, R } = this.chunkData(c);
    const part = {
      passed: new Uint32Array(T), failed: new Uint32Array(T), flaky: new Uint32Array(T), skipped: new Uint32Array(T),
      lastStatus: new Uint8Array(T), durSum: new Float64Array(T), durN: new Uint32Array(T),
    };
    const counts = [null, part.passed, part.failed, part.flaky, part.skipped];
    for (let p = 0; p < T; p++) {
      const base = p * R;
      for (let r = 0; r < R; r++) {
        const s = status[base + r];
        if (!s) continue;
        counts[s][p]++;
        part.lastStatus[p] = s;
        if (s === 1) { part.durSum[p] += durs[base + r]; part.durN[p]++; }
      }
    }
    return part;
  }
}

