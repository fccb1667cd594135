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

/**
 * A report with every part of the format: richReport's, plus an anonymous suite inside a suite,
 * tests outside any suite, stdout/stderr, telemetry, system utilization, sources, unattributed
 * errors, related commits.
 */
function fullReport(tests = 50, seed = 1) {
  const doc = richReport(tests, seed).build();
  const r = rng(seed + 1);
  const attempt = (i) => ({ startTimestamp: 1_760_000_000_000 + i, environmentIdx: i % 2, duration: i, stdout: [{ text: `out ${i}\n` }, { buffer: 'AAEC' }], stderr: [{ text: 'warn' }] });
  doc.suites.push({ type: 'suite', title: 'outer', location: { file: 'tests/o.spec.ts', line: 1, column: 1 }, suites: [
    { type: 'anonymous suite', title: '', tests: Array.from({ length: 3 }, (_, i) => ({ title: `anon ${i}`, attempts: [attempt(i)] })) },
  ] });
  doc.tests = Array.from({ length: 4 }, (_, i) => ({ title: `top ${i}`, location: { file: 'tests/top.spec.ts', line: i + 1, column: 1 }, attempts: [attempt(i)] }));
  const pct = () => Math.min(100, r() * 100);
  Object.assign(doc, {
    relatedCommitIds: [SHA.replace(/0/g, 'f')], flakinessProject: 'acme/web', configPath: 'playwright.config.ts',
    cpuCount: 4, ramBytes: 16 * 2 ** 30,
    cpuAvg: [[1_760_000_000_000, pct()], [1000, pct()]], cpuMax: [[1_760_000_000_000, pct()]], ram: [[1_760_000_000_000, pct()], [500, pct()]],
    systemUtilization: { totalMemoryBytes: 16 * 2 ** 30, startTimestamp: 1_760_000_000_000, samples: [{ dts: 0, cpuUtilization: pct(), memoryUtilization: pct() }, { dts: 1000, cpuUtilization: pct(), memoryUtilization: pct() }] },
    sources: [{ filePath: 'tests/f0.spec.ts', text: 'test("x", () => {})\n', lineOffset: 0, contentType: 'text/typescript' }],
    unattributedErrors: [{ message: 'worker crashed', stack: 'Error: worker crashed' }],
  });
  return doc;
}

test('normalizeReport, encodeReport and decodeReport keep every part of a report and emit documents that pass the schema, small and large', () => {
  for (const [tests, seed] of [[20, 1], [3000, 9]]) {
    const doc = fullReport(tests, seed);
    assertSchema(doc);
    const back = decodeReport(encodeReport(doc));
    assertSchema(back);
    assert.deepEqual(back, doc, 'nothing is dropped or rewritten (stdout, stderr, systemUtilization, floats)');
    const n = normalizeReport(doc);
    assertSchema(n);
    assert.deepEqual(n.systemUtilization, doc.systemUtilization);
    assert.deepEqual(n.cpuAvg, doc.cpuAvg);
    assert.deepEqual(n.tests.map((t) => t.attempts[0].stdout), doc.tests.map((t) => t.attempts[0].stdout));
    assert.deepEqual(normalizeReport(n), n, 'normalizing twice changes nothing');
    assertSchema(decodeReport(encodeReport(n)));
    assert.deepEqual(decodeReport(encodeReport(n)), n);
  }
});

test('decodeReport accepts exactly what the published schema accepts, and returns it as stored', () => {
  const good = () => ({ category: 'jest', commitId: SHA, environments: [{ name: 'a' }], startTimestamp: 1, duration: 2,
    suites: [{ type: 'file', title: 'a.test.js', tests: [{ title: 't', attempts: [{ startTimestamp: 1, stdio: [{ text: 'x' }], attachments: [{ name: 'n', contentType: 'text/plain', id: 'ab' }] }] }] }] });
  const attempt = (d) => d.suites[0].tests[0].attempts[0];
  const cases = [
    // accepted by the schema, though validateReport's stricter rules are not met
    (d) => { d.suites[0].location = { file: 'a.test.js', line: 0, column: 0 }; },
    (d) => { attempt(d).duration = 1.5; },
    (d) => { attempt(d).environmentIdx = 4; },
    (d) => { d.commitId = 'X'.repeat(40); },
    (d) => { d.suites[0].tests[0].futureField = { a: 1 }; },
    (d) => { attempt(d).stdio = [{ text: 'a', buffer: 'not base64' }]; },
    (d) => { attempt(d).stdio = [{ text: 5, buffer: 'x' }]; },
    (d) => { d.environments[0].metadata = { list: [1, 2] }; },
    (d) => { d.environments = []; },
    (d) => { attempt(d).attachments[0].id = 'Z'.repeat(1024); },
    (d) => { d.suites[0].tests[0].location = { file: '/abs/a.js', line: -3, column: 0.5 }; },
    (d) => { d.systemUtilization = { totalMemoryBytes: 1, startTimestamp: 2, samples: [] }; },
    // refused by the schema
    (d) => { d.category = ''; },
    (d) => { d.category = 'x'.repeat(101); },
    (d) => { d.commitId = 'abc'; },
    (d) => { delete d.environments; },
    (d) => { d.environments[0].name = ''; },
    (d) => { attempt(d).stdio = [{}]; },
    (d) => { attempt(d).stdio = [{ stream: 1 }]; },
    (d) => { attempt(d).stdio = [{ text: 'a', stream: 3 }]; },
    (d) => { attempt(d).stdout = [{ text: 1 }]; },
    (d) => { delete attempt(d).startTimestamp; },
    (d) => { attempt(d).duration = -1; },
    (d) => { attempt(d).status = 'ok'; },
    (d) => { delete d.suites[0].tests[0].attempts; },
    (d) => { d.suites[0].type = 'describe'; },
    (d) => { d.testRunner = { name: 'jest', version: '' }; },
    (d) => { d.cpuAvg = [[-1, 5]]; },
    (d) => { d.ram = [[1, 101]]; },
    (d) => { d.systemUtilization = { totalMemoryBytes: 1, startTimestamp: 2 }; },
    (d) => { d.systemUtilization = { totalMemoryBytes: 1, startTimestamp: 2, samples: [{ dts: 1, cpuUtilization: 100.5, memoryUtilization: 1 }] }; },
    (d) => { attempt(d).attachments[0].id = ''; },
    (d) => { attempt(d).attachments[0].id = 'a'.repeat(1025); },
    (d) => { d.suites[0].tests[0].tags = ['a', 1]; },
  ];
  let accepted = 0;
  for (const mutate of cases) {
    const doc = good();
    mutate(doc);
    const schemaOk = Schema.Report.safeParse(doc).success;
    for (const bytes of [new TextEncoder().encode(JSON.stringify(doc)), zlib.brotliCompressSync(JSON.stringify(doc))]) {
      let got;
      try {
        got = decodeReport(bytes);
      } catch (e) {
        assert.ok(e instanceof ShardwiseError && e.code === 'INVALID_INPUT', String(e));
        assert.match(e.message, /^the report is not valid: \S+: /);
        assert.ok(!schemaOk, `decodeReport refused what the schema accepts: ${mutate} (${e.message})`);
        continue;
      }
      assert.ok(schemaOk, `decodeReport accepted what the schema refuses: ${mutate}`);
      assert.deepEqual(got, doc);
      accepted++;
    }
  }
  assert.equal(accepted, 2 * 12, 'the first twelve cases are the ones the schema accepts');
  // a UTF-8 byte order mark before plain JSON is not part of the document
  assert.deepEqual(decodeReport(new TextEncoder().encode('\ufeff' + JSON.stringify(good()))), good());
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
    [(d) => { d.suites[0].tests[0].location = { file: 'x.js', line: 1, column: 0 }; }, 'suites[0].tests[0].location.column'],
    [(d) => { d.suites[0].tests[0].location = { file: 'x.js', line: 2 ** 32, column: 1 }; }, 'suites[0].tests[0].location.line'],
    [(d) => { d.suites[0].tests[0].location = { file: '../x.js', line: 1, column: 1 }; }, 'suites[0].tests[0].location.file'],
    [(d) => { d.suites[0].tests[0].location = { file: '/x.js', line: 1, column: 1 }; }, 'suites[0].tests[0].location.file'],
    [(d) => { d.suites[0].tests[0].attempts[0].environmentIdx = 0.5; }, 'suites[0].tests[0].attempts[0].environmentIdx'],
    [(d) => { d.suites[0].tests[0].attempts[0].stdio = [{ stream: 2 }]; }, 'suites[0].tests[0].attempts[0].stdio[0]'],
    [(d) => { d.suites[0].tests[0].attempts[0].stdout = [{ text: 'a', dts: 1 }]; }, 'suites[0].tests[0].attempts[0].stdout[0].dts'],
    [(d) => { d.suites[0].tests[0].attempts[0].stauts = 'passed'; }, 'suites[0].tests[0].attempts[0].stauts'],
    [(d) => { d.suites[0].tests[0].attempts[0].steps = [{ title: 's', time: 3 }]; }, 'suites[0].tests[0].attempts[0].steps[0].time'],
    [(d) => { d.suites[0].tests[0].attempts[0].errors = [{ message: 'm', location: { file: 'a.js', line: 1, column: 1, col: 1 } }]; }, 'suites[0].tests[0].attempts[0].errors[0].location.col'],
    [(d) => { d.suites[0].tests[0].attempts[0].attachments = [{ name: 'a', contentType: 'text/plain', id: 'ABCDEF' }]; }, 'suites[0].tests[0].attempts[0].attachments[0].id'],
    [(d) => { d.suites[0].tests[0].attempts[0].duration = NaN; }, 'suites[0].tests[0].attempts[0].duration'],
    [(d) => { d.environments[0].metadata = { shards: [1, 2] }; }, 'environments[0].metadata.shards'],
    [(d) => { d.relatedCommitIds = [SHA.toUpperCase()]; }, 'relatedCommitIds[0]'],
    [(d) => { d.systemUtilization = { totalMemoryBytes: 1, startTimestamp: 1, samples: [{ dts: 1.5, cpuUtilization: 1, memoryUtilization: 1 }] }; }, 'systemUtilization.samples[0].dts'],
  ];
  for (const [mutate, path] of cases) {
    const issues = at(mutate);
    assert.ok(issues.some((i) => i.path === path), `expected ${path} in ${JSON.stringify(issues)}`);
  }
  assert.deepEqual(at((d) => { d.suites[0].tests[0].attempts[0].environmentIdx = 3; }),
    [{ path: 'suites[0].tests[0].attempts[0].environmentIdx', message: '3 is out of range (2 environments)' }]);
  assert.deepEqual(at((d) => { d.suites[0].tests[0].attempts[0].duration = Infinity; }),
    [{ path: 'suites[0].tests[0].attempts[0].duration', message: 'must be a number, got null (NaN and Infinity become null in JSON)' }]);
});

test('validateReport of a value that is not a report gives one issue, not an exception', () => {
  for (const [value, got] of [[null, 'null'], [undefined, 'null'], ['report', 'a string'], [42, 'a number'], [[], 'an array']]) {
    assert.deepEqual(validateReport(value), [{ path: '(report)', message: `must be an object, got ${got}` }], String(value));
  }
});

test('ReportBuilder refuses an invalid attempt, environment or init at once, naming the field', () => {
  const b = new ReportBuilder({ category: 'jest', commitId: SHA });
  const h = b.addTest({ titlePath: ['t'], file: 'a.test.js' });
  const refuses = (f, message) => assert.throws(f, (e) => e instanceof ShardwiseError && e.code === 'INVALID_INPUT' && message.test(e.message), String(message));
  refuses(() => b.addAttempt(h, { startTimestamp: 1 }), /^attempt is not valid: attempt\.environmentIdx: defaults to 0, but the report has no environments; add the environments first \(addEnvironment\)$/);
  b.addEnvironment({ name: 'node' });
  refuses(() => b.addAttempt(h, { stdio: [{ stream: 1 }] }), /^attempt is not valid: attempt\.stdio\[0\]: must have one of `text` or `buffer`$/);
  refuses(() => b.addAttempt(h, { stauts: 'failed' }), /attempt\.stauts: is not a field of this object \(unknown key\)/);
  refuses(() => b.addAttempt(h, { attachments: [{ name: 'a', contentType: 'text/plain', id: 'not-a-hash' }] }), /attempt\.attachments\[0\]\.id: must be a lowercase hex content hash/);
  refuses(() => b.addAttempt(h, { errors: [{ location: { file: 'C:\\a.js', line: 1, column: 1 } }] }), /attempt\.errors\[0\]\.location\.file/);
  refuses(() => b.addAttempt(h, { environmentIdx: 1 }), /attempt\.environmentIdx: 1 is out of range \(1 environments\)/);
  refuses(() => b.addEnvironment({ name: 'x', metadata: { list: [1] } }), /^environment is not valid: environment\.metadata\.list: must be a string, number or boolean/);
  refuses(() => b.addEnvironment({ name: 'x', colour: 'red' }), /environment\.colour: is not a field/);
  refuses(() => b.addEnvironment({ name: '' }), /environment\.name: must be 1 to 512 characters/);
  refuses(() => new ReportBuilder({ category: 'jest', commitId: SHA, testRunner: { name: 'jest', version: '' } }), /^ReportBuilder init is not valid: testRunner\.version: must be 1 to/);
  refuses(() => new ReportBuilder({ category: 'jest', commitId: SHA, configPath: '/ci/jest.config.js' }), /ReportBuilder init is not valid: configPath: "\/ci\/jest\.config\.js" must be relative/);
  refuses(() => new ReportBuilder({ category: 'jest', commitId: 'HEAD' }), /ReportBuilder init is not valid: commitId: must be a git SHA-1/);
  refuses(() => new ReportBuilder({ category: 'jest', commitId: SHA, colour: 'red' }), /ReportBuilder init: unknown field `colour`/);
  // a null field is an absent one, as JSON.stringify's undefined
  b.addAttempt(h, { status: 'failed', timeout: null, errors: [{ message: 'm', stack: null }] });
  b.addEnvironment({ name: 'y', systemData: null });
  const doc = b.build();
  assertSchema(doc);
  assert.deepEqual(doc.suites[0].tests[0].attempts, [{ status: 'failed', startTimestamp: 0, errors: [{ message: 'm' }] }]);
  assert.deepEqual(decodeReport(b.encode()), doc);
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
  // defaults dropped at every depth: no empty array or object, no value a field defaults to
  const withDefaults = structuredClone(n);
  withDefaults.cpuAvg = [];
  withDefaults.environments.push({ name: 'z', systemData: {}, metadata: {} }, { name: 'z' });
  const a0 = withDefaults.suites[0].suites[0].suites[0].tests[0].attempts[0];
  Object.assign(a0, { stdout: [], stderr: [], annotations: [], status: 'passed', expectedStatus: 'passed', environmentIdx: 0, duration: 0 });
  a0.steps[0].attachments = [];
  a0.stdio[0].stream = 1;
  const m = normalizeReport(withDefaults);
  const found = [];
  (function walk(v, path) {
    if (Array.isArray(v)) return v.length === 0 ? found.push(path) : v.forEach((x, i) => walk(x, `${path}[${i}]`));
    if (v && typeof v === 'object') {
      if (Object.keys(v).length === 0) found.push(path);
      for (const [k, x] of Object.entries(v)) {
        if ((k === 'status' || k === 'expectedStatus') && x === 'passed') found.push(`${path}.${k}`);
        if ((k === 'environmentIdx' || (k === 'duration' && /attempts\[\d+\]$/.test(path))) && x === 0) found.push(`${path}.${k}`);
        if (k === 'stream' && x === 1) found.push(`${path}.${k}`);
        walk(x, `${path}.${k}`);
      }
    }
  })(m, '');
  assert.deepEqual(found, []);
  assert.deepEqual(m.environments.slice(n.environments.length), [{ name: 'z' }], 'environments equal but for empty fields merge');
  assertSchema(m);
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
