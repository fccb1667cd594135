// A Jest shard pays the transforms of every module its files load (issue 30): Jest transforms a
// module once per run, on the first file that loads it, and its cache is empty on a fresh CI
// machine. Real Jest runs of a suite of four families of test files, each family loading a large
// module of its own (and all a small shared one; one family loads its module by a name the
// configuration's moduleNameMapper maps), every run with a fresh cache as on a CI
// machine: a seed run, then 2 balanced shards planned from its report. The seed's workers run the
// families' first files early (Jest runs the largest file first on a fresh cache: their sizes set
// the order), so the files after each worker's first pay two modules' transforms: the run's cold
// cost. The shards read the suite's modules (the plan line says how many), keep each family on
// one shard (each shard transforms two large modules, not four), agree on the plan, and
// `shardwise plan <seed report>` run in the checkout prints the shards' fingerprint. Timings are
// not asserted: the bench measures them (`npm run bench:suites -- --suite jest`).
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import * as api from 'shardwise';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { costsRecordOf } from '../pkg/src/sources.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIR = path.join(ROOT, 'js-tests', '.out', 'jest-modules');
const FAMILIES = ['alpha', 'beta', 'gamma', 'delta'];
const FAMILY = 4;
/** The family whose files load their module by a name the configuration maps (moduleNameMapper). */
const ALIASED = 'delta';

/** A library module of `n` generated functions (about 330 bytes each), CommonJS. */
const library = (name, n) => `'use strict';\n// ${name}: generated\n${Array.from({ length: n }, (_, i) => `function ${name}${i}(x) {
  let acc = x * ${i + 3} + ${i};
  for (let k = 0; k < 3; k++) acc = (acc + k) % 7 === 0 ? (acc >> 1) ^ ${i} : acc + ((k * ${i}) & 0xff);
  switch (acc % 3) { case 0: return acc; case 1: return acc + ${i}; default: return acc - 1; }
}`).join('\n')}\nmodule.exports = { ${Array.from({ length: n }, (_, i) => `${name}${i}`).join(', ')}, shared: require('./shared') };\n`;

/** Test file `i` of `family`, padded so that Jest (largest first) runs the families' first files first: rank 0 the largest. */
const testFile = (family, i, rank) => `'use strict';
// ${'.'.repeat(100 * (FAMILIES.length * FAMILY - rank))}
const lib = require(${family === ALIASED ? `'@lib/${family}'` : `'../src/${family}'`});
describe('${family} ${i}', () => {
${Array.from({ length: 6 }, (_, t) => `  test('case ${t}', () => { expect(typeof lib.${family}${t}(${i + t})).toBe('number'); expect(lib.shared.twice(${t})).toBe(${2 * t}); });`).join('\n')}
});\n`;

function run(label, shard, env2 = {}) {
  const output = path.join(DIR, 'out', label);
  const env = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', SW_OUTPUT: output, SW_CACHE: path.join(DIR, 'cache', label) };
  for (const k of Object.keys(env)) if (k.startsWith('SHARDWISE_') || k === 'CI' || k.startsWith('GITHUB_')) delete env[k];
  Object.assign(env, env2);
  const argv = [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--config', path.join(DIR, 'jest.config.cjs'), ...(shard ? [`--shard=${shard}`] : [])];
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd: ROOT, env, maxBuffer: 64 << 20, timeout: 180_000 }, (e, stdout, stderr) => {
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, text: `${stdout}\n${stderr}` });
    });
  });
}

describe('jest: a shard pays the transforms of the modules its files load', { concurrency: false }, () => {
  let seed;
  let seedSpread;
  /** What the seed taught (`shardCosts(seed report).costs`). */
  let taught;
  let shards;
  before(async () => {
    rmSync(DIR, { recursive: true, force: true });
    for (const d of ['src', 'tests', 'out']) mkdirSync(path.join(DIR, d), { recursive: true });
    writeFileSync(path.join(DIR, 'package.json'), '{ "private": true, "type": "commonjs" }\n');
    writeFileSync(path.join(DIR, 'jest.config.cjs'), `module.exports = {
  rootDir: __dirname, testMatch: ['**/tests/*.test.js'], maxWorkers: 2,
  moduleNameMapper: { '^@lib/(.*)$': '<rootDir>/src/$1', '\\.css$': 'identity-obj-proxy' },
  cacheDirectory: process.env.SW_CACHE,
  testSequencer: 'shardwise/jest/sequencer',
  reporters: ['default', ['shardwise/jest', { outputFolder: process.env.SW_OUTPUT }]],
};\n`);
    // four large modules (about 1 MB each: Jest's babel transform takes a second or more of
    // each), one small shared one. Their size is the test's margin: the seed teaches a cold cost
    // of about 4 s at full, so a file that goes to the other family's shard costs that shard about
    // a quarter of it (one more large module of four), and the plan moves one only if a seed file
    // took over 2 s more than its family's others (at 650 KB, 1.2 s: a seed run under the load of
    // CI's other test files did that once)
    writeFileSync(path.join(DIR, 'src', 'shared.js'), "'use strict';\nmodule.exports = { twice: (x) => 2 * x };\n");
    for (const [f, family] of FAMILIES.entries()) {
      writeFileSync(path.join(DIR, 'src', `${family}.js`), library(family, 3000));
      for (let i = 0; i < FAMILY; i++) writeFileSync(path.join(DIR, 'tests', `${family}-${i}.test.js`), testFile(family, i, i * FAMILIES.length + f));
    }
    // The seed is the test's input, not what it tests: a seed run on a machine so busy that its
    // families' costs differ by more than what a file that leaves its family costs its new shard
    // (a fifth of the cold cost: one large module more of four) would rightly be split another
    // way (under the load of two other real-runner test files, one seed took 12.7 s on a file its
    // family's others took 1 s on). Such a seed is run again, at most three times in all.
    const timings = path.join(DIR, 'out', 'seed', 'report.json.br');
    for (let tries = 1; ; tries++) {
      // a fresh Jest cache each time, as on a CI machine
      for (const d of ['out', 'cache']) rmSync(path.join(DIR, d, 'seed'), { recursive: true, force: true });
      seed = await run('seed');
      assert.equal(seed.code, 0, seed.text);
      const { costs } = api.shardCosts(api.decodeReport(new Uint8Array(readFileSync(timings))));
      taught = costs;
      const sums = FAMILIES.map((f) => Object.entries(costs.files).filter(([file]) => file.includes(`/${f}-`)).reduce((a, [, ms]) => a + ms, 0));
      seedSpread = Math.max(...sums) - Math.min(...sums);
      if (seedSpread <= costs.coldMs / 5) break;
      console.log(`jest-modules: seed run ${tries}: its families cost ${sums.join(', ')} ms (cold ${costs.coldMs} ms): run again`);
      assert.ok(tries < 3, `three seed runs on a machine too busy to tell the families apart: the last one's families cost ${sums.join(', ')} ms, cold ${costs.coldMs} ms`);
    }
    shards = await Promise.all([1, 2].map((i) => run(`shard-${i}`, `${i}/2`, { SHARDWISE_TIMINGS_FILE: timings, SHARDWISE_ALWAYS_BALANCE: '1' })));
  });

  const line = (r) => r.text.match(/^\[shardwise\] shard \d\/2: .*fingerprint (\S+)/m);

  test('the seed run teaches a cold cost, and each shard reads the suite\'s modules with it', () => {
    assert.ok(taught.coldMs > 0, `the seed's first files paid the large modules' transforms: ${JSON.stringify(taught)}`);
    for (const r of shards) {
      assert.equal(r.code, 0, r.text);
      assert.ok(line(r), r.text);
      assert.match(r.text, /cold \S+ over 5 modules of the suite \(\d+ KB\)/);
    }
  });

  test('each family goes to one shard: each shard transforms two large modules, not four', () => {
    const ran = shards.map((r) => [...r.text.matchAll(/(?:PASS|FAIL) .*tests\/(\w+)-\d+\.test\.js/g)].map((m) => m[1]));
    assert.equal(ran.flat().length, FAMILIES.length * FAMILY, `every file ran once:\n${shards.map((r) => r.text).join('\n')}`);
    // a failure says what the seed taught: a file far beyond its family's others is the seed's noise
    for (const [i, families] of ran.entries()) assert.equal(new Set(families).size, 2, `shard ${i + 1} ran ${families.join(', ')}; the seed's families' costs were ${seedSpread} ms apart, and it taught ${JSON.stringify(taught)}`);
  });

  test('each shard\'s report keeps the share of the modules its files loaded, so its cold cost is read at full', () => {
    for (const i of [1, 2]) {
      const report = api.decodeReport(new Uint8Array(readFileSync(path.join(DIR, 'out', `shard-${i}`, `shard-${i}-of-2`, 'report.json.br'))));
      const record = costsRecordOf(report);
      // two of the four large modules (and the small shared one)
      assert.ok(record.modulesShare > 0.45 && record.modulesShare < 0.55, JSON.stringify(record.modulesShare));
    }
  });

  test('both shards print one fingerprint, and `shardwise plan` in the checkout prints it too', async () => {
    const [a, b] = shards.map((r) => line(r)[1]);
    assert.equal(a, b);
    const out = await new Promise((resolve) => {
      execFile(process.execPath, [path.join(ROOT, 'pkg/bin/shardwise.mjs'), 'plan', path.join(DIR, 'out', 'seed'), '--shards', '2', '--jest-config', path.join(DIR, 'jest.config.cjs')], { cwd: ROOT }, (e, stdout, stderr) => resolve(`${stdout}${stderr}`));
    });
    // the delta family's module by the name the configuration maps (@lib/delta), as the shards read it
    assert.match(out, /^modules +5 modules of the suite's own \(\d+ KB\) that 16 files of .* load, with the names .*jest\.config\.cjs maps:/m);
    assert.equal(out.match(/^fingerprint +(\S+)/m)?.[1], a, out);
  });

  test('`shardwise plan` with a Jest configuration that does not load says so, and plans with the relative imports', async () => {
    const broken = path.join(DIR, 'broken.config.cjs');
    writeFileSync(broken, "throw new Error('this configuration needs SOME_SECRET');\n");
    const out = await new Promise((resolve) => {
      execFile(process.execPath, [path.join(ROOT, 'pkg/bin/shardwise.mjs'), 'plan', path.join(DIR, 'out', 'seed'), '--shards', '2', '--jest-config', broken], { cwd: ROOT }, (e, stdout, stderr) => resolve({ code: e?.code ?? 0, text: `${stdout}${stderr}` }));
    });
    assert.equal(out.code, 0, out.text);
    // the delta family's module is loaded only by its mapped name: 4 of the 5
    assert.match(out.text, /^modules +4 modules of the suite's own \(\d+ KB\) that 16 files of .* load \(its Jest configuration did not load: .*SOME_SECRET.*: relative imports only\)/m);
    assert.doesNotMatch(out.text, /\n\s+at /, 'no stack');
  });
});
