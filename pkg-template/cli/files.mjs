// What the CLI commands share about the files they read.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ShardwiseError } from '../src/errors.js';
import { REPORT_FILE, ATTACHMENTS_DIR, reportsIn, byShardFolder } from '../src/layout.js';
import { UsageError } from './args.mjs';

/** `e` with the file it is about named first (same code, step and status). */
export function inFile(file, e) {
  if (!(e instanceof ShardwiseError)) return e;
  return new ShardwiseError(`${file}: ${e.message}`, { code: e.code, step: e.step, status: e.status, attempts: e.attempts });
}

/**
 * The reports `<target>` names: a report file, a folder with its own report, else every report
 * folder below it (a sharded run's folder), shards in order.
 */
export function reportTargets(target) {
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
  if (!folders.length) throw new UsageError(`${target} holds no ${REPORT_FILE}, nor any folder below it that does: name a folder a shardwise reporter saved`);
  return folders.map((f) => path.join(target, f.replace(/\/$/, '')));
}

