// The suite's own modules each test file loads, for the planner's modules (Rust `plan::cost`
// `Module`): Jest transforms a module once per run, on the first file that loads it, and its cache
// is empty on a fresh CI machine, so each shard pays again the transforms of every module its
// files load. The planner shares the shard's cold cost out over them by size and keeps files that
// load the same modules together.
//
// The imports are read by Rust (`__discoverTests(source).imports`: the relative specifiers of
// `import`, `export ... from`, `import()` and `require()`); here they are resolved to files, as
// Node and Jest's resolver find a relative module (the path, then with an extension, then its
// index), and followed through the modules they reach. Packages (bare specifiers) are left out:
// Jest does not transform `node_modules` by default.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { reportPath } from './options.mjs';

/** Sources a runner transforms (not JSON, styles or assets, which a moduleNameMapper stubs). */
const CODE = /\.(?:[cm]?[jt]sx?)$/;
const EXTENSIONS = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'];
/** Most modules read for one plan: a bigger suite keeps those found first. */
export const MAX_MODULES = 5000;

const isFile = (p) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/** The file a relative specifier names, from `dir`: as written, with an extension, its index; a TypeScript source for a `.js` specifier. */
function resolve(dir, spec) {
  const at = path.resolve(dir, spec);
  const candidates = [at, ...EXTENSIONS.map((e) => at + e), ...EXTENSIONS.map((e) => path.join(at, `index${e}`))];
  if (/\.[cm]?js$/.test(at)) candidates.push(at.replace(/js$/, 'ts'), at.replace(/\.js$/, '.tsx'));
  return candidates.find((p) => CODE.test(p) && !p.split(path.sep).includes('node_modules') && isFile(p));
}

/**
 * Per module of the suite's own that `units`' files load (directly or through other modules),
 * its size and the files that load it, as `planShards` takes them (`costs.modules`).
 * @param {object} p
 * @param {{__discoverTests: Function}} p.api
 * @param {Array<{path: string, file?: string}>} p.units test files: absolute path, report path
 * @param {string} p.root the repository root (module ids are relative to it)
 * @returns {{modules: Array<{id: string, bytes: number, files: string[]}>, bytes: number}}
 */
export function suiteModules({ api, units, root }) {
  const read = new Map(); // absolute path -> {bytes, imports: absolute paths}
  const visit = (p) => {
    if (read.has(p) || read.size >= MAX_MODULES) return read.get(p);
    let source;
    try {
      source = readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
    const entry = { bytes: Buffer.byteLength(source), imports: [] };
    read.set(p, entry);
    for (const spec of api.__discoverTests(source).imports ?? []) {
      const found = resolve(path.dirname(p), spec);
      if (found) entry.imports.push(found);
    }
    return entry;
  };
  const testFiles = new Set(units.map((u) => u.path));
  const loadedBy = new Map(); // module -> report paths of the test files that load it
  for (const u of units) {
    if (u.file === undefined) continue;
    const stack = [...(visit(u.path)?.imports ?? [])];
    const seen = new Set();
    while (stack.length) {
      const m = stack.pop();
      if (seen.has(m) || testFiles.has(m)) continue;
      seen.add(m);
      const entry = visit(m);
      if (!entry) continue;
      if (!loadedBy.has(m)) loadedBy.set(m, []);
      loadedBy.get(m).push(u.file);
      stack.push(...entry.imports);
    }
  }
  const modules = [];
  let bytes = 0;
  for (const [m, files] of loadedBy) {
    const id = reportPath(root, m);
    if (id === undefined) continue;
    modules.push({ id, bytes: read.get(m).bytes, files });
    bytes += read.get(m).bytes;
  }
  return { modules, bytes };
}
