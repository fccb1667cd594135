// The balancing flow every runner shares: durations in, `planShards` (Rust) decides, one line out.
// `api` is the package namespace (or a fake in tests): `planShards`, `shardCosts` (the runner's
// defaults when the durations carry no costs) and `__maxSetupsAndStarts` (optional) are used here.
import { plural } from './words.mjs';

/** Human duration: "850ms", "12.3s". */
export const fmtMs = (ms) => (ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`);

/** The one line each shard prints (the tests parse `fingerprint <hex>` from it). */
export function shardLine({ plan, shardIndex, shardCount, unitCount, unitLabel = 'tests', source, workers = 1, costs }) {
  const shard = plan.shards.find((s) => s.index === shardIndex);
  const predicted = shard ? shard.predictedMs : 0;
  let line = `[shardwise] shard ${shardIndex}/${shardCount}: predicted ${fmtMs(predicted)}${workers > 1 ? ` over ${workers} workers` : ''}, `
    + `makespan ${fmtMs(plan.makespanMs)}, lower bound ${fmtMs(plan.lowerBoundMs)}, `
    + `${plan.estimated} of ${unitCount} ${unitLabel} estimated (durations: ${source}${costs ? `; costs: ${costs}` : ''}), fingerprint ${plan.fingerprint}`;
  if (!shard || shard.units.length === 0) {
    line += unitCount === 0
      ? ` -- this shard has nothing to run: no ${unitLabel} were selected`
      : ` -- this shard has nothing to run: ${unitCount} ${unitLabel} in fewer indivisible groups than ${shardCount} shards`;
  }
  return line;
}

/**
 * A shard that must not run: durations the other shards may have had could not be had here (a
 * different split would run tests twice or never), or the shard has nothing to run. `line` is
 * the one line the runner prints; the run then fails.
 */
export class ShardStop extends Error {
  constructor(line) {
    super(line);
    this.name = 'ShardStop';
    this.line = line;
  }
}

/**
 * The line of a shard whose planning itself failed (the same on every shard: an old build, a
 * core that refuses the units): `runner` (as the user names it) then shards natively.
 */
export const balancingFailedLine = (e, runner) => `[shardwise] balancing failed (${e?.code ?? 'ERROR'}: ${e?.message ?? e}); ${runner} shards natively`;

/**
 * Durations that could not be had for a reason every shard shares (no service and no timings
 * file configured, no test titles in the sources): every shard then plans from estimates alone,
 * alike. Any other failure (the service, the network, a timings file that cannot be read) may
 * hit one shard and not the others, and stops the shard.
 */
export class SharedReason extends Error {}

/**
 * Plans every shard and returns this shard's part, and the record `shardwise verify` reads.
 *
 * The policy (README "When durations cannot be had"): the durations exchange retries within its
 * budget (`durationsTimeoutMs`); if durations still cannot be had for a reason that may be this
 * shard's alone, the shard does not run a split of its own: it stops with one line saying why
 * and how to re-run it (`ShardStop`). Only a reason all shards share (`SharedReason`) plans
 * from estimates, the same plan on every shard. A shard with nothing to run stops too, unless
 * `allowEmptyShards`.
 * @param {object} p
 * @param {{planShards: Function}} p.api
 * @param {Array<{id: string, file?: string, group?: string}>} p.units units without durations
 * @param {number} p.shardIndex 1-based
 * @param {number} p.shardCount
 * @param {() => Promise<{durationOf: (unit: object) => number|undefined, source: string, costs?: object}>} p.getDurations
 *   `costs`: the durations document's cost model (`shardCosts` of it)
 * @param {string} [p.runner] `jest` | `vitest` | `playwright`: whose default costs apply when the
 *   durations say none
 * @param {string} [p.unitLabel]
 * @param {number} [p.workers] the runner's parallel workers in one shard (the same on every shard:
 *   it is part of the plan): a shard's predicted time is then the makespan over them
 * @param {{allowEmptyShards?: boolean}} [p.options]
 * @param {Array<{id: string, tests: object[], dependents: string[], level?: number, teardown?: boolean}>} [p.setups]
 *   projects the runner runs on each shard that runs a unit needing them, beside the plan
 *   (Playwright's setup and teardown projects): their `tests` looked up like units, their time
 *   planned as the cost of each shard that runs one of their `dependents` (Rust `plan::setups`)
 * @param {number[]} [p.runnerSplit] per unit, its shard (1-based) in the runner's own split: the
 *   plan keeps it unless balancing is predicted `__runnerSplitMargin()` sooner (not on a re-run)
 * @param {() => {modules: object[], bytes: number}} [p.modules] the suite's own modules and the
 *   files that load them (`suiteModules`, modules.mjs), read when the costs have a cold cost big
 *   enough to share out over them (Jest's; `__chargesModules`)
 * @returns {Promise<{plan, shard, mine: Set<string>, line: string, record: object, units: object[]}>}
 *   `units`: those planned (a re-run's: what failed)
 * @throws {ShardStop}
 */
export async function planThisShard({ api, units, shardIndex, shardCount, getDurations, unitLabel = 'tests', workers, options = {}, runner, setups = [], runnerSplit, modules }) {
  workers = workerCount(workers);
  let source;
  let costs;
  let rerunOf;
  let durationOf;
  let withDurations = units;
  try {
    const d = await getDurations();
    source = d.source;
    costs = d.costs;
    rerunOf = d.rerun;
    durationOf = d.durationOf;
    // a measured duration is known, also when it rounds to 0 ms (the planner reads 0 as
    // unknown): at least 1 ms, as the planner counts any measured test
    withDurations = units.map((u) => {
      const ms = d.durationOf(u);
      return ms === undefined ? u : { ...u, durationMs: Math.max(1, Math.round(ms)) };
    });
  } catch (e) {
    const why = `${e?.code && !String(e?.message).startsWith(e.code) ? `${e.code}: ` : ''}${e?.message ?? e}`;
    if (!(e instanceof SharedReason)) {
      throw new ShardStop(`[shardwise] shard ${shardIndex}/${shardCount} stopped: durations unavailable (${why}). `
        + 'The other shards may have planned with them, and a split of its own would run tests twice or never, so this shard runs nothing and fails. '
        + 'Re-run this shard: the same commit and run id give the same plan.');
    }
    source = `none (${why}); estimates only, the same plan on every shard`;
  }
  // a re-run of what failed: the same units on every shard, those the timings file's run failed
  let rerunLine = '';
  if (options.rerun) {
    const kinds = rerunKinds(options.rerun);
    const stop = (why) => new ShardStop(`[shardwise] shard ${shardIndex}/${shardCount} stopped: ${why}, so this shard runs nothing and fails`);
    if (!kinds) throw stop(`rerun ${JSON.stringify(String(options.rerun))} (SHARDWISE_RERUN) is neither "failed" nor "failed,flaky"`);
    if (!rerunOf) {
      throw stop(`a re-run of the failed ${unitLabel} (rerun: ${options.rerun}) needs the run that failed: give its saved report, or the folder of its shards' reports, as the timings file (SHARDWISE_TIMINGS_FILE)`);
    }
    const picked = rerunOf(kinds);
    const all = units.length;
    units = units.filter(picked);
    withDurations = withDurations.filter(picked);
    runnerSplit = undefined; // the runner's split is of the whole suite
    rerunLine = `\n[shardwise] re-running ${units.length} of ${all} ${unitLabel}: those that failed${kinds.flaky ? ' or were flaky' : ''} in the run the timings file holds`
      + (units.length === 0 ? ' (none did: every shard runs nothing)' : '');
  }
  // what a shard pays beyond its tests' bodies (Rust plan::cost): from the durations, else the
  // runner's documented defaults; the same on every shard, as the durations are
  costs ??= api.shardCosts({ ...(runner ? { category: runner } : {}), environments: [] });
  // Only the fields `PlanUnit` defines (types/plan.d.ts): the core rejects unknown keys.
  const coreUnits = withDurations.map(({ id, file, group, durationMs }) => {
    const u = { id };
    if (file !== undefined) u.file = file;
    if (group !== undefined) u.group = group;
    if (durationMs !== undefined) u.durationMs = durationMs;
    return u;
  });
  // projects the runner runs on each shard that needs them, beside its plan (Playwright's setup
  // and teardown projects): their tests' known durations, the cost of each shard that runs one
  // of their dependents, planned with the phases they run in (Rust plan::setups)
  // per setup: its known time and how many of its tests had a duration
  const setupTime = new Map();
  let sharedCount = 0;
  let sharedKnown = 0;
  for (const st of setups) {
    const time = { ms: 0, known: 0 };
    for (const t of st.tests) {
      const d = durationOf?.(t);
      if (d === undefined) continue;
      time.ms += Math.max(1, Math.round(d));
      time.known += 1;
    }
    setupTime.set(st.id, time);
    sharedCount += st.tests.length;
    sharedKnown += time.known;
  }
  // Playwright: a worker runs one project's tests, so a shard starts workers for each project it
  // holds, and for each setup or teardown project it runs: a worker's start (`perWorkerMs`) is
  // then a start cost per project (Rust plan::cost Start), which keeps projects together
  let { planCosts, workerMs } = projectStarts(withDurations, costs.costs, setups.length, api.__maxSetupsAndStarts?.());
  // what a shard pays once per module its files load (Jest's transforms): its cold cost shared
  // out, where it is worth reading them (Rust plan::cost::charges_modules)
  const loaded = modules && api.__chargesModules(costs.costs?.coldMs ?? 0) ? modules() : undefined;
  if (loaded?.modules.length) planCosts = { ...planCosts, modules: loaded.modules };
  const plan = api.planShards({
    units: coreUnits, shardCount, ...(workers > 1 ? { workers } : {}),
    ...(costs.perShardOverheadMs ? { perShardOverheadMs: costs.perShardOverheadMs } : {}), costs: planCosts,
    ...(setups.length ? {
      setups: setups.map((st) => ({ id: st.id, durationMs: setupTime.get(st.id).ms + workerMs, units: st.dependents, level: st.level ?? 0, teardown: !!st.teardown })),
    } : {}),
    ...(runnerSplit ? { runnerSplit } : {}),
  });
  // the setups a shard runs: those with a dependent among its units
  const runs = (s) => {
    const mine = new Set(s.units);
    return setups.filter((st) => st.dependents.some((id) => mine.has(id)));
  };
  const charged = plan.shards.filter((s) => runs(s).length > 0).length;
  const shard = plan.shards.find((s) => s.index === shardIndex) ?? { index: shardIndex, predictedMs: 0, units: [], files: [] };
  const costsSource = costs.source + (loaded?.modules.length ? `, cold ${fmtMs(costs.costs.coldMs)} over ${plural(loaded.modules.length, 'module')} of the suite (${Math.round(loaded.bytes / 1024)} KB)` : '');
  let line = shardLine({ plan, shardIndex, shardCount, unitCount: units.length, unitLabel, source, workers, costs: costsSource });
  line += rerunLine;
  if (sharedCount) {
    const sharedMs = [...setupTime.values()].reduce((sum, t) => sum + t.ms, 0);
    line += `\n[shardwise] ${sharedCount} setup or teardown ${sharedCount === 1 ? 'test runs' : 'tests run'} on each shard that needs them`
      + (sharedKnown ? `: ${fmtMs(sharedMs)}, planned as the cost of the ${charged} of ${shardCount} shards that run a test needing them${sharedKnown < sharedCount ? ` (${sharedCount - sharedKnown} with no duration not counted)` : ''}` : ', with no duration: not counted in the plan');
  }
  if (plan.runnerSplitMs !== undefined) line += `\n${runnerSplitLine(plan, runner, api.__runnerSplitMargin?.())}`;
  if (units.length > 0 && plan.estimated > ESTIMATED_SHARE * units.length) {
    line += `\n[shardwise] ${plan.estimated} of ${units.length} ${unitLabel} (${Math.round((100 * plan.estimated) / units.length)}%) had no duration and were estimated: `
      + 'the split is a guess for them. A timings file from a recent full run, or a service that has seen one, gives them durations';
  }
  // a re-run's shards outnumber its failures as often as not: an empty one passes
  if (shard.units.length === 0 && !options.allowEmptyShards && !options.rerun)
    throw new ShardStop(`${line}; the shard fails rather than pass having run nothing (allowEmptyShards: true lets it pass)`);
  const mine = new Set(shard.units);
  // the tests' own predicted time on this shard: as the plan counted its units (estimates
  // included, Rust Shard::tests_ms) and the setup and teardown tests it runs (if any); and the
  // known durations alone, and how many were estimated: the end of the shard tells stale
  // durations from costs that were off, or from none at all
  let bodiesMs = 0;
  let setupsMs = 0;
  for (const st of runs(shard)) setupsMs += setupTime.get(st.id).ms;
  let estimated = 0;
  for (const u of coreUnits) {
    if (!mine.has(u.id)) continue;
    if (u.durationMs === undefined) estimated += 1;
    else bodiesMs += u.durationMs;
  }
  bodiesMs += setupsMs;
  const testsMs = (shard.testsMs ?? 0) + setupsMs;
  return {
    plan,
    shard,
    mine,
    order: longestFirst(coreUnits.filter((u) => mine.has(u.id)), costs.costs),
    // the share of the suite's modules this shard's files load (the plan's, over the modules it
    // charges): its report keeps it, and its cold cost is read over it (Rust plan::cost::learn)
    expected: { bodiesMs, testsMs, estimated, costs: costs.source, workers, ...(shard.modulesShare !== undefined ? { modulesShare: shard.modulesShare } : {}) },
    line,
    record: { fingerprint: plan.fingerprint, shardIndex, shardCount, units: units.map((u) => u.id), assigned: shard.units },
    units,
  };
}

/**
 * What a plan given the runner's own split did with it: kept it (balancing was not predicted
 * `margin` sooner, the model's error on a shard), or balanced, and by how much.
 */
export function runnerSplitLine(plan, runner = 'the runner', margin = 0.1) {
  const theirs = `${runner}'s own split (--shard)`;
  const pct = Math.round(margin * 100);
  if (plan.keptRunnerSplit) {
    return `[shardwise] kept ${theirs}, predicted ${fmtMs(plan.runnerSplitMs)}: a balanced plan replaces it only when predicted ${pct}% sooner`;
  }
  const sooner = Math.round((100 * (plan.runnerSplitMs - plan.makespanMs)) / plan.runnerSplitMs);
  return `[shardwise] balanced: predicted ${sooner}% sooner than ${theirs}, ${fmtMs(plan.runnerSplitMs)}`;
}

/**
 * The costs to plan with when units belong to projects (Playwright's `project`) and a worker's
 * start is known: with more than one project, or setup projects, each project's workers are a
 * start cost of the shards that hold its units (`workers of project <name>`), in place of one
 * worker's start per shard, and `workerMs` is what each setup or teardown project adds to its
 * time (its own worker). As they are otherwise (one project, or no worker's start, or more than
 * `limit` setups and starts, the planner's: `__maxSetupsAndStarts()`).
 * @returns {{planCosts: object, workerMs: number}}
 */
export function projectStarts(units, costs, setupCount = 0, limit = Infinity) {
  const projects = new Map();
  for (const u of units) {
    if (typeof u.project !== 'string') continue;
    if (!projects.has(u.project)) projects.set(u.project, []);
    projects.get(u.project).push(u.id);
  }
  const perWorker = costs?.perWorkerMs ?? 0;
  const starts = costs?.starts ?? [];
  if (!(perWorker > 0) || (projects.size < 2 && setupCount === 0) || projects.size + setupCount + starts.length > limit) {
    return { planCosts: costs, workerMs: 0 };
  }
  const mine = [...projects].map(([p, ids]) => ({ id: `workers of project ${p}`, durationMs: perWorker, units: ids }));
  return { planCosts: { ...costs, perWorkerMs: 0, starts: [...starts, ...mine] }, workerMs: perWorker };
}


/**
 * What a re-run runs (`rerun`, `SHARDWISE_RERUN`): `failed` -> `{flaky: false}`, `failed,flaky`
 * (in either order; `+` or spaces also part them) -> `{flaky: true}`, anything else undefined.
 */
export function rerunKinds(value) {
  const parts = [...new Set(String(value).split(/[\s,+]+/).filter(Boolean))].sort().join(',');
  return parts === 'failed' ? { flaky: false } : parts === 'failed,flaky' ? { flaky: true } : undefined;
}

/**
 * The ids of a shard's units, longest first by their predicted time and their file's cost (an
 * estimated unit: the mean of the known), ties by id: the order in which the planner's
 * prediction (each group to the first free worker, longest first) assumes the runner runs them.
 * An order only: what the shard runs is the plan's.
 */
export function longestFirst(units, costs = {}) {
  const known = units.filter((u) => u.durationMs !== undefined);
  const mean = known.length ? known.reduce((a, u) => a + u.durationMs, 0) / known.length : 0;
  const fileMs = (f) => (f === undefined ? costs.perTestMs ?? 0 : costs.files?.[f] ?? costs.perFileMs ?? 0);
  const weight = (u) => (u.durationMs ?? mean) + fileMs(u.file);
  return units.map((u) => [weight(u), u.id]).sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)).map(([, id]) => id);
}

/** A runner's configured worker count as the planner takes it: a whole number >= 1, else 1. */
export const workerCount = (n) => (Number.isSafeInteger(n) && n >= 1 ? n : 1);

/** When a shard's tests take this much more or less than predicted, the durations are stale. */
export const STALE_SHARE = 0.25;
/** ...and by at least this much (a few hundred ms either way is noise, not staleness). */
export const STALE_MIN_MS = 1000;
/** When more than this share of the units had no duration, the plan is mostly a guess. */
export const ESTIMATED_SHARE = 0.2;

/**
 * The lines at the end of a balanced shard: what it took against its predicted wall time, what its
 * tests' own time was against theirs, and the rest (its wall less its tests' own time shared over
 * its workers: start-up, files and workers) against theirs; then, when its wall was off by more
 * than STALE_SHARE (and STALE_MIN_MS), one line with the cause the figures show: durations that
 * moved (its tests took more or less than predicted, by as much), the noise of the durations
 * (its tests made most of the miss, by less than that), costs that were off (the rest made most
 * of it), or no durations at all. Whatever the wall did, tests that moved by as much are stale.
 * @param {object} p
 * @param {number} p.shardIndex
 * @param {number} p.shardCount
 * @param {number} p.predictedMs the plan's prediction of the shard's wall time
 * @param {number} p.actualMs the shard's wall time
 * @param {number} [p.testsMs] its tests' attempts' durations, summed (undefined: not reported)
 * @param {{bodiesMs: number, testsMs?: number, estimated: number, costs?: string, workers?: number}} [p.expected]
 *   what planThisShard expected of its tests (known durations summed; all of them as the plan
 *   counted them, estimates included; how many estimated), where its costs came from and its workers
 */
export function actualLines({ shardIndex, shardCount, predictedMs, actualMs, testsMs, expected }) {
  const pct = (off, of) => (of > 0 ? `${off > 0 ? '+' : ''}${Math.round((100 * off) / of)}%` : 'no prediction');
  const far = (off, of) => Math.abs(off) >= STALE_MIN_MS && Math.abs(off) > STALE_SHARE * of;
  const who = `[shardwise] shard ${shardIndex}/${shardCount}`;
  const workers = workerCount(expected?.workers);
  let head = `${who} took ${fmtMs(actualMs)} (predicted ${fmtMs(predictedMs)}, ${pct(actualMs - predictedMs, predictedMs)})`;
  // the tests' predicted time: as the plan counted them (estimates included), else the known
  // durations alone
  const known = expected && expected.bodiesMs > 0;
  const testsPredicted = known ? Math.round(expected.testsMs ?? expected.bodiesMs) : undefined;
  // the rest: the wall less the tests' own time shared over the workers (an even share: what
  // the tests held of the wall, near enough to tell which part missed)
  const rest = (wall, tests) => Math.max(0, Math.round(wall - tests / workers));
  const restMs = testsMs === undefined ? undefined : rest(actualMs, testsMs);
  const restPredicted = known ? rest(predictedMs, testsPredicted) : undefined;
  if (testsMs !== undefined) {
    head += `: its tests' own time ${fmtMs(testsMs)}${workers > 1 ? ` over ${workers} workers` : ''}${known ? ` (predicted ${fmtMs(testsPredicted)})` : ''}, `
      + `the rest ${fmtMs(restMs)} start-up, files and workers${known ? ` (predicted ${fmtMs(restPredicted)})` : ''}`;
  }
  const lines = [head];
  // The durations are stale when the tests' own time moved beyond a busy machine's noise (a
  // quarter and a second), whatever the wall did: costs predicted too high can hide tests that
  // became 3x slower, and the split is then balanced on the wrong figures. The other lines only
  // when the shard's wall was off by as much, and name the part that made most of the miss.
  const stale = known && testsMs !== undefined && far(testsMs - testsPredicted, testsPredicted);
  const wallOff = far(actualMs - predictedMs, predictedMs);
  if (stale) {
    lines.push(`${who}: its tests took ${fmtMs(testsMs)} against ${fmtMs(testsPredicted)} predicted (${pct(testsMs - testsPredicted, testsPredicted)}): `
      + 'the durations it planned with are stale. Refresh the timings file from a recent full run (npx shardwise durations), '
      + 'or let the service see more runs of this suite; shards stay balanced only as far as the durations are right');
  } else if (wallOff && expected && expected.bodiesMs === 0 && expected.estimated > 0) {
    lines.push(`${who}: none of its tests had a duration, so its prediction was an estimate; `
      + 'a timings file from a full run (its saved report.json.br), or a service that has seen one, gives durations and costs');
  } else if (wallOff && known && testsMs !== undefined && Math.abs(testsMs - testsPredicted) / workers > Math.abs(restMs - restPredicted)) {
    lines.push(`${who}: most of the miss was its tests: they took ${fmtMs(testsMs)} against ${fmtMs(testsPredicted)} predicted `
      + `(${pct(testsMs - testsPredicted, testsPredicted)}), within what one run's durations vary by (under ${Math.round(STALE_SHARE * 100)}%: not stale). `
      + 'One run\'s durations carry its noise (a busy machine, shared cores): a timings folder of several runs (each test at its mean), '
      + 'or a service that has seen several, averages it');
  } else if (wallOff && testsMs !== undefined) {
    const defaults = /defaults/.test(expected?.costs ?? '');
    lines.push(`${who}: its tests took about what was predicted, the rest did not: the costs of start-up, files and workers `
      + `(${expected?.costs ?? 'none'}) took ${fmtMs(restMs)}${restPredicted !== undefined ? ` against ${fmtMs(restPredicted)} predicted` : ''}. `
      + (defaults
        ? 'A timings file that is a saved report of a full run on this kind of machine (report.json.br) teaches them'
        : 'They were learned on a run of another size or machine; a timings file from a recent full run on this kind of machine teaches them again'));
  }
  return lines;
}

/** The durations of the attempts a report builder has had, summed (its tests' own time). */
export function attemptsMs(builder) {
  const ms = builder?.__attemptsMs?.();
  return ms === undefined ? undefined : Math.round(ms);
}

// Jest's and Vitest's sequencer (which plans) and reporter (which reports) are separate objects in
// one process: the shard's prediction and record (for shard.json) pass from one to the other here.
const PREDICTION = Symbol.for('shardwise.prediction');

/** @param {{index: number, count: number, predictedMs: number, expected?: object, order?: string[], record?: object, root?: string}} p `order`: the shard's files (absolute paths), longest first */
export const setShardPrediction = (p) => { globalThis[PREDICTION] = p; };

/** @returns {{index: number, count: number, predictedMs: number, expected?: object, order?: string[], record?: object, root?: string} | undefined} */
export const shardPrediction = () => globalThis[PREDICTION];

// A shard that must not run (ShardStop) planned in a sequencer: its line passes to the reporter,
// which then saves no report (the shard ran nothing) and does not say the line again.
const STOPPED = Symbol.for('shardwise.shardStop');

/** @param {string} line the shard's stop line */
export const setShardStop = (line) => { globalThis[STOPPED] = line; };

/** @returns {string | undefined} the stop line of this process's shard, if it stopped */
export const shardStop = () => globalThis[STOPPED];
