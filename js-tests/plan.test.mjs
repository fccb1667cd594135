// planShards through the built package, and the `shardwise plan` subcommand through its bin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { planShards, shardCosts, ReportBuilder, encodeReport, ShardwiseError } from 'shardwise';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'pkg', 'bin', 'shardwise.mjs');
const golden = JSON.parse(readFileSync(path.join(ROOT, 'tests', 'fixtures', 'plan-golden.json'), 'utf8'));
const cli = (...args) => spawnSync(process.execPath, [BIN, 'plan', ...args], { encoding: 'utf8' });

function expectInvalid(opts, needle) {
  assert.throws(() => planShards(opts), (e) => {
    assert.ok(e instanceof ShardwiseError, `not a ShardwiseError: ${e}`);
    assert.equal(e.code, 'INVALID_INPUT', e.message);
    assert.ok(e.message.includes(needle), `${JSON.stringify(e.message)} should name ${needle}`);
    return true;
  });
}

/** A deterministic shuffle. */
function shuffled(xs, seed) {
  const out = [...xs];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A past run's report: two environments, a file suite with describes, one test with no attempt. */
function pastRun() {
  const b = new ReportBuilder({ category: 'playwright', commitId: 'a'.repeat(40), startTimestamp: 0, duration: 0 });
  const chromium = b.addEnvironment({ name: 'chromium' });
  const firefox = b.addEnvironment({ name: 'firefox' });
  const add = (file, titlePath, ms) => {
    const h = b.addTest({ titlePath, file, line: 1, column: 1 });
    if (ms[0] !== undefined) b.addAttempt(h, { environmentIdx: chromium, duration: ms[0], startTimestamp: 0 });
    if (ms[1] !== undefined) b.addAttempt(h, { environmentIdx: firefox, duration: ms[1], startTimestamp: 0 });
  };
  add('tests/login.spec.ts', ['login', 'accepts a good password'], [3000, 5000]);
  add('tests/login.spec.ts', ['login', 'rejects a bad password'], [1000, 1200]);
  add('tests/cart.spec.ts', ['adds an item'], [2000]);
  add('tests/cart.spec.ts', ['is new'], []);
  add('tests/search.spec.ts', ['finds'], [500, 700]);
  return b.build();
}

test('the golden plan has the fingerprint native Rust and wasm-bindgen tests recorded', () => {
  const plan = planShards(golden.input);
  assert.equal(plan.fingerprint, golden.fingerprint);
  assert.equal(plan.makespanMs, golden.makespanMs);
  assert.equal(plan.shards.length, golden.input.shardCount);
  assert.equal(plan.shards.reduce((n, s) => n + s.units.length, 0), golden.input.units.length);
});

test('the plan does not depend on the order of the units', () => {
  const plan = planShards(golden.input);
  for (const seed of [1, 7, 12345]) {
    const again = planShards({ ...golden.input, units: shuffled(golden.input.units, seed) });
    assert.deepEqual(again, plan);
  }
});

test('every unit lands in exactly one shard and groups stay together', () => {
  const plan = planShards(golden.input);
  const at = new Map();
  for (const s of plan.shards) for (const id of s.units) {
    assert.ok(!at.has(id), `${id} twice`);
    at.set(id, s.index);
  }
  const byGroup = new Map();
  for (const u of golden.input.units) if (u.group) (byGroup.get(u.group) ?? byGroup.set(u.group, new Set()).get(u.group)).add(at.get(u.id));
  assert.ok(byGroup.size > 0);
  for (const [g, shards] of byGroup) assert.equal(shards.size, 1, `group ${g} split`);
  assert.ok(plan.makespanMs >= plan.lowerBoundMs);
});

test('bad options are ShardwiseError INVALID_INPUT naming the option', () => {
  const units = [{ id: 'a', durationMs: 5 }, { id: 'b' }];
  expectInvalid({ units }, 'shardCount');
  expectInvalid({ units, shardCount: 0 }, 'shardCount');
  expectInvalid({ units, shardCount: 1.5 }, 'shardCount');
  expectInvalid({ units, shardCount: 2, unit: 'files' }, 'unit');
  expectInvalid({ units, shardCount: 2, workers: 0 }, 'workers');
  expectInvalid({ units, shardCount: 2, perShardOverheadMs: -1 }, 'perShardOverheadMs');
  expectInvalid({ units, shardCount: 2, defaultDurationMs: 0 }, 'defaultDurationMs');
  expectInvalid({ units, shardCount: 2, shards: 2 }, 'shards');
  expectInvalid({ units: [{ id: 'a' }, { id: 'b', durationMs: '5' }], shardCount: 2 }, 'units[1]');
  expectInvalid({ units: [{ id: 'a' }, { id: 'a' }], shardCount: 2 }, '"a"');
  expectInvalid({ shardCount: 2 }, 'opts.units');
  expectInvalid({ report: pastRun(), shardCount: 2, environment: 'webkit' }, '"webkit"');
  expectInvalid(undefined, 'planShards options');
});

test('a report plans by file and title path, per environment or summed', () => {
  const report = pastRun();
  const summed = planShards({ report, shardCount: 2 });
  const ids = summed.shards.flatMap((s) => s.units).sort();
  assert.deepEqual(ids, [
    'tests/cart.spec.ts › adds an item',
    'tests/cart.spec.ts › is new',
    'tests/login.spec.ts › login › accepts a good password',
    'tests/login.spec.ts › login › rejects a bad password',
    'tests/search.spec.ts › finds',
  ]);
  assert.equal(summed.estimated, 1);
  // summed: 8000, 2200, 2000, 1200, and `is new` takes the mean of cart.spec.ts (2000)
  assert.equal(summed.lowerBoundMs, 8000);
  assert.equal(summed.makespanMs, 8000);

  const firefox = planShards({ report, shardCount: 2, environment: 'firefox' });
  assert.deepEqual(firefox, planShards({ report, shardCount: 2, environment: 1 }));
  assert.equal(firefox.estimated, 2, 'cart tests have no firefox attempt');
  // the two cart tests take the mean of the known tests in tests/: (5000 + 1200 + 700) / 3 = 2300
  assert.equal(firefox.lowerBoundMs, (5000 + 1200 + 700 + 2 * 2300) / 2);
  const units = [
    { id: 'tests/login.spec.ts › login › accepts a good password', file: 'tests/login.spec.ts', durationMs: 5000 },
    { id: 'tests/login.spec.ts › login › rejects a bad password', file: 'tests/login.spec.ts', durationMs: 1200 },
    { id: 'tests/cart.spec.ts › adds an item', file: 'tests/cart.spec.ts' },
    { id: 'tests/cart.spec.ts › is new', file: 'tests/cart.spec.ts' },
    { id: 'tests/search.spec.ts › finds', file: 'tests/search.spec.ts', durationMs: 700 },
  ];
  assert.deepEqual(firefox, planShards({ units, shardCount: 2 }), 'a report plans exactly like its units');

  const byFile = planShards({ report, shardCount: 3, unit: 'file' });
  for (const s of byFile.shards) assert.ok(s.files.length <= 1, JSON.stringify(s));
  assert.equal(byFile.lowerBoundMs, 10200, 'login.spec.ts is one indivisible group');
});

test('shardwise plan prints a table of the plan, or the plan as JSON', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shardwise-plan-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const report = pastRun();
  const json = path.join(dir, 'report.json');
  const br = path.join(dir, 'report.json.br');
  writeFileSync(json, JSON.stringify(report));
  writeFileSync(br, encodeReport(report));
  const expected = planShards({ report, shardCount: 3, workers: 2, perShardOverheadMs: 1000 });

  // the tests' own durations only: the plan planShards makes of the report as given
  const table = cli(json, '--shards', '3', '--workers', '2', '--overhead', '1000', '--bodies-only');
  assert.equal(table.status, 0, table.stderr);
  const lines = table.stdout.split('\n');
  assert.match(lines[0], /^shard\s+predicted\s+tests\s+files$/);
  for (const s of expected.shards) {
    assert.match(lines[s.index], new RegExp(`^${s.index}\\s+\\S+\\s+${s.units.length}\\s+${s.files.length}$`));
  }
  assert.match(table.stdout, new RegExp(`makespan .*\\(${expected.makespanMs} ms\\)`));
  assert.match(table.stdout, new RegExp(`lower bound .*\\(${expected.lowerBoundMs} ms\\)`));
  assert.match(table.stdout, new RegExp(`estimated +${expected.estimated} of 5 tests`));
  assert.match(table.stdout, new RegExp(`fingerprint +${expected.fingerprint}$`, 'm'));

  const fromBrotli = cli(br, '--shards', '3', '--workers', '2', '--overhead', '1000', '--json', '--bodies-only');
  assert.equal(fromBrotli.status, 0, fromBrotli.stderr);
  assert.deepEqual(JSON.parse(fromBrotli.stdout), expected);

  // as its runner plans: the costs the report teaches (shardCosts), said under the table
  const learned = shardCosts(report);
  const withCosts = cli(json, '--shards', '3', '--workers', '2', '--overhead', '1000');
  assert.equal(withCosts.status, 0, withCosts.stderr);
  const costed = planShards({ report, shardCount: 3, workers: 2, perShardOverheadMs: 1000, costs: learned.costs });
  assert.match(withCosts.stdout, new RegExp(`fingerprint +${costed.fingerprint}$`, 'm'));
  assert.notEqual(costed.fingerprint, expected.fingerprint);
  assert.match(withCosts.stdout, new RegExp(`^costs +${learned.source.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: start-up 1\\.0s a shard`, 'm'));

  const firefox = cli(json, '--shards', '2', '--environment', 'firefox', '--unit', 'file', '--json', '--bodies-only');
  assert.equal(firefox.status, 0, firefox.stderr);
  assert.deepEqual(JSON.parse(firefox.stdout), planShards({ report, shardCount: 2, environment: 'firefox', unit: 'file' }));
  const byIndex = cli(json, '--shards', '2', '--environment', '1', '--unit', 'file', '--json', '--bodies-only');
  assert.equal(byIndex.stdout, firefox.stdout);

  const unitsFile = path.join(dir, 'units.json');
  writeFileSync(unitsFile, JSON.stringify(golden.input.units));
  const g = golden.input;
  const fromUnits = cli(unitsFile, '--shards', String(g.shardCount), '--workers', String(g.workers),
    '--overhead', String(g.perShardOverheadMs), '--default', String(g.defaultDurationMs), '--json');
  assert.equal(fromUnits.status, 0, fromUnits.stderr);
  assert.equal(JSON.parse(fromUnits.stdout).fingerprint, golden.fingerprint);
});

test('shardwise plan: help, usage errors and invalid values', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shardwise-plan-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const json = path.join(dir, 'report.json');
  writeFileSync(json, JSON.stringify(pastRun()));

  const help = cli('--help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^Usage: shardwise plan /);
  const noShards = cli(json);
  assert.equal(noShards.status, 2, 'no --shards');
  assert.equal(noShards.stderr, "shardwise plan: --shards <N> is required; see 'shardwise plan --help'\n");
  const noInput = cli('--shards', '2');
  assert.equal(noInput.status, 2, 'no input');
  assert.match(noInput.stderr, /^shardwise plan: <input> .* is required; see 'shardwise plan --help'\n$/);
  // a negative number is the option's value, refused by planShards in one line
  const negative = cli(json, '--shards', '-3');
  assert.equal(negative.status, 1);
  assert.equal(negative.stderr, 'shardwise plan: INVALID_INPUT: shardCount must be an integer from 1 to 100000, got -3\n');
  const fraction = cli(json, '--shards', '2.5');
  assert.equal(fraction.status, 1);
  assert.match(fraction.stderr, /shardCount must be an integer from 1 to 100000, got 2\.5/);
  const unknown = cli(json, '--shards', '2', '--shard', '2');
  assert.equal(unknown.status, 2);
  assert.equal(unknown.stderr, "shardwise plan: Unknown option '--shard'; see 'shardwise plan --help'\n");
  const missing = cli(path.join(dir, 'nope.json'), '--shards', '2');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /does not exist/);
  const nan = cli(json, '--shards', 'two');
  assert.equal(nan.status, 2);
  assert.match(nan.stderr, /--shards must be a number/);
  const zero = cli(json, '--shards', '0');
  assert.equal(zero.status, 1);
  assert.match(zero.stderr, /INVALID_INPUT: .*shardCount/);
  const env = cli(json, '--shards', '2', '--environment', 'webkit');
  assert.equal(env.status, 1);
  assert.match(env.stderr, /INVALID_INPUT: .*"webkit".*"chromium"/);
  const notJson = path.join(dir, 'garbage.json');
  writeFileSync(notJson, '{ not json');
  const garbage = cli(notJson, '--shards', '2');
  assert.equal(garbage.status, 1);
  assert.match(garbage.stderr, /INVALID_INPUT: .*not JSON/);
});

test('the columnar fast path for opts.units gives exactly the JSON path\'s plan or error', async () => {
  // the general path: the wasm export the glue falls back to (same module instance as the package's)
  const { planShards: planShardsJson } = await import('../pkg/wasm/shardwise.js');
  const outcome = (f, opts) => {
    try {
      return { plan: JSON.stringify(f(opts)) };
    } catch (e) {
      return { error: `${e.name} ${e.code} ${e.message}` };
    }
  };
  class Unit { constructor(id) { this.id = id; } }
  const cases = [
    golden.input,
    { ...golden.input, unit: 'file' },
    { units: [], shardCount: 3 },
    { units: [{ id: 'b', file: 'f › é.ts', durationMs: 2.5 }, { id: 'a › 😀', file: null, group: 'g' }, { id: 'c', group: 'g', durationMs: -1 }], shardCount: 2 },
    { units: [{ id: 'a', durationMs: 0 }, { id: 'b', durationMs: null }, { id: 'c', durationMs: -0 }], shardCount: 2 },
    { units: [{ id: 'a', durationMs: -5 }], shardCount: 2 },
    { units: [{ id: 'a', durationMs: 1e300 }], shardCount: 1 },
    { units: [{ id: '' }], shardCount: 1 },
    { units: [{ id: 'x' }, { id: 'y' }, { id: 'x' }, { id: 'y' }], shardCount: 1 },
    { units: [{ id: 'a', extra: 1 }], shardCount: 1 },
    { units: [{ id: 'a', extra: undefined, file: undefined }], shardCount: 1 },
    { units: [{ id: 1 }], shardCount: 1 },
    { units: [{ id: 'a', file: 3 }], shardCount: 1 },
    { units: [{ id: 'a', durationMs: '5' }], shardCount: 1 },
    { units: [{ id: '\ud800' }], shardCount: 1 },
    // ids cross joined by NUL: one holding a NUL, and ids over several pieces of 1,024
    { units: [{ id: 'a\0b', file: 'f' }, { id: 'a' }, { id: '\0' }, { id: 'b\0' }], shardCount: 2 },
    { units: [{ id: 'a', file: 'f\0g', group: 'g' }, { id: 'b', file: 'f', group: '\0' }, { id: 'c', file: '' }], shardCount: 2 },
    { units: Array.from({ length: 2500 }, (_, i) => ({ id: `t › ${i}`, durationMs: i % 7 })), shardCount: 3 },
    { units: [{ id: 'a', file: 'f\udc00', group: 'g' }, { id: 'b\ufffd', file: 'f\ufffd', group: 'g\ud800' }], shardCount: 2 },
    { units: [new Unit('a')], shardCount: 1 },
    { units: [{ id: 'a' }, , { id: 'b' }], shardCount: 1 }, // eslint-disable-line no-sparse-arrays
    { units: [{ id: 'a' }], shardCount: 1, environment: 'x' },
    { units: [{ id: 'a' }], shardCount: 1, report: pastRun() },
    { units: [{ id: 'a' }], shardCount: 1, shards: 2 },
    { units: [{ id: 'a' }], shardCount: '1' },
    { units: [{ id: 'a' }] },
    { units: [{ id: 'a', durationMs: 1e10 }, { id: 'b', durationMs: 1e10 }], shardCount: 1, perShardOverheadMs: 1e10, workers: 3 },
    // modules charged: each shard's modulesShare, on both paths
    { units: ['a', 'b', 'c', 'd', 'e'].map((f) => ({ id: f, file: f, durationMs: 1000 })), shardCount: 3, workers: 2,
      costs: { coldMs: 3000, modules: [{ id: 'm1', bytes: 3000, files: ['a', 'b'] }, { id: 'm2', bytes: 1000, files: ['c', 'd', 'e'] }, { id: 'm3', bytes: 7, files: ['e'] }] } },
  ];
  for (const opts of cases) {
    assert.deepEqual(outcome(planShards, opts), outcome(planShardsJson, opts), JSON.stringify(opts));
  }
  const shares = planShards(cases.at(-1)).shards.map((sh) => sh.modulesShare);
  assert.ok(shares.every((x) => x >= 0 && x <= 1) && shares.reduce((a, b) => a + b) >= 1, shares.join());
  // the one input JSON cannot carry: NaN and the infinities (written as null) are refused for
  // plain units, naming the unit; a unit of another kind reads through JSON, where they are absent
  for (const bad of [NaN, Infinity, -Infinity]) {
    assert.match(outcome(planShards, { units: [{ id: 'x' }, { id: 'a', durationMs: bad }], shardCount: 2 }).error,
      /^ShardwiseError INVALID_INPUT unit "a": durationMs must be a finite number >= 0/);
    const odd = new Unit('a');
    odd.durationMs = bad;
    assert.equal(planShards({ units: [odd], shardCount: 1 }).estimated, 1);
  }
});

test('the costs record\'s path is one fact: the runners\', the service\'s and the preview\'s module is Rust\'s', async () => {
  const { __costsSource } = await import('../pkg/wasm/shardwise.js');
  const { COSTS_SOURCE } = await import('../pkg/src/sources.js');
  assert.equal(COSTS_SOURCE, __costsSource());
  assert.equal((await import('../pkg/src/runner/costs.mjs')).COSTS_SOURCE, COSTS_SOURCE);
});

test('a report\'s costs record and shard plan are read from its sources by one reader: the last entry, nothing from a broken one', async () => {
  const { COSTS_SOURCE, SHARD_PLAN_SOURCE, costsRecordOf, shardPlanOf } = await import('../pkg/src/sources.js');
  const entry = (filePath, text) => ({ filePath, text, contentType: 'application/json' });
  // a runner's report: other sources beside them, the costs record replaced once by a later write
  const report = { sources: [entry('src/a.test.ts', 'test()'), entry(COSTS_SOURCE, '{"perShardMs":1}'), entry(SHARD_PLAN_SOURCE, '{"shard":2}'), entry(COSTS_SOURCE, '{"perShardMs":900}')] };
  assert.deepEqual(costsRecordOf(report), { perShardMs: 900 });
  assert.deepEqual(shardPlanOf(report), { shard: 2 });
  // none there, or not a JSON object: nothing, never a throw (a report from another tool)
  for (const bad of [undefined, null, {}, { sources: 'x' }, { sources: [null] }, { sources: [entry(COSTS_SOURCE, '{not json')] },
    { sources: [entry(COSTS_SOURCE, '[1]')] }, { sources: [entry(COSTS_SOURCE, 'null')] }, { sources: [{ filePath: COSTS_SOURCE }] }]) {
    assert.equal(costsRecordOf(bad), undefined, JSON.stringify(bad));
  }
});

test('node:test runs a shard\'s files by name: its costs say so, and its shards are planned and predicted in that order', () => {
  // shardCosts gives node:test's order from its runner, with or without a run; no other runner has one
  assert.equal(shardCosts({ category: 'node-test', environments: [] }).costs.order, 'name');
  assert.equal(shardCosts({ category: 'jest', environments: [] }).costs.order, undefined);
  // two workers: four 1 s files, then a 3 s file that sorts last
  const units = ['a1', 'a2', 'a3', 'a4', 'z'].map((f) => ({ id: `${f}.test.mjs`, file: `${f}.test.mjs`, durationMs: f === 'z' ? 3000 : 1000 }));
  const plan = (shardCount, order) => planShards({ units, shardCount, workers: 2, unit: 'file', costs: order ? { order } : {} });
  assert.equal(plan(1).makespanMs, 4000, 'longest first: z beside a1 and a2, a3 and a4 after them');
  assert.equal(plan(1, 'name').makespanMs, 5000, 'by name: z after the four');
  const two = plan(2, 'name');
  assert.equal(two.makespanMs, 3000, JSON.stringify(two.shards));
  assert.notEqual(plan(2, 'name').fingerprint, plan(2).fingerprint);
  assert.throws(() => plan(1, 'random'), (e) => e instanceof ShardwiseError && e.code === 'INVALID_INPUT' && /costs/.test(e.message));
});
