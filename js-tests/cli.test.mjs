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
