// Reports at the sizes real suites have, through every entry point that reads "Brotli or JSON"
// bytes (issue 18): decodeReport, uploadReport's report bytes, the durations download, the
// runners' timings files, and the CLI's plan, durations and upload. Before the one rule
// (Rust report::read_json), a Brotli stream whose first byte was `[` (a report of about 343
// tests and more at the service's window) was taken for broken JSON everywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { brotliCompressSync, constants as zc } from 'node:zlib';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeReport, encodeReport, compress, uploadReport, fetchDurations, planShards, validateReport } from 'shardwise';
import * as shardwise from 'shardwise';
import { Schema } from '@flakiness/flakiness-report';
import { createServer } from '../pkg/server/index.mjs';
import { readTimingsFile, readTimings } from '../pkg/src/runner/durations.mjs';
import { savedReports } from '../pkg/src/runner/report.mjs';
import { durationsSource } from '../pkg/src/runner/durations.mjs';
import { durationsFromReport, costsFromReport, durationsByFile, rerunFiles, rerunSelection } from '../pkg/src/runner/timings.mjs';
import { runRows, reportDocument, COMMIT } from './helpers/reports.mjs';
import { rng } from './helpers/data.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'pkg', 'bin', 'shardwise.mjs');
const tmp = () => mkdtempSync(path.join(tmpdir(), 'shardwise-sizes-'));
const enc = (s) => new TextEncoder().encode(s);
const reportOf = (n, seed = 5) => reportDocument(runRows(n, seed), `run of ${n} tests`);
const zlibBrotli = (bytes, quality = 9, lgwin = 22) => new Uint8Array(brotliCompressSync(bytes, {
  params: { [zc.BROTLI_PARAM_QUALITY]: quality, [zc.BROTLI_PARAM_LGWIN]: lgwin, [zc.BROTLI_PARAM_SIZE_HINT]: bytes.length },
}));
/** Runs the CLI as a process, without blocking this one (the local service answers from here). */
const cli = (args, env = {}) => new Promise((resolve) => {
  execFile(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 << 20 }, (e, stdout, stderr) => {
    resolve({ status: e ? e.code : 0, stdout, stderr });
  });
});
const units = (plan) => plan.shards.reduce((n, s) => n + s.units.length, 0);

/** The smallest report from `from` tests whose encoding by `encode` begins with `byte`. */
function leadingByte(byte, encode, from = 300) {
  for (let n = from; n < from + 3000; n += 1) {
    const report = reportOf(n);
    const bytes = encode(enc(JSON.stringify(report)), report);
    if (bytes[0] === byte) return { n, report, bytes };
  }
  throw new Error(`no report from ${from} tests encodes to a stream beginning with ${String.fromCharCode(byte)}`);
}

test('a Brotli report whose stream begins with `[` reads back, from compress and from Node zlib', () => {
  // at the service's window (lgwin 22, compress's default) a one-meta-block stream of 64 KiB to
  // 1 MiB of JSON begins with `[`; encodeReport picks the smallest window that holds the text, so
  // its streams begin otherwise
  const ours = leadingByte(0x5b, (json) => compress(json));
  assert.notEqual(encodeReport(ours.report)[0], 0x5b);
  assert.deepEqual(decodeReport(encodeReport(ours.report)), ours.report);
  assert.ok(JSON.stringify(ours.report).length > 64 * 1024, 'above 64 KiB of JSON');
  assert.deepEqual(decodeReport(ours.bytes), ours.report);
  const node = leadingByte(0x5b, (json) => zlibBrotli(json));
  assert.deepEqual(decodeReport(node.bytes), node.report);
  // `{` never begins a valid stream (the header says: last meta-block, empty, non-zero padding):
  // bytes that begin with it are plain JSON, or neither
  assert.deepEqual(decodeReport(enc(JSON.stringify(ours.report))), ours.report);
});

test('reports of 0 to 20,000 tests, at every quality and window, plain or Brotli (ours and zlib), read back through every reader', async (t) => {
  const r = rng(20261125);
  const sizes = [0, 1, 342, 343, 344, 700, 1000, 5000, 20000];
  for (let i = 0; i < 9; i++) sizes.push(Math.floor(r() ** 2 * 20000));
  const dir = tmp();
  let cases = 0;
  for (const n of sizes) {
    const report = reportOf(n, n + 1);
    const json = enc(JSON.stringify(report));
    const quality = Math.floor(r() * 12);
    const lgwin = 10 + Math.floor(r() * 15);
    // quality 10 and 11 take seconds a megabyte: the largest sizes get them from zlib only
    const forms = [
      ['plain JSON', json],
      [`ours q${quality} w${lgwin}`, quality >= 10 && json.length > 2e6 ? compress(json, { quality: 9, lgwin }) : compress(json, { quality, lgwin })],
      [`zlib q${quality} w${lgwin}`, zlibBrotli(json, quality >= 10 && json.length > 4e6 ? 9 : quality, lgwin)],
      ['encodeReport', encodeReport(report)],
    ];
    for (const [form, bytes] of forms) {
      const what = `${n} tests, ${form} (first byte 0x${bytes[0]?.toString(16)})`;
      assert.deepEqual(decodeReport(bytes), report, what);
      const file = path.join(dir, `t${cases}.json${form === 'plain JSON' ? '' : '.br'}`);
      writeFileSync(file, bytes);
      const read = readTimingsFile(file, shardwise);
      assert.deepEqual(read, report, `timings file: ${what}`);
      if (form === 'encodeReport') {
        // read once for a shard's plan (__readTimings): the durations and costs of the report apart
        assert.deepEqual(durationsFromReport(read, shardwise), shardwise.__testDurations(report), `timings file's durations: ${what}`);
        assert.deepEqual(costsFromReport(read, shardwise), shardwise.shardCosts(report), `timings file's costs: ${what}`);
        // a file runner's read (its durations summed by file): what the whole read gives a file
        // runner, and the report itself alike
        const byFile = readTimingsFile(file, shardwise, { byFile: true });
        assert.deepEqual(byFile, report, `timings file read by file: ${what}`);
        assert.deepEqual(durationsByFile(byFile, shardwise), durationsByFile(read, shardwise), `by file: ${what}`);
        for (const flaky of [false, true])
          assert.deepEqual(rerunFiles(byFile, shardwise, { flaky }), rerunSelection(read, shardwise, { flaky }).files, `re-run's files: ${what}`);
        assert.deepEqual(costsFromReport(byFile, shardwise), costsFromReport(read, shardwise), `by file, costs: ${what}`);
        // asked for each test, a by-file read works them out
        assert.deepEqual(durationsFromReport(byFile, shardwise), durationsFromReport(read, shardwise), `by file, each test: ${what}`);
      }
      cases += 1;
    }
  }
  t.diagnostic(`${cases} encodings of ${sizes.length} sizes (${Math.max(...sizes)} tests at most)`);
});

test('uploadReport of large report bytes, and fetchDurations of a 20,000-test list, against the local service', async (t) => {
  const service = await createServer({ computeDelayMs: 0 });
  t.after(() => service.close());
  const base = { baseUrl: service.baseUrl, accessToken: service.accessToken };
  const ours = leadingByte(0x5b, (json) => compress(json));
  for (const bytes of [ours.bytes, zlibBrotli(enc(JSON.stringify(reportOf(20000)))), enc(JSON.stringify(reportOf(3000)))]) {
    const r = await uploadReport({ ...base, report: bytes });
    assert.ok(r.reportUrl.startsWith(service.baseUrl), JSON.stringify(r));
  }
  // the annotated report the service sends back is Brotli of several MB
  const big = reportOf(20000);
  const list = JSON.parse(JSON.stringify(big, (k, v) => (k === 'attempts' ? [] : v)));
  const annotated = await fetchDurations({ ...base, commitId: COMMIT, shardGroupKey: 'sizes-20000', report: list, timeoutMs: 60_000 });
  assert.equal(annotated.suites.reduce((n, s) => n + s.suites.reduce((m, d) => m + d.tests.length, 0), 0), 20000);
  const plan = planShards({ report: annotated, shardCount: 8 });
  assert.equal(units(plan), 20000);
  assert.equal(plan.estimated, 0, 'every test was predicted from the uploads');
});

test('the runners\' timings file: a Brotli report beginning with `[` gives durations, not the estimate-only fallback', async () => {
  const dir = tmp();
  const ours = leadingByte(0x5b, (json) => compress(json));
  const file = path.join(dir, 'report.json.br');
  writeFileSync(file, ours.bytes);
  const get = durationsSource({
    api: shardwise, options: { timingsFile: file }, cwd: dir, testRunner: 'jest',
    testList: () => assert.fail('a timings file needs no test list'), lookup: () => () => 1,
  });
  const d = await get();
  assert.match(d.source, /^timings file /);
});

test('the CLI plans, fetches durations for and uploads large saved reports; one wording for bytes that are neither', async (t) => {
  const service = await createServer({ computeDelayMs: 0 });
  t.after(() => service.close());
  const env = { SHARDWISE_BASE_URL: service.baseUrl, SHARDWISE_ACCESS_TOKEN: service.accessToken, SHARDWISE_COMMIT_ID: COMMIT };
  const dir = tmp();
  const ours = leadingByte(0x5b, (json) => compress(json));
  const folder = path.join(dir, 'shardwise-report');
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'report.json.br'), ours.bytes);
  writeFileSync(path.join(folder, 'attachments.json'), '[]');
  const big = path.join(dir, 'big.json.br');
  writeFileSync(big, encodeReport(reportOf(20000)));

  const plan = await cli(['plan', folder, '--shards', '4', '--json']);
  assert.equal(plan.status, 0, plan.stderr);
  assert.equal(units(JSON.parse(plan.stdout)), ours.n);
  const plan20k = await cli(['plan', big, '--shards', '16']);
  assert.equal(plan20k.status, 0, plan20k.stderr);
  assert.match(plan20k.stdout, /estimated {4}0 of 20000 tests had no prediction/);
  const upload = await cli(['upload', folder], env);
  assert.equal(upload.status, 0, upload.stderr);
  assert.match(upload.stdout, /^uploaded .*report\.json\.br: http/);
  const out = path.join(dir, 'timings.json');
  const durations = await cli(['durations', '--tests', folder, '--out', out], env);
  assert.equal(durations.status, 0, durations.stderr);
  assert.match(durations.stdout, new RegExp(`predicted durations for ${ours.n} tests`));

  // bytes that are neither: the same code and wording from plan, durations and upload; the
  // file's bytes never printed
  const secret = 'do-not-print-me-0123456789';
  for (const [name, bytes] of [['garbage.json', enc(`hello ${secret}`)], ['cut.json', enc(`{"category": "${secret}`)], ['cut.json.br', ours.bytes.subarray(0, 5000)]]) {
    const f = path.join(dir, name);
    writeFileSync(f, bytes);
    const runs = [await cli(['plan', f, '--shards', '2']), await cli(['durations', '--tests', f, '--out', path.join(dir, 'x.json')], env), await cli(['upload', f], env)];
    const lines = runs.map((r) => { assert.equal(r.status, 1, r.stderr); return r.stderr.trim(); });
    for (const line of lines) {
      assert.ok(!line.includes(secret), line);
      assert.ok(!line.includes('\n') && !/\n\s+at /.test(line), `one line, no stack: ${line}`);
      assert.ok(line.includes(f), `names the file: ${line}`);
    }
    const wording = lines.map((l) => l.replace(/^shardwise \w+: /, '').replace(f, 'FILE').replace('report: ', ''));
    assert.equal(new Set(wording).size, 1, `one wording:\n${lines.join('\n')}`);
    assert.match(wording[0], name.endsWith('.br') ? /^BROTLI_CORRUPT: FILE: the bytes are Brotli-compressed JSON, but the stream is damaged/ : /^INVALID_INPUT: FILE: the bytes are neither Brotli-compressed JSON \(.*\) nor plain JSON \(.*\)$/);
  }
  // an object that is not a report is refused by plan, as by upload
  const notReport = path.join(dir, 'not-a-report.json');
  writeFileSync(notReport, '{"a": 1}');
  const refused = await cli(['plan', notReport, '--shards', '2']);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /^shardwise plan: INVALID_INPUT: .*not-a-report\.json: planShards options: report: missing field `environments`/);
  assert.equal((await cli(['upload', notReport], env)).status, 1);
});

test('a saved report of 20,000 tests is valid by both rule sets once read back', () => {
  const report = reportOf(20000);
  const back = decodeReport(encodeReport(report));
  assert.deepEqual(validateReport(back), []);
  assert.ok(Schema.Report.safeParse(back).success);
});

test('a timings folder of several sharded runs of 6,000 tests: each test at its mean over the runs, once, 0 ms tests known; plan reads it so', async () => {
  const dir = tmp();
  // every seventh test took 0 ms (Vitest's and Jest's sub-millisecond tests): a duration all the
  // same, which the merged document writes by leaving it out (`duration` default 0)
  const rows = runRows(6000, 9).map((row, i) => (i % 7 ? row : { ...row, attempts: row.attempts.map((a) => ({ ...a, duration: 0 })) }));
  // the second run took each test 1x to 3x as long as the first (one run's noise), the third
  // ran only the first half of the files (a test one run lacked counts over the runs that had it)
  const scale = (i) => 1 + (i % 3);
  const runs = [
    rows,
    rows.map((row, i) => ({ ...row, attempts: row.attempts.map((a) => ({ ...a, duration: a.duration * scale(i) })) })),
    rows.filter((row) => row.file < 'tests/m'),
  ];
  runs.forEach((run, r) => {
    const files = [...new Set(run.map((row) => row.file))].sort();
    [0, 1].forEach((s) => {
      const mine = new Set(files.filter((_, i) => i % 2 === s));
      const folder = path.join(dir, `run-${r + 1}`, `shard-${s + 1}-of-2`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, 'report.json.br'), encodeReport(reportDocument(run.filter((row) => mine.has(row.file)), `run ${r + 1} shard ${s + 1}`)));
    });
  });
  const { report, reports, runs: read } = readTimings(dir, shardwise);
  assert.deepEqual([reports, read], [6, 3]);
  // each test (per environment) once, at the mean of its sums in the runs that had it
  const sums = new Map();
  runs.forEach((run) => run.forEach((row) => {
    for (const a of row.attempts) {
      const k = `${row.file} ${row.titlePath.join(' ')} ${a.environmentIdx ?? 0}`;
      const runsOf = sums.get(k) ?? new Map();
      runsOf.set(run, (runsOf.get(run) ?? 0) + a.duration);
      sums.set(k, runsOf);
    }
  }));
  const got = new Map();
  for (const file of report.suites) for (const d of file.suites) for (const t of d.tests) {
    for (const a of t.attempts) {
      const k = `${file.title} ${d.title} ${t.title} ${a.environmentIdx ?? 0}`;
      got.set(k, [...(got.get(k) ?? []), a.duration]);
    }
  }
  assert.equal(got.size, sums.size);
  for (const [k, runsOf] of sums) {
    const mean = [...runsOf.values()].reduce((s, x) => s + x, 0) / runsOf.size;
    const total = got.get(k).reduce((s, x) => s + (x ?? 0), 0);
    assert.ok(Math.abs(total - mean) <= got.get(k).length, `${k}: ${total} against the mean ${mean}`);
  }
  // read in one call to the wasm (`__readTimingsRuns`), as when each report was decoded to an
  // object, merged (`__mergeRuns`) and the merged one read (`__timingsOf`): the same document,
  // durations and costs; a file runner's read sums the same files
  const files = savedReports(dir).map((f) => path.join(f, 'report.json.br'));
  const merged = shardwise.__mergeRuns(files.map((f) => decodeReport(new Uint8Array(readFileSync(f)))));
  const apart = shardwise.__timingsOf(merged);
  assert.deepEqual(report, merged);
  assert.deepEqual(durationsFromReport(report, shardwise), apart.durations);
  assert.deepEqual(costsFromReport(report, shardwise), apart.costs);
  const byFile = readTimings(dir, shardwise, { byFile: true }).report;
  assert.deepEqual(durationsByFile(byFile, shardwise), durationsByFile(merged, shardwise));
  assert.deepEqual(costsFromReport(byFile, shardwise), apart.costs);
  // the CLI's plan of the folder: every test once
  const plan = await cli(['plan', dir, '--shards', '4', '--json']);
  assert.equal(plan.status, 0, plan.stderr);
  assert.equal(units(JSON.parse(plan.stdout)), 6000);
  assert.equal(JSON.parse(plan.stdout).estimated, 0, 'a 0 ms test has its duration');
});
