// `shardwise durations --tests <saved report> --out <timings file>`: asks the service for predicted
// durations of a test list and saves them as a timings file (format: src/runner/timings.mjs).
import { existsSync, writeFileSync } from 'node:fs';
import * as api from '../node.mjs';
import { readSaved } from '../src/runner/report.mjs';
import { inFile } from './files.mjs';
import { parse, required, UsageError } from './args.mjs';
import { resolveOptions, gitInfo } from '../src/runner/options.mjs';
import { testListFrom, durationsFromReport } from '../src/runner/timings.mjs';
import { progress } from '../src/runner/progress.mjs';
import { plural } from '../src/runner/words.mjs';

export const HELP = `Usage: shardwise durations --tests <folder | report file> --out <file> [options]

Fetches predicted durations for the tests of a saved report (a reporter's output folder or any
report file) and saves them as a timings file for the reporters' and sequencers' timingsFile
option. A timings file is a shardwise report document whose attempts carry the predicted
durations; it is written as JSON, or Brotli JSON when --out ends with .br.

Options:
  --tests <path>          the test list: a saved report folder or report file (required)
  --out <file>            where to save the timings file (required)
  --base-url <url>        the service root (default: SHARDWISE_BASE_URL)
  --access-token <tok>    the access token (default: SHARDWISE_ACCESS_TOKEN)
  --commit <sha>          the commit under test (default: CI variables, then git HEAD)
  --run-id <id>           an id equal on every shard of the CI run (default: CI variables)
  -h, --help              this help`;

export async function run(argv) {
  const { values, positionals } = parse('durations', argv, {
    tests: { type: 'string' }, out: { type: 'string' }, 'base-url': { type: 'string' }, 'access-token': { type: 'string' },
    commit: { type: 'string' }, 'run-id': { type: 'string' }, help: { type: 'boolean', short: 'h' },
  });
  if (values.help) { console.log(HELP); return 0; }
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'; see 'shardwise durations --help'`);
  required('durations', values.tests, '--tests <folder | report file>');
  required('durations', values.out, '--out <file>');
  if (!existsSync(values.tests)) throw new UsageError(`${values.tests} does not exist`);
  const options = resolveOptions({ baseUrl: values['base-url'], accessToken: values['access-token'], commitId: values.commit, runId: values['run-id'] });
  if (!options.baseUrl || !options.accessToken)
    throw new UsageError('set --base-url and --access-token (or SHARDWISE_BASE_URL and SHARDWISE_ACCESS_TOKEN)');
  const commitId = options.commitId ?? gitInfo(process.cwd()).commitId;
  if (!commitId) throw new UsageError('no commit id (not a git checkout): pass --commit');
  const { reportFile, bytes: savedBytes } = readSaved(values.tests);
  let saved;
  try {
    saved = api.decodeReport(savedBytes);
  } catch (e) {
    throw inFile(reportFile, e);
  }
  const testList = testListFrom({ ...saved, commitId });
  const key = { commitId, testRunner: saved.category };
  if (options.runId) key.runId = options.runId;
  const p = progress();
  let annotated;
  try {
    annotated = await api.fetchDurations({
      baseUrl: options.baseUrl, accessToken: options.accessToken, commitId, shardGroupKey: api.shardGroupKeyFor(key),
      report: testList, ...(p.onEvent ? { onEvent: p.onEvent } : {}),
    });
  } finally {
    p.done();
  }
  const bytes = values.out.endsWith('.br') ? api.encodeReport(annotated) : new TextEncoder().encode(JSON.stringify(annotated));
  writeFileSync(values.out, bytes);
  const known = new Set(durationsFromReport(annotated, api).map((d) => JSON.stringify([d.file, ...d.titlePath]))).size;
  console.log(`saved ${values.out}: predicted durations for ${plural(known, 'test')}`);
  return 0;
}
