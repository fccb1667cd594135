// What the CLI commands share about the files they read.
import { ShardwiseError } from '../src/errors.js';

/** `e` with the file it is about named first (same code, step and status). */
export function inFile(file, e) {
  if (!(e instanceof ShardwiseError)) return e;
  return new ShardwiseError(`${file}: ${e.message}`, { code: e.code, step: e.step, status: e.status, attempts: e.attempts });
}
