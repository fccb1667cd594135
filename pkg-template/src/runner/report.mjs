// The saved report folder and the upload, shared by the reporters and `shardwise upload`.
// The folder's layout (file names, a shard's folder and title) is defined in src/layout.js,
// which the report preview reads too.
import { mkdirSync, writeFileSync, readFileSync, existsSync, statSync, rmSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { canReachService } from './options.mjs';
import { plural } from './words.mjs';
import { SHARD_PLAN_SOURCE } from '../sources.js';
import { REPORT_FILE, ATTACHMENTS_DIR, ATTACHMENTS_MANIFEST, SHARD_RECORD, UPLOADED_RECORD, shardFolder, shardTitle, reportsIn, byShardFolder } from '../layout.js';
import { ShardwiseError } from '../errors.js';
import { recordUpload } from './uploaded.mjs';

export { REPORT_FILE, ATTACHMENTS_DIR, ATTACHMENTS_MANIFEST };

let processRunStarted = false;
/**
 * When a run began: for the first run of a process, the process's own start (the runner's boot,
 * config and global set-up are part of what a shard costs, and of the report's wall time, which
 * `shardwise plan --shards auto` reads the fixed cost of a shard from); for later runs of the
 * same process (watch mode), now.
 */
export function runStart() {
  if (processRunStarted) return Date.now();
  processRunStarted = true;
  return Math.min(Date.now(), Math.round(performance.timeOrigin));
}

/**
 * Where a run's report goes and what it is called: a shard of a sharded run saves into
 * `<outputFolder>/shard-<i>-of-<n>/` and its report's title says `shard <i>/<n>` (src/layout.js),
 * so shards can be told from whole runs in the service's list and the preview.
 * @returns {{folder: string, title?: string}}
 */
export function reportPlace(outputFolder, index, count) {
  if (!(count > 1)) return { folder: outputFolder };
  return { folder: path.join(outputFolder, shardFolder(index, count)), title: shardTitle(index, count) };
}

/**
 * A balanced shard's report carries its plan, for the report preview's shard view: one `sources`
 * entry (docs/report-format.md §3.1 allows any file's text there; an environment's `metadata` would
 * make each shard's environments differ from every other run's, and a test's history is kept per
 * environment) at SHARD_PLAN_SOURCE whose text is JSON `{shardIndex, shardCount, fingerprint,
 * predictedMs, units, unit, run?}`: this shard's part of the plan (`units`: how many units it was to
 * run; `unit`: "test" for Playwright, "file" for Jest and Vitest; `run`: `{id, attempt?}`, the CI
 * run it belongs to, when known (runIdFromEnv, runAttemptFromEnv), so the shard view groups one
 * run's shards and a re-run shard's latest attempt).
 * @param {object} report a built report (changed in place)
 * @param {{record: {fingerprint: string, shardIndex: number, shardCount: number, assigned: string[]}, predictedMs: number, unit: 'test'|'file', run?: {id?: string, attempt?: number}}} plan
 */
export function addShardPlan(report, { record, predictedMs, unit, run }) {
  if (!report || !record) return report;
  const text = JSON.stringify({
    shardIndex: record.shardIndex, shardCount: record.shardCount, fingerprint: record.fingerprint,
    predictedMs: Math.round(predictedMs ?? 0), units: record.assigned?.length ?? 0, unit,
    ...(run?.id ? { run: { id: String(run.id), ...(run.attempt ? { attempt: run.attempt } : {}) } } : {}),
  });
  report.sources = [...(report.sources ?? []).filter((s) => s.filePath !== SHARD_PLAN_SOURCE), { filePath: SHARD_PLAN_SOURCE, text, contentType: 'application/json' }];
  return report;
}

/**
 * Collects attachments for one report: registers each with the builder and writes its bytes to
 * the folder at once, so a crash later loses nothing.
 */
export class AttachmentStore {
  constructor(folder) {
    this.folder = folder;
    /** @type {Map<string, string>} id -> contentType */
    this.contentTypes = new Map();
  }

  /** @returns {{name: string, contentType: string, id: string}} the reference for an attempt */
  add(builder, { name, contentType, data }) {
    const { id } = builder.addAttachment({ name, contentType, data });
    if (!this.contentTypes.has(id)) {
      const dir = path.join(this.folder, ATTACHMENTS_DIR);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, id), data);
      this.contentTypes.set(id, contentType);
    }
    return { name, contentType, id };
  }

  list() {
    return [...this.contentTypes].map(([id, contentType]) => ({ id, contentType }));
  }
}

/**
 * Removes what an earlier run saved in `folder` (its report, attachments, manifest, shard record
 * and upload record; nothing else), so the folder holds this run's only: a shard that stops, or a
 * run that saves less, never leaves an earlier run's files beside its own.
 */
export function clearSaved(folder) {
  for (const name of [REPORT_FILE, ATTACHMENTS_MANIFEST, ATTACHMENTS_DIR, SHARD_RECORD, UPLOADED_RECORD]) {
    rmSync(path.join(folder, name), { recursive: true, force: true });
  }
}

/** Writes the encoded report and the attachment manifest into `folder`. */
export function saveReport(folder, bytes, attachments) {
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, REPORT_FILE), bytes);
  writeFileSync(path.join(folder, ATTACHMENTS_MANIFEST), JSON.stringify(attachments, null, 1));
}

/**
 * The saved reports `target` names: a report file, a folder with its own report, else every
 * report folder below it (a sharded run's folder: `shard-1-of-3/`, …), shards in order. Throws
 * (INVALID_INPUT) when it names none.
 */
export function savedReports(target) {
  if (!statSync(target).isDirectory() || existsSync(path.join(target, REPORT_FILE))) return [target];
  const files = [];
  const walk = (dir, rel) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name !== ATTACHMENTS_DIR) walk(path.join(dir, e.name), r);
      } else if (e.name === REPORT_FILE) files.push(r);
    }
  };
  walk(target, '');
  const folders = [...reportsIn(files, (f) => f).keys()].sort(byShardFolder);
  if (!folders.length) throw new ShardwiseError(`${target} holds no ${REPORT_FILE}, nor any folder below it that does: name a folder a shardwise reporter saved`, { code: 'INVALID_INPUT' });
  return folders.map((f) => path.join(target, f.replace(/\/$/, '')));
}

/**
 * Reads a saved report: a folder as written by `saveReport`, or a bare report file.
 * @returns {{reportFile: string, bytes: Uint8Array, attachments: Array<{id, contentType, path}>}}
 */
export function readSaved(target) {
  const isDir = statSync(target).isDirectory();
  const folder = isDir ? target : path.dirname(target);
  const reportFile = isDir ? path.join(target, REPORT_FILE) : target;
  const bytes = new Uint8Array(readFileSync(reportFile));
  const manifest = path.join(folder, ATTACHMENTS_MANIFEST);
  const attachments = existsSync(manifest)
    ? JSON.parse(readFileSync(manifest, 'utf8')).map((a) => ({ ...a, path: path.join(folder, ATTACHMENTS_DIR, a.id) }))
    : [];
  return { reportFile, bytes, attachments };
}

/**
 * Encodes, saves, and uploads when a token is configured. Never throws: a failed upload leaves
 * the saved folder and says how to re-upload it.
 * @returns {Promise<{folder: string, uploaded?: object, error?: unknown}>}
 */
export async function saveAndUpload({ api, report, store, options, log }) {
  const folder = store.folder;
  const bytes = api.encodeReport(report);
  const attachments = store.list();
  saveReport(folder, bytes, attachments);
  if (!options.upload) {
    log(`[shardwise] report saved to ${folder} (upload off)`);
    return { folder };
  }
  if (!canReachService(options)) {
    log(`[shardwise] report saved to ${folder} (not uploaded: set SHARDWISE_BASE_URL and SHARDWISE_ACCESS_TOKEN)`);
    return { folder };
  }
  try {
    const uploaded = await api.uploadReport({
      baseUrl: options.baseUrl,
      accessToken: options.accessToken,
      report: bytes,
      attachments: attachments.map((a) => ({ ...a, path: path.join(folder, ATTACHMENTS_DIR, a.id) })),
    });
    recordUpload(folder, { baseUrl: options.baseUrl, bytes, reportUrl: uploaded.reportUrl });
    log(`[shardwise] report uploaded: ${uploaded.reportUrl} (${plural(uploaded.attachments, 'attachment')}, ${plural(uploaded.bytes, 'byte')})`);
    return { folder, uploaded };
  } catch (error) {
    log(`[shardwise] upload failed (${error?.code ?? 'ERROR'}: ${error?.message ?? error}); the report is saved in ${folder}: re-upload it with \`npx shardwise upload ${folder}\``);
    return { folder, error };
  }
}
