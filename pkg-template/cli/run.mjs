// `shardwise run --shard=i/n --files "<glob>" [--junit <path>] -- <command> [args]`: any runner,
// balanced by file. Plans this shard's files as `shardwise node-test` does (src/runner/
// cli-shard.mjs planShardByFile, over the sequencers' planFiles: the service or a timings file,
// the plan line, the fingerprint, an empty shard's record), runs the
// command with them, then reads the runner's JUnit XML (Rust `__importJunit`) into a report
// through the reporter skeleton (src/runner/reporter.mjs: shard.json, save, upload, the closing
// lines). Which files a glob matches is Rust's (`__FilePatterns`); the walk of the folders is here.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import * as api from '../node.mjs';
import { __importJunit, __FilePatterns } from '../wasm/shardwise.js';
import { resolveOptions } from '../src/runner/options.mjs';
import { parseShard, planShardByFile } from '../src/runner/cli-shard.mjs';
import { ShardStop, setShardPrediction } from '../src/runner/plan.mjs';
import { RunReporter } from '../src/runner/reporter.mjs';
import { runChild } from '../src/runner/child.mjs';
import { recordJunit } from '../src/runner/junit.mjs';
import { clearSaved, reportPlace } from '../src/runner/report.mjs';
import { writeShardRecord } from '../src/runner/shard-record.mjs';
import { plural } from '../src/runner/words.mjs';
import { parse, required, UsageError } from './args.mjs';

export const HELP = `Usage: shardwise run --files <glob> [--shard i/n] [--junit <path>] [options] -- <command> [args...]

Runs any test runner on the files of one shard, balanced by their predicted durations, and
reports the run from the runner's JUnit XML. It finds the files matching <glob> (relative to the
working directory, sorted), plans the shards by file from the durations (the service when
SHARDWISE_BASE_URL and SHARDWISE_ACCESS_TOKEN are set, else the timings file; as the other
runners plan, with the same plan line and fingerprint on every shard), and runs <command> with
this shard's files appended to its arguments, or in place of an argument {files}. Then it reads
the JUnit XML the command wrote (--junit) into a report: saved in the output folder with the
shard's record (shard.json, for 'shardwise verify'), and uploaded when a token is set.

The exit code is the command's. A malformed JUnit XML fails the run with the line and column of
the problem, and nothing is saved or uploaded. A shard with no files runs nothing and says so.
Without --shard it runs every matching file.

JUnit XML dialects read: node:test (--test-reporter=junit), Mocha (mocha-junit-reporter),
WebdriverIO (@wdio/junit-reporter), Jest (jest-junit), pytest (--junitxml), and others of the same
shape. A test's file is its testcase's file attribute, else its suite's (or the suite's
<property name="file">), else the matched file its classname names (pytest: tests.test_x ->
tests/test_x.py), else a matched file a suite is named by, else the one matched file whose source
declares its titles (describe/it/test); the README says more.

Options:
  --files <glob>          the test files (repeatable): * ? [abc] {a,b} and ** for any folders;
                          hidden folders and node_modules only when the pattern names them
  --shard <i/n>           run shard i of n (1-based), e.g. --shard=2/3
  --junit <path>          the JUnit XML file the command writes (deleted before it runs);
                          without it, the shard runs and no report is made
  --runner <name>         the report's runner name (its category), default 'junit'
  --workers <n>           how many files the command runs at once (Mocha --parallel --jobs,
                          node --test-concurrency, pytest -n): the plan's makespan over them and
                          the report's record of them; default 1 (one file after another)
  --timings-file <path>   durations from this report or timings file (else SHARDWISE_TIMINGS_FILE)
  --output-folder <dir>   where the report is saved (default shardwise-report)
  -h, --help              this help

Environment: SHARDWISE_BASE_URL, SHARDWISE_ACCESS_TOKEN, SHARDWISE_TIMINGS_FILE,
SHARDWISE_COMMIT_ID, SHARDWISE_RUN_ID, SHARDWISE_ALLOW_EMPTY_SHARDS (as for the other runners).`;

/** `--shard i/n` as `{index, count}` (cli-shard.mjs `parseShard`, as `shardwise node-test` reads it). */
export function shardOf(text) {
  const shard = parseShard(text);
  if (!shard) throw new UsageError(`--shard must be i/n with 1 <= i <= n (e.g. --shard=2/3), got '${text}'`);
  return shard;
}

/**
 * The files under `cwd` that any of `patterns` matches (Rust `glob`), as POSIX paths relative to
 * `cwd`, sorted. Only folders a pattern may reach are read.
 */
export function matchingFiles(cwd, patterns) {
  const globs = new __FilePatterns(patterns);
  try {
    const found = [];
    const walk = (rel) => {
      let entries;
      try {
        entries = readdirSync(path.join(cwd, rel), { withFileTypes: true });
      } catch {
        return; // unreadable: nothing there for us
      }
      for (const e of entries) {
        const p = rel ? `${rel}/${e.name}` : e.name;
        const dir = e.isDirectory();
        let file = e.isFile();
        if (e.isSymbolicLink()) {
          try {
            const st = statSync(path.join(cwd, p));
            file = st.isFile(); // a linked folder is not followed (no cycles)
          } catch { /* a dangling link */ }
        }
        if (dir && globs.mayEnter(p)) walk(p);
        else if (file && globs.matches(p)) found.push(p);
      }
    };
    walk('');
    return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } finally {
    globs.free();
  }
}

/** The command's arguments with `files` in place of `{files}`, else after them. */
export function withFiles(args, files) {
  const at = args.indexOf('{files}');
  return at === -1 ? [...args, ...files] : [...args.slice(0, at), ...files, ...args.slice(at + 1)];
}

/** The sources of the command's files, for the last file rule ('' when not read). */
function sourcesOf(files, cwd) {
  return files.map((f) => {
    try {
      const abs = path.join(cwd, f);
      return statSync(abs).size > 4 << 20 ? '' : readFileSync(abs, 'utf8');
    } catch {
      return '';
    }
  });
}

/**
 * The JUnit XML's tests: first by the files' names alone; again with the files' sources (the
 * last file rule) only when a test found no file.
 */
function importJunit(bytes, name, files, cwd) {
  let imported = __importJunit(bytes, name, files, []);
  if (imported.tests.some((t) => t.file === undefined)) imported = __importJunit(bytes, name, files, sourcesOf(files, cwd));
  return imported;
}

export async function run(argv) {
  const dash = argv.indexOf('--');
  const own = dash === -1 ? argv : argv.slice(0, dash);
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  const { values, positionals } = parse('run', own, {
    files: { type: 'string', multiple: true }, shard: { type: 'string' }, junit: { type: 'string' },
    runner: { type: 'string' }, workers: { type: 'string' }, 'timings-file': { type: 'string' }, 'output-folder': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) { console.log(HELP); return 0; }
  if (positionals.length) throw new UsageError(`unexpected '${positionals[0]}': the command goes after --, e.g. shardwise run --files "test/**/*.test.js" -- node --test`);
  required('run', values.files?.length ? 'x' : undefined, '--files <glob>');
  if (!command.length) throw new UsageError("the command to run is required after --; see 'shardwise run --help'");
  const runner = values.runner ?? 'junit';
  if (!/^[\w.-]{1,100}$/.test(runner)) throw new UsageError(`--runner must be a name of letters, digits, '.', '_' or '-', got '${runner}'`);
  const shard = values.shard === undefined ? undefined : shardOf(values.shard);
  // a whole number here; past the planner's bound, planning fails as any planning failure does
  // (said, then a split by count)
  const workers = values.workers === undefined ? 1 : Number(values.workers);
  if (!/^\d+$/.test(values.workers ?? '1') || workers < 1) throw new UsageError(`--workers must be a whole number of at least 1, got '${values.workers}'`);
  const cwd = process.cwd();
  const options = resolveOptions({
    ...(values['timings-file'] !== undefined ? { timingsFile: path.resolve(values['timings-file']) } : {}),
    ...(values['output-folder'] !== undefined ? { outputFolder: values['output-folder'] } : {}),
  });
  const log = (line) => { if (!options.quiet) process.stdout.write(`${line}\n`); };

  let files;
  try {
    files = matchingFiles(cwd, values.files);
  } catch (e) {
    throw e?.code === 'INVALID_INPUT' ? new UsageError(e.message) : e;
  }
  if (!files.length) {
    log(`[shardwise] no file matches ${values.files.map((f) => `'${f}'`).join(', ')} under ${cwd}: nothing to run`);
    return 1;
  }

  let mine = files;
  let record;
  let root; // the repository root the plan named its files from
  if (shard) {
    let planned;
    try {
      // an empty shard's record is saved there (planShardByFile), for verify
      planned = await planShardByFile({ api, files: files.map((f) => path.join(cwd, f)), shard, runner, workers, options, cwd, log });
    } catch (e) {
      if (e instanceof ShardStop) return 1; // its line is said
      throw e;
    }
    if (!planned) {
      // planning itself failed (the same on every shard): every n-th file, alike on every shard
      mine = files.filter((_, i) => i % shard.count === shard.index - 1);
      log(`[shardwise] shard ${shard.index}/${shard.count}: ${plural(mine.length, 'file')} of ${files.length} by count`);
    } else {
      const rel = new Map(files.map((f) => [path.join(cwd, f), f]));
      mine = planned.files.map((p) => rel.get(p));
      ({ record, root } = planned.plan);
      setShardPrediction(planned.plan);
    }
    if (!mine.length) {
      const why = options.allowEmptyShards ? '' : ' (SHARDWISE_ALLOW_EMPTY_SHARDS=1 lets it pass)';
      log(`[shardwise] shard ${shard.index}/${shard.count} has no files to run: the command is not run${why}`);
      return options.allowEmptyShards ? 0 : 1;
    }
  }

  const junit = values.junit === undefined ? undefined : path.resolve(cwd, values.junit);
  if (junit) rmSync(junit, { force: true }); // an earlier run's XML is never read as this one's
  if (!junit) log('[shardwise] no --junit: the files run, and no report is made');
  const commandStart = Date.now();
  const code = await runChild(command[0], withFiles(command.slice(1), mine), { cwd, log });

  if (!junit) {
    if (record) {
      const { folder } = reportPlace(path.resolve(cwd, options.outputFolder), shard.index, shard.count);
      writeShardRecord(folder, record, mine.map((f) => path.relative(root, path.join(cwd, f)).split(path.sep).join('/')));
    }
    return code;
  }
  const reporter = new RunReporter(options, { runner, unit: 'file' });
  const begin = () => reporter.begin({
    cwd, shard, workers,
    environments: (systemData) => [{ name: runner, systemData }],
    context: { environmentIdx: 0, startTimestamp: commandStart },
  });
  if (!existsSync(junit)) {
    // the run is reported as failed with why (no test in it), and the shard's record is kept, so
    // that verify names what this shard did not run: a crashed command is never a green run
    const exit = code === 0 ? 'exited 0' : `exited with code ${code}`;
    begin();
    reporter.runError({ message: `the command (${command[0]}) ${exit} and wrote no JUnit XML at ${values.junit}: is its JUnit reporter set to write there?` });
    await reporter.end();
    return code || 1;
  }
  let imported;
  try {
    imported = importJunit(new Uint8Array(readFileSync(junit)), values.junit, files, cwd);
  } catch (e) {
    // nothing saved or uploaded (an earlier run's report in its folder too: never taken for this
    // one's by a later `shardwise upload`): the line says why
    clearSaved(reportPlace(path.resolve(cwd, options.outputFolder), shard?.index, shard?.count).folder);
    console.error(`shardwise run: ${e?.code ? `${e.code}: ` : ''}${e?.message ?? e}; nothing was saved or uploaded`);
    return code || 1;
  }
  const reported = begin();
  let counted;
  if (reported) counted = reporter.record('the JUnit XML\'s tests', (builder, ctx) => recordJunit(builder, ctx, imported, { cwd, ran: (f) => reporter.ran.add(f) }));
  else recordJunit({ addTest: () => undefined, addAttempt: () => {} }, { root: cwd }, imported, { cwd, ran: (f) => reporter.ran.add(f) });
  if (counted) {
    log(`[shardwise] ${plural(counted.tests, 'test')} read from ${values.junit}`
      + (counted.withoutFile ? ` (${counted.withoutFile} without a file: their runner's JUnit XML names none, and no matched file declares them)` : ''));
  }
  await reporter.end();
  return code;
}
