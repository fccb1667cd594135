// Types of the `shardwise` package. One file per domain under ./types.
export * from './types/errors.js';
export * from './types/codec.js';
export * from './types/report.js';
export * from './types/plan.js';
export * from './types/exchange.js';

/**
 * Instantiates the wasm module. Required once in browsers (on the page and in each worker) before
 * any other call; a no-op in Node, where the module is ready on import. Without `input` it fetches
 * `shardwise_bg.wasm` from beside the package's module (`new URL('shardwise_bg.wasm',
 * import.meta.url)`, which Vite and webpack 5 emit); `input` is the .wasm's URL, a `Response`,
 * its bytes or a compiled module. Later calls return the first call's promise; after a failure,
 * a later call tries again.
 */
export declare function init(input?: string | URL | Response | BufferSource | WebAssembly.Module): Promise<void>;
export default init;
