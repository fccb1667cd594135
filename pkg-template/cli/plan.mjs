// `shardwise plan <report | timings file | units.json> --shards N`: plans shards with `planShards`
// (Rust decides everything; this file reads the input and prints) and shows the plan as a table
// or as JSON.
import { existsSync } from 'node:fs';
import * as api from '../node.mjs';
import { __readJson } from '../wasm/shardwise.js';
import { readSaved } from '../src/runner/report.mjs';
import { inFile } from './files.mjs';
import { parse, required, number, UsageError } from './args.mjs';
import { fmtMs } from '../src/runner/plan.mjs';

export const HELP = `Usage: shardwise plan <input> --shards N [options]

Splits the tests of <input> into N shards of equal predicted duration and prints the plan: one
row per shard (predicted time, units, files), then the makespan (the slowest shard), the lower
bound no plan can beat, how many units had no prediction (estimated), and the fingerprint every
shard of a run can print to show they computed the same plan.

<input> is one of:
  - a report or timings file, JSON or Brotli JSON (report.json, report.json.br, the output of
    'shardwise durations'), or a reporter's saved report folder: each test's predicted duration
    is the sum of its attempts' durations (in one environment with --environment);
  - a JSON array of units [{"id": "...", "file"?: "...", "group"?: "...", "durationMs"?: n}].

Options:
  --shards <N>          how many shards (required)
  --unit <test|file>    test: tests may be split across shards (default); file: each file
                        stays on one shard
  --environment <E>     use the predictions of environment E (a name, or an index when a whole
                        number); default: every environment's summed (report input only)
  --workers <W>         parallel workers inside one shard (default 1)
  --overhead <MS>       a fixed start-up cost of each shard, in ms (default 0)
  --default <MS>        the estimate for a unit when nothing is known (default 1000)
  --json                print the plan as JSON (the value planShards returns)
  -h, --help            this help`;

/**
 * The input file's content, `{report}` or `{units}`, read by the rule every reader of reports
 * follows (Rust `report::read_json`: Brotli-compressed JSON or plain JSON), and the file read.
 */
function readInput(target) {
  const { reportFile, bytes } = readSaved(target);
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

export async function run(argv) {
  const { values, positionals } = parse('plan', argv, {
    shards: { type: 'string' }, unit: { type: 'string' }, environment: { type: 'string' },
    workers: { type: 'string' }, overhead: { type: 'string' }, default: { type: 'string' },
    json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
  });
  if (values.help) { console.log(HELP); return 0; }
  required('plan', positionals[0], '<input> (a report, a saved report folder or a units file)');
  if (positionals.length > 1) throw new UsageError(`one <input> at a time, got ${positionals.length}; see 'shardwise plan --help'`);
  required('plan', values.shards, '--shards <N>');
  const [input] = positionals;
  if (!existsSync(input)) throw new UsageError(`${input} does not exist`);

  const opts = {};
  for (const [flag, key] of [['shards', 'shardCount'], ['workers', 'workers'], ['overhead', 'perShardOverheadMs'], ['default', 'defaultDurationMs']]) {
    const value = number('plan', values, flag);
    if (value !== undefined) opts[key] = value;
  }
  if (values.unit !== undefined) opts.unit = values.unit;
  if (values.environment !== undefined) opts.environment = /^\d+$/.test(values.environment) ? Number(values.environment) : values.environment;

  const { reportFile, content } = readInput(input);
  const plan = planOf(reportFile, { ...opts, ...content });
  console.log(values.json ? JSON.stringify(plan, null, 2) : formatPlan(plan, content.report ? 'tests' : 'units'));
  return 0;
}
