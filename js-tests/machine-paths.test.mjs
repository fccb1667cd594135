// What ships in the npm package names no path of the machine that made it: not in the sources
// copied into it (pkg-template/, docs/), not in what the build produced (the .wasm embeds the
// source path of every panic location; scripts/lib/machine-paths.mjs has the build remap them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findMachinePaths } from '../scripts/lib/machine-paths.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Absolute paths of the usual places a build or a person's machine keeps files. */
const ABSOLUTE = /(?<![\w.>\-/])\/(?:work|check|tmp|home|root|Users|private|var\/folders)\/[^\s'"`)]*/g;

const files = (dir) => readdirSync(dir, { withFileTypes: true, recursive: true })
  .filter((e) => e.isFile()).map((e) => path.join(e.parentPath ?? e.path, e.name));

test('the package sources name no absolute path of a machine', () => {
  const found = [];
  for (const dir of ['pkg-template', 'docs']) {
    for (const f of files(path.join(ROOT, dir))) {
      for (const m of readFileSync(f, 'utf8').matchAll(ABSOLUTE)) found.push(`${path.relative(ROOT, f)}: ${m[0]}`);
    }
  }
  assert.deepEqual(found, []);
});

test('the built package holds no path of this machine', (t) => {
  const pkg = path.join(ROOT, 'pkg');
  if (!existsSync(pkg)) return t.skip('no pkg/: npm run build');
  assert.deepEqual(findMachinePaths(pkg), []);
});
