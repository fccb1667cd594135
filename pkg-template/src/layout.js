// The report folder a reporter saves (its outputFolder), the one definition: the file names in
// it, where a shard of a sharded run saves and what its report is titled. Pure (no IO, not even
// node:path) and a .js file, so the runners (src/runner/report.mjs), the CLI and the report
// preview in the browser (served from src/*.js, like src/sources.js) all read the same facts.
//
//   <folder>/report.json.br       the report, Brotli JSON
//   <folder>/attachments/<id>     each attachment's bytes (id: hex SHA-1 of the content)
//   <folder>/attachments.json     `[{id, contentType}]`
//   <folder>/shard.json           a balanced shard's record for `shardwise verify` (src/runner/shard-record.mjs)
//   <folder>/uploaded.json        where the report was uploaded (src/runner/uploaded.mjs)
// A shard i of n (n > 1) saves all of it into <outputFolder>/shard-<i>-of-<n>/ instead, and its
// report is titled `shard <i>/<n>`, so shards can be told from whole runs in the service's list.

export const REPORT_FILE = 'report.json.br';
export const ATTACHMENTS_DIR = 'attachments';
export const ATTACHMENTS_MANIFEST = 'attachments.json';
export const SHARD_RECORD = 'shard.json';
export const UPLOADED_RECORD = 'uploaded.json';

/** The folder (one path segment) a shard saves into below the outputFolder: `shard-<i>-of-<n>`. */
export const shardFolder = (index, count) => `shard-${index}-of-${count}`;

/** A shard's report title: `shard <i>/<n>`. */
export const shardTitle = (index, count) => `shard ${index}/${count}`;

/**
 * `{index, count}` from a shard's folder (`shard-2-of-3`), or a path that ends in one
 * (`run/shard-2-of-3/`; a trailing `/` allowed), or undefined.
 */
export function shardOfFolder(folder) {
  const m = /(?:^|\/)shard-(\d+)-of-(\d+)\/?$/.exec(String(folder ?? ''));
  return m ? { index: Number(m[1]), count: Number(m[2]) } : undefined;
}

/** `{index, count}` from a shard report's title (`shard 2/3`), or undefined. */
export function shardOfTitle(title) {
  const m = /^shard (\d+)\/(\d+)$/.exec(String(title ?? ''));
  return m ? { index: Number(m[1]), count: Number(m[2]) } : undefined;
}

/**
 * The reports in a folder's files, each with its attachments: `files` are any values, `pathOf`
 * gives each one's path below the folder (`/`-separated). A report is a REPORT_FILE at any depth;
 * its attachments are the files directly in the ATTACHMENTS_DIR beside it.
 * @template F
 * @param {Iterable<F>} files
 * @param {(file: F) => string} pathOf
 * @returns {Map<string, {report: F, attachments: Map<string, F>}>} by the report's folder: '' for
 *   the folder itself, else its path with a trailing `/` (`shard-1-of-3/`)
 */
export function reportsIn(files, pathOf) {
  const reports = new Map();
  const all = [...files];
  for (const f of all) {
    const p = pathOf(f);
    if (p === REPORT_FILE || p.endsWith(`/${REPORT_FILE}`))
      reports.set(p.slice(0, p.length - REPORT_FILE.length), { report: f, attachments: new Map() });
  }
  for (const f of all) {
    const p = pathOf(f);
    const top = p.startsWith(`${ATTACHMENTS_DIR}/`);
    const at = top ? 0 : p.lastIndexOf(`/${ATTACHMENTS_DIR}/`) + 1; // where the report's folder ends
    if (!top && at === 0) continue;
    const entry = reports.get(p.slice(0, at));
    const id = p.slice(at + ATTACHMENTS_DIR.length + 1);
    if (entry && id && !id.includes('/')) entry.attachments.set(id, f);
  }
  return reports;
}

/**
 * Orders a folder's report folders (as `reportsIn` names them): the folder's own report, then
 * its shards by index, then the rest by name.
 */
export function byShardFolder(a, b) {
  const shardNo = (d) => shardOfFolder(d)?.index ?? 0;
  return shardNo(a) - shardNo(b) || (a < b ? -1 : a > b ? 1 : 0);
}

// Which reports of the service's list are one run: the one rule, for the preview's shard view
// (preview/shard-run.mjs: the shards of the open report's run) and the local service's history
// (server/history-api.mjs: "the last N runs" count runs, not reports).
/**
 * The run a report of the service's list (`/api/reports`: `{id, commitId, title?, shard?}`)
 * belongs to, as a string the reports of one run share. A shard (its `shard` record, from the
 * plan its report carries: `.shardwise/shard.json`, else a title `shard i/n`) is of the run of
 * its commit, shard count and run id (`shard.runId`: the CI run, re-run jobs included; without
 * one, outside CI or from an older shardwise, every shard of that commit and count is of one
 * run); any other report is a run of its own.
 */
export function runKeyOf(r) {
  const s = r.shard ?? shardOfTitle(r.title);
  if (!s) return `report ${r.id}`;
  return JSON.stringify([r.commitId ?? '', s.count, r.shard?.runId ?? '']);
}
