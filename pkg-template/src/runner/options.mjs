// Options shared by every runner integration, and the CI facts they need (commit, run id).
// Pure except `gitInfo`, which asks git once.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Default folder for the saved report (relative to the runner's root directory). */
export const DEFAULT_OUTPUT_FOLDER = 'shardwise-report';

/**
 * Resolves user options against the environment.
 * @param {object} [options] `baseUrl`, `accessToken`, `timingsFile`, `outputFolder`, `upload`, `commitId`
 * @param {Record<string, string|undefined>} [env]
 */
export function resolveOptions(options = {}, env = process.env) {
  const baseUrl = options.baseUrl ?? env.SHARDWISE_BASE_URL ?? undefined;
  const accessToken = options.accessToken ?? env.SHARDWISE_ACCESS_TOKEN ?? undefined;
  return {
    baseUrl: baseUrl || undefined,
    accessToken: accessToken || undefined,
    // From the environment, a relative path is relative to the working directory.
    timingsFile: options.timingsFile ?? (env.SHARDWISE_TIMINGS_FILE ? path.resolve(env.SHARDWISE_TIMINGS_FILE) : undefined),
    outputFolder: options.outputFolder ?? DEFAULT_OUTPUT_FOLDER,
    upload: options.upload ?? true,
    commitId: options.commitId ?? commitFromEnv(env),
    runId: options.runId ?? runIdFromEnv(env),
    quiet: options.quiet ?? false,
    // re-run only what failed in the run the timings file holds: `failed` or `failed,flaky` (planThisShard)
    rerun: options.rerun ?? (env.SHARDWISE_RERUN || undefined),
    // a shard with nothing to run fails unless this is set (planThisShard)
    allowEmptyShards: options.allowEmptyShards ?? (env.SHARDWISE_ALLOW_EMPTY_SHARDS === '1' || env.SHARDWISE_ALLOW_EMPTY_SHARDS === 'true'),
    // Jest and Vitest: the balanced plan even where the runner's own split is as good (planFiles)
    alwaysBalance: options.alwaysBalance ?? (env.SHARDWISE_ALWAYS_BALANCE === '1' || env.SHARDWISE_ALWAYS_BALANCE === 'true'),
    // the durations exchange's whole budget, retries included (default: fetchDurations' 120 s)
    durationsTimeoutMs: options.durationsTimeoutMs ?? (env.SHARDWISE_DURATIONS_TIMEOUT_MS ? Number(env.SHARDWISE_DURATIONS_TIMEOUT_MS) : undefined),
  };
}

/** True when the live exchanges can be used. */
export const canReachService = (o) => Boolean(o.baseUrl && o.accessToken);

function commitFromEnv(env) {
  return env.SHARDWISE_COMMIT_ID ?? env.GITHUB_SHA ?? env.CI_COMMIT_SHA ?? env.BUILDKITE_COMMIT
    ?? env.CIRCLE_SHA1 ?? undefined;
}

/**
 * An id equal on every shard of one CI run (fed to `shardGroupKeyFor`), and on every re-run of
 * one of its jobs: GitHub's re-run of a failed job keeps GITHUB_RUN_ID and raises
 * GITHUB_RUN_ATTEMPT, which is left out so the re-run shard gets the same durations, the same
 * plan and the same tests as the first time.
 */
export function runIdFromEnv(env = process.env) {
  if (env.SHARDWISE_RUN_ID) return env.SHARDWISE_RUN_ID;
  if (env.GITHUB_RUN_ID) return env.GITHUB_RUN_ID;
  return env.CI_PIPELINE_ID ?? env.BUILDKITE_BUILD_ID ?? env.CIRCLE_WORKFLOW_ID ?? env.BUILD_BUILDID ?? undefined;
}

/**
 * Which attempt of its CI job this is (a re-run of a failed shard is a later one), when it is
 * said: SHARDWISE_RUN_ATTEMPT, GitHub's GITHUB_RUN_ATTEMPT, Buildkite's retry count (+1); else
 * undefined.
 */
export function runAttemptFromEnv(env = process.env) {
  const said = env.SHARDWISE_RUN_ATTEMPT ?? env.GITHUB_RUN_ATTEMPT;
  const n = said !== undefined ? Number(said) : env.BUILDKITE_RETRY_COUNT !== undefined ? Number(env.BUILDKITE_RETRY_COUNT) + 1 : NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

/** The CI run's address, when the CI says it. */
export function runUrlFromEnv(env = process.env) {
  if (env.GITHUB_RUN_ID && env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY)
    return `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
  return env.CI_PIPELINE_URL ?? env.BUILDKITE_BUILD_URL ?? undefined;
}

/**
 * The commit under test and the repository root (paths in reports are relative to it).
 * Falls back to `cwd` as root and no commit when git is not available. One git process asks
 * both (a Jest or Vitest shard asks twice, from its sequencer and its reporter, each spawn 8-13 ms
 * of the main thread before the shard's first test); a checkout with no commit yet, where that
 * fails on HEAD, asks for its root alone.
 */
export function gitInfo(cwd, commitId) {
  const git = (...args) => {
    try {
      return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return undefined;
    }
  };
  if (commitId === undefined) {
    const [root, head] = git('rev-parse', '--show-toplevel', 'HEAD')?.split(/\r?\n/) ?? [];
    if (root && head) return { root, commitId: head };
  }
  return {
    root: git('rev-parse', '--show-toplevel') ?? cwd,
    commitId: commitId ?? git('rev-parse', 'HEAD'),
  };
}

/** `file` as a POSIX path relative to `root` (the report format's convention). */
export function relativePosix(root, file) {
  if (!file) return undefined;
  const rel = path.isAbsolute(file) ? path.relative(root, file) : file;
  return rel.split(path.sep).join('/');
}

/**
 * `file` as a report location's path: relative to `root`, or undefined for a file outside it
 * (another drive, a global install), which has no path in the repository.
 */
export function reportPath(root, file) {
  if (!file) return undefined;
  let known = reportPaths.get(root);
  if (!known) reportPaths.set(root, (known = new Map()));
  if (known.has(file)) return known.get(file);
  const rel = relativePosix(root, file);
  const out = rel === undefined || rel === '..' || rel.startsWith('../') || path.isAbsolute(rel) ? undefined : rel;
  known.set(file, out);
  return out;
}

/**
 * root -> file -> its `reportPath`: a reporter asks it of every test's file and a plan of every
 * module (date-fns's shard: 26 ms of `path.relative` for a few hundred files).
 */
const reportPaths = new Map();

/**
 * A test file's path in a report: `reportPath(ctx.root, file)`. A file outside the root has none:
 * its tests are reported without a file (rather than refused, which would stop the report), and
 * `ctx.onOutsideRoot(file)` is told.
 */
export function testFile(ctx, file) {
  const rel = reportPath(ctx.root, file);
  if (rel === undefined && file) ctx.onOutsideRoot?.(file);
  return rel;
}

/** `ctx.onOutsideRoot` for a reporter: says it once, with the first file. */
export function outsideRootOnce(log, root) {
  let said = false;
  return (file) => {
    if (said) return;
    said = true;
    log(`[shardwise] test files outside the repository root (${root}) are reported without their file, e.g. ${file}: report paths are relative to that root`);
  };
}

/**
 * Whether a runner's `reporters` list holds shardwise's reporter: an entry whose name `isOwn`
 * accepts (`shardwise/<runner>`, or a path to it), or an instance of the class named `className`.
 * A `--reporter(s)` flag on the runner's command line replaces the config's list.
 */
export function listsReporter(reporters, isOwn, className) {
  return (Array.isArray(reporters) ? reporters : []).some((r) => {
    const name = Array.isArray(r) ? r[0] : r;
    return typeof name === 'string' ? isOwn(name) : name?.constructor?.name === className;
  });
}

/** The line a balanced shard prints when its runner's `flag` dropped shardwise's reporter. */
export const noReporterLine = ({ index, count, runner, flag, entry }) => `[shardwise] shard ${index}/${count}: the shardwise reporter is not among ${runner}'s reporters (a ${flag} flag replaces the config's list): this shard is balanced, but saves no report and no shard record, so 'shardwise verify' will count it missing; add ${flag}=${entry} beside the flag`;
