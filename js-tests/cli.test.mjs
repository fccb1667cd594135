// The CLI as a user meets it (issues 18 and 20): every problem is one line naming it and the fix,
// an exit code not 0, no stack trace and no doubled prefix; --version; serve on a busy port.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ReportBuilder } from 'shardwise';
import { formatVerification, MAX_LISTED } from '../pkg/cli/verify.mjs';
import { startServe, stopServe } from './helpers/serve-process.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'pkg', 'bin', 'shardwise.mjs');
const cli = (...args) => spawnSync(process.execPath, [BIN, ...args], {
  encoding: 'utf8', env: { ...process.env, SHARDWISE_BASE_URL: 'http://127.0.0.1:9', SHARDWISE_ACCESS_TOKEN: 'swat_x' },
});
const oneLine = (r) => {
  assert.match(r.stderr, /^shardwise [^\n]*\n$/, `one line: ${JSON.stringify(r.stderr)}`);
  assert.doesNotMatch(r.stderr, /\n\s+at |Usage:/, 'no stack, no whole usage');
};

test('--version prints the package version', () => {
  const r = cli('--version');
  assert.equal(r.status, 0);
  assert.equal(r.stdout.trim(), JSON.parse(readFileSync(path.join(ROOT, 'pkg', 'package.json'), 'utf8')).version);
});

test('usage problems: one line saying what is missing or wrong, exit 2', () => {
  const cases = [
    [['durations', '--out', 'x.json'], "shardwise durations: --tests <folder | report file> is required; see 'shardwise durations --help'"],
    [['durations', '--tests', '.'], "shardwise durations: --out <file> is required; see 'shardwise durations --help'"],
    [['upload'], "shardwise upload: <folder | report file> is required; see 'shardwise upload --help'"],
    [['verify'], "shardwise verify: <path> (the shards' saved report folders) is required; see 'shardwise verify --help'"],
    [['upload', '.', '--concurrency', 'many'], "shardwise upload: --concurrency must be a number, got 'many'; see 'shardwise upload --help'"],
    [['serve', '--port', 'http'], "shardwise serve: --port must be a port number from 0 to 65535, got 'http'"],
    [['serve', '--bogus'], "shardwise serve: Unknown option '--bogus'; see 'shardwise serve --help'"],
    [['upload', '/no/such/folder'], 'shardwise upload: /no/such/folder does not exist'],
  ];
  for (const [args, line] of cases) {
    const r = cli(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr, `${line}\n`);
  }
});

test('numbers the API refuses are refused in one line with the API\'s words; no doubled prefixes', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shardwise-cli-'));
  mkdirSync(path.join(dir, 'saved'));
  writeFileSync(path.join(dir, 'saved', 'report.json.br'), '{"category": "x"}');
  const r = cli('upload', path.join(dir, 'saved'), '--concurrency', '-1');
  assert.equal(r.status, 1);
  oneLine(r);
  assert.equal(r.stderr, 'shardwise upload: INVALID_INPUT: concurrency must be an integer from 1 to 1024, got -1\n');
  // a file where a folder is expected: the error's code once
  const notDir = cli('verify', path.join(dir, 'saved', 'report.json.br', 'x'));
  assert.equal(notDir.status, 2);
  // a report file that is a folder's sibling, read as a folder: ENOTDIR once
  writeFileSync(path.join(dir, 'plain'), 'x');
  const r2 = cli('durations', '--tests', path.join(dir, 'plain', 'sub'), '--out', path.join(dir, 'o.json'));
  oneLine(r2);
  assert.doesNotMatch(r2.stderr, /(\b[A-Z_]+): \1:/, 'no doubled prefix');
});

test('serve on a busy port: one line, exit code not 0; its help does not point to a file the package lacks', async () => {
  const busy = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => busy.once('listening', r));
  const { port } = busy.address();
  try {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 2);
    assert.equal(stderr, `shardwise serve: port ${port} on 127.0.0.1 is taken (EADDRINUSE): stop what uses it, or pick another with --port\n`);
  } finally {
    busy.close();
  }
  const help = cli('serve', '--help');
  assert.equal(help.status, 0);
  assert.doesNotMatch(help.stdout, /service-api\.md/);
  assert.match(help.stdout, /SHARDWISE_ACCESS_TOKEN/);
});

/** A saved report folder as a reporter writes it: the report and one attachment. */
function saveShard(folder, title, { tests = 3, attachment } = {}) {
  const b = new ReportBuilder({ category: 'jest', commitId: COMMIT, startTimestamp: 1, title });
  const env = b.addEnvironment({ name: 'jest' });
  for (let i = 0; i < tests; i++) b.addAttempt(b.addTest({ titlePath: [`${title} test ${i}`], file: `t/${title.replace(/\W/g, '-')}.test.js` }), { environmentIdx: env, status: 'passed', startTimestamp: 1, duration: 10 });
  mkdirSync(path.join(folder, 'attachments'), { recursive: true });
  const manifest = [];
  if (attachment) {
    const a = b.addAttachment({ name: 'log', contentType: 'text/plain', data: new TextEncoder().encode(attachment) });
    writeFileSync(path.join(folder, 'attachments', a.id), attachment);
    manifest.push({ id: a.id, contentType: 'text/plain' });
  }
  writeFileSync(path.join(folder, 'attachments.json'), JSON.stringify(manifest));
  writeFileSync(path.join(folder, 'report.json.br'), b.encode());
}

const COMMIT = '0123456789abcdef0123456789abcdef01234567';

test('upload <a sharded run\'s folder> uploads every shard\'s report in order (as the README\'s recovery step does); plan names the shards it cannot merge', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shardwise-cli-sharded-'));
  const out = path.join(dir, 'shardwise-report');
  for (const i of [3, 1, 2]) saveShard(path.join(out, `shard-${i}-of-3`), `shard ${i}/3`, { attachment: `log of shard ${i}` });
  const srv = await startServe(['--data', path.join(dir, 'data')]);
  try {
    const env = { ...process.env, SHARDWISE_BASE_URL: srv.baseUrl, SHARDWISE_ACCESS_TOKEN: srv.accessToken };
    const up = spawnSync(process.execPath, [BIN, 'upload', out], { encoding: 'utf8', env });
    assert.equal(up.status, 0, up.stderr);
    const lines = up.stdout.trim().split('\n');
    assert.equal(lines.length, 4, up.stdout);
    for (const [k, i] of [[0, 1], [1, 2], [2, 3]]) {
      assert.match(lines[k], new RegExp(`^uploaded ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/shard-${i}-of-3/report\\.json\\.br: http://127\\.0\\.0\\.1:\\d+/\\S+ \\(1 attachment, [\\d,]+ bytes\\)$`));
    }
    assert.equal(lines[3], '3 of 3 reports uploaded');
    assert.deepEqual(JSON.parse(readFileSync(path.join(out, 'shard-1-of-3', 'uploaded.json'), 'utf8')).map((e) => e.service), [srv.baseUrl], 'where it went, without the token');
    assert.doesNotMatch(readFileSync(path.join(out, 'shard-1-of-3', 'uploaded.json'), 'utf8'), new RegExp(srv.accessToken));
    // again: nothing is uploaded twice, each link is given again
    const again = spawnSync(process.execPath, [BIN, 'upload', out], { encoding: 'utf8', env });
    assert.equal(again.status, 0, again.stderr);
    const links = lines.slice(0, 3).map((l) => /: (http\S+) /.exec(l)[1]);
    assert.deepEqual(again.stdout.trim().split('\n').slice(0, 3).map((l) => /^already uploaded .* to http:\/\/127\.0\.0\.1:\d+ \([^)]+\): (http\S+) \(--again uploads it once more\)$/.exec(l)?.[1]), links);
    assert.equal(again.stdout.trim().split('\n')[3], '3 of 3 reports uploaded (3 of them before)');
    // one shard named, --again: that one only, uploaded once more; the service keeps it at a new
    // link and counts it once (its entry says which report it repeats)
    const one = spawnSync(process.execPath, [BIN, 'upload', path.join(out, 'shard-2-of-3'), '--again'], { encoding: 'utf8', env });
    assert.equal(one.status, 0, one.stderr);
    assert.equal(one.stdout.trim().split('\n').length, 1);
    const second = /: (http\S+) /.exec(one.stdout)[1];
    assert.notEqual(second, links[1]);
    const listed = await (await fetch(`${srv.baseUrl}/api/reports`)).json();
    assert.equal(listed.length, 4);
    assert.equal(listed.filter((r) => r.duplicateOf).length, 1);
    assert.equal(`${srv.baseUrl}/reports/${listed.find((r) => r.duplicateOf).duplicateOf}`, links[1]);
    // one shard's report unreadable: the others still go up, the exit code says one failed
    writeFileSync(path.join(out, 'shard-2-of-3', 'report.json.br'), 'not a report');
    const partly = spawnSync(process.execPath, [BIN, 'upload', out, '--again'], { encoding: 'utf8', env });
    assert.equal(partly.status, 1);
    assert.match(partly.stdout, /^uploaded .*shard-1-of-3.*\nuploaded .*shard-3-of-3.*\n2 of 3 reports uploaded; 1 failed \(above\): upload its folder again\n$/);
    assert.equal(partly.stderr, `shardwise upload: INVALID_INPUT: ${path.join(out, 'shard-2-of-3', 'report.json.br')}: report: the bytes are neither Brotli-compressed JSON (the input is not valid Brotli data) nor plain JSON (it does not begin with \`{\` or \`[\`)\n`);
  } finally {
    await stopServe(srv);
  }
  // plan reads the shards' reports as one run: one that is not a report is named
  const plan = cli('plan', out, '--shards', '2');
  assert.equal(plan.status, 1);
  assert.equal(plan.stderr, `shardwise plan: INVALID_INPUT: ${path.join(out, 'shard-2-of-3', 'report.json.br')}: the bytes are neither Brotli-compressed JSON (the input is not valid Brotli data) nor plain JSON (it does not begin with \`{\` or \`[\`)\n`);
  saveShard(path.join(out, 'shard-2-of-3'), 'shard 2/3', { attachment: 'log of shard 2' });
  const whole = cli('plan', out, '--shards', '2', '--json');
  assert.equal(whole.status, 0, whole.stderr);
  // a Jest run: its files are the units, every shard's once
  assert.deepEqual(JSON.parse(whole.stdout).shards.flatMap((s) => s.units).sort(), [1, 2, 3].map((i) => `t/shard-${i}-3.test.js`));
  const empty = cli('upload', path.join(dir, 'data', '..', 'shardwise-report', 'shard-1-of-3', 'attachments'));
  assert.equal(empty.status, 2);
  assert.match(empty.stderr, /holds no report\.json\.br, nor any folder below it that does/);
});

test('verify prints the counts first and at most 20 units of each list; --json has them all', () => {
  const v = {
    ok: false, shardCount: 2, planned: 300, fingerprints: [{ fingerprint: 'a'.repeat(64), shards: [1] }, { fingerprint: 'b'.repeat(64), shards: [2] }],
    missingShards: [], doubledShards: [],
    missing: Array.from({ length: 45 }, (_, i) => `t/${i}.test.js`),
    doubled: Array.from({ length: 3 }, (_, i) => ({ unit: `t/d${i}.test.js`, shards: [1, 2] })),
    unplanned: [],
  };
  const lines = formatVerification(v).split('\n');
  assert.equal(lines[2], '45 units ran on no shard; 3 units ran on more than one shard:');
  assert.equal(lines[3], 'ran on no shard:');
  assert.equal(lines.filter((l) => l.startsWith('  t/')).length, MAX_LISTED + 3);
  assert.equal(lines[4 + MAX_LISTED], '  ... and 25 more (--json lists every one)');
  assert.deepEqual(lines.slice(-4), ['ran on more than one shard:', '  t/d0.test.js (shards 1, 2)', '  t/d1.test.js (shards 1, 2)', '  t/d2.test.js (shards 1, 2)']);
});
