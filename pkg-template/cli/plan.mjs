// `shardwise plan <report | timings file | units.json> --shards N`: plans shards with `planShards`
// (Rust decides everything; this file reads the input and prints) and shows the plan as a table
// or as JSON.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as api from '../node.mjs';
import { __readJson, __recommendShards, __fixedCostMs } from '../wasm/shardwise.js';
import { readSaved } from '../src/runner/report.mjs';
import { inFile, reportTargets } from './files.mjs';
import { parse, required, number, UsageError } from './args.mjs';
import { fmtMs } from '../src/runner/plan.mjs';
import { planAsRun, readTimingsRunsBytes } from '../src/runner/timings.mjs';
import { plural } from '../src/runner/words.mjs';
import { gitInfo } from '../src/runner/options.mjs';
import { suiteModules, jestAliases } from '../src/runner/modules.mjs';

export const HELP = `Usage: shardwise plan <input> --shards N [options]
       shardwise plan <input> --shards auto --max-shards M [--budget B] [--matrix]

Splits the tests of <input> into N shards of equal predicted duration and prints the plan: one
row per shard (predicted time, units, files), then the makespan (the slowest shard), the lower
bound no plan can beat, how many units had no prediction (estimated), and the fingerprint every
shard of a run can print to show they computed the same plan.

<input> is one of:
  - a report or timings file, JSON or Brotli JSON (report.json, report.json.br, the output of
    'shardwise durations'), or a reporter's saved report folder: each test's predicted duration
    is the sum of its attempts' durations (in one environment with --environment); or a sharded
    run's folder (shard-1-of-3/, ...), or several runs' folders side by side: their reports read
    as one, every test at its mean over the reports that ran it, and the costs learned from
    every report;
  - a JSON array of units [{"id": "...", "file"?: "...", "group"?: "...", "durationMs"?: n}].

A report plans as its runner does (what 'shardwise plan' reads of it is printed under the table):
  - what a shard pays beyond its tests (shardCosts): each file's cost (load, transform,
    environment, hooks) as the run measured it (its workers' warm-up apart, scaled down where
    they overlap), and the fixed cost per shard (the rest of its wall time); a durations
    document: the runner's defaults;
  - its workers (the run's), unless --workers;
  - a Jest or Vitest report by file (one unit a file, as their shards run: --unit file is
    the same), unless --unit test;
  - with a cold cost big enough to share out by module (Jest's transforms, paid again on every
    shard): the suite's own modules
    its files load, read from the checkout this runs in, as the Jest shards read them (with the
    names its Jest configuration maps to files: moduleNameMapper, modulePaths,
    moduleDirectories; --jest-config when Jest runs with --config).
So 'shardwise plan <the timings file the shards used> --shards N', run in the checkout the shards
ran, prints the plan and the fingerprint the shards printed, when the file lists every test file
they ran (and --workers gives the shards' workers if the file's run had others).

With --shards auto it plans every count from 1 to M, each shard paying a fixed cost (runner
boot, browser launch, global set-up), prints per count the predicted wall time (the slowest
shard) and machine time (all shards summed), and recommends the count with the least wall time
whose machine time stays within the budget. The fixed cost is --overhead, else estimated from
the input and --overhead-from reports: a past run's wall time less the span of its tests (the
median over the reports, e.g. each shard's of a past run). A CI job's own set-up (checkout,
install) is in no report: add it with --overhead.

Options:
  --shards <N|auto>     how many shards (required); auto: recommend a count (below)
  --unit <test|file>    test: tests may be split across shards (default, but a Jest or
                        Vitest report's is file); file: each file stays on one shard
  --environment <E>     use the predictions of environment E (a name, or an index when a whole
                        number); default: every environment's summed (report input only)
  --workers <W>         parallel workers inside one shard (default: the report's, else 1)
  --overhead <MS>       a fixed start-up cost of each shard, in ms (default: the report's, else 0)
  --bodies-only         plan the tests' own durations alone: no file, worker or start-up cost
  --jest-config <F>     the Jest configuration file the shards ran with (default: the one Jest
                        finds in the checkout), for the names it maps to the suite's modules
  --default <MS>        the estimate for a unit when nothing is known (default 1000)
  --json                print the plan as JSON (the value planShards returns)
  --max-shards <M>      with --shards auto: the largest count to consider (default 16)
  --budget <B>          with --shards auto: the machine time allowed, as a multiple of one
                        shard's ('1.5x', the default) or a duration ('90m', '2h', '600s', ms)
  --overhead-from <F>   with --shards auto: more past reports (files or saved report folders)
                        to estimate the fixed cost from; repeatable
  --matrix              with --shards auto: print only the chosen count as a GitHub Actions
                        matrix, {"shardIndex":[1,...,N],"shardTotal":[N]}
  -h, --help            this help`;

/**
 * The input file's content, `{report}` or `{units}`, read by the rule every reader of reports
 * follows (Rust `report::read_json`: Brotli-compressed JSON or plain JSON), and the file read.
 */
function readInput(target) {
  const targets = reportTargets(target);
  if (targets.length > 1) {
    // a sharded run's folder, or several runs': their reports read as one, as a shard reads that
    // folder as its timings (every test at its mean, the costs learned from every report), and a
    // report that cannot be read is named
    const shards = targets.map((t) => readSaved(t));
    const report = readTimingsRunsBytes(shards.map((s) => s.bytes), api, { names: shards.map((s) => s.reportFile) });
    return { reportFile: target, content: { report }, shards };
  }
  const { reportFile, bytes } = readSaved(targets[0]);
  try {
    const doc = __readJson(bytes);
    if (Array.isArray(doc)) return { reportFile, content: { units: doc } };
    if (doc !== null && typeof doc === 'object') return { reportFile, content: { report: doc } };
    throw new api.ShardwiseError('it holds neither a report (a JSON object) nor a units list (a JSON array)', { code: 'INVALID_INPUT' });
  } catch (e) {
    throw inFile(reportFile, e);
  }
}

/**
 * The plan as a text table plus its summary lines. `label`: what a unit is, `tests` for a report
 * (with `--unit file` too: the units stay tests, kept whole by file) or `units` for a units list.
 */
export function formatPlan(plan, label = 'units') {
  const rows = plan.shards.map((s) => [String(s.index), fmtMs(s.predictedMs), String(s.units.length), String(s.files.length)]);
  const head = ['shard', 'predicted', label, 'files'];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells) => cells.map((x, c) => (c === 0 ? x.padEnd(widths[c]) : x.padStart(widths[c]))).join('  ');
  const units = plan.shards.reduce((n, s) => n + s.units.length, 0);
  const ratio = plan.lowerBoundMs > 0 ? ` (${(plan.makespanMs / plan.lowerBoundMs).toFixed(3)} x lower bound)` : '';
  return [
    line(head),
    ...rows.map(line),
    '',
    `makespan     ${fmtMs(plan.makespanMs)} (${plan.makespanMs} ms)${ratio}`,
    `lower bound  ${fmtMs(plan.lowerBoundMs)} (${plan.lowerBoundMs} ms)`,
    `estimated    ${plan.estimated} of ${units} ${label} had no prediction`,
    `fingerprint  ${plan.fingerprint}`,
  ].join('\n');
}

/** `planShards(opts)`; a problem of the input's content names the file. */
function planOf(reportFile, opts) {
  try {
    return api.planShards(opts);
  } catch (e) {
    throw /^planShards options: (report|units)/.test(e?.message ?? '') ? inFile(reportFile, e) : e;
  }
}

/** `--budget`: '1.5x' (a multiple of one shard's machine time) or a duration ('90m', '2h', '600s', '5000' ms). */
export function budgetOf(text) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(x|ms|s|m|min|h)?\s*$/.exec(text ?? '');
  if (!m) throw new UsageError(`--budget must be a multiple of one shard's machine time ('1.5x') or a duration ('90m', '2h', '600s'), got '${text}'`);
  const n = Number(m[1]);
  if (m[2] === 'x') {
    if (n < 1) throw new UsageError(`--budget ${text}: a multiple of one shard's machine time is at least 1x`);
    return { ratio: n };
  }
  return { ms: n * ({ s: 1000, m: 60_000, min: 60_000, h: 3_600_000 }[m[2]] ?? 1) };
}

/**
 * The per-shard fixed cost: `--overhead`, else what the reports show (Rust: each one's time
 * outside its tests; `__recommendShards` takes their median).
 */
function fixedCost(overhead, reports) {
  if (overhead !== undefined) return { how: 'given by --overhead' };
  const each = reports.map((r) => __fixedCostMs({ report: r.report }));
  const known = each.filter((x) => x !== undefined);
  if (!known.length)
    return { each: known, how: `none: ${reports.length ? 'no report given has a wall time and timed tests' : 'no report given'}; set it with --overhead` };
  return { each: known, how: `${known.length === 1 ? 'the report\'s wall time outside its workers\' busy time' : `the median of ${known.length} reports' wall time outside their workers' busy time`} (${each.map((x) => (x === undefined ? '-' : fmtMs(x))).join(', ')}); a CI job's own set-up adds to it: --overhead` };
}

/** The table of `--shards auto`. */
export function formatRecommendation(r, cost, budget) {
  const head = ['shards', 'wall', 'machine', ''];
  const rows = r.rows.map((x) => [String(x.shards), fmtMs(x.wallMs), fmtMs(x.machineMs),
    x.shards === r.shards ? '<- recommended' : x.withinBudget ? '' : 'over budget']);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c].length)));
  const line = (cells) => cells.map((x, c) => (c === 0 || c === 3 ? x.padEnd(widths[c]) : x.padStart(widths[c]))).join('  ').trimEnd();
  const chosen = r.rows.find((x) => x.shards === r.shards);
  return [
    line(head),
    ...rows.map(line),
    '',
    `fixed cost   ${fmtMs(r.perShardOverheadMs)} per shard (${cost.how})`,
    `budget       machine time at most ${budget.ratio ? `${budget.ratio}x one shard's, ` : ''}${fmtMs(r.budgetMs)}`,
    ...(r.cappedAt ? [`stopped at   ${plural(r.cappedAt, 'shard')}: more would leave a shard empty`] : []),
    ...(r.estimated ? [`estimated    ${plural(r.estimated, 'unit')} had no prediction`] : []),
    `recommended  ${plural(r.shards, 'shard')}: wall ${fmtMs(chosen.wallMs)}, machine ${fmtMs(chosen.machineMs)}`
      + (chosen.withinBudget ? '' : ' (no count is within the budget: the cheapest)'),
  ].join('\n');
}

export async function run(argv) {
  const { values, positionals } = parse('plan', argv, {
    shards: { type: 'string' }, unit: { type: 'string' }, environment: { type: 'string' },
    workers: { type: 'string' }, overhead: { type: 'string' }, default: { type: 'string' },
    json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    'max-shards': { type: 'string' }, budget: { type: 'string' }, 'overhead-from': { type: 'string', multiple: true },
    matrix: { type: 'boolean' }, 'bodies-only': { type: 'boolean' }, 'jest-config': { type: 'string' },
  });
  if (values.help) { console.log(HELP); return 0; }
  required('plan', positionals[0], '<input> (a report, a saved report folder or a units file)');
  if (positionals.length > 1) throw new UsageError(`one <input> at a time, got ${positionals.length}; see 'shardwise plan --help'`);
  required('plan', values.shards, '--shards <N>');
  const [input] = positionals;
  if (!existsSync(input)) throw new UsageError(`${input} does not exist`);

  const auto = values.shards === 'auto';
  for (const flag of ['max-shards', 'budget', 'overhead-from', 'matrix']) {
    if (values[flag] !== undefined && !auto) throw new UsageError(`--${flag} goes with --shards auto; see 'shardwise plan --help'`);
  }
  if (values.overhead !== undefined && values['overhead-from'] !== undefined)
    throw new UsageError("--overhead and --overhead-from both set the fixed cost per shard: give one; see 'shardwise plan --help'");
  const opts = {};
  for (const [flag, key] of [...(auto ? [] : [['shards', 'shardCount']]), ['workers', 'workers'], ['overhead', 'perShardOverheadMs'], ['default', 'defaultDurationMs']]) {
    const value = number('plan', values, flag);
    if (value !== undefined) opts[key] = value;
  }
  if (values.unit !== undefined) opts.unit = values.unit;
  if (values.environment !== undefined) opts.environment = /^\d+$/.test(values.environment) ? Number(values.environment) : values.environment;

  let { reportFile, content, shards } = readInput(input);
  // the report as read (a Jest or Vitest one plans as its files, `read.content`)
  const { report } = content;
  const read = report ? await asTheRunnerPlans(content, opts, values) : undefined;
  if (read) content = read.content;
  if (auto) return recommendCount({ values, opts, reportFile, content, report, read, shards });
  const plan = planOf(reportFile, { ...opts, ...content });
  if (values.json) console.log(JSON.stringify(plan, null, 2));
  else console.log(`${formatPlan(plan, read?.label ?? (content.report ? 'tests' : 'units'))}${read ? `\n${read.lines.join('\n')}` : ''}`);
  return 0;
}

/**
 * A report planned as its runner plans it (see HELP): its costs, workers and unit, each unless a
 * flag says otherwise (`opts` changed in place). Returns the content to plan (a Jest or Vitest
 * report: its files as units, as the runners' sequencers make them), the unit label, and the
 * lines saying what was read.
 */
async function asTheRunnerPlans(content, opts, values) {
  let run;
  try {
    run = planAsRun(content.report, api, { environment: opts.environment });
  } catch {
    return undefined; // not a report: planShards says what is wrong with it
  }
  const { learned } = run;
  const lines = [];
  if (values['bodies-only']) {
    lines.push('costs        none (--bodies-only): the tests\' own durations only');
  } else {
    opts.costs = run.costs;
    if (opts.perShardOverheadMs === undefined && !values.shards?.startsWith('auto')) opts.perShardOverheadMs = run.perShardOverheadMs;
    const c = run.costs;
    const measured = learned.measuredFiles ? `${plural(learned.measuredFiles, 'file')} measured, others ` : '';
    lines.push(`costs        ${learned.source}: start-up ${fmtMs(opts.perShardOverheadMs ?? run.perShardOverheadMs)} a shard`
      + `${c.perWorkerMs ? `, ${fmtMs(c.perWorkerMs)} a worker` : ''}${c.coldMs ? `, up to ${fmtMs(c.coldMs)} of cold transforms` : ''}, ${measured}${fmtMs(c.perFileMs)} a file + ${fmtMs(c.perTestMs)} a test`
      + (c.starts ?? []).map((st) => `; ${st.id}: ${fmtMs(st.durationMs)} on a shard that runs one of its ${plural(st.files?.length ?? 0, 'file')}`).join(''));
  }
  if (opts.workers === undefined && run.workers) {
    opts.workers = run.workers;
    lines.push(`workers      ${run.workers}, as the report's run had (--workers to change)`);
  }
  if (learned.runner === 'playwright') {
    // this plan's units are the report's tests by file and title, each project's run of a test
    // summed; a shard's are Playwright's (each test per project, its serial groups, its setup
    // projects apart), so its plan and fingerprint are not this one's
    lines.push('note         a Playwright shard plans each test per project, keeps serial groups whole and its setup projects apart:'
      + ' its plan and fingerprint are not this one\'s; `npx playwright test --shard=i/n --list` shows the shard\'s own');
  }
  // `--unit file` is what the runner does anyway: its files as its sequencer makes them (each
  // file's tests summed before rounding), not the report's tests kept together by file, where
  // each sub-millisecond test would count a whole millisecond
  if ((values.unit === undefined || values.unit === 'file') && run.fileUnits) {
    delete opts.unit; // each unit is a file already, as the shards plan them
    lines.push(`unit         file: ${learned.runner} runs each file whole on one shard (--unit test to split them)`);
    const units = run.fileUnits();
    // as a shard decides (Rust plan::cost::charges_modules): a small cold cost is charged by
    // each shard's number of files, without reading the modules
    if (api.__chargesModules(opts.costs?.coldMs ?? 0)) lines.push(await withModules(opts, units, learned.runner === 'jest' ? values['jest-config'] : undefined));
    else if (opts.costs?.coldMs > 0) lines.push(`modules      not read: a cold cost of ${fmtMs(opts.costs.coldMs)} is too small to share out by module (the shards do not read them either): each shard is charged it by its number of files`);
    return { content: { units }, label: 'units', lines };
  }
  return { content, lines };
}

/**
 * The suite's own modules the report's files load, read from the checkout this runs in (its git
 * root, else the working directory), as a Jest shard reads them (`suiteModules`): the cold cost is
 * shared out over them (`opts.costs.modules`). Returns the line saying what was read.
 */
async function withModules(opts, units, jestConfig) {
  const { root } = gitInfo(process.cwd());
  const here = units.filter((u) => existsSync(path.join(root, u.file))).map((u) => ({ ...u, path: path.join(root, u.file) }));
  const maps = here.length ? await jestMaps(root, jestConfig) : {};
  const { modules, bytes } = here.length ? suiteModules({ api, units: here, root, aliases: maps.aliases }) : { modules: [] };
  const mapped = maps.aliases ? `, with the names ${maps.from} maps` : maps.why ? ` (${maps.why}: relative imports only)` : '';
  if (!modules.length) {
    return `modules      none read: ${here.length ? `the report's files load none of the suite's own${mapped}` : `none of the report's files is in ${root}`} (a shard charges the cold cost by its number of files then; run this in the shards' checkout to plan as they did)`;
  }
  opts.costs = { ...opts.costs, modules };
  return `modules      ${plural(modules.length, 'module')} of the suite's own (${Math.round(bytes / 1024)} KB) that ${plural(here.length, 'file')} of ${root} load${mapped}: each shard pays the cold cost's share of those its files load`;
}

/**
 * The names the checkout's Jest configuration maps to files (`jestAliases`), read as Jest reads
 * it (its `jest-config`, from the checkout): the one Jest finds in `root`, or `configFile`
 * (`--jest-config`, a shard run with `--config`). `{aliases, from}`, or `{why}` it was not read
 * (a checkout without Jest's configuration reader maps nothing either way); `{}` for a
 * configuration that maps no name.
 */
async function jestMaps(root, configFile) {
  let jestConfig;
  try {
    jestConfig = createRequire(path.join(root, 'package.json'))('jest-config');
  } catch {
    return configFile ? { why: `--jest-config: jest-config is not installed in ${root}` } : {};
  }
  try {
    const { configs } = await jestConfig.readConfigs({ _: [], $0: 'jest', ...(configFile ? { config: path.resolve(configFile) } : {}) }, [root]);
    const aliases = jestAliases(configs);
    return aliases ? { aliases, from: configFile ?? "the checkout's Jest configuration" } : {};
  } catch (e) {
    return { why: `its Jest configuration did not load: ${String(e?.message ?? e).split('\n').find((l) => l.trim()) ?? 'an error'}` };
  }
}

/** `--shards auto`: every count up to --max-shards with the fixed cost, and the one chosen. */
function recommendCount({ values, opts, reportFile, content, report, read, shards }) {
  const maxShards = number('plan', values, 'max-shards') ?? 16;
  const budget = budgetOf(values.budget ?? '1.5x');
  // a sharded run's folder: each shard's wall time tells the fixed cost (the merged one has none)
  const own = shards ? shards.map((s) => ({ reportFile: s.reportFile, report: __readJson(s.bytes) })) : report ? [{ reportFile, report }] : [];
  const reports = [...own, ...(values['overhead-from'] ?? []).map((f) => {
    if (!existsSync(f)) throw new UsageError(`${f} does not exist`);
    const r = readInput(f);
    if (!r.content.report) throw inFile(r.reportFile, new api.ShardwiseError('a units list has no wall time: give a past run\'s report', { code: 'INVALID_INPUT' }));
    return { reportFile: r.reportFile, report: r.content.report };
  })];
  const cost = fixedCost(opts.perShardOverheadMs, reports);
  let r;
  try {
    r = __recommendShards({ ...opts, ...content }, maxShards, budget.ratio ?? NaN, budget.ms ?? NaN, new BigUint64Array((cost.each ?? []).map(BigInt)));
  } catch (e) {
    throw /^planShards options: (report|units)/.test(e?.message ?? '') ? inFile(reportFile, e) : e;
  }
  if (values.matrix) {
    console.log(JSON.stringify({ shardIndex: Array.from({ length: r.shards }, (_, i) => i + 1), shardTotal: [r.shards] }));
  } else {
    console.log(values.json ? JSON.stringify({ ...r, fixedCost: cost }, null, 2) : `${formatRecommendation(r, cost, budget)}${read ? `\n${read.lines.join('\n')}` : ''}`);
  }
  return 0;
}
