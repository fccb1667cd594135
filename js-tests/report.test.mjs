// Reports through the package: every document the builder, normalizeReport and decodeReport
// emit passes the published schema (@flakiness/flakiness-report), and validateReport is stricter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { Schema } from '@flakiness/flakiness-report';
import { ReportBuilder, encodeReport, decodeReport, validateReport, normalizeReport, ShardwiseError } from 'shardwise';
import { rng } from './helpers/data.mjs';

const SHA = '0123456789abcdef0123456789abcdef01234567';

function assertSchema(doc) {
  const r = Schema.Report.safeParse(doc);
  assert.ok(r.success, JSON.stringify(r.error?.issues?.slice(0, 3)));
  assert.deepEqual(validateReport(doc), []);
}

/** A rich report: nested suites of all three types, steps, stdio (text and binary), errors, annotations, attachments, several environments. */
function richReport(tests = 50, seed = 1) {
  const r = rng(seed);
  const b = new ReportBuilder({ category: 'playwright', commitId: SHA, title: 'nightly', url: 'https://ci.example/run/1', testRunner: { name: 'playwright', version: '1.65.1' } });
  const envs = ['chromium', 'firefox'].map((name) => b.addEnvironment({ name, systemData: { osName: 'linux', osArch: 'x64' }, metadata: { headless: true, workers: 2 } }));
  const shot = b.addAttachment({ name: 'screenshot.png', contentType: 'image/png', data: new Uint8Array([137, 80, 78, 71, 1, 2, 3]) });
  for (let i = 0; i < tests; i++) {
    const h = b.addTest({ titlePath: [`suite ${i % 5}`, `nested ${i % 3}`, `test ${i}`], file: `tests/f${i % 7}.spec.ts`, line: 1 + i, column: 3, tags: i % 4 ? [] : ['@slow'] });
    for (const env of envs) {
      const failed = r() < 0.2;
      b.addAttempt(h, {
        environmentIdx: env, startTimestamp: 1_760_000_000_000 + i, duration: (r() * 5000) | 0,
        status: failed ? 'failed' : 'passed', expectedStatus: 'passed', parallelIndex: i % 3,
        annotations: [{ type: 'owner', description: 'team-a' }],
        errors: failed ? [{ message: 'expected 1 to be 2', stack: 'Error: at x', location: { file: `tests/f${i % 7}.spec.ts`, line: 2, column: 5 } }] : undefined,
        steps: [{ title: 'page.goto', duration: 12, steps: [{ title: 'inner', duration: 3 }] }],
        stdio: [{ text: 'hello\n', dts: 1 }, { buffer: Buffer.from([0, 255, 10]).toString('base64'), stream: 2, dts: 2 }],
        attachments: failed ? [shot] : undefined,
      });
    }
  }
  return b;
}

test('builder output passes the published schema, small and large', () => {
  assertSchema(richReport(20).build());
  assertSchema(richReport(3000, 9).build());
  const empty = new ReportBuilder({ category: 'jest', commitId: SHA }).build();
  assertSchema(empty);
});

test('builder: anonymous suites and top-level tests survive encode/decode and pass the schema', () => {
  const doc = richReport(5).build();
  doc.suites.push({ type: 'anonymous suite', title: '', tests: [{ title: 'anon', attempts: [{ startTimestamp: 1 }] }] });
  doc.tests = [{ title: 'top', attempts: [] }];
  assertSchema(doc);
  const back = decodeReport(encodeReport(doc));
  assertSchema(back);
  assert.equal(back.tests[0].title, 'top');
});

test('builder collapses equal environments, tests and attachment contents', () => {
  const b = new ReportBuilder({ category: 'jest', commitId: SHA });
  assert.equal(b.addEnvironment({ name: 'node' }), 0);
  assert.equal(b.addEnvironment({ name: 'node', metadata: { v: 20 } }), 1);
  assert.equal(b.addEnvironment({ name: 'node' }), 0);
  const t = b.addTest({ titlePath: ['a', 'b'], file: 'x.test.js' });
  assert.equal(b.addTest({ titlePath: ['a', 'b'], file: 'x.test.js' }), t);
  const a = b.addAttachment({ name: 'log.txt', contentType: 'text/plain', data: new TextEncoder().encode('abc') });
  assert.equal(a.id, 'a9993e364706816aba3e25717850c26c9cd0d89d');
  assert.equal(b.addAttachment({ name: 'other.txt', contentType: 'text/plain', data: new TextEncoder().encode('abc') }).id, a.id);
  assert.equal(b.attachments().length, 1);
});

test('encode() is Brotli JSON that Node zlib reads, and decodeReport reads both forms', () => {
  const b = richReport(10);
  const bytes = b.encode();
  const json = JSON.parse(zlib.brotliDecompressSync(bytes));
  assert.deepEqual(json, b.build());
  assert.deepEqual(decodeReport(bytes), json);
  assert.deepEqual(decodeReport(new TextEncoder().encode(JSON.stringify(json))), json);
  assertSchema(decodeReport(bytes));
});

test('decodeReport rejects what is neither Brotli nor JSON with a ShardwiseError', () => {
  for (const bad of [new TextEncoder().encode('hello world'), new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), zlib.brotliCompressSync('not json')]) {
    assert.throws(() => decodeReport(bad), (e) => e instanceof ShardwiseError && ['INVALID_INPUT', 'BROTLI_CORRUPT'].includes(e.code));
  }
});

test('validateReport reports each stricter rule at its path', () => {
  const good = () => ({ category: 'jest', commitId: SHA, environments: [{ name: 'a' }, { name: 'b' }], startTimestamp: 1, duration: 2,
    suites: [{ type: 'file', title: 'a.test.js', suites: [], tests: [{ title: 't', attempts: [{ startTimestamp: 1, environmentIdx: 1 }] }] }] });
  assert.deepEqual(validateReport(good()), []);
  const at = (mutate) => { const d = good(); mutate(d); return validateReport(d); };
  const cases = [
    [(d) => { d.commitId = 'ABCDEF'; }, 'commitId'],
    [(d) => { d.suites[0].tests[0].attempts[0].environmentIdx = 3; }, 'suites[0].tests[0].attempts[0].environmentIdx'],
    [(d) => { d.duration = 1.5; }, 'duration'],
    [(d) => { d.startTimestamp = -5; }, 'startTimestamp'],
    [(d) => { d.suites[0].tests[0].location = { file: 'C:\\x.js', line: 1, column: 1 }; }, 'suites[0].tests[0].location.file'],
    [(d) => { d.suites[0].tests[0].location = { file: 'x.js', line: 0, column: 1 }; }, 'suites[0].tests[0].location.line'],
    [(d) => { d.suites[0].tests[0].attempts[0].stdio = [{ text: 'a', buffer: 'YQ==' }]; }, 'suites[0].tests[0].attempts[0].stdio[0]'],
    [(d) => { d.suites[0].tests[0].attempts[0].stdio = [{ buffer: '%%%' }]; }, 'suites[0].tests[0].attempts[0].stdio[0].buffer'],
    [(d) => { d.suites[0].tests[0].attempts[0].attachments = [{ name: 'a', contentType: 'text/plain', id: 'f'.repeat(257) }]; }, 'suites[0].tests[0].attempts[0].attachments[0].id'],
    [(d) => { d.suites[0].tests[0].colour = 'red'; }, 'suites[0].tests[0].colour'],
  ];
  for (const [mutate, path] of cases) {
    const issues = at(mutate);
    assert.ok(issues.some((i) => i.path === path), `expected ${path} in ${JSON.stringify(issues)}`);
  }
  assert.deepEqual(at((d) => { d.suites[0].tests[0].attempts[0].environmentIdx = 3; }),
    [{ path: 'suites[0].tests[0].attempts[0].environmentIdx', message: '3 is out of range (2 environments)' }]);
});

test('encodeReport refuses an invalid report, naming the problem', () => {
  assert.throws(() => encodeReport({ category: 'jest', commitId: 'nope', environments: [], startTimestamp: 0, duration: 0 }),
    (e) => e instanceof ShardwiseError && e.code === 'INVALID_INPUT' && e.message.includes('commitId'));
});

test('normalizeReport merges environments and duplicate tests, keeps every attempt, is idempotent', () => {
  const doc = richReport(30).build();
  doc.environments.push({ ...doc.environments[0] });
  const dup = structuredClone(doc.suites[0]);
  for (const t of dup.suites?.[0]?.suites?.[0]?.tests ?? []) for (const a of t.attempts) a.environmentIdx = 2;
  doc.suites.push(dup);
  const count = (r) => [...JSON.stringify(r).matchAll(/"startTimestamp":1760/g)].length;
  const n = normalizeReport(doc);
  assertSchema(n);
  assert.equal(n.environments.length, 2);
  assert.equal(count(n), count(doc));
  assert.deepEqual(normalizeReport(n), n);
});

test('addTest and addAttempt read field by field give the report, or the error, that JSON gives', () => {
  // The glue sends plain tests and attempts across field by field (pkg-template/src/api.js) and
  // anything else as JSON. `viaJson` forces the JSON path for the same values (a toJSON method).
  const viaJson = (v) => ({ toJSON: () => v });
  const same = (v) => v;
  // counts the calls of the field-by-field way, to know each side took the way meant
  const wasmProto = Object.getPrototypeOf(ReportBuilder.prototype);
  const calls = { __addTestFields: 0, __addAttemptFields: 0 };
  const originals = {};
  for (const name of Object.keys(calls)) {
    originals[name] = wasmProto[name];
    wasmProto[name] = function (...args) { calls[name]++; return originals[name].apply(this, args); };
  }
  try {
    const tests = [
      { titlePath: ['a'] },
      { titlePath: ['S', 'quote " back \\ nl \n tab \t nul \0 é 😀'], file: 'tests/x.spec.ts', line: 3, column: 7, tags: ['@a', '@b'] },
      { titlePath: ['S', 't'], file: 'tests/x.spec.ts', line: null, column: undefined, tags: null },
      { titlePath: ['S', 't'], file: 'tests/x.spec.ts' },
      { titlePath: ['S', 't2'], file: 'tests/y.spec.ts', line: 0, column: 0xffffffff, tags: [] },
      { titlePath: ['S', 't3'], file: 'tests/y.spec.ts', line: -0, column: 9 },
    ];
    const attempts = [
      {},
      { environmentIdx: 1, status: 'failed', expectedStatus: 'passed', startTimestamp: 1_760_000_000_000, duration: 5, timeout: 30000, parallelIndex: 2 },
      { environmentIdx: 0, status: 'timedOut', expectedStatus: 'skipped', startTimestamp: 0, duration: -0, timeout: null, parallelIndex: null },
      { status: 'interrupted', duration: Number.MAX_SAFE_INTEGER, startTimestamp: undefined },
    ];
    const build = (wrap) => {
      const b = new ReportBuilder({ category: 'jest', commitId: SHA });
      b.addEnvironment({ name: 'a' });
      b.addEnvironment({ name: 'b' });
      const handles = tests.map((t) => b.addTest(wrap(t)));
      for (const h of handles) for (const a of attempts) b.addAttempt(h, wrap(a));
      return { handles, doc: b.build(), bytes: Buffer.from(b.encode()) };
    };
    const json = build(viaJson);
    assert.deepEqual(calls, { __addTestFields: 0, __addAttemptFields: 0 });
    const fields = build(same);
    // every test but the one with a NUL in a title (titles cross joined by NUL), every attempt
    assert.deepEqual(calls, { __addTestFields: tests.length - 1, __addAttemptFields: tests.length * attempts.length });
    assert.deepEqual(fields.handles, [0, 1, 2, 2, 3, 4]);
    assert.deepEqual(fields, json);
    assertSchema(fields.doc);

    const cases = [
      (b, w) => b.addTest(w({ titlePath: [] })),
      (b, w) => b.addTest(w({ titlePath: [''] })),
      (b, w) => b.addTest(w({ titlePath: ['', 'x', ''], file: 'a.ts' })),
      (b, w) => b.addTest(w({ titlePath: ['x'], file: '../outside.ts' })),
      (b, w) => b.addTest(w({ titlePath: ['x'], file: '' })),
      (b, w) => b.addTest(w({ titlePath: ['x'], file: 'a\0b.ts' })),
      (b, w) => b.addTest(w({ titlePath: ['x', 'y'], file: 'a.ts', line: 2 })),
      (b, w) => b.addTest(w({ titlePath: ['x'], file: 'a.ts', line: 1.5 })),
      (b, w) => b.addTest(w({ titlePath: ['x'], file: 'a.ts', line: -1 })),
      (b, w) => b.addTest(w({ titlePath: ['x'], file: 'a.ts', column: 2 ** 32 })),
      (b, w) => b.addTest(w({ titlePath: ['x', '\ud800'] })),
      (b, w) => b.addTest(w({ titlePath: ['x', 5] })),
      // eslint-disable-next-line no-sparse-arrays
      (b, w) => b.addTest(w({ titlePath: ['x', , 'y'] })),
      (b, w) => b.addTest(w({ titlePath: Object.assign(['x', 'y'], { extra: 1 }) })),
      (b, w) => b.addTest(w({ titlePath: ['x'], tags: '@a' })),
      (b, w) => b.addTest(w({ titlePath: ['x'], unknown: 1 })),
      (b, w) => b.addAttempt(0, w({ environmentIdx: 2 })),
      (b, w) => b.addAttempt(99, w({})),
      (b, w) => b.addAttempt(0, w({ status: 'passd' })),
      (b, w) => b.addAttempt(0, w({ status: 'Passed' })),
      (b, w) => b.addAttempt(0, w({ expectedStatus: 'timed out' })),
      (b, w) => b.addAttempt(0, w({ duration: 1.5 })),
      (b, w) => b.addAttempt(0, w({ startTimestamp: -1 })),
      (b, w) => b.addAttempt(0, w({ startTimestamp: 2 ** 64 })),
      (b, w) => b.addAttempt(0, w({ parallelIndex: '1' })),
    ];
    const outcome = (f, wrap) => {
      const b = new ReportBuilder({ category: 'jest', commitId: SHA });
      b.addEnvironment({ name: 'a' });
      b.addTest({ titlePath: ['t'] });
      try {
        return { returned: f(b, wrap), doc: b.build() };
      } catch (e) {
        return { name: e.name, code: e.code, message: e.message };
      }
    };
    for (const f of cases) {
      const got = outcome(f, same);
      assert.deepEqual(got, outcome(f, viaJson), f.toString());
    }
    assert.equal(outcome(cases[0], same).code, 'INVALID_INPUT');
  } finally {
    Object.assign(wasmProto, originals);
  }
});
