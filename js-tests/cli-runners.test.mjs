// The `upload` and `durations` subcommands through the package's bin: help, usage errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../node_modules/shardwise/bin/shardwise.mjs', import.meta.url));
const env = { ...process.env };
delete env.SHARDWISE_BASE_URL;
delete env.SHARDWISE_ACCESS_TOKEN;
const cli = (...args) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env });

for (const cmd of ['upload', 'durations']) {
  test(`shardwise ${cmd} --help prints its usage and exits 0`, () => {
    const r = cli(cmd, '--help');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^Usage: shardwise ${cmd} `));
  });
  test(`shardwise ${cmd} without its arguments says in one line what is missing, and exits 2`, () => {
    const r = cli(cmd);
    assert.equal(r.status, 2);
    assert.match(r.stderr, new RegExp(`^shardwise ${cmd}: .* is required; see 'shardwise ${cmd} --help'\n$`));
  });
}

test('shardwise upload: a missing path and a missing token are usage errors, not crashes', () => {
  let r = cli('upload', '/nonexistent/shardwise-report');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /does not exist/);
  r = cli('upload', fileURLToPath(new URL('.', import.meta.url)));
  assert.equal(r.status, 2);
  assert.match(r.stderr, /SHARDWISE_ACCESS_TOKEN/);
});

test('shardwise durations without a token says how to give one', () => {
  const r = cli('durations', '--tests', fileURLToPath(new URL('.', import.meta.url)), '--out', '/tmp/x.json');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /SHARDWISE_ACCESS_TOKEN/);
});
