// The test files `node --test [patterns...]` would run, found as the running Node finds them, so
// that `shardwise node-test` plans exactly the files node:test would have run (Node's own rules,
// lib/internal/test_runner/runner.js `createTestFileList`):
//   - Node 20 (no `fs.globSync`): each argument is a path; a file is run whatever its name, a
//     folder is searched (node_modules left out) for `*.test.js`-like names (test, test-*, *.test,
//     *-test, *_test; .js, .cjs, .mjs), and every .js/.cjs/.mjs file below a folder named `test`;
//     no argument: the working directory, searched so.
//   - Node >= 21 (`fs.globSync`): each argument is a glob; no argument: node:test's default
//     pattern, `**/{test,test/**/*,test-*,*[._-]test}.{js,mjs,cjs}` (and .ts, .mts, .cts where Node
//     strips types), node_modules left out. A folder named as an argument is searched with the
//     default pattern below it (Node 20 searched it; Node 21+ tries to run it as a file and fails).
// An argument without glob characters that names nothing throws: `Could not find` (node:test
// exits 1 then too).
import fs from 'node:fs';
import path from 'node:path';
import { ShardwiseError } from '../src/errors.js';

const SUPPORTED = /\.[cm]?js$/;
const TEST_NAME = /((^test(-.+)?)|(.+[.\-_]test))\.[cm]?js$/;
const MAGIC = /[*?[\]{}()!+@]/;

/** node:test's default pattern (Node >= 21), with the TypeScript extensions when `typescript`. */
export function defaultPattern(typescript = false) {
  return `**/{test,test/**/*,test-*,*[._-]test}.{js,mjs,cjs${typescript ? ',ts,mts,cts' : ''}}`;
}

/**
 * Whether the `node --test` to be run strips TypeScript types: this Node does (by default or by
 * its own flags), or the given node options turn it on; `--no-experimental-strip-types` off.
 */
export function stripsTypes(nodeArgs = [], features = process.features) {
  if (nodeArgs.includes('--no-experimental-strip-types')) return false;
  return Boolean(features?.typescript) || nodeArgs.some((a) => a === '--experimental-strip-types' || a === '--experimental-transform-types');
}

/** Node 20's search of one path (`processPath`), into `out`. */
function walk(p, out, opts) {
  const st = fs.statSync(p);
  if (st.isFile()) {
    if (opts.userSupplied || (opts.underTestDir && SUPPORTED.test(p)) || TEST_NAME.test(path.basename(p))) out.add(p);
  } else if (st.isDirectory()) {
    const name = path.basename(p);
    if (!opts.userSupplied && name === 'node_modules') return;
    const under = opts.underTestDir;
    if (name === 'test') opts.underTestDir = true;
    opts.userSupplied = false;
    for (const e of fs.readdirSync(p)) walk(path.join(p, e), out, opts);
    opts.underTestDir = under;
  }
}

function couldNotFind(patterns) {
  return new ShardwiseError(`could not find '${patterns.join(', ')}': no test file matches (node --test would stop here too); patterns are relative to ${process.cwd()}`, { code: 'INVALID_INPUT' });
}

/**
 * The test files of `node --test <patterns>` run in `cwd`, as absolute paths, sorted (node:test
 * sorts them too).
 * @param {string[]} patterns the user's patterns (none: node:test's default)
 * @param {{cwd?: string, nodeArgs?: string[], globSync?: Function}} [o] `nodeArgs`: the options the
 *   `node --test` is given (they say whether it strips types); `globSync`: `fs.globSync`, where
 *   this Node has it (a test passes undefined to take Node 20's rules)
 * @returns {string[]}
 */
export function nodeTestFiles(patterns, { cwd = process.cwd(), nodeArgs = [], globSync = fs.globSync } = {}) {
  const out = new Set();
  if (typeof globSync !== 'function') {
    const paths = patterns.length ? patterns : [cwd];
    for (const p of paths) {
      try {
        walk(path.resolve(cwd, p), out, { userSupplied: true, underTestDir: false });
      } catch (e) {
        if (e?.code === 'ENOENT') throw couldNotFind([p]);
        throw e;
      }
    }
    return [...out].sort();
  }
  const def = defaultPattern(stripsTypes(nodeArgs));
  const exclude = (name) => name === 'node_modules';
  const glob = (pats) => globSync(pats, { cwd, exclude }).map((f) => path.resolve(cwd, f));
  for (const f of glob(patterns.length ? patterns : [def])) {
    let st;
    try {
      st = fs.statSync(f);
    } catch {
      continue;
    }
    if (st.isDirectory()) for (const g of glob([path.posix.join(path.relative(cwd, f).split(path.sep).join('/') || '.', def)])) out.add(g);
    else out.add(f);
  }
  if (patterns.length && out.size === 0 && patterns.every((p) => !MAGIC.test(p))) throw couldNotFind(patterns);
  return [...out].sort();
}
