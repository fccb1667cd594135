// The suite's own modules each test file loads, for the planner's modules (Rust `plan::cost`
// `Module`): Jest transforms a module once per run, on the first file that loads it, and its cache
// is empty on a fresh CI machine, so each shard pays again the transforms of every module its
// files load. The planner shares the shard's cold cost out over them by size and keeps files that
// load the same modules together.
//
// The imports are read by Rust (`__discoverImports(source).imports`: the relative specifiers of
// `import`, `export ... from`, `import()` and `require()`); here they are resolved to files, as
// Node and Jest's resolver find a relative module (the path, then with an extension, then its
// index), and followed through the modules they reach. Other specifiers (`bareImports`) name a
// file of the suite where the runner's configuration says so (`aliases`, from Jest's
// `moduleNameMapper`, `modulePaths` and `moduleDirectories`: `jestAliases`); packages are left
// out: Jest does not transform `node_modules` by default.
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
    return statSync(p, { throwIfNoEntry: false })?.isFile() ?? false; // (a missing file is most candidates: no error made for it)
  } catch {
    return false; // a file's path taken for a folder (ENOTDIR), or unreadable
  }
};

/**
 * The paths a module named `at` (absolute) may be, in the order tried: as written; for a `.js`
 * specifier its TypeScript source (as TypeScript and Vite resolve it); with an extension; its
 * index. Made one at a time: most specifiers name a file as written.
 */
function* candidates(at) {
  yield at;
  if (/\.[cm]?js$/.test(at)) {
    yield at.replace(/js$/, 'ts');
    yield at.replace(/\.js$/, '.tsx');
  }
  for (const e of EXTENSIONS) yield at + e;
  for (const e of EXTENSIONS) yield `${at}${path.sep}index${e}`;
}

/**
 * The file a relative specifier names, from `dir`: as written, its TypeScript source, with an
 * extension, its index (see `candidates`). `cache`: per absolute path, what it resolved to (the
 * modules of a suite import the same few from many folders).
 */
function resolve(dir, spec, cache) {
  const at = path.resolve(dir, spec);
  if (cache?.has(at)) return cache.get(at);
  let found;
  if (!`${at}${path.sep}`.includes(`${path.sep}node_modules${path.sep}`)) {
    for (const p of candidates(at)) {
      if (CODE.test(p) && isFile(p)) {
        found = p;
        break;
      }
    }
  }
  cache?.set(at, found);
  return found;
}

/**
 * How a Jest project's configuration (its normalized `ProjectConfig`: `rootDir`,
 * `moduleNameMapper` as `[regex, target | targets]` pairs, `modulePaths`, `moduleDirectories`)
 * maps a bare specifier to a file, as `suiteModules` takes it; undefined when it maps none.
 * Configurations of several projects are read in turn (the first mapping that matches wins).
 */
export function jestAliases(configs) {
  const mappers = [];
  const paths = [];
  const dirNames = [];
  for (const c of Array.isArray(configs) ? configs : [configs]) {
    if (!c || typeof c !== 'object') continue;
    for (const entry of Array.isArray(c.moduleNameMapper) ? c.moduleNameMapper : Object.entries(c.moduleNameMapper ?? {})) {
      const [pattern, to] = entry;
      try {
        const targets = (Array.isArray(to) ? to : [to]).filter((t) => typeof t === 'string').map((t) => t.replaceAll('<rootDir>', c.rootDir ?? ''));
        mappers.push({ regex: new RegExp(pattern), targets });
      } catch { /* a pattern Jest would refuse too */ }
    }
    for (const p of c.modulePaths ?? []) if (typeof p === 'string') paths.push(p.replaceAll('<rootDir>', c.rootDir ?? ''));
    for (const d of c.moduleDirectories ?? []) {
      if (typeof d !== 'string' || d === 'node_modules') continue;
      if (path.isAbsolute(d)) paths.push(d);
      else dirNames.push(d);
    }
  }
  return mappers.length || paths.length || dirNames.length ? { mappers, paths, dirNames } : undefined;
}

/**
 * The file of the suite a bare specifier names from `dir` under `aliases` (see `jestAliases`), as
 * Jest's resolver finds it: the first `moduleNameMapper` entry whose pattern matches maps it
 * (`$1`... its groups) to its first target that is a file; else each `moduleDirectories` name
 * from `dir` up to `root` (a folder above the repository holds none of the suite's modules), then
 * each of `modulePaths`. Undefined for a package, or what maps to one.
 */
function resolveBare(dir, spec, aliases, root) {
  const mapper = aliases.mappers.find((m) => m.regex.test(spec));
  if (mapper) {
    const groups = spec.match(mapper.regex);
    for (const target of mapper.targets) {
      const named = target.replace(/\$([0-9]+)/g, (_, i) => groups[Number(i)] ?? '');
      // a path (absolute once <rootDir> is replaced, or relative to the file); else a package
      const found = path.isAbsolute(named) || named.startsWith('.') ? resolve(dir, named) : undefined;
      if (found) return found;
    }
    return undefined;
  }
  for (let at = dir; aliases.dirNames.length; at = path.dirname(at)) {
    for (const name of aliases.dirNames) {
      const found = resolve(path.join(at, name), `./${spec}`);
      if (found) return found;
    }
    if (at === root || path.dirname(at) === at) break;
  }
  for (const p of aliases.paths) {
    const found = resolve(p, `./${spec}`);
    if (found) return found;
  }
  return undefined;
}

/**
 * A reader of source files for `__discoverTests` and `__discoverImports` (Rust `discover`), each
 * file read and tokenized once however often it is asked for: a shard that asks the durations
 * exchange lists its test files' tests and then their modules from the same reads.
 * `(absolute path, {importsOnly}) => {bytes, found}`, undefined for a file that cannot be read.
 * `importsOnly`: only `found.imports` and `found.bareImports` are read (`__discoverImports`: a
 * module's, or a test file's when the durations come from a timings file); a read of the whole
 * file serves it too.
 */
export function sourceReader(api) {
  const seen = new Map(); // path -> {bytes, found, importsOnly}, or null when it could not be read
  return (p, { importsOnly = false } = {}) => {
    const had = seen.get(p);
    if (had === null) return undefined;
    if (had && (importsOnly || !had.importsOnly)) return had;
    let out = null;
    try {
      const source = readFileSync(p); // bytes: into wasm in one copy
      out = { bytes: source.length, found: importsOnly ? api.__discoverImports(source) : api.__discoverTests(source), importsOnly };
    } catch {
      // gone since the runner listed it, or unreadable
    }
    seen.set(p, out);
    return out ?? undefined;
  };
}

/**
 * Per module of the suite's own that `units`' files load (directly or through other modules),
 * its size and the files that load it, as `planShards` takes them (`costs.modules`).
 * @param {object} p
 * @param {{__discoverTests: Function, __discoverImports: Function}} p.api
 * @param {Array<{path: string, file?: string}>} p.units test files: absolute path, report path
 * @param {string} p.root the repository root (module ids are relative to it)
 * @param {{mappers: object[], paths: string[], dirNames: string[]}} [p.aliases] what the runner
 *   maps bare specifiers to (`jestAliases`)
 * @param {(p: string, o?: {importsOnly?: boolean}) => {bytes: number, found: object} | undefined} [p.readSource] the files'
 *   reader (`sourceReader`), shared with what read them before
 * @returns {{modules: Array<{id: string, bytes: number, files: string[]}>, bytes: number}}
 */
export function suiteModules({ api, units, root, aliases, readSource = sourceReader(api) }) {
  const read = new Map(); // absolute path -> {bytes, imports: absolute paths}
  const bare = new Map(); // folder NUL bare specifier -> the file it names, or undefined
  const resolved = new Map(); // absolute path -> the file it names, or undefined (see resolve)
  const visit = (p) => {
    if (read.has(p) || read.size >= MAX_MODULES) return read.get(p);
    const source = readSource(p, { importsOnly: true });
    if (!source) return undefined;
    const entry = { bytes: source.bytes, imports: [] };
    read.set(p, entry);
    const { imports = [], bareImports = [] } = source.found;
    const dir = path.dirname(p);
    for (const spec of imports) {
      const found = resolve(dir, spec, resolved);
      if (found) entry.imports.push(found);
    }
    if (aliases) {
      for (const spec of bareImports) {
        // a package's name is looked up again by every file that loads it: once a folder
        const key = `${dir}\0${spec}`;
        if (!bare.has(key)) bare.set(key, resolveBare(dir, spec, aliases, root));
        const found = bare.get(key);
        if (found) entry.imports.push(found);
      }
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
