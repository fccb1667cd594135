// npm run build: crate -> wasm32 -> wasm-bindgen (--target web) -> wasm-opt -Oz -> pkg/.
// One .wasm serves Node (node.mjs, and node.cjs bundled from it) and browsers (browser.mjs).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findMachinePaths, wasmCargoConfig } from './lib/machine-paths.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Built in a staging folder, then put in place of pkg/ at the end: a test running meanwhile
// sees the old package whole, never a half-built one.
const final = join(root, 'pkg');
const pkg = join(root, 'pkg.staging');
const run = (cmd, args, opts = {}) => {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
};
const bin = (name) => join(root, 'node_modules', '.bin', name);

// Source paths embedded in the .wasm made relative: see scripts/lib/machine-paths.mjs.
run('cargo', ['build', '--release', '--lib', '--target', 'wasm32-unknown-unknown', ...wasmCargoConfig()]);

rmSync(pkg, { recursive: true, force: true });
mkdirSync(pkg, { recursive: true });
cpSync(join(root, 'pkg-template'), pkg, { recursive: true });
cpSync(join(root, 'LICENSE'), join(pkg, 'LICENSE'));
// The service contract and the report format, which the package's comments cite by section.
cpSync(join(root, 'docs'), join(pkg, 'docs'), { recursive: true });

run(join(root, '.tools', 'bin', 'wasm-bindgen'), [
  'target/wasm32-unknown-unknown/release/shardwise.wasm',
  '--target', 'web', '--out-dir', join(pkg, 'wasm'), '--out-name', 'shardwise', '--no-typescript',
]);

// The features rustc enables by default for wasm32-unknown-unknown, plus SIMD (see .cargo/config.toml).
// wasm-opt inlines nothing (rustc's inlining stands): a shard's process calls most of the module
// once or a few times, and V8 compiles a function that grew hot again with its optimising tier
// (TurboFan, on a background thread, in time superlinear in the function's size) while the shard
// waits at the lower tier. With wasm-opt's inlining (one-caller functions up to 5000 bytes),
// `learn_given` grew to a 33 KB body, and a shard's plan and report (a fresh process: the date-fns
// suite's timings read, a 3-shard plan, its report's costs and encoding) spent 0.55-0.90 s of
// TurboFan compiles; without, 0.40-0.58 s, the process 15% sooner (0.50 s against 0.59 s, median
// of 6 alternating runs) for 0.2 s less CPU, the module 1% larger. Compressing and decompressing
// megabytes and planning 20,000 units ran as fast (bench/brotli.mjs; the binaryen default's
// unbounded one-caller inlining had put Brotli's match finder into encode_data, 5-7% slower).
const wasm = join(pkg, 'wasm', 'shardwise_bg.wasm');
const before = statSync(wasm).size;
run(bin('wasm-opt'), [
  wasm, '-o', wasm, '-Oz', '--one-caller-inline-max-function-size=0', '--no-inline=*',
  '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-mutable-globals', '--enable-reference-types', '--enable-multivalue', '--enable-simd',
]);
console.log(`wasm: ${before} bytes -> ${statSync(wasm).size} bytes after wasm-opt -Oz`);

// require('shardwise'): node.mjs bundled as CommonJS, import.meta.url mapped to the file's URL.
run(bin('esbuild'), [
  join(pkg, 'node.mjs'), '--bundle', '--format=cjs', '--platform=node', '--target=node20',
  `--outfile=${join(pkg, 'node.cjs')}`, '--log-level=warning',
  '--define:import.meta.url=__shardwise_import_meta_url',
  "--banner:js=const __shardwise_import_meta_url = require('node:url').pathToFileURL(__filename).href;",
]);

// Types for require(): one self-contained .d.cts made of the per-domain files.
const typesDir = join(pkg, 'types');
const parts = readdirSync(typesDir).filter((f) => f.endsWith('.d.ts')).sort()
  .map((f) => `// ---- ${f}\n` + readFileSync(join(typesDir, f), 'utf8'));
const index = readFileSync(join(pkg, 'index.d.ts'), 'utf8');
const local = /^\s*(import|export)\s[^;]*from\s+'\.\/[^']*';?\s*$/gm;
writeFileSync(join(pkg, 'index.d.cts'), [...parts, index].map((t) => t.replace(local, '')).join('\n'));
// The runner entries the same way, each with the types it names: `import type ... from
// 'shardwise/playwright'` in a CommonJS TypeScript file (module node16/nodenext) resolves to a
// CommonJS declaration, not an ES module one (TS1541).
const runnerTypes = ['runner.d.ts'].map((f) => readFileSync(join(typesDir, f), 'utf8'));
for (const [entry, types] of [['playwright/index', 'playwright'], ['jest/index', 'jest'], ['jest/sequencer'], ['vitest/index', 'vitest'], ['vitest/sequencer']]) {
  const own = types ? [readFileSync(join(typesDir, `${types}.d.ts`), 'utf8')] : [];
  const text = [...(types ? runnerTypes : []), ...own, readFileSync(join(pkg, `${entry}.d.ts`), 'utf8')];
  writeFileSync(join(pkg, `${entry}.d.cts`), text.map((t) => t.replace(/^\s*(import|export)\s[^;]*from\s+'\.\.?\/[^']*';?\s*$/gm, '')).join('\n'));
}

// Before it replaces pkg/: a package naming this machine's paths is not one to publish.
const leaks = findMachinePaths(pkg);
if (leaks.length) {
  for (const { file, path } of leaks) console.error(`pkg/${file} holds ${path}`);
  throw new Error('the built package holds paths of this machine (see above); pkg/ left as it was');
}

const old = join(root, 'pkg.old');
rmSync(old, { recursive: true, force: true });
if (existsSync(final)) renameSync(final, old);
renameSync(pkg, final);
rmSync(old, { recursive: true, force: true });

// Tests and examples import the package by name, through its `exports`.
const link = join(root, 'node_modules', 'shardwise');
rmSync(link, { recursive: true, force: true });
if (existsSync(join(root, 'node_modules'))) symlinkSync('../pkg', link, 'dir');
console.log('built pkg/');
