// planShards: duration-balanced, deterministic shard plans.
import type { Report } from './report.js';

/** One schedulable unit. Units sharing a `group` always land on the same shard. */
export interface PlanUnit {
  id: string;
  file?: string;
  group?: string;
  /**
   * Predicted duration in ms; absent or zero means unknown (an estimate is used); negative, NaN
   * or infinite is an `INVALID_INPUT` error naming the unit. (A unit that is not a plain object,
   * a class instance say, is read as JSON reads it, where NaN and the infinities are null: absent.)
   */
  durationMs?: number;
}

export interface PlanOptions {
  /** An annotated report (from `fetchDurations`, or a past run's report)... */
  report?: Report;
  /** ...or units. Exactly one of the two. */
  units?: PlanUnit[];
  /** How many shards (>= 1). */
  shardCount: number;
  /** Which environment's predictions to use, by name or index. Default: all environments summed per test. */
  environment?: string | number;
  /** `'file'` keeps each file on one shard. Default `'test'`. */
  unit?: 'test' | 'file';
  /** The estimate of last resort for a unit with no prediction. Default 1000. */
  defaultDurationMs?: number;
  /** A fixed start-up cost added to each non-empty shard. Default 0. */
  perShardOverheadMs?: number;
  /** Parallel workers inside one shard (the same on every shard: it is part of the plan). Default 1. */
  workers?: number;
  /** What a shard pays beyond its tests' own time (all 0 by default; `shardCosts` learns them from a run). */
  costs?: ShardCostsOptions;
  /**
   * Projects the runner runs on each shard that holds a unit needing them, outside the plan
   * (Playwright's setup and teardown projects; at most 64). A shard runs in phases: the setups of
   * level 0 beside the units that need none, then each level's dependents, then its teardowns
   * alone; so dependents go where their setup is already paid unless the imbalance is worth
   * paying it once more. Part of the fingerprint.
   */
  setups?: PlanSetup[];
  /**
   * Per unit of `units` (in their order), its shard (1-based) in the runner's own split (Jest's and
   * Vitest's `--shard`). The plan is then the runner's split unless the balanced one is predicted at
   * least 10% sooner (the cost model's error on a shard): `keptRunnerSplit` says which. Units only;
   * ignored with setups or start costs, or when the runner's split parts a group.
   */
  runnerSplit?: number[];
}

/** One setup (or teardown) project of `PlanOptions.setups`. */
export interface PlanSetup {
  /** Unique among the setups (the project's name). */
  id: string;
  /** What it takes on a shard that runs it (its tests' time). Default 0. */
  durationMs?: number;
  /** The ids of the units that need it (ids not among the units are ignored). */
  units: string[];
  /** 0 for a setup that needs no other, else one more than the deepest setup it needs (at most 8). Default 0. */
  level?: number;
  /** Run after the shard's other tests, alone (a teardown project). Default false. */
  teardown?: boolean;
}

/**
 * A shard's costs beyond its tests' bodies, in ms. A shard's predicted time is
 * `perShardOverheadMs + perWorkerMs + coldMs × (1 − 0.8^groups) + makespan over workers of
 * (tests + their files' costs)`.
 */
export interface ShardCostsOptions {
  /** A worker's start (a process, a browser): once per non-empty shard, as workers start side by side. */
  perWorkerMs?: number;
  /**
   * What a shard pays once for the modules its files share (Jest's cold transforms), at full: a
   * shard of `n` groups (files, when files are kept whole) pays `coldMs × (1 − 0.8^n)`; with
   * `modules`, each module's share of it, once, when one of its files loads it.
   */
  coldMs?: number;
  /** A file's cost (load, transform, environment, hooks) when `files` does not name it... */
  perFileMs?: number;
  /** ...plus this per test of it; also what a unit without a file pays. */
  perTestMs?: number;
  /** Measured files' costs, by file as the units name it, in place of `perFileMs + perTestMs * tests`. */
  files?: Record<string, number>;
  /**
   * Start costs: each paid once by a shard that holds a unit needing it (by its file or id), as
   * its workers start side by side, and by no other shard: a test environment's first load in a
   * worker (Jest's jsdom, learned by `shardCosts`), a Playwright project's workers. Units that
   * share one go together unless the imbalance is worth paying it again. At most 64 with `setups`.
   */
  starts?: PlanStart[];
  /**
   * The order in which the runner hands a shard's groups (files) to its free workers: `'longest'`
   * first (the default: the Jest and Vitest shards sort their files so), or by file `'name'`
   * (node:test sorts the files it is given). Over several workers a long file handed out last
   * ends late: the plan and each shard's prediction follow this order (with `setups` or
   * `starts`, longest first still).
   */
  order?: 'longest' | 'name';
  /**
   * The suite's own modules and the files that load them (the Jest sequencer reads them from the
   * sources: relative imports followed through modules). `coldMs` is shared out over them by size:
   * a shard pays `coldMs × workers × bytes / total` of work once for each module one of its files
   * loads (a shard of every file pays `coldMs`), so files that load the same modules go together
   * unless the imbalance is worth transforming them again. Modules loaded by the same files are
   * merged; the 48 largest are kept (fewer beside many `setups` and `starts`: 64 in all). Ignored
   * where `coldMs` is under 500 ms (the shards do not read them then: reading them costs about what
   * they could move), as without `coldMs`.
   */
  modules?: PlanModule[];
  /**
   * Per module (as `modules` names it), what its transforms took in a past run (ms): its weight
   * among `modules` in place of its bytes; a module without one weighs its bytes at the rate of
   * those with one. A Vitest run's learned costs give it (`ShardCosts.costs.moduleMs`, from the
   * transforms its reporter records).
   */
  moduleMs?: Record<string, number>;
}

/** One module of `ShardCostsOptions.modules`. */
export interface PlanModule {
  /** Its path (for a person; merged modules keep the largest's). */
  id: string;
  /** Its size in bytes (what its transform costs is in proportion). */
  bytes: number;
  /** The files (as the units name them) that load it, directly or through other modules. */
  files: string[];
}

/** One start cost of `ShardCostsOptions.starts`. */
export interface PlanStart {
  /** Unique among the starts (`environment jest-environment-jsdom`, `workers of project chromium`). */
  id: string;
  /** What a shard pays once for it. Default 0. */
  durationMs?: number;
  /** The files whose units need it. */
  files?: string[];
  /** The ids of other units that need it. */
  units?: string[];
}

/** `shardCosts(report)`: the cost model a report teaches (see README "What a shard costs"). */
export interface ShardCosts {
  /** The report's runner (its `category`). */
  runner?: string;
  /** The run's parallel workers, when the report says. */
  workers?: number;
  /** `'file'` for Jest and Vitest, which cannot split a file. */
  unit?: 'test' | 'file';
  /** The fixed cost per shard: a run's wall time less the model's prediction of it, else the runner's default. */
  perShardOverheadMs: number;
  /**
   * Every figure (`coldMs` only when the run paid one: Jest's, or Vitest's transforms of the
   * suite's modules; `starts` only when it found one; `order` only when not longest first:
   * node:test's `'name'`; `moduleMs` only where the run recorded its modules' transforms:
   * Vitest's; never `modules`, which a report does not hold: the sequencers read them from the
   * sources).
   */
  costs: Required<Omit<ShardCostsOptions, 'coldMs' | 'starts' | 'order' | 'modules' | 'moduleMs'>> & Pick<ShardCostsOptions, 'coldMs' | 'starts' | 'order' | 'moduleMs'>;
  /** How many files' costs were measured. */
  measuredFiles: number;
  /** Whether `perShardOverheadMs` came from the run's wall time. */
  fromWall: boolean;
  /** Where the figures come from, for a person (`learned from a run: …`, `jest defaults`). */
  source: string;
}

/**
 * The cost model of a report: a past run's report teaches its files' costs (what its reporter
 * recorded, else the gaps on its workers' timelines) and the fixed cost per shard (its wall time
 * less what the model predicts for it); a durations document gives the runner's defaults. Its
 * `workers`, `unit`, `perShardOverheadMs` and `costs` are `planShards` options.
 */
export declare function shardCosts(report: Report | object): ShardCosts;

export interface Shard {
  /** 1-based, as in `--shard=i/n`. */
  index: number;
  /** perShardOverheadMs plus its units' time: their sum with one worker; with several, its groups
   *  longest first, each to the first free worker, and the last to finish. 0 for an empty shard. */
  predictedMs: number;
  /** Its units' own time as the plan counted it: their durations and the estimates of those
   *  without one, summed, without costs and whatever the workers. A shard's closing line sets its
   *  tests' own time against it. */
  testsMs: number;
  /** Unit ids, sorted (for a report: the file, the suite titles and the test title joined with " › "). */
  units: string[];
  files: string[];
  /**
   * With `costs.modules` and a cold cost (`costs.coldMs`): of the modules' bytes (their transform
   * times, with `costs.moduleMs`) the plan's files
   * load (the modules it charges), the share this shard's files load, in steps of 0.001. A
   * shard's report keeps it (its costs record), and its cold cost is read over it.
   */
  modulesShare?: number;
}

export interface ShardPlan {
  /** Hash (40 hex characters) of the canonical input and the plan: every shard can print it to show they agree. */
  fingerprint: string;
  /** max(ceil(total / (shardCount * workers)), largest group) + perShardOverheadMs (0 without units): no plan can beat it. */
  lowerBoundMs: number;
  /** The predicted time of the slowest shard. */
  makespanMs: number;
  shards: Shard[];
  /** How many units had no prediction and got an estimate. */
  estimated: number;
  /** With `runnerSplit`: the predicted time of the runner's own split's slowest shard. */
  runnerSplitMs?: number;
  /** With `runnerSplit`: true when the shards are the runner's own split (the balanced plan was not predicted 10% sooner). */
  keptRunnerSplit?: boolean;
}

/** Splits tests into shards of equal predicted time. Pure: the same input gives a bit-identical plan on every machine. */
export declare function planShards(opts: PlanOptions): ShardPlan;

/** What one balanced shard planned and ran: the `shard.json` a reporter saves beside its report. */
export interface ShardRecord {
  /** The plan's fingerprint. */
  fingerprint: string;
  /** 1-based. */
  shardIndex: number;
  shardCount: number;
  /** Every unit id of the plan (Playwright: tests; Jest, Vitest: files). */
  units: string[];
  /** The units the plan gave this shard. */
  assigned: string[];
  /** The units this shard ran. */
  ran: string[];
  /**
   * The runner's own units, outside the plan (Playwright: the tests of projects that are another
   * project's dependency or teardown, which it runs on every shard that needs them): expected on
   * any shard. For a dependency Playwright left out of this shard (`--no-deps`) `units` is empty
   * and `leftOut` true: verify names the shard if a test needing it ran there, even when no
   * record lists a test of it (every shard run so). `dependents`: the planned units that need the
   * project to have run on their shard (a dependency's; none for a teardown). Absent in records
   * of shards without such projects.
   */
  shared?: Array<{ project: string; units: string[]; dependents?: string[]; leftOut?: boolean }>;
}

export interface ShardVerification {
  /** Every shard of 1..shardCount there once, one fingerprint, every planned unit run on exactly one shard. */
  ok: boolean;
  shardCount: number;
  /** Each distinct fingerprint with the shards that planned it (one when the shards agree). */
  fingerprints: Array<{ fingerprint: string; shards: number[] }>;
  /** Shards with no record (a job that failed before its end, or artifacts not given). */
  missingShards: number[];
  /** Shards given more than once. */
  doubledShards: number[];
  /** How many units were planned (all shards' planned lists together). */
  planned: number;
  /** Planned units that ran on no shard. */
  missing: string[];
  /** Units that ran on more than one shard. */
  doubled: Array<{ unit: string; shards: number[] }>;
  /** Units that ran on a shard whose plan did not give them to it. */
  unplanned: Array<{ unit: string; shard: number }>;
  /** The records' `shared` units (setup and teardown tests) that ran, each counted once however many shards ran it. */
  sharedRan: number;
  /**
   * Shards where planned units ran but a dependency (setup) project of theirs did not, wholly:
   * `unit` the first of them by id, `dependents` how many ran there.
   */
  withoutSetup: Array<{ project: string; shard: number; unit: string; dependents: number }>;
}

/**
 * After the shards of a run: checks they planned alike and together ran every planned unit
 * exactly once, and no unit without its setup project (what `shardwise verify` prints). `INVALID_INPUT` for no records, or records of
 * different runs (different shard counts).
 */
export declare function verifyShards(records: ShardRecord[]): ShardVerification;
