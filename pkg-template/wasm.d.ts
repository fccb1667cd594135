// `import wasmUrl from 'shardwise/shardwise_bg.wasm'` under a bundler that turns a .wasm import
// into its emitted file's URL (esbuild's `--loader:.wasm=file`); pass it to `init()`.
declare const wasmUrl: string;
export default wasmUrl;
