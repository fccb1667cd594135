// What the CLI commands share about the files they read.
import { ShardwiseError } from '../src/errors.js';
import { savedReports } from '../src/runner/report.mjs';
import { UsageError } from './args.mjs';

/** `e` with the file it is about named first (same code, step and status). */
export function inFile(file, e) {
  if (!(e instanceof ShardwiseError)) return e;
  return new ShardwiseError(`${file}: ${e.message}`, { code: e.code, step: e.step, status: e.status, attempts: e.attempts });
}

/**
 * The reports `<target>` names (src/runner/report.mjs savedReports): a report file, a folder with
 * its own report, else every report folder below it (a sharded run's folder), shards in order.
 */
export function reportTargets(target) {
  try {
    return savedReports(target);
  } catch (e) {
    throw e instanceof ShardwiseError && e.code === 'INVALID_INPUT' ? new UsageError(e.message) : e;
  }
}

