// Type-checked (not run) by js-tests/types.test.mjs: the API as an ESM TypeScript user sees it.
import init, { compress, decompress, Compressor, Decompressor, ShardwiseError, type ErrorCode } from 'shardwise';

await init();
const packed: Uint8Array = compress('text', { quality: 9, lgwin: 22 });
const bytes: Uint8Array = decompress(packed, { maxOutputBytes: 1 << 20 });
const c = new Compressor();
const parts: Uint8Array[] = [c.push(bytes), c.finish()];
new Decompressor({ maxOutputBytes: 10 }).push(parts[0]);
try {
  decompress(bytes);
} catch (e) {
  if (e instanceof ShardwiseError) {
    const code: ErrorCode = e.code;
    console.log(code, e.step, e.status, e.attempts);
  }
}
// @ts-expect-error quality is a number
compress('x', { quality: 'high' });
