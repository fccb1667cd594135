// Playwright's setup and teardown projects with balanced shards (issue 32, items 2 and 3), real
// Playwright runs against the local service: a `setup` project (a login test that writes the
// session file the others read) that 2 of 3 projects depend on, with a `cleanup` teardown, run
// as 3 shards. Playwright runs the setup (and its teardown) on every shard that runs a project
// depending on it: `shardwise verify` passes such a run, still catches an ordinary test run
// twice, and names a shard whose tests ran without their setup. `--shard=i/n --list` lists the
// balanced shard: the tests the same shard runs, with its plan line, saving and sending nothing.
// Playwright's own JSON reporter, in the same runs, is the oracle of what ran where.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from '../pkg/server/index.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'pkg', 'bin', 'shardwise.mjs');
const PLAYWRIGHT = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
const DIR = path.join(ROOT, 'js-tests', '.out', 'playwright-setup');
const OUT = path.join(DIR, 'out');
const rel = (file) => path.relative(ROOT, path.resolve(file)).split(path.sep).join('/');

const sleepTest = (title, ms, body = '') => `test('${title}', async () => {${body} await new Promise((r) => setTimeout(r, ${ms})); });`;
// the session file of this run (each shard has its own output folder, as each CI job its machine)
const AUTH = "const auth = path.join(process.env.SW_OUTPUT + '-auth', 'user.json');";
const HEAD = "import { test, expect } from '@playwright/test';\nimport { existsSync, mkdirSync, writeFileSync } from 'node:fs';\nimport path from 'node:path';\n";

const FILES = {
  'login.setup.mjs': `${HEAD}${AUTH}\ntest('global login', async () => {\n  await new Promise((r) => setTimeout(r, 300));\n  mkdirSync(path.dirname(auth), { recursive: true });\n  writeFileSync(auth, JSON.stringify({ user: 'ada' }));\n});\n`,
  'logout.teardown.mjs': `${HEAD}${AUTH}\ntest('global logout', async () => { expect(existsSync(auth)).toBe(true); });\n`,
  // the web tests of two projects (web, admin), each needing the session
  ...Object.fromEntries([['cart', [400, 100]], ['search', [150, 150, 100]], ['profile', [500]], ['orders', [120, 80, 60]]].map(([name, ms]) => [
    `${name}.web.mjs`,
    `${HEAD}${AUTH}\ntest.beforeEach(() => { if (!existsSync(auth)) throw new Error('not logged in: the setup project did not run on this shard'); });\n`
      + `test.describe('${name}', () => {\n${ms.map((m, i) => `  ${sleepTest(`t${i}`, m)}`).join('\n')}\n});\n`,
  ])),
  // an API project that needs no session
  ...Object.fromEntries([['health', [300, 50]], ['users', [200, 200]]].map(([name, ms]) => [
    `${name}.api.mjs`, `${HEAD}test.describe('${name}', () => {\n${ms.map((m, i) => `  ${sleepTest(`t${i}`, m)}`).join('\n')}\n});\n`,
  ])),
  'playwright.config.mjs': `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: '.', workers: 1, fullyParallel: false,
  reporter: [['dot'], ['json', { outputFile: process.env.SW_JSON }], ['shardwise/playwright', { outputFolder: process.env.SW_OUTPUT }]],
  outputDir: process.env.SW_OUTPUT + '-artifacts',
  projects: [
    { name: 'setup', testMatch: /login\\.setup\\.mjs$/, teardown: 'cleanup' },
    { name: 'cleanup', testMatch: /logout\\.teardown\\.mjs$/ },
    { name: 'web', testMatch: /\\.web\\.mjs$/, dependencies: ['setup'] },
    { name: 'admin', testMatch: /\\.web\\.mjs$/, dependencies: ['setup'] },
    { name: 'api', testMatch: /\\.api\\.mjs$/ },
  ],
});
`,
};
const SETUP_ID = JSON.stringify(['setup', rel(path.join(DIR, 'login.setup.mjs')), 'global login']);
const TEARDOWN_ID = JSON.stringify(['cleanup', rel(path.join(DIR, 'logout.teardown.mjs')), 'global logout']);
const SHARED = new Set(['setup', 'cleanup']);

/** Runs a process without blocking this one (the service answers from here). */
function exec(argv, env = {}) {
  const base = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };
  for (const k of Object.keys(base)) if (k.startsWith('SHARDWISE_') || k.startsWith('SW_') || k === 'CI' || k.startsWith('GITHUB_')) delete base[k];
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd: DIR, env: { ...base, ...env }, maxBuffer: 64 << 20, timeout: 180_000 }, (e, stdout, stderr) => {
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, stdout, text: `${stdout}\n${stderr}` });
    });
  });
}

/** Playwright's JSON -> the planner's ids of the tests that ran (JSON [project, file, ...titles]). */
function ranOf(json) {
  const out = new Set();
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) if ((t.results ?? []).length) out.add(JSON.stringify([t.projectName, rel(path.join(DIR, spec.file)), ...titles, spec.title]));
    }
    for (const s of suite.suites ?? []) walk(s, s.file === s.title ? titles : [...titles, s.title]);
  };
  for (const s of json.suites ?? []) walk(s, []);
  return out;
}

let service;
const runId = `pw-setup-${process.pid}`;
const serviceEnv = () => ({ SHARDWISE_BASE_URL: service.baseUrl, SHARDWISE_ACCESS_TOKEN: service.accessToken, SHARDWISE_RUN_ID: runId });

/** `playwright test` in the fixture, `label` naming its output folder and JSON. */
async function playwright(label, extra = []) {
  const json = path.join(OUT, `${label}.json`);
  const output = path.join(OUT, label);
  const r = await exec([PLAYWRIGHT, 'test', '-c', path.join(DIR, 'playwright.config.mjs'), ...extra], { ...serviceEnv(), SW_JSON: json, SW_OUTPUT: output });
  const ran = existsSync(json) ? ranOf(JSON.parse(readFileSync(json, 'utf8'))) : new Set();
  return { ...r, ran, output, fingerprint: r.text.match(/\[shardwise\] shard \d+\/\d+: .*fingerprint (\S+)/)?.[1] };
}

const verify = (...args) => exec([BIN, 'verify', ...args]);
const record = (folder) => JSON.parse(readFileSync(path.join(folder, 'shard.json'), 'utf8'));
const shardFolder = (r, i) => path.join(r.output, `shard-${i}-of-3`);
const ordinary = (ids) => [...ids].filter((id) => !SHARED.has(JSON.parse(id)[0]));

let all;
let shards;
before(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  for (const [name, text] of Object.entries(FILES)) writeFileSync(path.join(DIR, name), text);
  service = await createServer({ dataDir: path.join(DIR, 'service'), staticDir: path.join(ROOT, 'pkg'), computeDelayMs: 0 });
  // the unsharded run whose report seeds the predictions
  const seed = await playwright('seed');
  assert.equal(seed.code, 0, seed.text);
  all = seed.ran;
  assert.equal(all.size, 2 + 2 * 9 + 4, [...all].join('\n'));
  shards = await Promise.all([1, 2, 3].map((i) => playwright(`shard-${i}`, [`--shard=${i}/3`])));
});
after(async () => {
  await service?.close();
});

test('3 balanced shards with a setup project: each shard that runs a dependent project logs in first, and verify passes', async () => {
  for (const [i, s] of shards.entries()) {
    assert.equal(s.code, 0, `shard ${i + 1}: ${s.text}`);
    assert.match(s.text, new RegExp(`\\[shardwise\\] shard ${i + 1}/3: predicted .*durations: service`));
    // the setup (a 300 ms login) and its teardown: planned as a cost of each shard that runs a
    // dependent (issue 32 item 1): as many shards as Playwright then ran the setup on
    const setup = s.text.match(/^\[shardwise\] 2 setup or teardown tests run on each shard that needs them: (\S+), planned as the cost of the (\d) of 3 shards that run a test needing them$/m);
    assert.ok(setup, s.text);
    assert.ok(/s$/.test(setup[1]) || Number(setup[1].replace('ms', '')) >= 300, setup[1]);
    assert.equal(Number(setup[2]), shards.filter((x) => x.ran.has(SETUP_ID)).length, s.text);
    const needs = ordinary(s.ran).some((id) => ['web', 'admin'].includes(JSON.parse(id)[0]));
    // Playwright's rule, seen in its own report: the setup and its teardown where needed, only there
    assert.equal(s.ran.has(SETUP_ID), needs, `shard ${i + 1} ran ${[...s.ran].join(', ')}`);
    assert.equal(s.ran.has(TEARDOWN_ID), needs);
  }
  assert.ok(shards.filter((s) => s.ran.has(SETUP_ID)).length >= 2, 'the setup ran on several shards (else this test shows nothing)');
  assert.equal(new Set(shards.map((s) => s.fingerprint)).size, 1, 'one plan');
  // every ordinary test exactly once over the shards
  const ran = shards.flatMap((s) => ordinary(s.ran)).sort();
  assert.deepEqual(ran, ordinary(all).sort());

  // what each record says of the setup: its test, and the tests of the projects needing it
  const rec = record(shardFolder(shards[0], 1));
  const dependents = ordinary(all).filter((id) => JSON.parse(id)[0] !== 'api').sort();
  assert.deepEqual(rec.shared.map((s) => [s.project, s.units, s.dependents && [...s.dependents].sort()]), [
    ['cleanup', [TEARDOWN_ID], undefined],
    ['setup', [SETUP_ID], dependents],
  ]);

  const v = await verify(path.join(OUT, 'shard-1'), path.join(OUT, 'shard-2'), path.join(OUT, 'shard-3'));
  assert.equal(v.code, 0, v.text);
  assert.match(v.stdout, /^shards whole: 3 of 3 planned alike \(fingerprint [0-9a-f]{12} \(3 shards\)\); each of 22 planned units ran exactly once; 2 setup or teardown tests ran on each shard that needed them\n$/);
  const json = JSON.parse((await verify(path.join(OUT, 'shard-1'), path.join(OUT, 'shard-2'), path.join(OUT, 'shard-3'), '--json')).stdout);
  assert.deepEqual([json.ok, json.sharedRan, json.doubled, json.unplanned, json.missing, json.withoutSetup], [true, 2, [], [], [], []]);
});

/** The shards' folders copied, `edit(records)` applied to their shard.json files: as CI might hand them over. */
function tampered(label, edit) {
  const dir = path.join(OUT, `tampered-${label}`);
  rmSync(dir, { recursive: true, force: true });
  const folders = [1, 2, 3].map((i) => {
    const to = path.join(dir, `shard-${i}`);
    cpSync(shardFolder(shards[i - 1], i), to, { recursive: true });
    return to;
  });
  const records = folders.map(record);
  edit(records);
  records.forEach((r, i) => writeFileSync(path.join(folders[i], 'shard.json'), JSON.stringify(r)));
  return dir;
}

test('verify still catches an ordinary test on two shards beside the setup project, and says which', async () => {
  const [a, b] = [0, 1, 2].filter((i) => ordinary(record(shardFolder(shards[i], i + 1)).ran).length > 0);
  const unit = ordinary(record(shardFolder(shards[a], a + 1)).ran)[0];
  const dir = tampered('doubled', (records) => { records[b].ran.push(unit); });
  const v = await verify(dir);
  assert.equal(v.code, 1, v.text);
  const readable = JSON.parse(unit).join(' › ');
  assert.match(v.stdout, /^shards NOT whole: 3 shards, 1 fingerprint/);
  assert.match(v.stdout, /\n1 unit ran on more than one shard; 1 unit ran where no plan put them(; 1 shard ran tests without their setup project)?:\n/);
  const shardsOf = [a + 1, b + 1].sort().join(', ');
  assert.ok(v.stdout.includes(`ran on more than one shard:\n  ${readable} (shards ${shardsOf})\n`), v.stdout);
  assert.ok(v.stdout.includes(`ran where no plan put them:\n  ${readable} (shard ${b + 1})`), v.stdout);
  assert.doesNotMatch(v.stdout, /global login|global logout/, 'the setup and teardown are never doubled');
  assert.doesNotMatch(v.text, /\n\s+at /, 'no stack trace');
});

test('verify names the tests of a shard that ran without their setup project', async () => {
  const i = shards.findIndex((s) => s.ran.has(SETUP_ID));
  const dir = tampered('no-setup', (records) => { records[i].ran = records[i].ran.filter((id) => id !== SETUP_ID); });
  const deps = ordinary(record(shardFolder(shards[i], i + 1)).ran).filter((id) => JSON.parse(id)[0] !== 'api').sort();
  const v = await verify(dir);
  assert.equal(v.code, 1, v.text);
  assert.match(v.stdout, /\n1 shard ran tests without their setup project:\n/);
  const more = deps.length > 2 ? ` and ${deps.length - 1} more tests needing it` : deps.length === 2 ? ' and 1 more test needing it' : '';
  assert.ok(v.stdout.includes(`ran without their setup project:\n  ${JSON.parse(deps[0]).join(' › ')}${more} ran on shard ${i + 1}, where setup project 'setup' did not (`), v.stdout);
  const json = JSON.parse((await verify(dir, '--json')).stdout);
  assert.deepEqual(json.withoutSetup, [{ project: 'setup', shard: i + 1, unit: deps[0], dependents: deps.length }]);
  assert.deepEqual([json.missing, json.doubled, json.unplanned], [[], [], []]);
});

test('a shard re-run without its setup (--no-deps, the setup filtered out) is named by verify, from the other shards\' records', async () => {
  const i = shards.findIndex((s) => s.ran.has(SETUP_ID)) + 1;
  // --no-deps makes setup and cleanup projects of their own, which --grep-invert leaves out
  const bare = await playwright(`no-deps-${i}`, [`--shard=${i}/3`, '--no-deps', '--grep-invert', 'global log']);
  assert.equal(bare.code, 1, 'its tests that need the session fail');
  assert.match(bare.text, /not logged in: the setup project did not run on this shard/);
  assert.notEqual(bare.fingerprint, shards[0].fingerprint, 'without the setup\'s tests it plans without their time');
  assert.ok(!bare.ran.has(SETUP_ID));
  const deps = ordinary(bare.ran).filter((id) => JSON.parse(id)[0] !== 'api').sort();
  const others = [1, 2, 3].filter((k) => k !== i).map((k) => path.join(OUT, `shard-${k}`));
  const v = await verify(...others, bare.output, '--json');
  assert.equal(v.code, 1, v.text);
  const json = JSON.parse(v.stdout);
  assert.deepEqual(json.withoutSetup, [{ project: 'setup', shard: i, unit: deps[0], dependents: deps.length }]);
  // it planned without the setup's time (its tests were not in its run): verify says so too
  assert.deepEqual(json.fingerprints.map((f) => f.shards).sort(), [[i], others.map((_, k) => [1, 2, 3].filter((x) => x !== i)[k])].sort());
});

test('every shard run without its setup (--no-deps everywhere, so no record lists a setup test): verify names each shard whose tests needed it', async () => {
  const bare = await Promise.all([1, 2, 3].map((i) => playwright(`no-deps-all-${i}`, [`--shard=${i}/3`, '--no-deps', '--grep-invert', 'global log'])));
  const named = [];
  for (const [n, b] of bare.entries()) {
    // Playwright left the project out of the run: the record says so
    const setup = record(shardFolder(b, n + 1)).shared?.find((s) => s.project === 'setup');
    const deps = ordinary(b.ran).filter((id) => JSON.parse(id)[0] !== 'api').sort();
    if (deps.length) {
      assert.deepEqual([setup.units, setup.leftOut], [[], true], JSON.stringify(setup));
      named.push({ project: 'setup', shard: n + 1, unit: deps[0], dependents: deps.length });
    }
    assert.ok(!b.ran.has(SETUP_ID));
  }
  assert.ok(named.length > 0, 'some shard ran a test needing the setup');
  const v = await verify(...bare.map((b) => b.output), '--json');
  assert.equal(v.code, 1, v.text);
  const json = JSON.parse(v.stdout);
  assert.deepEqual(json.withoutSetup, named);
  // they planned alike and ran their parts: the setup left out is the one fault
  assert.deepEqual([json.fingerprints.length, json.missing, json.doubled, json.unplanned], [1, [], [], []]);
});

test('records written before they named the setup project verify as they did: the setup reads as doubled', async () => {
  const dir = tampered('old', (records) => { for (const r of records) delete r.shared; });
  const v = await verify(dir, '--json');
  assert.equal(v.code, 1, v.text);
  const json = JSON.parse(v.stdout);
  assert.deepEqual(json.doubled.map((d) => d.unit).sort(), [SETUP_ID, TEARDOWN_ID].sort());
  assert.equal(json.sharedRan, 0);
});

test('--shard=i/3 --list lists the balanced shard (what the same shard ran), with its plan line, and saves and sends nothing', async () => {
  const reports = async () => (await (await fetch(`${service.baseUrl}/api/reports`, { headers: { authorization: `Bearer ${service.accessToken}` } })).json()).length;
  const uploaded = await reports();
  for (const [n, s] of shards.entries()) {
    const i = n + 1;
    const listed = await playwright(`list-${i}`, [`--shard=${i}/3`, '--list']);
    assert.equal(listed.code, 0, listed.text);
    assert.match(listed.text, new RegExp(`\\[shardwise\\] shard ${i}/3: predicted .*fingerprint ${s.fingerprint}`), listed.text);
    // Playwright's list lines: `  [project] › file:line:column › titles`
    const items = [...listed.stdout.matchAll(/^ {2}\[([^\]]+)\] › ([^:\n]+):\d+:\d+ › (.+)$/gm)]
      .map(([, project, file, titles]) => JSON.stringify([project, rel(path.join(DIR, file)), ...titles.split(' › ')]));
    assert.deepEqual(items.sort(), [...s.ran].sort(), `shard ${i}: listed\n${listed.stdout}`);
    assert.match(listed.stdout, new RegExp(`Total: ${s.ran.size} tests? in `));
    assert.ok(!existsSync(listed.output), 'no report folder, no shard record');
    assert.doesNotMatch(listed.text, /\[shardwise\] (uploaded|saved|shard \d\/3 took)/);
  }
  assert.equal(await reports(), uploaded, 'nothing uploaded');
});
