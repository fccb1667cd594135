// `shardwise upload <folder | report file>`: re-uploads a saved report (the recovery path when CI
// could not reach the service). The folder layout is the one src/runner/report.mjs writes.
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as api from '../node.mjs';
import { uploadedBefore, recordUpload } from '../src/runner/uploaded.mjs';
import { readSaved } from '../src/runner/report.mjs';
import { inFile, reportTargets } from './files.mjs';
import { parse, required, number, UsageError } from './args.mjs';
import { resolveOptions } from '../src/runner/options.mjs';
import { progress } from '../src/runner/progress.mjs';
import { plural } from '../src/runner/words.mjs';

export const HELP = `Usage: shardwise upload <folder | report file> [options]

Uploads a report saved by a shardwise reporter: a folder with report.json.br, attachments/ and
attachments.json, or a report file (.json or .json.br; with the attachments saved beside it when
its folder has attachments.json).

A sharded run's folder (the reporter's outputFolder, holding shard-<i>-of-<n>/ folders, or where
CI downloaded each shard's artifacts) uploads every report found below it, one after another,
shards in order: each is a report of its own in the service, as the shards would have uploaded
them. Name one shard's folder to upload only that one. The exit code is 1 when any failed.

A report uploaded before to the same service (recorded in uploaded.json beside it, by the reporter
or by this command) is not uploaded again: its link is printed (--again uploads it once more).

Options:
  --base-url <url>       the service root (default: SHARDWISE_BASE_URL)
  --access-token <tok>   the access token (default: SHARDWISE_ACCESS_TOKEN)
  --concurrency <n>      parallel attachment uploads (default: adaptive, 8 to 64)
  --again                upload even when this report was uploaded to this service before
  -h, --help             this help`;

export async function run(argv) {
  const { values, positionals } = parse('upload', argv, {
    'base-url': { type: 'string' }, 'access-token': { type: 'string' }, concurrency: { type: 'string' }, again: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
  });
  if (values.help) { console.log(HELP); return 0; }
  required('upload', positionals[0], '<folder | report file>');
  if (positionals.length > 1) throw new UsageError(`one report at a time, got ${positionals.length}; see 'shardwise upload --help'`);
  const target = positionals[0];
  if (!existsSync(target)) throw new UsageError(`${target} does not exist`);
  const concurrency = number('upload', values, 'concurrency');
  const options = resolveOptions({ baseUrl: values['base-url'], accessToken: values['access-token'] });
  if (!options.baseUrl || !options.accessToken)
    throw new UsageError('set --base-url and --access-token (or SHARDWISE_BASE_URL and SHARDWISE_ACCESS_TOKEN)');
  const targets = reportTargets(target);
  let failed = 0;
  let there = 0;
  for (const t of targets) {
    try {
      if (await uploadOne(t, { options, concurrency, again: values.again }) === 'already') there++;
    } catch (e) {
      if (targets.length === 1) throw e;
      failed++;
      const message = String(e?.message ?? e);
      console.error(`shardwise upload: ${e?.code ? `${e.code}: ` : ''}${message.includes(t) ? '' : `${t}: `}${message}`);
    }
  }
  if (targets.length > 1) console.log(`${targets.length - failed} of ${plural(targets.length, 'report')} uploaded${there ? ` (${there} of them before)` : ''}${failed ? `; ${failed} failed (above): upload ${failed === 1 ? 'its folder' : 'their folders'} again` : ''}`);
  return failed ? 1 : 0;
}

async function uploadOne(target, { options, concurrency, again }) {
  const saved = readSaved(target);
  const folder = path.dirname(saved.reportFile);
  const before = again ? undefined : uploadedBefore(folder, { baseUrl: options.baseUrl, bytes: saved.bytes });
  if (before) {
    console.log(`already uploaded ${saved.reportFile} to ${before.service} (${before.at}): ${before.reportUrl} (--again uploads it once more)`);
    return 'already';
  }
  const p = progress(process.stderr, { attachments: saved.attachments.length });
  try {
    const r = await api.uploadReport({
      baseUrl: options.baseUrl, accessToken: options.accessToken, report: saved.bytes, attachments: saved.attachments,
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(p.onEvent ? { onEvent: p.onEvent } : {}),
    });
    p.done();
    recordUpload(folder, { baseUrl: options.baseUrl, bytes: saved.bytes, reportUrl: r.reportUrl });
    console.log(`uploaded ${saved.reportFile}: ${r.reportUrl} (${plural(r.attachments, 'attachment')}, ${plural(r.bytes, 'byte')})`);
    return 'uploaded';
  } catch (e) {
    // the report refused before any request: a problem of the saved file
    throw e?.step === undefined && String(e?.message).startsWith('report: ') ? inFile(saved.reportFile, e) : e;
  } finally {
    p.done();
  }
}
