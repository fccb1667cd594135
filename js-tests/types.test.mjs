// The published TypeScript types, checked with tsc against the built package for an ESM
// (import) and a CommonJS (require) consumer, with strict settings and no skipLibCheck.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('types: ESM and CommonJS consumers type-check against the package', () => {
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
  const project = fileURLToPath(new URL('./types/', import.meta.url));
  const r = spawnSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
  assert.equal(r.status, 0, `tsc failed:\n${r.stdout}${r.stderr}`);
});
