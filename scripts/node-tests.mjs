// npm test's node phase: the js-tests files through node:test's own runner, three at a time (most
// of their time is real runners, Chromium and servers waiting on each other; on 2 cores: 10 min two
// at a time, 8 three at a time; each file's assertions hold under load), the longest first.
// `node --test` (Node 20) runs its files in name order whatever order it is given, which left the
// long files named r to s (runners, shard-workers, shards-agree, sizes) for last: the phase waited
// on them with one or two of its three places idle. Longest first, as a shard runs its files: 693 s
// where 734 s, simulated on the cold CI's figures below (its measured phase: 726 s).
//   node scripts/node-tests.mjs                      every file
//   node scripts/node-tests.mjs js-tests/plan.test.mjs ...   these
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../js-tests/', import.meta.url));

/**
 * Seconds per file in a cold CI run (a2582ec's, 2 cores: its top-level tests' durations summed per
 * file), for the order only: a file not named here (a few seconds or less) runs after these, in
 * name order. A file that grows past them belongs here.
 */
const SECONDS = {
  'playwright-setup.test.mjs': 230,
  'runners.test.mjs': 165,
  'shards-agree.test.mjs': 142,
  'preview-tests.test.mjs': 130,
  'readme.test.mjs': 108,
  'sizes.test.mjs': 98,
  'shard-workers.test.mjs': 94,
  'playwright-real.test.mjs': 92,
  'jest-modules.test.mjs': 92,
  'runners-failures.test.mjs': 83,
  'preview.test.mjs': 69,
  'rerun-failed.test.mjs': 58,
  'exchange-bodies.test.mjs': 48,
  'preview-history.test.mjs': 47,
  'runners-fidelity.test.mjs': 43,
  'run-junit.test.mjs': 42,
  'serve-crash.test.mjs': 34,
  'runner-types.test.mjs': 34,
  'node-test-shards.test.mjs': 33,
  'bundlers.test.mjs': 29,
  'exchange-faults.test.mjs': 29,
  'codec.test.mjs': 26,
  'shard-count.test.mjs': 26,
  'plan.test.mjs': 25,
  'demo.test.mjs': 23,
  'node-test.test.mjs': 22,
  'serve-ops.test.mjs': 22,
  'preview-trace.test.mjs': 20,
};

const named = process.argv.slice(2).map((f) => path.resolve(f));
const files = named.length ? named
  : readdirSync(DIR).filter((f) => /\.test\.(mjs|cjs)$/.test(f))
    .sort((a, b) => (SECONDS[b] ?? 0) - (SECONDS[a] ?? 0) || (a < b ? -1 : a > b ? 1 : 0))
    .map((f) => path.join(DIR, f));

const stream = run({ files, concurrency: 3 });
// a failed test, or a file that did not load or exited before its end (reported as a failed test)
stream.on('test:fail', (data) => { if (!data?.todo) process.exitCode = 1; });
stream.compose(spec).pipe(process.stdout);
