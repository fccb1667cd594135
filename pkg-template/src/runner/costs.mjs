// The costs a run's reporter records in its report, for planning the next runs (Rust
// `plan::cost`, the one definition of the record and of how it is read): per file, the time it
// held a worker beyond its tests' own time (load, transform, environment, set-up files, hooks),
// as the runner measured it, and the run's workers. Playwright records no file: Rust reads its
// files' costs from the gaps on each worker's timeline (attempts' `parallelIndex` and starts).
import { COSTS_SOURCE } from '../sources.js';
import { MAX_MODULES } from './modules.mjs';

export { COSTS_SOURCE };

const ms = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** One run's costs, file by file as results arrive. */
export class RunCosts {
  /** @param {'jest'|'vitest'|'playwright'} runner @param {number} [workers] */
  constructor(runner, workers) {
    this.runner = runner;
    this.workers = Number.isSafeInteger(workers) && workers >= 1 ? workers : undefined;
    /** @type {Map<string, number>} report file -> ms */
    this.files = new Map();
    /** @type {Map<string, string>} report file -> its test environment (Jest) */
    this.environments = new Map();
    /** @type {Map<string, number>} report file -> ms to load its environment */
    this.environmentMs = new Map();
    /**
     * What the run's wall holds before its runner started (`shardwise node-test`'s planning),
     * which each shard measures itself: Rust leaves it out of the fixed cost per shard.
     * @type {number | undefined}
     */
    this.launchMs = undefined;
    /**
     * Of the suite's own modules, the share this shard's files load, where its plan read them
     * (a Jest shard): Rust reads its cold cost over it.
     * @type {number | undefined}
     */
    this.modulesShare = undefined;
    /**
     * The transforms of the suite's own modules (not its test files) the runner's main process made
     * this run, by the file that loaded each first (`firstLoads`): taken off those files' costs and
     * recorded as their sum (`transformMs`), a cost a shard pays once per module its files load
     * (Rust reads it as the shard's cold cost), and each module's (`transforms`, by report path:
     * the modules' weights in a plan). Vitest.
     * @type {{byFile: Map<string, number>, byModule?: Map<string, number>, totalMs: number} | undefined}
     */
    this.transforms = undefined;
  }

  /**
   * A file's test environment and the time its runner took to load it (Jest: a worker loads an
   * environment's module once, on its first file of it): Rust learns each environment's first
   * load from them, a start cost of the shards that run its files (`plan::cost`).
   */
  environment(file, env, loadMs) {
    if (typeof file !== 'string' || typeof env !== 'string' || !env || ms(loadMs) === undefined) return;
    this.environments.set(file, env);
    this.environmentMs.set(file, Math.max(0, Math.round(loadMs)));
  }

  /** `file`: as the report names it (undefined: outside the repository, not recorded). */
  add(file, cost) {
    if (typeof file !== 'string' || ms(cost) === undefined) return;
    this.files.set(file, (this.files.get(file) ?? 0) + Math.max(0, Math.round(cost)));
  }

  /**
   * Adds the record to a built report's `sources` (in place; replaces an earlier one). With
   * `shardCosts` (the package's), the model the report teaches is added to the record (its fixed
   * cost per shard, per worker, per file and per test, and `fittedFiles`: the files' costs fitted
   * to the run; for Playwright, read from the workers' timelines), so a service that keeps
   * records, as `shardwise serve` does, can give them back with durations without reading the run
   * again.
   */
  addTo(report, shardCosts) {
    if (!report) return report;
    const record = { runner: this.runner, ...(this.workers ? { workers: this.workers } : {}), ...(this.launchMs > 0 ? { launchMs: Math.round(this.launchMs) } : {}), ...(this.modulesShare > 0 && this.modulesShare < 1 ? { modulesShare: this.modulesShare } : {}) };
    if (this.transforms) {
      // each file keeps what it paid beyond the transforms it was first to ask for; the record
      // keeps the sum of what was taken off
      let taken = 0;
      for (const [file, ms] of this.transforms.byFile) {
        if (!this.files.has(file)) continue;
        const off = Math.min(this.files.get(file), Math.round(ms));
        this.files.set(file, this.files.get(file) - off);
        taken += off;
      }
      if (taken > 0) record.transformMs = taken;
      // each module's time, the longest as many as a plan reads modules (a report stays small)
      const longest = [...(this.transforms.byModule ?? [])].sort((a, b) => b[1] - a[1]).slice(0, MAX_MODULES);
      if (longest.length) record.transforms = sortedObject(new Map(longest.map(([m, ms]) => [m, Math.round(ms)])));
    }
    if (this.files.size) record.files = sortedObject(this.files);
    if (this.environments.size) {
      // the environments' names once, each file's by its index
      record.environments = [...new Set(this.environments.values())].sort();
      const index = new Map(record.environments.map((e, i) => [e, i]));
      record.environmentOf = sortedObject(new Map([...this.environments].map(([f, e]) => [f, index.get(e)])));
      record.environmentMs = sortedObject(this.environmentMs);
    }
    setSource(report, record);
    const learned = shardCosts?.(report);
    if (learned?.fromWall) {
      const c = learned.costs;
      Object.assign(record, { perShardMs: learned.perShardOverheadMs, perWorkerMs: c.perWorkerMs, ...(c.coldMs ? { coldMs: c.coldMs } : {}), perFileMs: c.perFileMs, perTestMs: c.perTestMs });
      if (Object.keys(c.files).length) record.fittedFiles = c.files;
      if (c.starts?.length) record.starts = c.starts;
      setSource(report, record);
    }
    return report;
  }
}

const sortedObject = (map) => Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

function setSource(report, record) {
  report.sources = [...(report.sources ?? []).filter((s) => s.filePath !== COSTS_SOURCE), { filePath: COSTS_SOURCE, text: JSON.stringify(record), contentType: 'application/json' }];
}

/**
 * Jest: a test file's time on its worker (`perfStats`, from loading its environment to its end)
 * less its tests' durations; undefined when Jest did not time it.
 */
export function jestFileCost(testResult) {
  const p = testResult?.perfStats;
  const end = ms(p?.end);
  const from = [ms(p?.start), ms(p?.loadTestEnvironmentStart)].filter((v) => v !== undefined && v > 0);
  if (end === undefined || !from.length) return undefined;
  let bodies = 0;
  for (const r of Array.isArray(testResult?.testResults) ? testResult.testResults : []) bodies += ms(r?.duration) ?? 0;
  return Math.max(0, end - Math.min(...from) - bodies);
}

/**
 * Vitest: a test module's environment set-up, preparation, collection (import) and set-up file
 * durations, and its hooks (its duration less its tests'); undefined without a diagnostic.
 */
export function vitestFileCost(testModule) {
  const d = typeof testModule?.diagnostic === 'function' ? testModule.diagnostic() : undefined;
  if (!d) return undefined;
  let cost = 0;
  for (const k of ['environmentSetupDuration', 'prepareDuration', 'collectDuration', 'setupDuration']) cost += ms(d[k]) ?? 0;
  let bodies = 0;
  const tests = typeof testModule?.children?.allTests === 'function' ? testModule.children.allTests() : [];
  for (const t of tests) bodies += ms(t?.diagnostic?.()?.duration) ?? 0;
  return cost + Math.max(0, (ms(d.duration) ?? 0) - bodies);
}

/**
 * Jest: a test file's environment, as Jest picks it: the `@jest-environment` pragma of the file's
 * first docblock, else its project's `testEnvironment`; named by its package
 * (`jest-environment-jsdom`: Jest's short names are that package), so both spellings are one.
 * `source`: the file's text (its head is enough).
 */
export function jestEnvironment(source, configured) {
  const docblock = /^\s*(\/\*\*?[\s\S]*?\*\/)/.exec(typeof source === 'string' ? source : '')?.[1];
  const pragma = docblock && /@jest-environment[ \t]+([^\s*]+)/.exec(docblock)?.[1];
  const name = pragma ?? (typeof configured === 'string' ? configured : undefined);
  if (!name) return undefined;
  const inModules = /(?:^|[\\/])node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)(?![\s\S]*node_modules)/.exec(name)?.[1];
  if (inModules) return inModules.replace(/\\/g, '/');
  if (/^(node|jsdom)$/.test(name)) return `jest-environment-${name}`;
  return name;
}

/** Jest: the time a file took to load its test environment (`perfStats`), undefined if not timed. */
export function jestEnvironmentMs(testResult) {
  const p = testResult?.perfStats;
  const [from, to] = [ms(p?.loadTestEnvironmentStart), ms(p?.loadTestEnvironmentEnd)];
  return from !== undefined && to !== undefined && from > 0 && to >= from ? to - from : undefined;
}

/**
 * Which file paid for each module's transform: the runner's main process transforms a module once
 * per run, for the first file that asks for it, and every later file reads it from its cache (Vitest:
 * vite's transform cache, one per process; a fresh CI machine starts with none). `files`: the run's
 * test files, each with when it began loading (ms, any clock) and the modules it loads (directly or
 * through others; an iterable read once, in that order, which may leave out what files before it
 * loaded); `durations`: per module, the time its transform took. Returns per file the
 * transforms it was first to ask for, their sum, and per module loaded its transforms' time.
 * @param {Array<{file: string, start: number, modules: Iterable<string>}>} files
 * @param {Map<string, number>} durations
 * @returns {{byFile: Map<string, number>, byModule: Map<string, number>, totalMs: number}}
 */
export function firstLoads(files, durations) {
  const byFile = new Map();
  const paid = new Map();
  let totalMs = 0;
  // by start, ties in the given order (a file without a start last)
  const order = files.map((f, i) => [Number.isFinite(f.start) ? f.start : Infinity, i, f]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (const [, , f] of order) {
    for (const m of f.modules) {
      const ms = durations.get(m);
      if (paid.has(m) || !(ms >= 0)) continue;
      paid.set(m, ms);
      byFile.set(f.file, (byFile.get(f.file) ?? 0) + ms);
      totalMs += ms;
    }
  }
  return { byFile, byModule: paid, totalMs };
}
