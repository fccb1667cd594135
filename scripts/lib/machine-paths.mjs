// The package must not carry the paths of the machine that built it. Rust embeds the source path
// of every panic location, and dependencies are compiled from $CARGO_HOME/registry/src/<index>/,
// so without a remap the .wasm names the builder's home directory. The build (scripts/build.mjs)
// and the wasm tests (scripts/test.sh, which reuse the build's release dependencies and so must
// compile with the same flags) both take the flags from here; the build then checks what it made.
// `node scripts/lib/machine-paths.mjs` prints the cargo arguments, one per line, for test.sh.
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const cargoHome = process.env.CARGO_HOME ?? join(homedir(), '.cargo');
const rustupHome = process.env.RUSTUP_HOME ?? join(homedir(), '.rustup');

/**
 * `--config` arguments for cargo that add to .cargo/config.toml's wasm rustflags (cargo joins
 * arrays of config values; RUSTFLAGS would replace them): crates.io sources are named from their
 * registry folder (`index.crates.io-<hash>/serde_json-1.0.154/src/de.rs`), the repository's from
 * its root.
 */
export function wasmCargoConfig() {
  const prefixes = [`${cargoHome}/registry/src/`, `${cargoHome}/git/checkouts/`, `${root}/`];
  const flags = prefixes.map((p) => JSON.stringify(`--remap-path-prefix=${p}=`));
  return ['--config', `target.wasm32-unknown-unknown.rustflags=[${flags.join(', ')}]`];
}

/** The paths of this machine a built package could leak: the checkout, Cargo's and rustup's homes, the user's home. */
export function machinePaths() {
  const paths = new Set([root, cargoHome, rustupHome, homedir()]);
  try { paths.add(realpathSync(root)); } catch { /* the checkout is there: it holds this file */ }
  // A home of `/` or a one-letter folder would match every absolute path a text mentions.
  return [...paths].filter((p) => p.replace(/\/+$/, '').length >= 4).map((p) => p.replace(/\/*$/, '/'));
}

/** Every `{file, path}` where a file under `dir` holds one of `paths` (bytes read as latin1). */
export function findMachinePaths(dir, paths = machinePaths()) {
  const found = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const f = join(d, e.name);
      if (e.isDirectory()) walk(f);
      else if (e.isFile()) {
        const text = readFileSync(f, 'latin1');
        for (const p of paths) if (text.includes(p)) found.push({ file: relative(dir, f), path: p });
      }
    }
  };
  walk(dir);
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--check') {
    const found = findMachinePaths(process.argv[3]);
    for (const { file, path } of found) console.error(`${file}: holds ${path}`);
    process.exit(found.length ? 1 : 0);
  }
  console.log(wasmCargoConfig().join('\n'));
}
