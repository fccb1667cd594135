// `shardwise verify <folders or shard.json files...>`: after the shards of a run, checks they
// planned alike and ran every planned test exactly once (Rust `plan::verify` decides; this file
// reads the shard records and prints).
import { existsSync } from 'node:fs';
import * as api from '../node.mjs';
import { readShardRecords, SHARD_RECORD } from '../src/runner/shard-record.mjs';
import { parse, required, UsageError } from './args.mjs';
import { plural } from '../src/runner/words.mjs';

export const HELP = `Usage: shardwise verify <path>... [options]

Run it after the shards of a CI run, as a final job: it reads the record each balanced shard saved
beside its report (${SHARD_RECORD} in <outputFolder>/shard-<i>-of-<n>/), and checks that every shard
of the run is there once, that all planned alike (one fingerprint), and that together they ran
every planned test (Jest, Vitest: file) exactly once. It prints what was missed or doubled, and
exits 1 when anything is; 0 when the run is whole. Playwright's setup and teardown projects
(another project's dependencies or teardown) run on every shard that needs them, by design: their
tests are expected there; a shard that ran tests without their setup project is named.

<path> is a shard's saved report folder, a folder holding several (the reporter's outputFolder,
or where CI downloaded each shard's artifacts: searched to any depth), or a ${SHARD_RECORD} file.

Options:
  --json        print the verification as JSON (the value verifyShards returns)
  -h, --help    this help`;

/** A unit id as people read it: Playwright's ids are JSON arrays (project, file, titles). */
function readable(id) {
  try {
    const parts = JSON.parse(id);
    if (Array.isArray(parts) && parts.every((p) => typeof p === 'string' || typeof p === 'number'))
      return parts.filter((p) => p !== '').join(' › ');
  } catch { /* a file path */ }
  return id;
}

const list = (xs) => xs.join(', ');

/** At most this many units of each list are printed (all with --json). */
export const MAX_LISTED = 20;

/** The verification as lines for people. */
export function formatVerification(v) {
  const lines = [];
  const fp = v.fingerprints.map((f) => `${f.fingerprint.slice(0, 12)} (${v.fingerprints.length > 1 ? `shard${f.shards.length > 1 ? 's' : ''} ${list(f.shards)}` : `${plural(f.shards.length, 'shard')}`})`);
  const shared = v.sharedRan ? `; ${plural(v.sharedRan, 'setup or teardown test')} ran on each shard that needed ${v.sharedRan > 1 ? 'them' : 'it'}` : '';
  lines.push(v.ok
    ? `shards whole: ${v.shardCount} of ${v.shardCount} planned alike (fingerprint ${fp[0]}); each of ${v.planned} planned units ran exactly once${shared}`
    : `shards NOT whole: ${v.shardCount} shards, ${plural(v.fingerprints.length, 'fingerprint')}: ${list(fp)}`);
  if (v.missingShards.length) lines.push(`missing shards: ${list(v.missingShards)} (no ${SHARD_RECORD}: the job failed before the end, or its artifacts were not given)`);
  if (v.doubledShards.length) lines.push(`shards given twice: ${list(v.doubledShards)}`);
  if (v.fingerprints.length > 1) lines.push('the shards planned differently (their durations or test lists differed): tests may run twice or never');
  const withoutSetup = v.withoutSetup ?? [];
  // the counts first, then each list bounded (a run that planned differently can double thousands)
  const counts = [
    v.missing.length && `${plural(v.missing.length, 'unit')} ran on no shard`,
    v.doubled.length && `${plural(v.doubled.length, 'unit')} ran on more than one shard`,
    v.unplanned.length && `${plural(v.unplanned.length, 'unit')} ran where no plan put them`,
    withoutSetup.length && `${plural(withoutSetup.length, 'shard')} ran tests without their setup project`,
  ].filter(Boolean);
  if (counts.length) lines.push(`${counts.join('; ')}:`);
  const bounded = (title, items, show) => {
    if (!items.length) return;
    lines.push(`${title}:`);
    for (const x of items.slice(0, MAX_LISTED)) lines.push(`  ${show(x)}`);
    if (items.length > MAX_LISTED) lines.push(`  ... and ${items.length - MAX_LISTED} more (--json lists every one)`);
  };
  bounded('ran on no shard', v.missing, readable);
  bounded('ran on more than one shard', v.doubled, (d) => `${readable(d.unit)} (shards ${list(d.shards)})`);
  bounded('ran where no plan put them', v.unplanned, (u) => `${readable(u.unit)} (shard ${u.shard})`);
  bounded('ran without their setup project', withoutSetup, (w) => `${readable(w.unit)}${w.dependents > 1 ? ` and ${plural(w.dependents - 1, 'more test')} needing it` : ''} `
    + `ran on shard ${w.shard}, where setup project '${w.project}' did not (Playwright runs a project's dependencies on every shard that runs it: `
    + 'was it run with --no-deps, or is its record another run\'s? Re-run the shard with its dependencies)');
  return lines.join('\n');
}

export async function run(argv) {
  const { values, positionals } = parse('verify', argv, { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } });
  if (values.help) { console.log(HELP); return 0; }
  required('verify', positionals[0], '<path> (the shards\' saved report folders)');
  for (const p of positionals) if (!existsSync(p)) throw new UsageError(`${p} does not exist`);
  const found = readShardRecords(positionals);
  if (found.length === 0) {
    console.error(`shardwise verify: no ${SHARD_RECORD} under ${list(positionals)}: only shards balanced by shardwise save one`);
    return 1;
  }
  const v = api.verifyShards(found.map((f) => f.record));
  console.log(values.json ? JSON.stringify(v, null, 2) : formatVerification(v));
  return v.ok ? 0 : 1;
}
