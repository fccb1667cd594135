// The shard record: what a balanced shard planned and ran, saved as `shard.json` beside its
// report (`<outputFolder>/shard-<i>-of-<n>/shard.json`), for `shardwise verify` (Rust
// `plan::verify`) to check, after the shards, that they planned alike and ran every planned
// test exactly once. FORMAT (the one definition): `{fingerprint, shardIndex, shardCount, units:
// every unit id of the plan, assigned: this shard's unit ids, ran: the unit ids it ran, shared?:
// [{project, units, dependents?}]}`; the ids are the planner's (Playwright: tests; Jest and
// Vitest: files relative to the repository). `shared` (Playwright, when it has any): the projects
// it runs outside the plan on every shard that needs them (dependency and teardown projects),
// their tests' ids and, for a dependency, the planned units that need it.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ShardwiseError } from '../errors.js';
import { SHARD_RECORD, ATTACHMENTS_DIR } from '../layout.js';

export { SHARD_RECORD };

/** Writes `record` (with `ran`: an iterable of unit ids) into `folder`. */
export function writeShardRecord(folder, record, ran) {
  mkdirSync(folder, { recursive: true });
  const out = { ...record, ran: [...new Set(ran)].sort() };
  writeFileSync(path.join(folder, SHARD_RECORD), JSON.stringify(out));
  return out;
}

/**
 * Every shard record under `targets` (files, or folders searched to any depth: a reporter's
 * output folder, or the folders CI downloaded each shard's artifacts into).
 * @returns {Array<{file: string, record: object}>}
 */
export function readShardRecords(targets) {
  const found = [];
  const visit = (p) => {
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const e of readdirSync(p).sort()) {
        if (e === 'node_modules' || e === ATTACHMENTS_DIR) continue;
        visit(path.join(p, e));
      }
    } else if (path.basename(p) === SHARD_RECORD || targets.includes(p)) {
      let record;
      try {
        record = JSON.parse(readFileSync(p, 'utf8'));
      } catch (e) {
        throw new ShardwiseError(`${p}: not a shard record (${e.message.split('\n')[0].slice(0, 120)})`, { code: 'INVALID_INPUT' });
      }
      found.push({ file: p, record });
    }
  };
  for (const t of targets) visit(t);
  return found;
}
