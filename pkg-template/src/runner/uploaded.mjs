// The record of where a saved report was uploaded (`uploaded.json` beside it, layout.js), so that
// uploading the same folder again (a re-run recovery job, a second `shardwise upload`) says it
// was there and gives its link instead of making a second report in the service. Keyed by the
// service (its address without query or credentials: no secret is written) and the report's
// bytes (SHA-256), so a report saved again, or another service, uploads.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UPLOADED_RECORD } from '../layout.js';

/** The service's address as recorded: origin and path, nothing else (no token, no query). */
export function serviceOf(baseUrl) {
  try {
    const u = new URL(baseUrl);
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}

export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

function read(folder) {
  const file = path.join(folder, UPLOADED_RECORD);
  if (!existsSync(file)) return [];
  try {
    const v = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(v) ? v.filter((e) => e && typeof e === 'object') : [];
  } catch {
    return []; // unreadable: as if never uploaded (an upload is never refused for it)
  }
}

/** The earlier upload of these bytes to this service recorded in `folder`, if any: `{service, reportUrl, sha256, at}`. */
export function uploadedBefore(folder, { baseUrl, bytes }) {
  const service = serviceOf(baseUrl);
  const sha = sha256(bytes);
  return read(folder).findLast((e) => e.service === service && e.sha256 === sha);
}

/** Records an upload in `folder` (best effort: a read-only folder only loses the record). */
export function recordUpload(folder, { baseUrl, bytes, reportUrl, now = Date.now }) {
  const entry = { service: serviceOf(baseUrl), reportUrl, sha256: sha256(bytes), at: new Date(now()).toISOString() };
  try {
    writeFileSync(path.join(folder, UPLOADED_RECORD), `${JSON.stringify([...read(folder), entry], null, 2)}\n`);
  } catch { /* the upload stands; only the record is lost */ }
  return entry;
}
