// What shardwise itself costs a balanced shard, in a fresh process as a CI shard has it: the
// plan (planFiles, the flow Jest's and Vitest's sequencers run: the timings file read, the
// suite's modules read from its sources, planShards) and the report (each of the shard's tests
// recorded as the reporters record them, then the end: the costs record, shardCosts,
// encodeReport). A generated suite (250 files of 13 tests, 700 modules they import, a timings
// report with a costs record as a Vitest run saves one). Each run is a new `node` process; the
// baseline, measured in the same run and alternated with it, is a process that starts Node and
// exits. Printed: the medians of wall and CPU (all the process's threads: V8 compiles the .wasm's
// hot functions on background threads, beside the test workers of a real shard), and
// shardwise's own share of them (the process less the baseline); with --against, another build's
// package folder, that build's in the same alternation and the ratio of the two.
//
//   npm run bench:shard-overhead                       # pkg/ against a bare Node process
//   npm run bench:shard-overhead -- --against /tmp/old-pkg --runs 12
//   (a build of another commit: git worktree add /tmp/old <commit> && (cd /tmp/old && npm run build),
//   then --against /tmp/old/pkg)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FILES = 250;
const TESTS_PER_FILE = 13;
const MODULES = 700;
const SHARDS = 3;
const WORKERS = 2;
const COMMIT = '0123456789abcdef0123456789abcdef01234567';

/**
 * The suite's sources (test files importing modules that import others) and its timings report,
 * the same every time (`rng`: the generated suites' seeded generator).
 */
async function writeSuite(dir, pkg, rng) {
  const api = await import(pathToFileURL(path.join(pkg, 'node.mjs')).href);
  const { RunCosts } = await import(pathToFileURL(path.join(pkg, 'src/runner/costs.mjs')).href);
  const r = rng(7);
  mkdirSync(path.join(dir, 'src', 'lib'), { recursive: true });
  for (let m = 0; m < MODULES; m++) {
    const deps = [1, 2].map(() => Math.floor(r() * m)).filter((d, i, a) => m > 0 && a.indexOf(d) === i);
    writeFileSync(path.join(dir, 'src', 'lib', `m${m}.ts`), `${deps.map((d) => `import { f${d} } from './m${d}.ts';`).join('\n')}\nexport const f${m} = (x: number) => x + ${m};\n${'// padding\n'.repeat(20)}`);
  }
  const builder = new api.ReportBuilder({ category: 'vitest', commitId: COMMIT, startTimestamp: 1_700_000_000_000 });
  const env = builder.addEnvironment({ name: 'default' });
  const costs = new RunCosts('vitest', WORKERS);
  const lanes = [0, 0];
  for (let f = 0; f < FILES; f++) {
    const file = `src/f${f}/test.ts`;
    mkdirSync(path.join(dir, 'src', `f${f}`));
    const imports = [0, 1, 2].map(() => Math.floor(r() * MODULES));
    const titles = Array.from({ length: TESTS_PER_FILE }, (_, t) => `does thing ${t}`);
    writeFileSync(path.join(dir, file), `import { describe, it } from 'vitest';\n${imports.map((m, i) => `import { f${m} as g${i} } from '../lib/m${m}.ts';`).join('\n')}\ndescribe('f${f}', () => {\n${titles.map((t) => `  it('${t}', () => {});`).join('\n')}\n});\n`);
    // a file's cost (load, transform) and its tests, on the lane that is free first
    const lane = lanes[0] <= lanes[1] ? 0 : 1;
    const fileMs = 20 + Math.floor(r() * 80) + (f % 50 === 0 ? 1500 : 0);
    costs.add(file, fileMs);
    lanes[lane] += fileMs;
    for (const title of titles) {
      const h = builder.addTest({ file, titlePath: [`f${f}`, title], line: 3, column: 3 });
      const duration = Math.floor(r() * 6) + (r() < 0.02 ? 300 : 0);
      builder.addAttempt(h, { environmentIdx: env, status: 'passed', expectedStatus: 'passed', startTimestamp: 1_700_000_000_000 + lanes[lane], duration, parallelIndex: lane });
      lanes[lane] += duration;
    }
  }
  const report = builder.build();
  report.duration = Math.max(...lanes) + 1200;
  costs.addTo(report, api.shardCosts);
  mkdirSync(path.join(dir, 'timings'));
  writeFileSync(path.join(dir, 'timings', 'report.json.br'), api.encodeReport(report));
}

/** One shard's shardwise work (the child process): prints its phases' ms and its CPU. */
async function child(pkg, dir) {
  const t0 = performance.now();
  const api = await import(pathToFileURL(path.join(pkg, 'node.mjs')).href);
  const { planFiles } = await import(pathToFileURL(path.join(pkg, 'src/runner/files.mjs')).href);
  const { resolveOptions } = await import(pathToFileURL(path.join(pkg, 'src/runner/options.mjs')).href);
  const { RunCosts } = await import(pathToFileURL(path.join(pkg, 'src/runner/costs.mjs')).href);
  const t1 = performance.now();
  const files = Array.from({ length: FILES }, (_, f) => ({ path: path.join(dir, 'src', `f${f}`, 'test.ts'), environment: 'default' }));
  const options = resolveOptions({ timingsFile: path.join(dir, 'timings'), commitId: COMMIT, quiet: true });
  const planned = await planFiles({ api, files, shardIndex: 1, shardCount: SHARDS, workers: WORKERS, options, cwd: dir, testRunner: 'vitest', log: () => {} });
  if (!planned) throw new Error('planFiles did not plan (see its line)');
  const t2 = performance.now();
  // the shard's tests, recorded one by one as a reporter records them while the shard runs
  const builder = new api.ReportBuilder({ category: 'vitest', commitId: COMMIT, startTimestamp: Date.now() });
  const env = builder.addEnvironment({ name: 'default' });
  const costs = new RunCosts('vitest', WORKERS);
  let at = Date.now();
  for (const p of planned.paths) {
    const file = path.relative(dir, p).split(path.sep).join('/');
    costs.add(file, 50);
    for (let t = 0; t < TESTS_PER_FILE; t++) {
      const h = builder.addTest({ file, titlePath: [path.basename(path.dirname(p)), `does thing ${t}`], line: 3, column: 3 });
      builder.addAttempt(h, { environmentIdx: env, status: 'passed', expectedStatus: 'passed', startTimestamp: at++, duration: 2, parallelIndex: t % WORKERS });
    }
  }
  const t3 = performance.now();
  const report = builder.build();
  report.duration = 5000;
  costs.addTo(report, api.shardCosts);
  const bytes = api.encodeReport(report);
  const t4 = performance.now();
  const cpu = process.cpuUsage();
  process.stdout.write(JSON.stringify({ import: t1 - t0, plan: t2 - t1, record: t3 - t2, end: t4 - t3, files: planned.paths.size, bytes: bytes.length, cpuMs: (cpu.user + cpu.system) / 1000 }));
}

/** One fresh process: `kind` 'bare' (Node starts and exits) or a package folder's shard. */
function once(kind, dir) {
  const script = fileURLToPath(import.meta.url);
  const args = kind === 'bare' ? ['-e', 'process.stdout.write(JSON.stringify({cpuMs: (({user, system}) => (user + system) / 1000)(process.cpuUsage())}))'] : [script, '--child', kind, dir];
  const a = performance.now();
  const p = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const wallMs = performance.now() - a;
  if (p.status !== 0) throw new Error(`${kind}: exit ${p.status}\n${p.stderr}`);
  return { wallMs, ...JSON.parse(p.stdout) };
}

const { values } = parseArgs({ options: { child: { type: 'string' }, against: { type: 'string' }, runs: { type: 'string', default: '9' } }, allowPositionals: true });
if (values.child) {
  await child(values.child, process.argv[process.argv.length - 1]);
} else {
  // the benches' own helpers, in this process only: a child's time is shardwise's and Node's
  const [{ rng }, { median }] = await Promise.all([import('./suites-projects.mjs'), import('./suites.mjs')]);
  const pkg = path.join(HERE, '..', 'pkg');
  const builds = [['pkg/', pkg], ...(values.against ? [[values.against, path.resolve(values.against)]] : [])];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'shardwise-overhead-'));
  try {
    await writeSuite(dir, pkg, rng);
    const runs = Number(values.runs);
    const got = new Map([['bare', []], ...builds.map(([name]) => [name, []])]);
    once(pkg, dir); // the suite's files into the page cache, once
    for (let i = 0; i < runs; i++) {
      // alternated, each run's order turned (a drift of the machine falls on every build alike)
      const order = [['bare', 'bare'], ...builds];
      if (i % 2) order.reverse();
      for (const [name, where] of order) got.get(name).push(once(where, dir));
    }
    const bare = got.get('bare');
    const [bareWall, bareCpu] = [median(bare.map((r) => r.wallMs)), median(bare.map((r) => r.cpuMs))];
    console.log(`shard-overhead: ${FILES} files of ${TESTS_PER_FILE} tests, ${MODULES} modules, shard 1 of ${SHARDS} on ${WORKERS} workers; ${runs} fresh processes each, alternated; medians`);
    console.log(`baseline: a bare Node process, wall ${bareWall.toFixed(0)} ms, CPU ${bareCpu.toFixed(0)} ms`);
    console.log('build          wall ms  CPU ms  shardwise wall (less bare)  shardwise CPU (less bare)  plan ms  record ms  end ms  files  report bytes');
    const own = new Map();
    for (const [name] of builds) {
      const rs = got.get(name);
      const m = (k) => median(rs.map((r) => r[k]));
      own.set(name, { wall: m('wallMs') - bareWall, cpu: m('cpuMs') - bareCpu });
      console.log(`${name.padEnd(13)} ${m('wallMs').toFixed(0).padStart(8)}  ${m('cpuMs').toFixed(0).padStart(6)}  ${(m('wallMs') - bareWall).toFixed(0).padStart(26)}  ${(m('cpuMs') - bareCpu).toFixed(0).padStart(25)}  ${m('plan').toFixed(0).padStart(7)}  ${m('record').toFixed(0).padStart(9)}  ${m('end').toFixed(0).padStart(6)}  ${String(rs[0].files).padStart(5)}  ${String(rs[0].bytes).padStart(12)}`);
    }
    if (values.against) {
      const [a, b] = [own.get('pkg/'), own.get(values.against)];
      console.log(`pkg/ against ${values.against}: shardwise's own wall ${(a.wall / b.wall).toFixed(2)}x, CPU ${(a.cpu / b.cpu).toFixed(2)}x`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
