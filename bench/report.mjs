// Report benchmark (issue 3): build and encode a report of 100,000 tests with attempts through the
// public API (`ReportBuilder` -> `encode()`), against a plain-JS baseline measured in the same run:
// the same document as plain objects, `JSON.stringify`, Node's native zlib Brotli at quality 9.
//
// Each variant runs in its own child process so that its peak memory (VmHWM, minus the RSS of the
// same process just before the work starts) is its own. Printed: median wall time of the runs,
// peak memory, encoded size, and the ratios ours / baseline and ours-peak / encoded-JSON size.
// Then, from one more run, where our time goes (add* calls vs encode()) and the codec's own
// share on our JSON: wasm Brotli alone vs Node's native Brotli alone, and the wasm memory of the
// Brotli encoder alone, which bound the time and memory ratios whatever the builder does.
//
// Usage: node bench/report.mjs [tests=100000] [runs=3]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { rng } from '../js-tests/helpers/data.mjs';
import { peakRss } from './peak-rss.mjs';

const TESTS = Number(process.argv[2] ?? 100_000);
const RUNS = Number(process.argv[3] ?? 3);
const WORDS = ['renders', 'login', 'page', 'checkout', 'cart', 'retries', 'upload', 'settings',
  'dashboard', 'filters', 'search', 'results', 'keyboard', 'navigation', 'dark', 'mode', 'api'];
const ENVIRONMENTS = [
  { name: 'chromium', systemData: { osName: 'linux', osVersion: '6.8', osArch: 'x64' } },
  { name: 'firefox', systemData: { osName: 'linux', osVersion: '6.8', osArch: 'x64' } },
];

/** The runner-side data both variants turn into a report: seeded, identical in every process. */
function* runnerTests(n) {
  const r = rng(3);
  const pick = () => WORDS[(r() * WORDS.length) | 0];
  for (let i = 0; i < n; i++) {
    const file = `tests/${pick()}/${pick()}-${i % 500}.spec.ts`;
    const titlePath = [`${pick()} ${pick()}`, `${pick()} ${pick()} ${pick()} #${i}`];
    const retried = r() < 0.05;
    const attempts = [];
    for (let a = 0; a <= (retried ? 1 : 0); a++) {
      const failed = retried && a === 0;
      attempts.push({
        environmentIdx: i % 2,
        status: failed ? 'failed' : 'passed',
        startTimestamp: 1760000000000 + i * 137 + a,
        duration: (r() * 30000) | 0,
        ...(failed ? { errors: [{ message: `expect(received).toBe(expected) // ${pick()} ${pick()}` }] } : {}),
      });
    }
    yield { titlePath, file, line: 1 + ((r() * 400) | 0), column: 5, attempts };
  }
}

const INIT = { category: 'playwright', commitId: 'a'.repeat(40), startTimestamp: 1760000000000, duration: 1 };

/** Where our time goes (set by `ours`). */
const phases = {};

/** Our public API: ReportBuilder -> encode(). */
async function ours() {
  const { ReportBuilder } = await import('shardwise');
  return () => {
    const t0 = performance.now();
    const b = new ReportBuilder(INIT);
    for (const env of ENVIRONMENTS) b.addEnvironment(env);
    for (const t of runnerTests(TESTS)) {
      const h = b.addTest({ titlePath: t.titlePath, file: t.file, line: t.line, column: t.column });
      for (const a of t.attempts) b.addAttempt(h, a);
    }
    phases.addMs = performance.now() - t0;
    const out = b.encode();
    phases.encodeMs = performance.now() - t0 - phases.addMs;
    b.free();
    return out;
  };
}

/** Plain JS: objects shaped like docs/report-format.md, JSON.stringify, native Brotli quality 9. */
async function baseline() {
  return () => {
    const root = new Map();
    for (const t of runnerTests(TESTS)) {
      const { file } = t;
      const [describe, title] = t.titlePath;
      let f = root.get(file);
      if (!f) root.set(file, (f = { type: 'file', title: file, suites: new Map() }));
      let d = f.suites.get(describe);
      if (!d) f.suites.set(describe, (d = { type: 'describe', title: describe, tests: [] }));
      d.tests.push({ title, location: { file, line: t.line, column: t.column }, attempts: t.attempts });
    }
    const suites = [...root.values()].map((f) => ({ ...f, suites: [...f.suites.values()] }));
    const json = JSON.stringify({ ...INIT, environments: ENVIRONMENTS, suites });
    const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_LGWIN]: 22 };
    return zlib.brotliCompressSync(json, { params });
  };
}

/**
 * The bound the codec sets, on the JSON our builder encodes (passed in a file): our wasm Brotli
 * alone (streamed, as encode() does) and Node's native Brotli alone, at the same settings, and
 * the wasm memory the encoder alone needs (this process does nothing else in the wasm).
 */
async function codecChild(jsonPath) {
  const { Compressor } = await import('shardwise');
  const json = readFileSync(jsonPath);
  let t = performance.now();
  const c = new Compressor({ quality: 9, lgwin: 22 });
  let size = 0;
  for (let i = 0; i < json.length; i += 1 << 18) size += c.push(json.subarray(i, i + (1 << 18))).length;
  size += c.finish().length;
  const wasmMs = performance.now() - t;
  const wasmBytes = (await import('../pkg/wasm/shardwise.js')).initSync({}).memory.buffer.byteLength;
  t = performance.now();
  const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_LGWIN]: 22 };
  zlib.brotliCompressSync(json, { params });
  const zlibMs = performance.now() - t;
  process.stdout.write(JSON.stringify({ wasmMs, zlibMs, wasmBytes, size }));
}

async function child(variant) {
  const work = await (variant === 'ours' ? ours() : baseline());
  global.gc?.();
  const before = process.memoryUsage().rss;
  const t0 = performance.now();
  const out = work();
  const ms = performance.now() - t0;
  const peak = peakRss();
  const json = zlib.brotliDecompressSync(out);
  // The wasm linear memory never shrinks, so its size now is the core's peak. It is the same
  // instance the package initialized ('shardwise' resolves to pkg/): initSync returns it.
  const wasmBytes = variant === 'ours' ? (await import('../pkg/wasm/shardwise.js')).initSync({}).memory.buffer.byteLength : 0;
  if (jsonOut) writeFileSync(jsonOut, json);
  process.stdout.write(JSON.stringify({ ms, peakBytes: Math.max(0, peak - before), wasmBytes, size: out.length, jsonBytes: json.length, ...phases }));
}

function run(variant, ...extra) {
  const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), String(TESTS), '1', `--child=${variant}`, ...extra], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`${variant} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const mb = (n) => (n / 1048576).toFixed(1) + ' MB';

const childArg = process.argv.find((a) => a.startsWith('--child='));
const jsonOut = process.argv.find((a) => a.startsWith('--json-out='))?.slice(11);
if (childArg?.slice(8) === 'codec') {
  await codecChild(process.argv.find((a) => a.startsWith('--json=')).slice(7));
} else if (childArg) {
  await child(childArg.slice(8));
} else {
  const results = { ours: [], baseline: [] };
  for (let i = 0; i < RUNS; i++) for (const v of ['baseline', 'ours']) results[v].push(run(v));
  const sum = (v) => ({ ms: median(results[v].map((r) => r.ms)), peak: median(results[v].map((r) => r.peakBytes)), wasm: median(results[v].map((r) => r.wasmBytes)), size: results[v][0].size, json: results[v][0].jsonBytes });
  const o = sum('ours');
  const b = sum('baseline');
  console.log(`report of ${TESTS} tests, ${RUNS} runs each (median), each run in a fresh process`);
  console.log('variant    time ms   peak mem   encoded    JSON');
  for (const [name, s] of [['baseline', b], ['shardwise', o]]) {
    console.log(`${name.padEnd(10)} ${s.ms.toFixed(0).padStart(7)}   ${mb(s.peak).padStart(8)}   ${mb(s.size).padStart(7)}   ${mb(s.json).padStart(7)}`);
  }
  console.log(`time ratio shardwise/baseline: ${(o.ms / b.ms).toFixed(2)}x (goal <= 1.00)`);
  console.log(`peak memory ratio shardwise/baseline: ${(o.peak / b.peak).toFixed(2)}x`);
  console.log(`shardwise peak RSS growth / its JSON size: ${(o.peak / o.json).toFixed(2)}x (includes the V8 heap of the caller's objects)`);
  console.log(`shardwise wasm memory (core peak) ${mb(o.wasm)} / its JSON size: ${(o.wasm / o.json).toFixed(2)}x (goal < 2)`);

  // The codec's share, on our own JSON: what no builder change can remove.
  const dir = mkdtempSync(join(tmpdir(), 'shardwise-bench-'));
  try {
    const jsonPath = join(dir, 'report.json');
    const last = run('ours', `--json-out=${jsonPath}`);
    const c = run('codec', `--json=${jsonPath}`);
    if (c.size !== last.size) throw new Error(`streamed Compressor output (${c.size} bytes) differs from encode() (${last.size} bytes)`);
    console.log(`breakdown (one more run): shardwise add* calls (with generating the runner data) ${last.addMs.toFixed(0)} ms, encode() ${last.encodeMs.toFixed(0)} ms`);
    console.log(`codec alone on that JSON: wasm Brotli ${c.wasmMs.toFixed(0)} ms, Node native Brotli ${c.zlibMs.toFixed(0)} ms ` +
      `(wasm/native ${(c.wasmMs / c.zlibMs).toFixed(2)}x; wasm Brotli alone / whole baseline ${(c.wasmMs / b.ms).toFixed(2)}x)`);
    console.log(`wasm memory of the Brotli encoder alone: ${mb(c.wasmBytes)} = ${(c.wasmBytes / last.jsonBytes).toFixed(2)}x the JSON`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
