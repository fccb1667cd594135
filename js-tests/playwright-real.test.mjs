// Real Playwright runs with what real suites have (issue 18), each check made the way a user
// would make it: the reporter in a Playwright config, the `shardwise` CLI, the timings file, the
// preview page in headless Chromium. Playwright's own JSON reporter, in the same run, is the oracle.
//
// 1. A 1,040-test suite (fixtures/playwright-real/big-suite.mjs, generated into a git repository
//    of its own under .out/) round-trips: saved, decoded, uploaded by the reporter and again by
//    `shardwise upload`, planned from as a timings file and by `shardwise plan`, predicted by
//    `shardwise durations`, opened by the preview. Its report is ~430 KB of JSON, so its Brotli
//    stream begins with `[`: before issue 18's fix every one of these failed above ~340 tests.
// 2. Field by field: a small project using the browser (fixtures/playwright-real/fields/) whose
//    saved report is compared with Playwright's JSON for every test and every attempt.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import * as api from 'shardwise';
import { createServer } from '../pkg/server/index.mjs';
import { launchChromium } from './helpers/chromium.mjs';
import { runPlaywright, killRuns } from '../scripts/lib/playwright-runs.mjs';
import { generateBigSuite } from './fixtures/playwright-real/big-suite.mjs';

/** The window (lgwin) a Brotli stream's first byte declares (RFC 7932 section 9.1, WBITS). */
function windowBits(byte) {
  if ((byte & 1) === 0) return 16;
  const n = (byte >> 1) & 7;
  if (n !== 0) return 17 + n;
  const m = (byte >> 4) & 7;
  return m === 0 ? 17 : 8 + m;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PKG = path.join(ROOT, 'pkg');
const CLI = path.join(PKG, 'bin', 'shardwise.mjs');
const OUT = path.join(ROOT, 'js-tests', '.out', 'playwright-real');
const FIELDS = path.join(ROOT, 'js-tests', 'fixtures', 'playwright-real', 'fields');

/**
 * runPlaywright sets FORCE_COLOR=0 and NO_COLOR=1; with both, Node warns on a worker's stderr
 * during the first test that prints, and Playwright records the warning as that test's output.
 * Unset NO_COLOR (undefined: left out of the child's environment) so a test's stderr is its own.
 */
const QUIET_NODE = { NO_COLOR: undefined };

/** Lines the reporter prints when it had to leave something out: none for standard Playwright values. */
const LOSS = /left out of the report|could not be recorded|reporting stopped/;

let service;
before(async () => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  service = await createServer({ dataDir: path.join(OUT, 'service'), staticDir: PKG, computeDelayMs: 0 });
});
after(async () => {
  killRuns();
  await service?.close();
});

/** The service's address and token, as a CI job would export them. */
const serviceEnv = () => ({ SHARDWISE_BASE_URL: service.baseUrl, SHARDWISE_ACCESS_TOKEN: service.accessToken });

/** `node pkg/bin/shardwise.mjs <args>` (what `npx shardwise` runs), in `cwd`, with `env` added to a clean environment. */
function cli(args, { cwd, env = {} }) {
  const base = { ...process.env, NO_COLOR: '1' };
  for (const k of Object.keys(base)) if (k.startsWith('SHARDWISE_') || k === 'CI' || k === 'FORCE_COLOR') delete base[k];
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, env: { ...base, ...env }, maxBuffer: 64 << 20, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr, text: `${stdout}\n${stderr}` });
    });
  });
}

const posix = (p) => p.split(path.sep).join('/');

/**
 * Playwright's JSON report -> Map key -> {spec, test, file, titlePath}, where key is
 * JSON [file relative to `gitRoot`, ...describe titles, title] (one project in these fixtures).
 */
function playwrightTests(json, gitRoot) {
  const out = new Map();
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      const file = posix(path.relative(gitRoot, path.join(json.config.rootDir, spec.file)));
      for (const t of spec.tests) {
        const titlePath = [...titles, spec.title];
        const key = JSON.stringify([file, ...titlePath]);
        assert.ok(!out.has(key), `a title path twice in Playwright's JSON: ${key}`);
        out.set(key, { spec, test: t, file, titlePath });
      }
    }
    for (const s of suite.suites ?? []) walk(s, [...titles, s.title]);
  };
  for (const fileSuite of json.suites ?? []) walk({ specs: fileSuite.specs, suites: fileSuite.suites }, []);
  return out;
}

/** A shardwise report -> Map key -> {test, file, titlePath}, keys as in `playwrightTests`. */
function reportTests(report) {
  const out = new Map();
  const walk = (suite, titles, file) => {
    const isFile = suite.type === 'file';
    const f = isFile ? suite.location?.file ?? suite.title : file;
    const here = isFile ? titles : [...titles, suite.title];
    for (const t of suite.tests ?? []) {
      const key = JSON.stringify([t.location?.file ?? f, ...here, t.title]);
      assert.ok(!out.has(key), `a title path twice in the shardwise report: ${key}`);
      out.set(key, { test: t, file: t.location?.file ?? f, titlePath: [...here, t.title] });
    }
    for (const s of suite.suites ?? []) walk(s, here, f);
  };
  for (const t of report.tests ?? []) out.set(JSON.stringify([t.location?.file, t.title]), { test: t, file: t.location?.file, titlePath: [t.title] });
  for (const s of report.suites ?? []) walk(s, [], undefined);
  return out;
}

/**
 * Playwright's outcome of a test from its attempts' statuses (TestCase.outcome()): `skipped` when
 * nothing but skips, `expected` when every attempt was as expected, `unexpected` when none was,
 * else `flaky`.
 */
function outcome(attempts, expectedStatus) {
  const ran = attempts.filter((s) => s !== 'skipped' && s !== 'interrupted');
  if (!ran.length) return 'skipped';
  const failures = ran.filter((s) => s !== expectedStatus).length;
  return failures === 0 ? 'expected' : failures === ran.length ? 'unexpected' : 'flaky';
}

const countOutcomes = (outcomes) => {
  const c = { expected: 0, unexpected: 0, flaky: 0, skipped: 0 };
  for (const o of outcomes) c[o]++;
  return c;
};

/** The bytes a Playwright attachment stands for (its file, or its inline body). */
const attachmentBytes = (a) => (a.path ? readFileSync(a.path) : Buffer.from(a.body ?? '', 'base64'));

test('a 1,040-test Playwright suite round-trips: saved report, upload, CLI upload, timings file, plan, durations, preview', { timeout: 240_000 }, async (t) => {
  const dir = path.join(OUT, 'big');
  const { config, tests: declared, commitId } = generateBigSuite(dir);
  const folder = path.join(dir, 'shardwise-report');
  const reportFile = path.join(folder, 'report.json.br');

  const run = await runPlaywright({ config, json: path.join(OUT, 'big.json'), env: { ...serviceEnv(), ...QUIET_NODE }, timeoutMs: 180_000 });
  const text = run.text;
  assert.equal(run.code, 1, `one test of the fixture always fails: Playwright exits 1\n${text.slice(-3000)}`);
  assert.ok(run.json, `Playwright wrote its JSON report\n${text.slice(-3000)}`);
  assert.ok(existsSync(reportFile), `the reporter saved ${reportFile}\n${text.slice(-3000)}`);
  const stats = run.json.stats;
  assert.deepEqual({ ...stats, startTime: undefined, duration: undefined },
    // per file 22 pass (18 + 4 serial) and 4 skip (2 declared skips, a fixme, a skip at run time);
    // file 00's first test is flaky, file 01's always fails
    { startTime: undefined, duration: undefined, expected: 40 * 22 - 2, unexpected: 1, flaky: 1, skipped: 40 * 4 }, 'the fixture ran as designed');
  const expectedTests = playwrightTests(run.json, dir);
  assert.equal(expectedTests.size, declared);
  const bytes = readFileSync(reportFile);
  let report;

  await t.test('the saved report.json.br holds more than 64 KiB of JSON; decodeReport reads it; it holds every test Playwright reported', () => {
    const json = brotliDecompressSync(bytes); // Node's own Brotli, independent of the package
    assert.ok(json.length > 64 * 1024, `decoded size ${json.length} bytes`);
    // the reporter encodes in the smallest window that holds the JSON (the window bits of the
    // stream's first byte, RFC 7932 9.1); at the service's window (lgwin 22) this JSON makes a
    // stream beginning with '[' (issue 18's case: a first byte that is also JSON's), read back too
    let fitted = 10;
    while (2 ** fitted - 16 < json.length && fitted < 22) fitted += 1;
    assert.equal(windowBits(bytes[0]), fitted, `the saved stream's window, for ${json.length} bytes of JSON`);
    const wide = api.compress(new Uint8Array(json));
    assert.equal(String.fromCharCode(wide[0]), '[', `at lgwin 22 the stream begins with '['; the fixture's size must keep it so (${json.length} bytes of JSON)`);
    assert.deepEqual(api.decodeReport(wide), JSON.parse(json.toString('utf8')));
    report = api.decodeReport(new Uint8Array(bytes));
    assert.deepEqual(report, JSON.parse(json.toString('utf8')), 'decodeReport gives the JSON the stream holds');
    assert.equal(report.commitId, commitId);
    assert.deepEqual(api.validateReport(report), []);

    const inReport = reportTests(report);
    assert.deepEqual([...inReport.keys()].sort(), [...expectedTests.keys()].sort(), 'the same tests, by file and title path');
    const outcomes = [];
    for (const [key, pw] of expectedTests) {
      const attempts = inReport.get(key).test.attempts;
      assert.deepEqual(attempts.map((a) => a.status), pw.test.results.map((r) => r.status), `attempt statuses of ${key}`);
      const o = outcome(attempts.map((a) => a.status), attempts[0]?.expectedStatus ?? 'passed');
      assert.equal(o, pw.test.status, `outcome of ${key}`);
      outcomes.push(o);
    }
    assert.deepEqual(countOutcomes(outcomes), { expected: stats.expected, unexpected: stats.unexpected, flaky: stats.flaky, skipped: stats.skipped });
    assert.doesNotMatch(text, LOSS);
  });
  report ??= api.decodeReport(new Uint8Array(bytes));

  let reportId;
  await t.test('the reporter uploaded it; `shardwise upload <folder>` says so, and with --again uploads it again', async () => {
    const m = text.match(/\[shardwise\] report uploaded: (\S+)\/reports\/([^\s/]+) \((\d+) attachments?, (\d+) bytes?\)$/m);
    assert.ok(m, `the reporter's upload line\n${text.slice(-3000)}`);
    reportId = m[2];
    const saved = JSON.parse(readFileSync(path.join(folder, 'attachments.json'), 'utf8'));
    assert.equal(Number(m[3]), saved.length, 'every saved attachment uploaded');
    assert.ok(Number(m[4]) >= bytes.length, `bytes sent (the report and its attachments): ${m[4]}`);
    // the service serves a report with Content-Encoding: br, which fetch decodes
    const stored = await fetch(`${service.baseUrl}/api/reports/${reportId}/report.json.br`);
    assert.equal(stored.status, 200);
    assert.ok(Buffer.from(await stored.arrayBuffer()).equals(brotliDecompressSync(bytes)), 'the service holds the saved report');

    // the reporter recorded its upload: the same folder again is not a second report
    const twice = await cli(['upload', folder], { cwd: dir, env: serviceEnv() });
    assert.equal(twice.code, 0, twice.text);
    assert.match(twice.stdout, new RegExp(`^already uploaded .*report\\.json\\.br to ${service.baseUrl} \\([^)]+\\): ${service.baseUrl}/reports/${reportId} \\(--again uploads it once more\\)\n$`));
    const up = await cli(['upload', folder, '--again'], { cwd: dir, env: serviceEnv() });
    assert.equal(up.code, 0, up.text);
    const again = up.stdout.match(/^uploaded .*report\.json\.br: (\S+)\/reports\/([^\s/]+) \((\d+) attachments?, (\d+) bytes?\)$/m);
    assert.ok(again, up.text);
    assert.notEqual(again[2], reportId, 'a second report');
    assert.deepEqual([again[3], again[4]], [m[3], m[4]], 'the same attachments and bytes as the reporter sent');
    const second = await fetch(`${service.baseUrl}/api/reports/${again[2]}/report.json.br`);
    assert.ok(Buffer.from(await second.arrayBuffer()).equals(brotliDecompressSync(bytes)));
  });

  await t.test('SHARDWISE_TIMINGS_FILE=<folder>/report.json.br plans --shard=1/3 from it', async () => {
    const shard = await runPlaywright({ config, shard: 1, total: 3, json: path.join(OUT, 'big-shard-1.json'), env: { SHARDWISE_TIMINGS_FILE: reportFile, ...QUIET_NODE }, timeoutMs: 120_000 });
    const line = shard.text.match(/^\[shardwise\] shard 1\/3: .*$/m)?.[0];
    assert.ok(line, shard.text.slice(-3000));
    assert.ok([0, 1].includes(shard.code), shard.text.slice(-3000));
    const m = line.match(/, (\d+) of (\d+) tests estimated \(durations: timings file ([^;]+); costs: [^)]+\), fingerprint [0-9a-f]{40}$/);
    assert.ok(m, line);
    assert.equal(Number(m[2]), declared, line);
    assert.equal(m[3], reportFile);
    // Every test of the file has a time there, declared skips and tests measured at 0 ms included
    // (a measured time is known, at least 1 ms, whatever it rounds to): nothing is estimated.
    const neverRan = [...reportTests(report).values()].filter(({ test: rt }) => rt.attempts.every((a) => a.status === 'skipped' && a.parallelIndex === undefined)).length;
    assert.equal(neverRan, 40 * 3);
    assert.equal(Number(m[1]), 0, line);
    assert.doesNotMatch(shard.text, /balancing failed|unavailable/);
    // the shard ran only its part, and the whole suite is planned
    const ran = playwrightTests(shard.json, dir).size;
    assert.ok(ran > 0 && ran < declared, `shard 1/3 ran ${ran} of ${declared} tests`);
  });

  await t.test('`shardwise plan <folder> --shards 4` and `--json`', async () => {
    const table = await cli(['plan', folder, '--shards', '4'], { cwd: dir });
    assert.equal(table.code, 0, table.text);
    const rows = table.stdout.split('\n').filter((l) => /^[1-4]\s+\S+\s+\d+\s+\d+$/.test(l));
    assert.equal(rows.length, 4, table.stdout);
    assert.equal(rows.reduce((s, l) => s + Number(l.trim().split(/\s+/)[2]), 0), declared, table.stdout);
    assert.match(table.stdout, /^fingerprint  [0-9a-f]{40}$/m);
    // not a shard's plan (tests per project, setups apart): the table says where that one is
    assert.match(table.stdout, /^note {9}a Playwright shard plans each test per project.*`npx playwright test --shard=i\/n --list` shows the shard's own$/m);

    const json = await cli(['plan', folder, '--shards', '4', '--json'], { cwd: dir });
    assert.equal(json.code, 0, json.text);
    const plan = JSON.parse(json.stdout);
    assert.equal(plan.shards.length, 4);
    const units = plan.shards.flatMap((s) => s.units);
    assert.equal(units.length, declared);
    assert.equal(new Set(units).size, declared, 'every unit once');
    // as the report's runner plans: its costs and its run's workers (shardCosts)
    const learned = api.shardCosts(report);
    assert.deepEqual(plan, api.planShards({ report, shardCount: 4, costs: learned.costs, perShardOverheadMs: learned.perShardOverheadMs, ...(learned.workers > 1 ? { workers: learned.workers } : {}) }),
      'the CLI plans what planShards plans for the report, with its costs');
  });

  await t.test('`shardwise durations --tests <folder> --out t.json` against the service', async () => {
    const out = path.join(dir, 't.json');
    const r = await cli(['durations', '--tests', folder, '--out', out], { cwd: dir, env: serviceEnv() });
    assert.equal(r.code, 0, r.text);
    const m = r.stdout.match(/^saved .*t\.json: predicted durations for (\d+) tests$/m);
    assert.ok(m, r.text);
    assert.ok(Number(m[1]) > 0, r.stdout);
    const timings = api.decodeReport(new Uint8Array(readFileSync(out)));
    assert.equal(timings.commitId, commitId);
    assert.deepEqual([...reportTests(timings).keys()].sort(), [...expectedTests.keys()].sort(), 'the timings file lists every test');
    // and it is a timings file: plan from it
    const p = await cli(['plan', out, '--shards', '4', '--json'], { cwd: dir });
    assert.equal(p.code, 0, p.text);
    assert.equal(JSON.parse(p.stdout).shards.flatMap((s) => s.units).length, declared);
  });

  await t.test('the preview opens it, by ?url= from the local service and as the saved file from disk, and shows its totals', async () => {
    assert.ok(reportId, 'the reporter uploaded the report');
    const want = { tests: declared, passed: stats.expected, failed: stats.unexpected, flaky: stats.flaky, skipped: stats.skipped };
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
      const shown = async (label, bytesShown, downloaded) => {
        await page.waitForFunction((l) => {
          const s = document.getElementById('status');
          return s.dataset.state === 'error' || (s.dataset.state === 'ready' && s.textContent.startsWith(`${l}: `));
        }, label, { timeout: 60_000 });
        const status = await page.textContent('#status');
        assert.equal(await page.getAttribute('#status', 'data-state'), 'ready', status);
        const size = downloaded ? `${downloaded.toLocaleString('en-US')} bytes downloaded (${bytesShown.toLocaleString('en-US')} decoded)` : `${bytesShown.toLocaleString('en-US')} bytes`;
        assert.ok(status.startsWith(`${label}: ${size}, ${declared.toLocaleString('en-US')} tests, `), status);
        const totals = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#totals [data-total]')].map((c) => [c.dataset.total, Number(c.dataset.value)])));
        assert.deepEqual(totals, want, label);
        await page.waitForSelector('#chart[data-shards="4"]:not([aria-busy])', { timeout: 60_000 });
        assert.equal(await page.locator('#chart .bar').count(), 4);
      };
      // by URL: the service sends it with Content-Encoding: br, so the page receives the JSON (and
      // says what came over the wire: the saved Brotli bytes)
      const url = `/api/reports/${reportId}/report.json.br`;
      await page.goto(`${service.baseUrl}/preview/?url=${encodeURIComponent(url)}`);
      await shown(`${service.baseUrl}${url}`, brotliDecompressSync(bytes).length, bytes.length);
      // from disk: the saved Brotli bytes themselves (the stream that begins with '['), decoded by the wasm in the page
      await page.setInputFiles('#file', reportFile);
      await shown('report.json.br', bytes.length);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});

/** Asserts a shardwise error equals Playwright's raw TestError (`result.error`, `step.error`). */
function assertError(sw, pw, gitRoot, what) {
  assert.ok(sw, `${what}: the error is recorded`);
  assert.equal(sw.message, pw.message, `${what}: message`);
  assert.equal(sw.stack, pw.stack, `${what}: stack`);
  assert.equal(sw.snippet, pw.snippet, `${what}: snippet`);
  assert.equal(sw.value, pw.value, `${what}: value`);
  const inRepo = pw.location && !path.relative(gitRoot, pw.location.file).startsWith('..');
  assert.deepEqual(sw.location, inRepo ? { file: posix(path.relative(gitRoot, pw.location.file)), line: pw.location.line, column: pw.location.column } : undefined, `${what}: location`);
}

/**
 * Playwright's JSON keeps only `test.step` steps (at any depth, each under its nearest kept
 * ancestor); the report keeps every step (hooks, fixtures, expects too). Each JSON step must be a
 * report step, in order, with its title, duration, error and the same for its children.
 */
function assertSteps(swSteps = [], pwSteps = [], gitRoot, what) {
  let from = 0;
  for (const ps of pwSteps) {
    const i = swSteps.findIndex((s, j) => j >= from && s.title === ps.title);
    assert.ok(i >= 0, `${what}: step "${ps.title}" is in the report, after the previous one (report steps: ${swSteps.map((s) => s.title).join(' | ')})`);
    from = i + 1;
    const ss = swSteps[i];
    const here = `${what} > ${ps.title}`;
    assert.ok(Math.abs(ss.duration - ps.duration) <= 1, `${here}: duration ${ss.duration} vs ${ps.duration}`);
    if (ps.error) assertError(ss.error, ps.error, gitRoot, here);
    else assert.equal(ss.error, undefined, `${here}: no error`);
    assertSteps(ss.steps, ps.steps, gitRoot, here);
  }
}

/** Text without ANSI colour codes. */
const plain = (s) => String(s ?? '').replace(/\u001b\[[0-9;]*m/g, '');

const streamText = (stdio = [], stream) => stdio.filter((e) => (e.stream ?? 1) === stream)
  .map((e) => (e.text ?? Buffer.from(e.buffer, 'base64').toString('utf8'))).join('');
const pwText = (entries) => entries.map((e) => (e.text ?? Buffer.from(e.buffer, 'base64').toString('utf8'))).join('');

test('field by field: a real Playwright run with the browser, compared with Playwright\'s JSON for every test and attempt', { timeout: 180_000 }, async (t) => {
  const output = path.join(OUT, 'fields', 'shardwise-report');
  const run = await runPlaywright({ config: path.join(FIELDS, 'playwright.config.mjs'), json: path.join(OUT, 'fields', 'pw.json'), env: { SW_OUTPUT: output, ...QUIET_NODE }, timeoutMs: 150_000 });
  assert.equal(run.code, 1, `two tests of the fixture always fail: Playwright exits 1\n${run.text.slice(-3000)}`);
  assert.ok(run.json, run.text.slice(-3000));
  assert.match(run.text, /\[shardwise\] report saved to /);
  const { stats } = run.json;
  assert.deepEqual([stats.expected, stats.unexpected, stats.flaky, stats.skipped], [5, 2, 1, 3], 'the fixture ran as designed');
  const report = api.decodeReport(new Uint8Array(readFileSync(path.join(output, 'report.json.br'))));
  const pwTests = playwrightTests(run.json, ROOT);
  const swTests = reportTests(report);
  const byTitle = (title) => [...swTests.values()].find((x) => x.titlePath.at(-1) === title).test;

  await t.test('the reporter left nothing out; the report passes validateReport and the published schema', async () => {
    assert.doesNotMatch(run.text, LOSS, 'nothing of standard Playwright values is left out or lost');
    assert.deepEqual(api.validateReport(report), []);
    const { Schema } = await import('@flakiness/flakiness-report');
    const parsed = Schema.Report.safeParse(report);
    assert.ok(parsed.success, JSON.stringify(parsed.error?.issues?.slice(0, 5)));
    assert.equal(report.category, 'playwright');
    assert.deepEqual(report.testRunner, { name: 'playwright', version: run.json.config.version });
    // the report times the run from its process's start (boot, config, global set-up: what a
    // shard costs), Playwright from after its boot: a little longer, never shorter
    assert.ok(report.duration >= stats.duration - 1 && report.duration <= stats.duration + 30_000, `run duration ${report.duration} vs ${stats.duration}`);
    assert.ok(report.startTimestamp <= Date.parse(stats.startTime), `run start ${report.startTimestamp} vs ${stats.startTime}`);
    assert.deepEqual(report.environments.map((e) => e.name), ['default']);
  });

  await t.test('every test and attempt equals Playwright\'s JSON, field by field', () => {
    assert.deepEqual([...swTests.keys()].sort(), [...pwTests.keys()].sort(), 'title paths');
    const savedAttachments = new Map(JSON.parse(readFileSync(path.join(output, 'attachments.json'), 'utf8')).map((a) => [a.id, a.contentType]));
    let screenshots = 0;
    for (const [key, pw] of pwTests) {
      const sw = swTests.get(key).test;
      const { spec, test: pt } = pw;
      assert.deepEqual(sw.location, { file: pw.file, line: spec.line, column: spec.column }, `${key}: location`);
      assert.deepEqual(sw.tags ?? [], spec.tags.map((tag) => `@${tag}`), `${key}: tags`);
      assert.equal(sw.attempts.length, pt.results.length, `${key}: one attempt per result (retries are attempts)`);
      for (const [i, r] of pt.results.entries()) {
        const a = sw.attempts[i];
        const what = `${key} attempt ${i}`;
        assert.equal(r.retry, i);
        assert.equal(a.environmentIdx ?? 0, 0, what);
        assert.equal(a.status, r.status, `${what}: status`);
        assert.equal(a.expectedStatus, pt.expectedStatus, `${what}: expectedStatus`);
        assert.ok(Math.abs(a.duration - r.duration) <= 1, `${what}: duration ${a.duration} vs ${r.duration}`);
        assert.ok(Math.abs(a.startTimestamp - Date.parse(r.startTime)) <= 1, `${what}: startTimestamp ${a.startTimestamp} vs ${r.startTime}`);
        assert.equal(a.timeout, pt.timeout, `${what}: timeout`);
        assert.equal(a.parallelIndex, r.parallelIndex >= 0 ? r.parallelIndex : undefined, `${what}: parallelIndex`);

        // errors: as many as Playwright reports; the first is Playwright's raw `result.error`,
        // and Playwright's formatted one (`errors[k]`) begins with each one's message
        assert.equal((a.errors ?? []).length, r.errors.length, `${what}: errors`);
        if (r.error) assertError(a.errors[0], r.error, ROOT, `${what}: error`);
        for (const [k, e] of (a.errors ?? []).entries()) {
          assert.ok(plain(r.errors[k].message).startsWith(plain(e.message)), `${what}: error ${k}: ${e.message}`);
          if (r.errors[k].location) assert.deepEqual(e.location, { file: posix(path.relative(ROOT, r.errors[k].location.file)), line: r.errors[k].location.line, column: r.errors[k].location.column }, `${what}: error ${k} location`);
        }

        assertSteps(a.steps, r.steps, ROOT, `${what} steps`);

        assert.equal(streamText(a.stdio, 1), pwText(r.stdout), `${what}: stdout`);
        assert.equal(streamText(a.stdio, 2), pwText(r.stderr), `${what}: stderr`);

        assert.deepEqual((a.annotations ?? []).map((x) => ({ type: x.type, description: x.description })),
          r.annotations.map((x) => ({ type: x.type, description: x.description })), `${what}: annotations`);
        for (const [k, x] of r.annotations.entries()) {
          if (x.location) assert.deepEqual(a.annotations[k].location, { file: posix(path.relative(ROOT, x.location.file)), line: x.location.line, column: x.location.column }, `${what}: annotation ${k} location`);
        }

        assert.equal((a.attachments ?? []).length, r.attachments.length, `${what}: attachments`);
        for (const [k, pa] of r.attachments.entries()) {
          const sa = a.attachments[k];
          assert.equal(sa.name, pa.name, `${what}: attachment ${k} name`);
          assert.equal(sa.contentType, pa.contentType, `${what}: attachment ${k} contentType`);
          const want = attachmentBytes(pa);
          const got = readFileSync(path.join(output, 'attachments', sa.id));
          assert.ok(got.equals(want), `${what}: attachment ${pa.name}: the saved bytes are Playwright's (${pa.path ?? 'inline body'})`);
          assert.equal(sa.id, createHash('sha1').update(want).digest('hex'), `${what}: attachment ${pa.name}: id is the SHA-1 of the content`);
          assert.equal(savedAttachments.get(sa.id), pa.contentType, `${what}: attachment ${pa.name} is in attachments.json`);
          if (pa.name === 'screenshot') {
            assert.ok(got.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'the screenshot is a PNG');
            screenshots++;
          }
        }
      }
    }
    assert.equal(screenshots, 2, 'a screenshot on each failed attempt of the failing browser test');
  });

  await t.test('the fixture\'s cases are in the report as Playwright ran them', () => {
    const failing = byTitle('fails with a screenshot, output and nested steps');
    assert.deepEqual(failing.attempts.map((a) => a.status), ['failed', 'failed']);
    assert.deepEqual(failing.tags, ['@ui', '@checkout']);
    assert.deepEqual(failing.attempts[0].annotations.map((x) => [x.type, x.description]), [['issue', 'https://example.test/issues/18'], ['owner', 'team payments']]);
    assert.deepEqual(failing.attempts[1].attachments.map((x) => [x.name, x.contentType]), [['note.txt', 'text/plain'], ['screenshot', 'image/png'], ['error-context', 'text/markdown']]);
    assert.equal(streamText(failing.attempts[1].stdio, 1), 'stdout line of attempt 1\n');
    assert.equal(streamText(failing.attempts[1].stdio, 2), 'stderr line of attempt 1\n');
    const outer = failing.attempts[0].steps.find((s) => s.title === 'open the cart');
    assert.match(outer.error.message, /the total is on the page/);
    assert.deepEqual(outer.steps.filter((s) => s.title.startsWith('the ')).map((s) => [s.title, Boolean(s.error)]),
      [['the heading is shown', false], ['the total is shown', true]], 'nested steps, the second failing');
    assert.deepEqual(byTitle('fails two soft assertions').attempts.map((a) => a.errors.length), [2, 2]);
    assert.deepEqual(byTitle('is flaky: fails on its first try').attempts.map((a) => a.status), ['failed', 'passed']);
    assert.deepEqual(byTitle('is expected to fail').attempts.map((a) => [a.status, a.expectedStatus, a.annotations.map((x) => x.type)]), [['failed', 'failed', ['fail']]]);
    assert.deepEqual(byTitle('is slow').attempts.map((a) => a.annotations.map((x) => [x.type, x.description])), [[['slow', 'talks to a slow backend']]]);
    for (const title of ['is skipped where it is declared', 'is fixme where it is declared']) {
      const [a, more] = byTitle(title).attempts;
      assert.equal(more, undefined, `${title}: one attempt`);
      assert.equal(a.status, 'skipped', title);
      assert.equal(a.parallelIndex, undefined, `${title}: never ran on a worker (Playwright says parallelIndex -1)`);
    }
    assert.deepEqual(byTitle('skips itself at run time').attempts.map((a) => [a.status, a.annotations.map((x) => [x.type, x.description])]), [['skipped', [['skip', 'not on this platform']]]]);
    assert.deepEqual(['first in order', 'second in order'].map((title) => byTitle(title).attempts.map((a) => a.status)), [['passed'], ['passed']]);
  });

  await t.test('stdout and stderr keep the order they were written in (the format\'s stdio is strictly ordered)', () => {
    // 'is slow' writes stderr, stdout, stderr; Playwright's JSON keeps each stream apart, so the
    // order is the fixture's.
    const stdio = byTitle('is slow').attempts[0].stdio.map((e) => [e.stream ?? 1, e.text]);
    assert.deepEqual(stdio, [[2, 'slow: first, on stderr\n'], [1, 'slow: second, on stdout\n'], [2, 'slow: third, on stderr\n']]);
  });
});
