// `shardwise node-test --shard=i/n [patterns...] [-- node options]`: balanced shards for node:test.
// node:test lets no reporter choose the files, and its --test-shard splits by count: this command
// finds the files `node --test [patterns]` would run (node-test/files.mjs), plans this shard by file
// (src/runner/cli-shard.mjs: the planner and durations of the other runners, the same plan line
// and fingerprint), then runs a child `node --test <node options> <this shard's files>` with the
// shardwise reporter beside the user's (spec when none), the plan handed to that reporter, which
// saves shard.json, says the predicted-against-actual and closing lines, saves and uploads. A
// child `node --test` rather than node:test's `run()` in this process: every node option
// (--import tsx, --test-concurrency, --experimental-test-coverage, --test-name-pattern, ...) then
// means what it means to `node --test`, on every Node version, and its output and exit code are
// node:test's own.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as api from '../node.mjs';
import { parse, UsageError } from './args.mjs';
import { resolveOptions } from '../src/runner/options.mjs';
import { ShardStop } from '../src/runner/plan.mjs';
import { parseShard, planShardByFile, writeShardHandoff } from '../src/runner/cli-shard.mjs';
import { runStart } from '../src/runner/report.mjs';
import { runChild } from '../src/runner/child.mjs';
import { plural } from '../src/runner/words.mjs';
import { nodeTestFiles } from '../node-test/files.mjs';
import { concurrencyOf } from '../node-test/translate.mjs';

export const HELP = `Usage: shardwise node-test [--shard=<i>/<n>] [patterns...] [-- <node options>]

Runs node:test (node --test) over the test files of [patterns...], with the shardwise reporter
(shardwise/node-test) beside yours: the report is saved (shardwise-report/, or
SHARDWISE_OUTPUT_FOLDER) and uploaded when SHARDWISE_BASE_URL and SHARDWISE_ACCESS_TOKEN are set.

With --shard=<i>/<n> it runs shard i of n, balanced by predicted duration instead of node:test's
--test-shard (equal file counts): it finds the files node --test would run, plans them by file
from the service's durations (a token set) or SHARDWISE_TIMINGS_FILE, prints the plan line (the
same fingerprint on every shard), and runs this shard's files only. At the end the reporter
prints what the shard took against its prediction and saves shard.json beside the report, for
'shardwise verify'. A shard the plan leaves no file (more shards than files) says so and passes.
The exit code is node --test's.

[patterns...]  what you would give node --test: on Node 20 files and folders (a folder is searched
               for *.test.js-like names and every .js/.cjs/.mjs below a 'test' folder), on
               Node >= 21 globs (quote them); none: node:test's default
               ('**/{test,test/**/*,test-*,*[._-]test}.{js,mjs,cjs}', node_modules left out)
-- <options>   node options, given to node --test before the files: --import tsx,
               --test-concurrency=2, --experimental-test-coverage, --test-name-pattern=...,
               --test-reporter=... (yours replace spec), ... Patterns go before the --.

Options:
  --shard <i>/<n>   run shard i of n, balanced (required in a sharded CI job)
  -h, --help        this help

The SHARDWISE_* variables configure it as they configure the reporter (README "Options").`;

const REPORTER = fileURLToPath(new URL('../node-test/index.mjs', import.meta.url));

/**
 * The `node --test` arguments: the user's node options, the reporters (spec to stdout unless the
 * user gave reporters; shardwise's to stdout unless the user gave it), then the files.
 */
export function nodeTestArgs(nodeArgs, files) {
  const args = ['--test', ...nodeArgs];
  const count = (flag) => nodeArgs.filter((a, i) => a === flag ? i + 1 < nodeArgs.length : a.startsWith(`${flag}=`)).length;
  const reporters = count('--test-reporter');
  const destinations = count('--test-reporter-destination');
  const own = nodeArgs.some((a) => /shardwise[\\/]node-test/.test(a));
  if (reporters === 0) args.push('--test-reporter=spec', '--test-reporter-destination=stdout');
  // node:test wants a destination for each reporter once there are several
  else if (!own && reporters === 1 && destinations === 0) args.push('--test-reporter-destination=stdout');
  if (!own) args.push(`--test-reporter=${pathToFileURL(REPORTER).href}`, '--test-reporter-destination=stdout');
  args.push(...files);
  return args;
}

export async function run(argv) {
  const cut = argv.indexOf('--');
  const own = cut === -1 ? argv : argv.slice(0, cut);
  const nodeArgs = cut === -1 ? [] : argv.slice(cut + 1);
  const { values, positionals } = parse('node-test', own, { shard: { type: 'string' }, help: { type: 'boolean', short: 'h' } });
  if (values.help) { console.log(HELP); return 0; }
  const started = runStart();
  let shard;
  if (values.shard !== undefined) {
    shard = parseShard(values.shard);
    if (!shard) throw new UsageError(`--shard must be <i>/<n> with 1 <= i <= n, got '${values.shard}'; see 'shardwise node-test --help'`);
    if (nodeArgs.some((a) => /^--test-shard(=|$)/.test(a))) throw new UsageError("--shard and node's --test-shard both split the files: give --shard only; see 'shardwise node-test --help'");
  }
  const cwd = process.cwd();
  const options = resolveOptions({ outputFolder: process.env.SHARDWISE_OUTPUT_FOLDER || undefined });
  const log = (line) => { if (!options.quiet) process.stdout.write(`${line}\n`); };
  const files = nodeTestFiles(positionals, { cwd, nodeArgs });
  if (!shard) {
    if (!files.length) {
      log(`[shardwise] no test files${positionals.length ? ` match ${positionals.join(' ')}` : ' (node:test\'s default patterns)'}: nothing to run`);
      return 0;
    }
    return runChild(process.execPath, nodeTestArgs(nodeArgs, files), { log });
  }
  let planned;
  try {
    planned = await planShardByFile({
      api, files, shard, runner: 'node-test', options, cwd, log,
      workers: concurrencyOf(nodeArgs, os.availableParallelism?.() ?? os.cpus().length),
    });
  } catch (e) {
    if (e instanceof ShardStop) return 1; // its line is said
    throw e;
  }
  if (!planned) {
    // planning itself failed (said), the same on every shard: node:test's own split of the same files
    if (!files.length) return 0;
    return runChild(process.execPath, nodeTestArgs([...nodeArgs, `--test-shard=${shard.index}/${shard.count}`], files), { log });
  }
  if (planned.empty) {
    log(`[shardwise] shard ${shard.index}/${shard.count}: no test file to run (${plural(files.length, 'file')} over ${shard.count} shards); node:test not started, the shard passes. `
      + `Its record is saved in ${path.relative(cwd, path.resolve(cwd, options.outputFolder)) || '.'} for shardwise verify`);
    return 0;
  }
  const handoff = writeShardHandoff(planned.plan, started);
  try {
    return await runChild(process.execPath, nodeTestArgs(nodeArgs, planned.files), { env: handoff.env, log });
  } finally {
    handoff.dispose();
  }
}
