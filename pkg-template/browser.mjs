// Browser entry: `await init()` (optionally with the wasm's URL, bytes or a Response) before use.
import wasmInit from './wasm/shardwise.js';
import { setup } from './src/setup.js';

// Appended when `init()` without an argument could not load the .wasm from beside this module:
// the usual cause is a bundler that does not emit it (esbuild).
const HINT = ' (init() without an argument loads shardwise_bg.wasm from beside the bundle: emit or copy it there, '
  + 'or pass its URL to init(url); see "Browsers and bundlers" in shardwise\'s README)';

let ready;
/** Fetches and instantiates the wasm once; later calls return the same promise. After a failure, a later call tries again. */
export function init(input) {
  ready ??= wasmInit(input === undefined ? undefined : { module_or_path: input }).then(() => setup(), (e) => {
    ready = undefined;
    if (input === undefined && e instanceof Error && /^failed to fetch Wasm|expected magic word/.test(e.message)) e.message += HINT;
    throw e;
  });
  return ready;
}
export default init;
export * from './src/api.js';
