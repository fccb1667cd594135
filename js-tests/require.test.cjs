// The same package through CommonJS `require` (the bundled node.cjs entry).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const zlib = require('node:zlib');
const shardwise = require('shardwise');

test('require() gives the full API', () => {
  for (const name of ['compress', 'decompress', 'Compressor', 'Decompressor', 'ShardwiseError', 'init']) {
    assert.equal(typeof shardwise[name], 'function', name);
  }
});

test('require(): round trip and interop with Node zlib', () => {
  const data = Buffer.from('{"tests":[' + '{"title":"t","duration":12},'.repeat(5000) + '{}]}');
  const c = shardwise.compress(data);
  assert.deepEqual(zlib.brotliDecompressSync(c), data);
  assert.deepEqual(Buffer.from(shardwise.decompress(zlib.brotliCompressSync(data))), data);
});

test('require(): errors are ShardwiseError instances with a code', () => {
  assert.throws(() => shardwise.decompress(Buffer.from('garbage!garbage!')), (e) =>
    e instanceof shardwise.ShardwiseError && e.code === 'BROTLI_CORRUPT');
});

test('package.json exports resolve to the Node entries', () => {
  assert.match(require.resolve('shardwise'), /node\.cjs$/);
  const pkg = require('shardwise/package.json');
  assert.equal(pkg.name, 'shardwise');
  assert.ok(pkg.exports['.'].types);
});
