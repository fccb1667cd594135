// On-disk storage of the local service, made to hold a team's history for months:
//
//   <dataDir>/config.json   {version, secret, accessToken}: written once (and when an option changes it)
//   <dataDir>/state.json    snapshot: {version, seq, reports: [meta...], tests: [[key, {env: [p, n, v, last]}]...],
//                           history: {tests: [[key, unitId, last] or null...], floor, chunks: [file...]}}
//                           (a test's key: src/tests.js keyOf, the same in both; predict.mjs on older names)
//   <dataDir>/journal.log   one JSON line per report finished since the snapshot ({seq, ...meta})
//   <dataDir>/history/      each test's status and duration per report, a chunk per snapshot (history.mjs)
//   <dataDir>/blobs/...     report, attachment, test-list and durations-result blobs
//   <dataDir>/tmp/          files being written (emptied at start)
//   <dataDir>/lock          the pid of the service using the directory
//
// A finished report costs one fsync'd journal line (its blob was fsync'd when it was PUT); its
// per-test durations are folded into the prediction state in memory (predict.mjs: one update per
// test and environment), and its tests' statuses and durations into the history (history.mjs: the
// runs since the snapshot in memory, sealed as one chunk file per snapshot). Every SNAPSHOT_EVERY reports, or when the service closes, the state is
// written whole (tmp + fsync + rename) and the journal emptied, so disk, memory and the time of an
// upload grow with the number of tests, never with tests x runs. After a crash, start-up replays
// the journal's reports from their blobs. Blobs are written to tmp/, fsync'd, then renamed: a
// blob is there whole or not at all. Retention (`keepReports`) drops the oldest reports' blobs
// and the state of tests not seen since the oldest kept report.
import {
  mkdirSync, readFileSync, writeFileSync, existsSync, renameSync, rmSync, openSync, fsyncSync, closeSync,
  writeSync, readdirSync, statSync, unlinkSync,
} from 'node:fs';
import { open, mkdir, rename } from 'node:fs/promises';
import { join, dirname, resolve, sep } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { HttpError } from './errors.mjs';
import { durationsOf, Predictor } from './predict.mjs';
import { MAX_DECODED_BYTES } from './limits.mjs';
import { History, readForHistory } from './history.mjs';
import { brotliDecompressSync } from 'node:zlib';

const VERSION = 2;
/** Reports folded in memory between two snapshots of the prediction state (the journal's length at most). */
export const SNAPSHOT_EVERY = 64;
// File names are limited to 255 bytes: long key segments are stored under their SHA-256.
const seg = (p) => (p.length > 120 ? createHash('sha256').update(p).digest('hex') : p);

function fsyncDir(dir) {
  try { const fd = openSync(dir, 'r'); try { fsyncSync(fd); } finally { closeSync(fd); } } catch { /* not supported everywhere */ }
}
/** Writes `file` whole or not at all: tmp file, fsync, rename, fsync of the directory. */
export function writeAtomic(file, data, tmpDir = dirname(file)) {
  const tmp = join(tmpDir, `${Date.now()}-${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'w');
  try { writeSync(fd, data); fsyncSync(fd); } finally { closeSync(fd); }
  mkdirSync(dirname(file), { recursive: true });
  renameSync(tmp, file);
  fsyncDir(dirname(file));
}

/** writeAtomic without blocking the event loop. */
export async function writeAtomicAsync(file, data, tmpDir) {
  const tmp = join(tmpDir, `${Date.now()}-${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(tmp, 'w');
  try { await fh.writeFile(data); await fh.sync(); } finally { await fh.close(); }
  await mkdir(dirname(file), { recursive: true });
  await rename(tmp, file);
  await fsyncDirAsync(dirname(file));
}
async function fsyncDirAsync(dir) {
  try { const fh = await open(dir, 'r'); try { await fh.sync(); } finally { await fh.close(); } } catch { /* not supported everywhere */ }
}

const warn = (m) => process.emitWarning?.(`shardwise serve: ${m}`);
/**
 * A finished report read with the package's wasm for its history (history.mjs readForHistory):
 * `{report, tests, rows}`, or `{error}` when that reader refuses it (the report is kept and
 * listed; its tests have no run in the history and no duration in the predictions, its costs
 * record is still read: `historyWarning(error)`).
 */
export function readReport(bytes) {
  try { return readForHistory(bytes); } catch (error) { return { error }; }
}
export const historyWarning = (e) => warn(`a report's tests are left out of the history and the predictions (its tests are named as the package's wasm lists them, and it cannot read this report): ${e?.code ? `${e.code}: ` : ''}${e?.message ?? e}`);

const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; } };

export class Store {
  /**
   * Paths only: get/has/put work at once (tests read blobs of a running service this way);
   * `open()` takes the directory's lock and loads the history.
   * @param {{keepReports?: number, snapshotEvery?: number}} opts keepReports: newest reports kept (0 = all)
   */
  constructor(dataDir, { keepReports = 0, snapshotEvery = SNAPSHOT_EVERY } = {}) {
    this.dir = dataDir;
    this.keepReports = keepReports;
    this.snapshotEvery = snapshotEvery;
    this.blobsDir = resolve(dataDir, 'blobs');
    this.tmpDir = join(dataDir, 'tmp');
    this.predictor = new Predictor();
    this.history = new History(join(dataDir, 'history'));
    this.reports = []; // meta of finished reports, oldest first
    this.ids = new Set();
    this.bySha = new Map(); // sha256 of a report's bytes -> the id of the first report uploaded with them
    this.seq = 0; // seq of the newest finished report
    this.snapshotSeq = 0; // seq the state.json on disk holds
    this.dropped = []; // ids retention dropped, blobs not yet deleted
    this.queue = []; // finished reports waiting for their journal write
    this.finishing = new Map(); // id -> promise of its journal write
    this.assigned = 0; // the newest seq handed out
  }

  open() {
    const dataDir = this.dir;
    mkdirSync(this.blobsDir, { recursive: true });
    this.lock();
    rmSync(this.tmpDir, { recursive: true, force: true });
    mkdirSync(this.tmpDir, { recursive: true });
    this.config = existsSync(join(dataDir, 'config.json')) ? JSON.parse(readFileSync(join(dataDir, 'config.json'), 'utf8')) : {};
    const statePath = join(dataDir, 'state.json');
    const oldIndex = join(dataDir, 'index.json');
    if (existsSync(statePath)) {
      this.loadSnapshot(JSON.parse(readFileSync(statePath, 'utf8')));
      if (existsSync(oldIndex)) renameSync(oldIndex, oldIndex + '.migrated'); // a migration stopped before its last step
    } else {
      this.history.load(undefined, warn);
      if (existsSync(oldIndex)) this.migrate(oldIndex);
    }
    this.replayJournal();
    this.assigned = this.seq;
    return this;
  }

  /** One service per data directory: a lock file with the pid; a dead holder's lock (kill -9) is taken over. */
  lock() {
    const file = join(this.dir, 'lock');
    for (let i = 0; i < 2; i++) {
      try {
        writeFileSync(file, String(process.pid), { flag: 'wx' });
        this.lockFile = file;
        return;
      } catch (e) {
        if (e.code !== 'EEXIST') throw e;
        const pid = Number(readFileSync(file, 'utf8'));
        if (pid && pid !== process.pid && alive(pid)) {
          throw Object.assign(new Error(`the data directory ${this.dir} is in use by another shardwise service (pid ${pid})`), { code: 'EDATALOCKED' });
        }
        rmSync(file, { force: true });
      }
    }
  }

  loadSnapshot(s) {
    if (s.version !== VERSION) throw new Error(`state.json version ${s.version} is not ${VERSION}`);
    this.seq = this.snapshotSeq = s.seq;
    this.reports = s.reports;
    for (const r of this.reports) this.noteReport(r);
    this.predictor.load(s.tests);
    this.history.load(s.history, warn);
  }

  /** The format before version 2: index.json with every report's per-test durations. */
  migrate(oldIndex) {
    const old = JSON.parse(readFileSync(oldIndex, 'utf8'));
    if (old.secret && !this.config.secret) this.config.secret = old.secret;
    if (old.accessToken && !this.config.accessToken) this.config.accessToken = old.accessToken;
    this.config.version = VERSION;
    writeAtomic(join(this.dir, 'config.json'), JSON.stringify(this.config), this.tmpDir);
    for (const { durations, ...meta } of old.reports ?? []) this.apply({ seq: this.seq + 1, ...meta }, durations ?? {});
    this.snapshot();
    renameSync(oldIndex, oldIndex + '.migrated');
    this.migrated = old.reports?.length ?? 0;
  }

  /** Reports finished after the snapshot: their journal lines (a torn last line is a finish never answered). */
  replayJournal() {
    const file = join(this.dir, 'journal.log');
    if (!existsSync(file)) return;
    let replayed = 0;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      let e;
      try { e = JSON.parse(line); } catch { continue; }
      if (!e || typeof e.seq !== 'number' || e.seq <= this.seq || this.ids.has(e.id)) continue;
      const blob = this.get(`reports/${e.id}/report.json.br`);
      if (!blob) continue;
      let durations;
      let rows;
      try {
        if (!e.duplicateOf) {
          const read = readReport(blob.bytes);
          if (read.error) historyWarning(read.error);
          rows = read.rows;
          durations = durationsOf(read.report ?? JSON.parse(decodeBr(blob.bytes)), read.tests);
        }
      } catch { continue; }
      this.apply(e, durations ?? {}, rows);
      replayed++;
    }
    this.replayed = replayed;
    this.snapshot(); // also empties the journal, torn line included
  }

  blobPath(key) {
    const p = resolve(this.blobsDir, ...key.split('/').map(seg));
    if (!p.startsWith(this.blobsDir + sep)) throw new HttpError(400, 'invalid_request', 'bad storage key');
    return p;
  }
  /** Stores `bytes` under `key` atomically (meta first: the blob's presence commits both). */
  put(key, bytes, meta = {}) {
    const p = this.blobPath(key);
    writeAtomic(p + '.meta.json', JSON.stringify(meta), this.tmpDir);
    writeAtomic(p, bytes, this.tmpDir);
  }
  /**
   * Streams a request body into `key`: tmp file, fsync, then `check(bytes)` (may throw; nothing is
   * kept), then rename. Over `maxBytes` throws 413 and keeps nothing.
   */
  async putStream(key, stream, maxBytes, meta, check) {
    const p = this.blobPath(key);
    const tmp = join(this.tmpDir, `${Date.now()}-${randomBytes(6).toString('hex')}.tmp`);
    const fh = await open(tmp, 'w');
    let n = 0;
    let ok = false;
    try {
      for await (const chunk of stream) {
        n += chunk.length;
        if (n > maxBytes) throw new HttpError(413, 'payload_too_large', `body larger than ${maxBytes} bytes`);
        await fh.write(chunk);
      }
      // a connection cut mid-body (a stalled client timed out) keeps nothing
      if (stream.complete === false) throw new HttpError(400, 'invalid_body', 'the body ended before its end');
      await fh.sync();
      await fh.close();
      if (check) check(readFileSync(tmp));
      await writeAtomicAsync(p + '.meta.json', JSON.stringify(meta), this.tmpDir);
      await mkdir(dirname(p), { recursive: true });
      await rename(tmp, p);
      await fsyncDirAsync(dirname(p));
      ok = true;
      return n;
    } finally {
      if (!ok) { await fh.close().catch(() => {}); rmSync(tmp, { force: true }); }
    }
  }
  /** put without blocking the event loop. */
  async putAsync(key, bytes, meta = {}) {
    const p = this.blobPath(key);
    await writeAtomicAsync(p + '.meta.json', JSON.stringify(meta), this.tmpDir);
    await writeAtomicAsync(p, bytes, this.tmpDir);
  }
  has(key) { return existsSync(this.blobPath(key)); }
  get(key) {
    const p = this.blobPath(key);
    let bytes;
    try { bytes = readFileSync(p); } catch { return null; }
    let meta = {};
    try { meta = JSON.parse(readFileSync(p + '.meta.json', 'utf8')); } catch { /* meta is optional */ }
    return { bytes, meta };
  }
  remove(key) { rmSync(this.blobPath(key), { recursive: true, force: true }); rmSync(this.blobPath(key) + '.meta.json', { force: true }); }

  hasReport(id) { return this.ids.has(id); }
  /**
   * The finished (or finishing) report uploaded with the same bytes before `id`, if any; else
   * `id` becomes the one for those bytes. A report uploaded again (a re-run recovery job, a
   * re-upload of a saved folder) is then kept at its own link but counted once.
   */
  firstWithSha(sha256, id) {
    const first = this.bySha.get(sha256);
    if (first !== undefined && first !== id) return first;
    this.bySha.set(sha256, id);
    return undefined;
  }
  noteReport(r) {
    this.ids.add(r.id);
    if (r.sha256 && !r.duplicateOf && !this.bySha.has(r.sha256)) this.bySha.set(r.sha256, r.id);
  }
  report(id) { return this.ids.has(id) ? this.reports.find((r) => r.id === id) : undefined; }

  /**
   * Records a finished report; resolves once its journal line is written and fsync'd (so a
   * `finish` answered is durable), with its durations folded into the prediction state. Reports
   * finishing together share one write and one fsync (group commit), applied in their order.
   */
  addReport(meta, durations, rows) {
    let p = this.finishing.get(meta.id);
    if (p) return p; // the same upload finished twice at once
    p = new Promise((resolve, reject) => { this.queue.push({ e: { seq: ++this.assigned, ...meta }, durations, rows, resolve, reject }); });
    this.finishing.set(meta.id, p);
    p.finally(() => this.finishing.delete(meta.id)).catch(() => {});
    this.flush();
    return p;
  }
  async flush() {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0);
        try {
          const fh = await open(join(this.dir, 'journal.log'), 'a');
          try { await fh.write(batch.map((x) => JSON.stringify(x.e) + '\n').join('')); await fh.sync(); } finally { await fh.close(); }
        } catch (err) { for (const x of batch) x.reject(err); continue; }
        for (const x of batch) { this.apply(x.e, x.durations, x.rows); x.resolve(); }
        if (this.seq - this.snapshotSeq >= this.snapshotEvery) {
          try { await this.snapshotAsync(); } catch (err) { process.emitWarning?.(`shardwise serve: snapshot: ${err.message}`); }
        }
      }
    } finally {
      this.flushing = false;
      this.idle?.();
    }
  }
  apply(e, durations, rows) {
    this.seq = e.seq;
    this.predictor.add(durations, e.seq);
    this.history.add(e.seq, rows);
    this.reports.push(e);
    this.noteReport(e);
    // Retention: the oldest report leaves the list at once; its blobs go at the next snapshot.
    while (this.keepReports > 0 && this.reports.length > this.keepReports) {
      const r = this.reports.shift();
      this.ids.delete(r.id);
      if (this.bySha.get(r.sha256) === r.id) this.bySha.delete(r.sha256);
      this.dropped.push(r.id);
    }
  }

  /** Writes the state whole and empties the journal; then deletes the blobs retention dropped. */
  snapshot() {
    const state = this.snapshotState();
    // the chunk before the snapshot that lists it
    if (state.chunk) { writeAtomic(this.history.path(state.chunk), state.chunk.bytes, this.tmpDir); this.history.written(state.chunk); }
    writeAtomic(join(this.dir, 'state.json'), state.json, this.tmpDir);
    writeAtomic(join(this.dir, 'journal.log'), '', this.tmpDir);
    this.snapshotDone(state);
  }
  /** snapshot() off the event loop (but the state taken at once); called between journal writes only. */
  async snapshotAsync() {
    const state = this.snapshotState();
    if (state.chunk) { await writeAtomicAsync(this.history.path(state.chunk), state.chunk.bytes, this.tmpDir); this.history.written(state.chunk); }
    await writeAtomicAsync(join(this.dir, 'state.json'), state.json, this.tmpDir);
    await writeAtomicAsync(join(this.dir, 'journal.log'), '', this.tmpDir);
    this.snapshotDone(state);
  }
  snapshotState() {
    let droppedChunks = [];
    if (this.keepReports > 0 && this.reports.length) {
      this.predictor.forgetBefore(this.reports[0].seq);
      droppedChunks = this.history.forgetBefore(this.reports[0].seq);
    }
    const chunk = this.history.seal();
    return {
      seq: this.seq, dropped: this.dropped.splice(0), droppedChunks, chunk,
      json: JSON.stringify({ version: VERSION, seq: this.seq, reports: this.reports, tests: this.predictor.dump(), history: this.history.dump() }),
    };
  }
  snapshotDone({ seq, dropped, droppedChunks }) {
    this.snapshotSeq = seq;
    for (const f of droppedChunks) rmSync(f, { force: true });
    // Only now, with no list on disk naming them (a crash before would replay them), do the blobs go.
    for (const id of dropped) rmSync(this.blobPath(`reports/${id}`), { recursive: true, force: true });
  }

  /** Saves the config (secret, access token). */
  saveConfig(config) {
    this.config = { ...config, version: VERSION };
    writeAtomic(join(this.dir, 'config.json'), JSON.stringify(this.config), this.tmpDir);
  }

  /**
   * Removes what nobody can use any more: report uploads never finished and test lists (older
   * than `uploadStaleMs` / `durationsStaleMs`: their tokens have expired), and durations results
   * older than `groupTtlMs`.
   */
  sweep({ uploadStaleMs, durationsStaleMs, groupTtlMs }, nowMs = Date.now()) {
    const old = (p, ms) => { try { return nowMs - statSync(p).mtimeMs > ms; } catch { return false; } };
    const list = (k) => { try { return readdirSync(this.blobPath(k)); } catch { return []; } };
    for (const id of list('reports')) if (!this.ids.has(id) && old(this.blobPath(`reports/${id}`), uploadStaleMs)) this.remove(`reports/${id}`);
    for (const id of list('durations')) if (old(this.blobPath(`durations/${id}`), durationsStaleMs)) this.remove(`durations/${id}`);
    for (const f of list('groups')) if (f.endsWith('.json.br') && old(this.blobPath(`groups/${f}`), groupTtlMs)) this.remove(`groups/${f}`);
  }

  /** Waits for the journal writes in flight, then snapshots and unlocks. */
  async close() {
    if (this.flushing) await new Promise((resolve) => { this.idle = resolve; });
    if (this.closed) return;
    this.closed = true;
    if (this.seq !== this.snapshotSeq) this.snapshot();
    if (this.lockFile) { try { unlinkSync(this.lockFile); } catch { /* gone */ } }
  }
}

/** Brotli JSON bytes -> string, refusing to decode beyond `max` bytes (a Brotli bomb: RangeError). */
export function decodeBr(bytes, max = MAX_DECODED_BYTES) {
  return brotliDecompressSync(bytes, { maxOutputLength: max }).toString('utf8');
}
