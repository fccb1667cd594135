// The runner entries' TypeScript types resolve through the package's exports and type-check,
// for the module settings users have: node16 and nodenext (an ES module file and a CommonJS one,
// where `import type` of an ES module declaration was TS1541), bundler, and node10 (the old
// `moduleResolution: node`, which ignores `exports`: TypeScript 7, the one this repository
// pins, no longer has it, so TypeScript 5.9 checks it, as projects still on it do).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

test('shardwise/playwright, /jest, /jest/sequencer, /vitest, /vitest/sequencer types check with tsc --strict', () => {
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--module', 'nodenext',
    '--moduleResolution', 'nodenext', '--target', 'es2022', 'js-tests/fixtures/types/runners.ts', 'pkg/index.d.cts'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

// What a config file imports: the options types, type-only, from each runner entry.
const IMPORTS = `import type { ShardwisePlaywrightOptions } from 'shardwise/playwright';
import type { ShardwiseJestOptions } from 'shardwise/jest';
import type { ShardwiseVitestOptions } from 'shardwise/vitest';
import type JestSequencer from 'shardwise/jest/sequencer';
import type VitestSequencer from 'shardwise/vitest/sequencer';
export const playwright: ShardwisePlaywrightOptions = { outputFolder: 'shardwise-report', durationsTimeoutMs: 60000 };
export const jest: ShardwiseJestOptions = { timingsFile: 't.json', allowEmptyShards: true, rerun: 'failed,flaky', alwaysBalance: true };
export const vitest: ShardwiseVitestOptions = { upload: false };
export type Sequencers = [JestSequencer, VitestSequencer];
`;

const tsc5 = path.join(root, 'node_modules/typescript-5/bin/tsc');
for (const [name, options, files, compiler = tsc] of [
  ['node16', ['--module', 'node16', '--moduleResolution', 'node16'], ['config.cts', 'config.mts']],
  ['nodenext', ['--module', 'nodenext', '--moduleResolution', 'nodenext'], ['config.cts', 'config.mts']],
  ['bundler', ['--module', 'esnext', '--moduleResolution', 'bundler'], ['config.ts']],
  ['node10', ['--module', 'commonjs', '--moduleResolution', 'node10'], ['config.ts'], tsc5],
]) {
  test(`the runner options types import type-only under module resolution ${name}`, () => {
    const dir = path.join(root, 'js-tests', '.out', 'types', name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const f of files) writeFileSync(path.join(dir, f), IMPORTS);
    const r = spawnSync(process.execPath, [compiler, '--noEmit', '--strict', '--target', 'es2022', ...(compiler === tsc ? ['--types', ''] : []), ...options, ...files.map((f) => path.join(dir, f))], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
}
