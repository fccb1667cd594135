// Brotli benchmark: ~5 MB of report-like JSON (fixed seed), quality 9 / lgwin 22.
// Prints median times and sizes for shardwise against Node's native zlib (and brotli-wasm if
// installed), measured in the same run, as ratios. Usage: node bench/brotli.mjs [runs]
import zlib from 'node:zlib';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { compress, decompress } from 'shardwise';
import { reportJson } from '../js-tests/helpers/data.mjs';

const runs = Number(process.argv[2] ?? 7);
const input = new TextEncoder().encode(reportJson(5 << 20));
const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_LGWIN]: 22 };

function median(fn) {
  const times = [];
  let out;
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    out = fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { ms: times[times.length >> 1], out };
}

const rows = [];
const add = (name, c, d) => rows.push({ name, cms: c.ms, size: c.out.length, dms: d.ms });

const nc = median(() => zlib.brotliCompressSync(input, { params }));
const nd = median(() => zlib.brotliDecompressSync(nc.out));
add('node zlib (native)', nc, nd);

const oc = median(() => compress(input));
const od = median(() => decompress(oc.out));
add('shardwise (wasm)', oc, od);

try {
  const require = createRequire(import.meta.url);
  const bw = require('brotli-wasm');
  const bc = median(() => bw.compress(input, { quality: 9 }));
  const bd = median(() => bw.decompress(bc.out));
  add('brotli-wasm', bc, bd);
} catch (e) {
  console.log(`(brotli-wasm not measured: ${e.code ?? e.message})`);
}

const base = rows[0];
console.log(`input ${input.length} bytes, ${runs} runs each, median`);
console.log('engine'.padEnd(20), 'compress ms'.padStart(12), 'x native'.padStart(9), 'size'.padStart(9), 'x native'.padStart(9), 'decompress ms'.padStart(14), 'x native'.padStart(9));
for (const r of rows) {
  console.log(r.name.padEnd(20), r.cms.toFixed(1).padStart(12), (r.cms / base.cms).toFixed(2).padStart(9),
    String(r.size).padStart(9), (r.size / base.size).toFixed(4).padStart(9), r.dms.toFixed(1).padStart(14), (r.dms / base.dms).toFixed(2).padStart(9));
}
const wasm = createRequire(import.meta.url).resolve('shardwise/shardwise_bg.wasm');
console.log(`shardwise .wasm: ${statSync(wasm).size} bytes`);
