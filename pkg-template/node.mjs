// Node entry: the wasm is instantiated synchronously from the file next to this one.
import { readFileSync } from 'node:fs';
import { initSync } from './wasm/shardwise.js';
import { setup } from './src/setup.js';

initSync({ module: readFileSync(new URL('./wasm/shardwise_bg.wasm', import.meta.url)) });
setup();

/** Present for code shared with browsers; in Node the module is ready on import. */
export async function init() {}
export default init;
export * from './src/node-api.js';
