// Type-checked (not run): the API as a CommonJS TypeScript user sees it.
import shardwise = require('shardwise');

const packed: Uint8Array = shardwise.compress('text');
const err = new shardwise.ShardwiseError('x', { code: 'TIMEOUT' });
console.log(shardwise.decompress(packed).length, err.code);
