// Deterministic test data: a seeded PRNG and report-like JSON of a chosen size.

/** xorshift32: the same sequence on every machine for a given seed. */
export function rng(seed = 1) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x / 0x100000000;
  };
}

/** Incompressible bytes. */
export function noise(n, seed = 7) {
  const r = rng(seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (r() * 256) | 0;
  return out;
}

const WORDS = ['renders', 'login', 'page', 'checkout', 'cart', 'retries', 'upload', 'settings',
  'dashboard', 'filters', 'search', 'results', 'keyboard', 'navigation', 'dark', 'mode', 'api'];

/** A report-like JSON document of about `bytes` bytes (test titles, paths, durations, errors). */
export function reportJson(bytes, seed = 42) {
  const r = rng(seed);
  const pick = () => WORDS[(r() * WORDS.length) | 0];
  const tests = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const failed = r() < 0.05;
    const t = {
      title: `${pick()} ${pick()} ${pick()} #${i}`,
      location: { file: `tests/${pick()}/${pick()}.spec.ts`, line: 1 + ((r() * 400) | 0), column: 5 },
      attempts: [{
        environmentIdx: (r() * 3) | 0,
        status: failed ? 'failed' : 'passed',
        startTimestamp: 1760000000000 + i * 137,
        duration: (r() * 30000) | 0,
        ...(failed ? { errors: [{ message: `expect(received).toBe(expected)\n\nExpected: ${(r() * 1e6) | 0}`, stack: `Error: at tests/${pick()}.spec.ts:${(r() * 300) | 0}:7` }] } : {}),
      }],
    };
    const s = JSON.stringify(t);
    size += s.length + 1;
    tests.push(s);
  }
  return `{"category":"playwright","commitId":"${'a'.repeat(40)}","environments":[{"name":"chromium"},{"name":"firefox"},{"name":"webkit"}],"startTimestamp":1760000000000,"duration":1,"tests":[${tests.join(',')}]}`;
}
