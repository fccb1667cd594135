// On-disk storage: blobs under <dataDir>/blobs/, finished reports indexed in <dataDir>/index.json.
import { mkdirSync, readFileSync, writeFileSync, existsSync, renameSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { createHash } from 'node:crypto';

// File names are limited to 255 bytes: long key segments are stored under their SHA-256.
const seg = (p) => (p.length > 120 ? createHash('sha256').update(p).digest('hex') : p);

export class Store {
  constructor(dataDir) {
    this.dir = dataDir;
    mkdirSync(join(dataDir, 'blobs'), { recursive: true });
    const idx = join(dataDir, 'index.json');
    this.index = existsSync(idx) ? JSON.parse(readFileSync(idx, 'utf8')) : { reports: [] };
  }
  blobPath(key) { return join(this.dir, 'blobs', ...key.split('/').map(seg)); }
  put(key, bytes, meta = {}) {
    const p = this.blobPath(key);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, bytes);
    writeFileSync(p + '.meta.json', JSON.stringify(meta));
  }
  has(key) { return existsSync(this.blobPath(key)); }
  get(key) {
    const p = this.blobPath(key);
    if (!existsSync(p)) return null;
    return { bytes: readFileSync(p), meta: JSON.parse(readFileSync(p + '.meta.json', 'utf8')) };
  }
  /** Records a finished report: {id, finishedAt, category, title?, commitId, attachmentIds, durations}. */
  addReport(entry) {
    this.index.reports.push(entry);
    this.save();
  }
  /** Writes the index atomically. */
  save() {
    const idx = join(this.dir, 'index.json');
    writeFileSync(idx + '.tmp', JSON.stringify(this.index));
    renameSync(idx + '.tmp', idx);
  }
}
