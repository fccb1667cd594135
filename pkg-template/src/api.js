// The public API: the wasm exports under the names of api.md, plus the error class.
// Rust does the work; nothing here re-implements it.
export { compress, decompress, Compressor, Decompressor } from '../wasm/shardwise.js';
export { ReportBuilder, encodeReport, decodeReport, validateReport, normalizeReport } from '../wasm/shardwise.js';
export { planShards } from '../wasm/shardwise.js';
export { fetchDurations, uploadReport, shardGroupKeyFor } from '../wasm/shardwise.js';
export { ShardwiseError } from './errors.js';
