// The runner entries' TypeScript types resolve through the package's exports and type-check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

test('shardwise/playwright, /jest, /jest/sequencer, /vitest, /vitest/sequencer types check with tsc --strict', () => {
  const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '--strict', '--module', 'nodenext',
    '--moduleResolution', 'nodenext', '--target', 'es2022', 'js-tests/fixtures/types/runners.ts', 'pkg/index.d.cts'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
