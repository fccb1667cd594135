// The generated projects of bench/suites.mjs: a Jest, a Vitest and a Playwright suite whose costs
// look like real ones. In the unit-test suites a file's time is mostly its own load: importing
// generated modules of a few thousand lines (transformed by babel-jest, or by Vite as TypeScript),
// a big shared module in some files, setup files, a jsdom environment in some files; the tests
// themselves are many and tiny (`test.each` tables included), and a few files are slow (CPU
// loops, two sleeps). The Playwright suite pays a browser launch per worker (Debian's Chromium),
// a `beforeAll` per file and a fresh page per test. Everything is written from a seeded PRNG:
// the same projects on every run. Each config reads SW_OUTPUT (shardwise's output folder),
// SW_JSON (the runner's own JSON report, the oracle of what ran), SW_CACHE (a fresh cache
// folder per run: a CI machine's cold cache) and SW_NATIVE=1 (shardwise left out: the runner's
// native `--shard`).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A seeded PRNG (mulberry32): the same projects every time. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pad = (n, w = 3) => String(n).padStart(w, '0');
export const write = (dir, rel, text) => {
  const file = path.join(dir, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
};

/**
 * A generated library module of about `lines` lines: functions with branches, lookup tables,
 * classes rendering strings. `style`: 'cjs', 'esm' or 'ts' (ESM with type annotations). Exports
 * `fn0..fnK` (number -> number), `render0..` (number -> string) and `Model0..` classes.
 */
export function moduleSource(name, lines, style, random) {
  const ts = style === 'ts';
  const ex = style === 'cjs' ? '' : 'export ';
  const num = ts ? ': number' : '';
  const str = ts ? ': string' : '';
  const out = [`// Generated library module ${name} (bench/suites-projects.mjs).`];
  if (style === 'cjs') out.push(`'use strict';`);
  if (ts) out.push(`export interface Row { id: number; label: string; weight: number; tags: string[] }`);
  const names = { fn: [], render: [], model: [] };
  let k = 0;
  while (out.length < lines) {
    const r = random();
    if (r < 0.5) {
      const id = names.fn.length;
      names.fn.push(`fn${id}`);
      const a = 1 + Math.floor(random() * 97);
      const b = 1 + Math.floor(random() * 13);
      out.push(
        `${ex}function fn${id}(x${num})${num} {`,
        `  let acc${num} = x * ${a} + ${b};`,
        `  for (let i = 0; i < ${2 + (k % 5)}; i++) {`,
        `    if ((acc + i) % ${b + 2} === 0) acc = (acc >> 1) ^ ${a};`,
        `    else acc = acc + ((i * ${b}) & 0xff);`,
        `  }`,
        `  switch (acc % 4) { case 0: return acc; case 1: return acc + ${a}; case 2: return acc - ${b}; default: return acc ^ ${a * b}; }`,
        `}`,
      );
    } else if (r < 0.75) {
      const id = names.render.length;
      names.render.push(`render${id}`);
      const table = Array.from({ length: 12 }, () => Math.floor(random() * 1000)).join(', ');
      out.push(
        `const TABLE_${id} = [${table}];`,
        `${ex}function render${id}(n${num})${str} {`,
        `  const row = TABLE_${id}[Math.abs(n) % TABLE_${id}.length];`,
        `  const cls = row % 2 === 0 ? 'even' : 'odd';`,
        `  return \`<li class="\${cls} r${id}" data-n="\${n}">item \${n}: \${row}</li>\`;`,
        `}`,
      );
    } else {
      const id = names.model.length;
      names.model.push(`Model${id}`);
      out.push(
        `${ex}class Model${id} {`,
        ...(ts ? [`  rows: Row[];`, `  name: string;`] : []),
        `  constructor(name${str}) { this.name = name; this.rows = []; }`,
        `  add(label${str}, weight${num})${ts ? ': this' : ''} {`,
        `    this.rows.push({ id: this.rows.length, label, weight, tags: [label.slice(0, 3), '${name}'] });`,
        `    return this;`,
        `  }`,
        `  total()${num} { return this.rows.reduce((a, r) => a + r.weight, 0); }`,
        `  find(label${str}) { return this.rows.find((r) => r.label === label); }`,
        `  toJSON() { return { name: this.name, rows: this.rows.length, total: this.total() }; }`,
        `}`,
      );
    }
    k++;
  }
  if (style === 'cjs') out.push(`module.exports = { ${[...names.fn, ...names.render, ...names.model].join(', ')} };`);
  return { text: `${out.join('\n')}\n`, names };
}

/**
 * The file kinds of a unit-test suite, in the order the PRNG deals them: most files are light or
 * medium (their time is load), some import the big shared module, some run in jsdom, a few are
 * slow (CPU) and two sleep; with `slowFileMs`, one file takes that long (CPU, in a few tests).
 */
function kinds(count, random, { jsdom, domShare, slowFileMs }) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const r = random();
    out.push(r < 0.4 ? 'light' : r < 0.64 ? 'medium' : r < 1 - domShare ? 'heavy' : jsdom ? 'dom' : 'medium');
  }
  // a few slow files at deterministic places: CPU loops of ~0.5-2 s and two sleeps
  const slow = [['cpu', 1500], ['cpu', 1100], ['cpu', 800], ['cpu', 500], ['sleep', 1000], ['sleep', 600]];
  slow.forEach(([kind, ms], j) => { out[Math.floor(((j + 0.5) * count) / slow.length)] = `${kind}:${ms}`; });
  // the `-slow` suites: one long file (an integration file) that a split by count strands with a
  // third of the rest; it is small on disk, so a cold runner starts it late
  if (slowFileMs) out[Math.floor(count * 0.3)] = `cpu:${slowFileMs}`;
  return out;
}

/** Iterations of the CPU loop per ms, measured on the 2-core machine this was tuned on (the work is fixed, so its time is the machine's; the loop uses no globals, which are slow in Jest's vm context). */
export const LOOP_PER_MS = 25_000;

/** The test bodies of a unit-test file (Jest and Vitest share them: both have describe/test/expect). */
function unitTestBody({ idx, kind, mods, random, dom, slowHelper }) {
  const L = [];
  const area = `area ${pad(idx)}`;
  const m = mods[0];
  L.push(`describe('${area}: ${kind.split(':')[0]} module behaviour', () => {`);
  const tiny = kind === 'light' ? 8 + Math.floor(random() * 14) : 4 + Math.floor(random() * 10);
  for (let t = 0; t < tiny; t++) {
    const fn = m.names.fn[(idx * 7 + t) % m.names.fn.length];
    L.push(`  test('${fn} of case ${t} is a stable number', () => { const v = ${m.v}.${fn}(${t}); expect(typeof v).toBe('number'); expect(${m.v}.${fn}(${t})).toBe(v); });`);
  }
  if (kind === 'medium' || kind === 'heavy' || random() < 0.3) {
    const rows = 15 + Math.floor(random() * 45);
    const table = Array.from({ length: rows }, (_, r) => `[${r}, ${Math.floor(random() * 100)}]`).join(', ');
    const fn = m.names.fn[idx % m.names.fn.length];
    L.push(`  test.each([${table}])('${fn} row %i with offset %i', (a, b) => { expect(${m.v}.${fn}(a + b)).toBe(${m.v}.${fn}(a + b)); });`);
  }
  for (const other of mods.slice(1)) {
    const r = other.names.render[idx % other.names.render.length];
    const M = other.names.model[idx % other.names.model.length];
    L.push(`  test('${other.v} renders and models', () => { expect(${other.v}.${r}(${idx})).toMatch(/item ${idx}/); const mo = new ${other.v}.${M}('x').add('alpha', 2).add('beta', 3); expect(mo.total()).toBe(5); });`);
  }
  if (kind === 'heavy') {
    L.push(`  test('the shared catalogue answers', () => { expect(typeof shared.fn${idx % 50}(${idx})).toBe('number'); expect(shared.render${idx % 20}(1)).toContain('item 1'); });`);
  }
  if (dom) {
    const n = 5 + Math.floor(random() * 10);
    for (let t = 0; t < n; t++) {
      L.push(`  test('renders list ${t} into the document', () => {`,
        `    const ul = document.createElement('ul');`,
        `    for (let i = 0; i < ${10 + t * 2}; i++) ul.insertAdjacentHTML('beforeend', ${m.v}.${m.names.render[t % m.names.render.length]}(i));`,
        `    document.body.appendChild(ul);`,
        `    expect(ul.querySelectorAll('li').length).toBe(${10 + t * 2});`,
        `    ul.remove();`,
        `  });`);
    }
  }
  const [slow, ms] = kind.split(':');
  if (slow === 'cpu') {
    // the slow part split over a few tests, as in a real slow file
    const parts = 3;
    for (let t = 0; t < parts; t++) L.push(`  test('heavy computation ${t}', () => { expect(${slowHelper}(${Math.round((Number(ms) / parts) * LOOP_PER_MS)})).toBeGreaterThan(0); });`);
  }
  if (slow === 'sleep') L.push(`  test('waits for the fake backend', async () => { await new Promise((r) => setTimeout(r, ${ms})); expect(true).toBe(true); });`);
  L.push('});');
  return L;
}

/** A CPU loop doing `n` iterations of floating-point work (its time is the machine's, like a real slow test). */
export const BUSY = `function busy(n) { let x = 0, y = 1; for (let i = 0; i < n; i++) { y = (y * 1103515245 + 12345) % 2147483648; x += y & 1023; } return x; }`;

/** Sizes of the generated suites: `scale` multiplies the file counts (e.g. 0.3 for a quick try). */
/**
 * The `test` option, as config source, that gives every Vitest run of the bench its own empty
 * module cache (in the run's cache folder, SW_CACHE): Vitest 5 keeps transformed modules in
 * node_modules/.vitest-cache across runs, so without it the seed (the first run) alone pays the
 * transforms, where a shard on a fresh CI machine pays them too.
 */
export const VITEST_FS_CACHE = "...(process.env.SW_CACHE ? { fsModuleCachePath: process.env.SW_CACHE + '/fs-modules' } : {})";

export const SIZES = { jest: { files: 80, modules: 30 }, vitest: { files: 100, modules: 30 }, playwright: { files: 20 }, nodeTest: { files: 80, modules: 30 } };

/** The Jest project: CommonJS files transformed by babel-jest, jsdom files, setup files. */
export function writeJestProject(dir, { scale = 1, jsdom = true, slowFileMs = 0 } = {}) {
  rmSync(dir, { recursive: true, force: true });
  const random = rng(0x1e57);
  const files = Math.max(8, Math.round(SIZES.jest.files * scale));
  const modules = Math.max(4, Math.round(SIZES.jest.modules * scale));
  write(dir, 'package.json', `${JSON.stringify({ name: 'bench-suite-jest', private: true, type: 'commonjs' }, null, 2)}\n`);
  const mods = [];
  for (let i = 0; i < modules; i++) {
    const lines = 800 + Math.floor(random() * 1000);
    const mod = moduleSource(`mod-${pad(i, 2)}`, lines, 'cjs', random);
    write(dir, `src/mod-${pad(i, 2)}.js`, mod.text);
    mods.push({ file: `mod-${pad(i, 2)}`, names: mod.names });
  }
  write(dir, 'src/shared-big.js', moduleSource('shared-big', 5000, 'cjs', random).text);
  write(dir, 'src/test-utils.js', moduleSource('test-utils', 1200, 'cjs', random).text);
  write(dir, 'setup/env.js', `// setupFiles: runs before the framework in every test file.\nprocess.env.TZ = 'UTC';\nglobalThis.__BENCH_STARTED__ = Date.now();\n`);
  write(dir, 'setup/after-env.js', `// setupFilesAfterEnv: helpers and a matcher in every test file (its import is part of every file's load).
const utils = require('../src/test-utils');
expect.extend({
  toBeStable(received) { return { pass: received === received, message: () => 'not stable' }; },
});
globalThis.benchUtils = utils;
afterEach(() => { if (typeof document !== 'undefined') document.body.innerHTML = ''; });
`);
  const kindsOf = kinds(files, random, { jsdom, domShare: 0.18, slowFileMs });
  for (let f = 0; f < files; f++) {
    const kind = kindsOf[f];
    const count = kind === 'light' ? 1 : kind === 'medium' ? 2 : 3;
    const picked = Array.from({ length: count }, (_, j) => mods[(f * 5 + j * 11) % mods.length]).map((m, j) => ({ ...m, v: `m${j}` }));
    const dom = kind === 'dom';
    const L = [];
    if (dom) L.push('/**', ' * @jest-environment jsdom', ' */');
    L.push(`// Generated test file ${pad(f)} (${kind}) of the Jest bench suite.`);
    L.push(`'use strict';`);
    picked.forEach((m) => L.push(`const ${m.v} = require('../../src/${m.file}');`));
    if (kind === 'heavy') L.push(`const shared = require('../../src/shared-big');`);
    if (kind.startsWith('cpu')) L.push(BUSY);
    L.push('', ...unitTestBody({ idx: f, kind, mods: picked, random, dom, slowHelper: 'busy' }));
    write(dir, `tests/${Math.floor(f / 25)}/file-${pad(f)}.test.js`, `${L.join('\n')}\n`);
  }
  write(dir, 'jest.config.cjs', `// Generated by bench/suites-projects.mjs: the Jest bench suite.
const native = process.env.SW_NATIVE === '1';
const reportOnly = process.env.SW_NATIVE === 'report'; // the runner's split, shardwise's reporter
module.exports = {
  rootDir: __dirname,
  roots: ['<rootDir>/src', '<rootDir>/tests'],
  testMatch: ['**/tests/**/*.test.js'],
  maxWorkers: 2,
  setupFiles: ['<rootDir>/setup/env.js'],
  setupFilesAfterEnv: ['<rootDir>/setup/after-env.js'],
  cacheDirectory: process.env.SW_CACHE || '<rootDir>/../jest-cache',
  ...(native || reportOnly ? {} : { testSequencer: 'shardwise/jest/sequencer' }),
  reporters: native ? ['default'] : ['default', ['shardwise/jest', { outputFolder: process.env.SW_OUTPUT }]],
};
`);
  return { config: path.join(dir, 'jest.config.cjs'), files };
}

/** The Vitest project: TypeScript files transformed by Vite, jsdom files, a setup file. */
export function writeVitestProject(dir, { scale = 1, jsdom = true, slowFileMs = 0 } = {}) {
  rmSync(dir, { recursive: true, force: true });
  const random = rng(0x717e57);
  const files = Math.max(8, Math.round(SIZES.vitest.files * scale));
  const modules = Math.max(4, Math.round(SIZES.vitest.modules * scale));
  write(dir, 'package.json', `${JSON.stringify({ name: 'bench-suite-vitest', private: true, type: 'module' }, null, 2)}\n`);
  const mods = [];
  for (let i = 0; i < modules; i++) {
    const lines = 800 + Math.floor(random() * 1000);
    const mod = moduleSource(`mod-${pad(i, 2)}`, lines, 'ts', random);
    write(dir, `src/mod-${pad(i, 2)}.ts`, mod.text);
    mods.push({ file: `mod-${pad(i, 2)}`, names: mod.names });
  }
  write(dir, 'src/shared-big.ts', moduleSource('shared-big', 5000, 'ts', random).text);
  write(dir, 'src/test-utils.ts', moduleSource('test-utils', 1200, 'ts', random).text);
  write(dir, 'setup/setup.ts', `// setupFiles: helpers and a matcher in every test file (its import is part of every file's load).
import { afterEach, expect } from 'vitest';
import * as utils from '../src/test-utils';
expect.extend({
  toBeStable(received: unknown) { return { pass: received === received, message: () => 'not stable' }; },
});
(globalThis as Record<string, unknown>).benchUtils = utils;
afterEach(() => { if (typeof document !== 'undefined') document.body.innerHTML = ''; });
`);
  const kindsOf = kinds(files, random, { jsdom, domShare: 0.1, slowFileMs });
  for (let f = 0; f < files; f++) {
    const kind = kindsOf[f];
    const count = kind === 'light' ? 1 : kind === 'medium' ? 2 : 3;
    const picked = Array.from({ length: count }, (_, j) => mods[(f * 5 + j * 11) % mods.length]).map((m, j) => ({ ...m, v: `m${j}` }));
    const dom = kind === 'dom';
    const L = [];
    if (dom) L.push('// @vitest-environment jsdom');
    L.push(`// Generated test file ${pad(f)} (${kind}) of the Vitest bench suite.`);
    L.push(`import { describe, test, expect } from 'vitest';`);
    picked.forEach((m) => L.push(`import * as ${m.v} from '../../src/${m.file}';`));
    if (kind === 'heavy') L.push(`import * as shared from '../../src/shared-big';`);
    if (kind.startsWith('cpu')) L.push(BUSY.replace('busy(n)', 'busy(n: number): number'));
    L.push('', ...unitTestBody({ idx: f, kind, mods: picked, random, dom, slowHelper: 'busy' }));
    write(dir, `tests/${Math.floor(f / 25)}/file-${pad(f)}.test.ts`, `${L.join('\n')}\n`);
  }
  write(dir, 'vitest.config.mjs', `// Generated by bench/suites-projects.mjs: the Vitest bench suite.
import { defineConfig } from 'vitest/config';
import ShardwiseSequencer from 'shardwise/vitest/sequencer';

const native = process.env.SW_NATIVE === '1';
const reportOnly = process.env.SW_NATIVE === 'report'; // the runner's split, shardwise's reporter
const reporters = ['default', ['json', { outputFile: process.env.SW_JSON ?? 'results.json' }]];
if (!native) reporters.push(['shardwise/vitest', { outputFolder: process.env.SW_OUTPUT }]);

export default defineConfig({
  cacheDir: process.env.SW_CACHE || '../vitest-cache',
  test: {
    ${VITEST_FS_CACHE},
    root: import.meta.dirname,
    include: ['tests/**/*.test.ts'],
    setupFiles: ['./setup/setup.ts'],
    maxWorkers: 2,
    reporters,
    ...(native || reportOnly ? {} : { sequence: { sequencer: ShardwiseSequencer } }),
  },
});
`);
  return { config: path.join(dir, 'vitest.config.mjs'), files };
}

/** The Playwright project: a browser per worker, a `beforeAll` per file, a page per test. */
export function writePlaywrightProject(dir, { scale = 1, chromium = '/usr/bin/chromium' } = {}) {
  rmSync(dir, { recursive: true, force: true });
  const random = rng(0x9a7e);
  const files = Math.max(6, Math.round(SIZES.playwright.files * scale));
  write(dir, 'package.json', `${JSON.stringify({ name: 'bench-suite-playwright', private: true, type: 'module' }, null, 2)}\n`);
  write(dir, 'lib/pages.js', `// The pages under test: a list of items with buttons, built from a seed (a fake app).
export function page(seed, items) {
  const rows = [];
  for (let i = 0; i < items; i++) rows.push(\`<li id="item-\${i}"><span>\${(seed * 31 + i * 7) % 997}</span><button id="btn-\${i}" onclick="document.getElementById('out').textContent='clicked \${i}'">open \${i}</button><input id="in-\${i}" value=""></li>\`);
  return \`<!doctype html><html><body><h1>screen \${seed}</h1><p id="out">idle</p><ul>\${rows.join('')}</ul></body></html>\`;
}
/** A fixture the suite builds in beforeAll (stands for seeding a backend: CPU, then a wait). */
export async function seedBackend(rows, waitMs) {
  let x = 0;
  for (let i = 0; i < rows * 2000; i++) x += Math.sqrt(i % 97);
  await new Promise((r) => setTimeout(r, waitMs));
  return x;
}
`);
  const slowAt = new Map([[Math.floor(files * 0.1), 2000], [Math.floor(files * 0.45), 1500], [Math.floor(files * 0.8), 1000]]);
  for (let f = 0; f < files; f++) {
    const tests = 1 + Math.floor(random() * 4);
    const items = 20 + Math.floor(random() * 200);
    const seedMs = 100 + Math.floor(random() * 400);
    const L = [
      `// Generated spec ${pad(f)} of the Playwright bench suite.`,
      `import { test, expect } from '@playwright/test';`,
      `import { page as build, seedBackend } from '../lib/pages.js';`,
      ``,
      `let html;`,
      `test.beforeAll(async () => { await seedBackend(${items}, ${seedMs}); html = build(${f}, ${items}); });`,
      ``,
      `test.describe('screen ${pad(f)}', () => {`,
    ];
    for (let t = 0; t < tests; t++) {
      const i = (t * 13) % items;
      L.push(`  test('opens item ${i}', async ({ page }) => {`,
        `    await page.setContent(html);`,
        `    await page.click('#btn-${i}');`,
        `    await expect(page.locator('#out')).toHaveText('clicked ${i}');`,
        ...(t % 3 === 0 ? [`    await page.fill('#in-${i}', 'typed ${t}');`, `    await expect(page.locator('#in-${i}')).toHaveValue('typed ${t}');`] : []),
        `  });`);
    }
    if (slowAt.has(f)) {
      const ms = slowAt.get(f);
      L.push(`  test('a slow report renders', async ({ page }) => {`,
        `    await page.setContent(html);`,
        `    const n = await page.evaluate((work) => { let x = 0, y = 1; for (let i = 0; i < work; i++) { y = (y * 1103515245 + 12345) % 2147483648; x += y & 1023; } return x; }, ${ms * LOOP_PER_MS});`,
        `    expect(n).toBeGreaterThan(0);`,
        `  });`);
    }
    L.push('});');
    write(dir, `tests/screen-${pad(f)}.spec.js`, `${L.join('\n')}\n`);
  }
  write(dir, 'playwright.config.mjs', `// Generated by bench/suites-projects.mjs: the Playwright bench suite (Debian's Chromium, 2 workers).
import { defineConfig } from '@playwright/test';

const reporter = [['dot'], ['json', { outputFile: process.env.SW_JSON ?? 'results.json' }]];
if (process.env.SW_NATIVE !== '1') reporter.push(['shardwise/playwright', { outputFolder: process.env.SW_OUTPUT }]);

export default defineConfig({
  testDir: 'tests',
  workers: 2,
  fullyParallel: false,
  timeout: 60_000,
  reporter,
  outputDir: process.env.SW_OUTPUT ? \`\${process.env.SW_OUTPUT}-artifacts\` : 'test-results',
  use: {
    launchOptions: {
      executablePath: ${JSON.stringify(chromium)},
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    },
  },
});
`);
  return { config: path.join(dir, 'playwright.config.mjs'), files };
}

/**
 * The node:test project: ES modules run by `node --test`, each file in a process of its own (its
 * time is mostly that process's start and its imports: generated modules of a few thousand lines,
 * the big shared one in some), the tests many and tiny, written as the Jest and Vitest suites'
 * (`unitTestBody`) through a small Jest-like `expect` over node:assert and `test.each` (as suites
 * moved from Jest keep), a few slow files, and with `slowFileMs` one long file. A reporter of its
 * own (support/record.mjs) writes what ran to SW_JSON: the oracle of the bench.
 */
export function writeNodeTestProject(dir, { scale = 1, slowFileMs = 0 } = {}) {
  rmSync(dir, { recursive: true, force: true });
  const random = rng(0x0de7e5);
  const files = Math.max(8, Math.round(SIZES.nodeTest.files * scale));
  const modules = Math.max(4, Math.round(SIZES.nodeTest.modules * scale));
  write(dir, 'package.json', `${JSON.stringify({ name: 'bench-suite-node-test', private: true, type: 'module' }, null, 2)}\n`);
  const mods = [];
  for (let i = 0; i < modules; i++) {
    const lines = 800 + Math.floor(random() * 1000);
    const mod = moduleSource(`mod-${pad(i, 2)}`, lines, 'esm', random);
    write(dir, `src/mod-${pad(i, 2)}.mjs`, mod.text);
    mods.push({ file: `mod-${pad(i, 2)}`, names: mod.names });
  }
  write(dir, 'src/shared-big.mjs', moduleSource('shared-big', 5000, 'esm', random).text);
  // node:test names a test's file by where test() is called: the wrappers of test() are written
  // into each file (a wrapper in the helper would name the helper as every test's file)
  write(dir, 'support/jestlike.mjs', `// Jest's expect and test.each's titles over node:assert (what ran under Jest runs here).
import assert from 'node:assert/strict';
export const format = (title, args) => { let k = 0; return title.replace(/%[isd]/g, () => String(args[k++])); };
export const expect = (v) => ({
  toBe: (w) => assert.equal(v, w),
  toMatch: (re) => assert.match(v, re),
  toContain: (s) => assert.ok(v.includes(s), \`\${v} does not contain \${s}\`),
  toBeGreaterThan: (n) => assert.ok(v > n, \`\${v} <= \${n}\`),
});
`);
  write(dir, 'support/record.mjs', `// A node:test reporter writing every test that ran, with its suites and status, to SW_JSON.
import { writeFileSync } from 'node:fs';
export default async function* record(source) {
  const out = [];
  const open = new Map();
  for await (const { type, data = {} } of source) {
    if (data.name === data.file) continue; // the file itself
    const titles = open.get(data.file) ?? [];
    open.set(data.file, titles);
    if (type === 'test:start') { titles.length = data.nesting; titles[data.nesting] = data.name; }
    if ((type === 'test:pass' || type === 'test:fail') && data.details?.type !== 'suite') {
      out.push({ file: data.file, titles: [...titles.slice(0, data.nesting), data.name], status: type === 'test:fail' ? 'failed' : data.skip !== undefined || data.todo !== undefined ? 'skipped' : 'passed' });
    }
  }
  if (process.env.SW_JSON) writeFileSync(process.env.SW_JSON, JSON.stringify(out));
}
`);
  const kindsOf = kinds(files, random, { jsdom: false, domShare: 0.18, slowFileMs });
  for (let f = 0; f < files; f++) {
    const kind = kindsOf[f];
    const count = kind === 'light' ? 1 : kind === 'medium' ? 2 : 3;
    const picked = Array.from({ length: count }, (_, j) => mods[(f * 5 + j * 11) % mods.length]).map((m, j) => ({ ...m, v: `m${j}` }));
    const L = [`// Generated test file ${pad(f)} (${kind}) of the node:test bench suite.`];
    L.push(`import { describe, test as nodeTest } from 'node:test';`, `import { expect, format } from '../../support/jestlike.mjs';`,
      'const test = (title, fn) => nodeTest(title, () => fn());',
      'test.each = (table) => (title, fn) => { for (const row of table) nodeTest(format(title, row), () => fn(...row)); };');
    picked.forEach((m) => L.push(`import * as ${m.v} from '../../src/${m.file}.mjs';`));
    if (kind === 'heavy') L.push(`import * as shared from '../../src/shared-big.mjs';`);
    if (kind.startsWith('cpu')) L.push(BUSY);
    L.push('', ...unitTestBody({ idx: f, kind, mods: picked, random, dom: false, slowHelper: 'busy' }));
    write(dir, `tests/${Math.floor(f / 25)}/file-${pad(f)}.test.mjs`, `${L.join('\n')}\n`);
  }
  return { files, reporter: path.join(dir, 'support', 'record.mjs') };
}
