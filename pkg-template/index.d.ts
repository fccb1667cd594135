// Types of the `shardwise` package. One file per domain under ./types.
export * from './types/errors.js';
export * from './types/codec.js';
export * from './types/report.js';
export * from './types/plan.js';
export * from './types/exchange.js';

/**
 * Instantiates the wasm module. Required once in browsers before any other call (it fetches
 * the .wasm); a no-op in Node, where the module is ready on import.
 */
export declare function init(input?: string | URL | Response | BufferSource | WebAssembly.Module): Promise<void>;
export default init;
