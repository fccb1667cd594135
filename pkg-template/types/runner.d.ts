/**
 * Options shared by the shardwise runner integrations (Playwright, Jest, Vitest). A type, not an
 * interface: it fits where a runner takes `Record<string, unknown>` (Vitest's reporter options).
 */
export type ShardwiseRunnerOptions = {
  /** The service root. Default: `SHARDWISE_BASE_URL`. */
  baseUrl?: string;
  /** The service access token. Default: `SHARDWISE_ACCESS_TOKEN`. Never printed. */
  accessToken?: string;
  /**
   * A timings file (a shardwise report document, JSON or Brotli JSON: what `npx shardwise
   * durations --out` saves, or any saved `report.json.br`) to balance shards without asking the
   * service. Relative to the config's directory. Default: `SHARDWISE_TIMINGS_FILE`.
   */
  timingsFile?: string;
  /**
   * Where the run's report is saved (`report.json.br`, `attachments/`, `attachments.json`);
   * sharded runs use `<outputFolder>/shard-<i>-of-<n>`. Default: `shardwise-report`.
   */
  outputFolder?: string;
  /** Upload the report when `baseUrl` and `accessToken` are set. Default: true. */
  upload?: boolean;
  /** The commit under test (40 hex). Default: `SHARDWISE_COMMIT_ID`, CI variables, `git rev-parse HEAD`. */
  commitId?: string;
  /** An id equal on every shard of one CI run. Default: `SHARDWISE_RUN_ID` or the CI's run id. */
  runId?: string;
  /** Print nothing. Default: false. */
  quiet?: boolean;
  /**
   * Let a shard with nothing to run (more shards than indivisible groups, or every test
   * excluded) pass. Default: false, it fails, saying so in one line. `SHARDWISE_ALLOW_EMPTY_SHARDS=1`.
   */
  allowEmptyShards?: boolean;
  /**
   * Jest and Vitest: always run the balanced plan, also where it is not predicted 10% sooner than
   * the runner's own `--shard` split (which a shard keeps otherwise). Env: SHARDWISE_ALWAYS_BALANCE=1.
   */
  alwaysBalance?: boolean;
  /**
   * Re-run only what failed in the run the timings file holds (its saved report, or the folder of
   * its shards' reports): `'failed'`, or `'failed,flaky'` to add the tests that passed only on a
   * retry. Every shard picks the same tests (Jest and Vitest: their files) and plans them alone,
   * balanced by their measured durations; a shard left with nothing passes. Without a timings
   * file the shard stops. `SHARDWISE_RERUN`.
   */
  rerun?: 'failed' | 'failed,flaky';
  /**
   * The durations exchange's whole budget, retries included, in ms; past it the shard stops (it
   * never runs a split of its own). Default: 120000. `SHARDWISE_DURATIONS_TIMEOUT_MS`.
   */
  durationsTimeoutMs?: number;
};
