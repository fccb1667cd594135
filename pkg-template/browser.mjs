// Browser entry: `await init()` (optionally with the wasm's URL, bytes or a Response) before use.
import wasmInit from './wasm/shardwise.js';
import { setup } from './src/setup.js';

let ready;
/** Fetches and instantiates the wasm once; later calls return the same promise. */
export function init(input) {
  ready ??= wasmInit(input === undefined ? undefined : { module_or_path: input }).then(() => setup());
  return ready;
}
export default init;
export * from './src/api.js';
