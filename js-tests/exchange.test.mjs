// Both exchanges of the BUILT package against the real local service, through the recording
// proxy of helpers/fault-server.mjs (no faults injected here; see exchange-faults.test.mjs):
// what goes on the wire (order, methods, paths, headers, bodies), what the service stores, the
// results, progress events, input checks, and shardGroupKeyFor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchDurations, uploadReport, shardGroupKeyFor, ReportBuilder, ShardwiseError, validateReport } from 'shardwise';
import { createFaultServer } from './helpers/fault-server.mjs';
import { Store } from '../pkg/server/store.mjs';
import { noise } from './helpers/data.mjs';

const COMMIT = '0123456789abcdef0123456789abcdef01234567';
const enc = (s) => new TextEncoder().encode(s);

/** A valid report with two environments, three tests and attachments of several kinds. */
function fixture() {
  const b = new ReportBuilder({ category: 'playwright', commitId: COMMIT, startTimestamp: 1760000000000 });
  const chromium = b.addEnvironment({ name: 'chromium' });
  const firefox = b.addEnvironment({ name: 'firefox' });
  const files = {
    'text/plain': enc('log line\n'.repeat(2000)),
    'application/json': enc(JSON.stringify({ trace: Array.from({ length: 500 }, (_, i) => ({ i, ok: true })) })),
    'text/html; charset=utf-8': enc('<p>hello</p>'.repeat(300)),
    'image/png': noise(20_000, 1),
    'video/webm': noise(50_000, 2),
    'application/zip': noise(10_000, 3),
  };
  const refs = Object.entries(files).map(([contentType, data], i) => b.addAttachment({ name: `a${i}`, contentType, data }));
  const tests = [['login', 'works', 1200, 1500], ['cart', 'adds', 300, 200], ['search', 'finds', 5000, 4000]];
  for (const [suite, title, d1, d2] of tests) {
    const h = b.addTest({ titlePath: [suite, title], file: `tests/${suite}.spec.ts`, line: 3, column: 1 });
    b.addAttempt(h, { environmentIdx: chromium, startTimestamp: 1760000000100, duration: d1, attachments: refs.slice(0, 3) });
    b.addAttempt(h, { environmentIdx: firefox, startTimestamp: 1760000000200, duration: d2, attachments: refs.slice(3) });
  }
  return { report: b.build(), attachments: b.attachments(), files };
}

/** The report as a test list: the same tests, no attempts. */
function testListOf(report) {
  const strip = (suites) => suites?.map((s) => ({ ...s, suites: strip(s.suites), tests: s.tests?.map((t) => ({ ...t, attempts: [] })) }));
  return JSON.parse(JSON.stringify({ ...report, suites: strip(report.suites) }));
}

const bearerOf = (r) => r.headers.authorization;

test('uploadReport: the contract\'s calls in order, the right credential on each, everything stored', async (t) => {
  const fx = await createFaultServer();
  t.after(() => fx.close());
  const { report, attachments, files } = fixture();
  assert.deepEqual(validateReport(report), []);
  const events = [];
  const result = await uploadReport({ baseUrl: fx.baseUrl, accessToken: fx.accessToken, report, attachments, concurrency: 2, onEvent: (e) => events.push(e) });

  // order and methods: start, report, one attachments request, six PUTs, finish
  const routes = fx.requests.map((r) => `${r.method} ${r.route}`);
  assert.deepEqual(routes, ['POST start', 'PUT putReport', 'POST attachments', ...Array(6).fill('PUT putAttachment'), 'POST finish']);
  assert.ok(fx.requests.every((r) => typeof r.status === 'number' && r.status < 300), 'every call succeeded at once');
  const [start, put, ids, ...rest] = fx.requests;
  const finish = rest.pop();

  // credentials: access token on start, upload token on attachments and finish, none on storage
  assert.equal(bearerOf(start), `Bearer ${fx.accessToken}`);
  assert.equal(start.headers['content-type'], 'application/json', 'docs/service-contract.md §5.1: start declares Content-Type application/json');
  assert.equal(start.body.length, 0, 'start sends no body');
  const uploadToken = bearerOf(ids).slice('Bearer '.length);
  assert.match(uploadToken, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'the JWT start returned');
  assert.notEqual(uploadToken, fx.accessToken);
  assert.equal(bearerOf(finish), `Bearer ${uploadToken}`);
  assert.equal(finish.body.length, 0);
  for (const r of [put, ...rest]) {
    assert.equal(r.headers.authorization, undefined, `no Authorization on presigned ${r.path}`);
    assert.ok(r.query.sig && r.query.expires, 'the presigned URL is used as given');
  }

  // the report: JSON, Brotli, and what the service stored equals what was sent
  assert.equal(put.headers['content-type'], 'application/json');
  assert.equal(put.headers['content-encoding'], 'br');
  assert.deepEqual(JSON.parse(brotliDecompressSync(put.body)), report);
  const id = result.webUrl.split('/').pop();
  const stored = await fetch(`${fx.service.baseUrl}/api/reports/${id}/report.json.br`);
  assert.deepEqual(await stored.json(), report, 'stored report = the report given');

  // attachment ids: one request with every id
  assert.equal(ids.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(ids.body).attachmentIds, attachments.map((a) => a.id));

  // every attachment byte arrives; text-like compressed with br, binary types raw
  const store = new Store(fx.service.dataDir);
  let sent = put.body.length;
  for (const a of attachments) {
    const req = rest.find((r) => r.path.endsWith(`/attachments/${a.id}`));
    assert.ok(req, `attachment ${a.id} was PUT`);
    sent += req.body.length;
    const blob = store.get(`reports/${id}/attachments/${a.id}`);
    const textLike = !/^(image|video)\/|zip/.test(a.contentType);
    assert.equal(req.headers['content-type'], a.contentType);
    if (textLike) {
      assert.equal(req.headers['content-encoding'], 'br', a.contentType);
      assert.equal(blob.meta.contentEncoding, 'br');
      assert.ok(blob.bytes.length < a.data.length / 4, `${a.contentType} compressed: ${blob.bytes.length} < ${a.data.length}`);
      assert.deepEqual(new Uint8Array(brotliDecompressSync(blob.bytes)), a.data);
    } else {
      assert.equal(req.headers['content-encoding'], undefined, `${a.contentType} sent as it is`);
      assert.deepEqual(new Uint8Array(blob.bytes), a.data);
    }
    assert.equal(createHash('sha1').update(files[a.contentType]).digest('hex'), a.id);
  }

  // the result
  assert.match(result.webUrl, /^\/reports\/[0-9a-f-]{36}$/);
  assert.equal(result.reportUrl, new URL(result.webUrl, fx.baseUrl).href);
  assert.equal(result.attachments, 6);
  assert.equal(result.bytes, sent, 'bytes = report + attachments as sent');

  // the service finished it: the report is listed with its attachments
  const listed = await (await fetch(`${fx.service.baseUrl}/api/reports`)).json();
  assert.deepEqual(listed.map((r) => r.id), [id]);
  assert.deepEqual(listed[0].attachmentIds.sort(), attachments.map((a) => a.id).sort());

  // progress: one event per call, in order, with the bytes of uploads
  assert.deepEqual(events.map((e) => e.step), ['start', 'upload-report', 'attachments', ...Array(6).fill('upload-attachment'), 'finish']);
  assert.ok(events.every((e) => e.attempt === 1 && e.status === 200));
  assert.equal(events[1].bytes, put.body.length);
  assert.deepEqual(events.filter((e) => e.step === 'upload-attachment').map((e) => e.bytes).sort(), rest.map((r) => r.body.length).sort());
});

test('uploadReport: attachments given by path are read from disk (Node), encoded bytes are sent as they are', async (t) => {
  const fx = await createFaultServer();
  t.after(() => fx.close());
  const dir = mkdtempSync(join(tmpdir(), 'shardwise-att-'));
  const log = enc('stdout line\n'.repeat(5000));
  const png = noise(30_000, 9);
  writeFileSync(join(dir, 'out.log'), log);
  writeFileSync(join(dir, 'shot.png'), png);
  const { report } = fixture();
  const b = new ReportBuilder({ category: 'jest', commitId: COMMIT, startTimestamp: 5 });
  b.addEnvironment({ name: 'node' });
  b.addAttempt(b.addTest({ titlePath: ['t'] }), { startTimestamp: 6, duration: 7 });
  const encoded = b.encode();
  const result = await uploadReport({
    baseUrl: fx.baseUrl, accessToken: fx.accessToken, report: encoded,
    attachments: [{ id: 'log-1', contentType: 'text/x-log', path: join(dir, 'out.log') }, { id: 'shot-1', contentType: 'image/png', path: join(dir, 'shot.png') }],
  });
  assert.deepEqual(new Uint8Array(fx.requestsTo('putReport')[0].body), encoded, 'already-encoded bytes go out unchanged');
  const id = result.webUrl.split('/').pop();
  const store = new Store(fx.service.dataDir);
  assert.deepEqual(new Uint8Array(brotliDecompressSync(store.get(`reports/${id}/attachments/log-1`).bytes)), log);
  assert.deepEqual(new Uint8Array(store.get(`reports/${id}/attachments/shot-1`).bytes), png);
  assert.equal(result.attachments, 2);
  assert.notDeepEqual(report, b.build());
});

test('fetchDurations: create, PUT test list, submit, poll; the annotated report carries the uploaded durations', async (t) => {
  const fx = await createFaultServer({ computeDelayMs: 1200 });
  t.after(() => fx.close());
  const { report, attachments } = fixture();
  await uploadReport({ baseUrl: fx.baseUrl, accessToken: fx.accessToken, report, attachments });
  fx.reset();

  const list = testListOf(report);
  const shardGroupKey = shardGroupKeyFor({ commitId: COMMIT, runId: 'run-1', testRunner: 'playwright' });
  const events = [];
  const annotated = await fetchDurations({ baseUrl: fx.baseUrl, accessToken: fx.accessToken, commitId: COMMIT, shardGroupKey, orgSlug: 'acme', report: list, onEvent: (e) => events.push(e) });

  const routes = fx.requests.map((r) => `${r.method} ${r.route}`);
  const polls = fx.requestsTo('download');
  assert.deepEqual(routes, ['POST create', 'PUT putTestList', 'POST submit', ...polls.map(() => 'GET download')]);
  assert.ok(polls.length >= 2, `polled while computing (${polls.length} GETs)`);
  assert.deepEqual(polls.map((r) => r.status), [...Array(polls.length - 1).fill(404), 200]);
  const gaps = polls.slice(1).map((r, i) => r.at - polls[i].at);
  assert.ok(gaps.every((g) => g >= 400), `poll interval >= 0.5 s: ${gaps}`);

  const [create, put, submit] = fx.requests;
  assert.equal(create.headers.authorization, `Bearer ${fx.accessToken}`);
  assert.equal(create.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(create.body), { commitId: COMMIT, shardGroupKey, orgSlug: 'acme' });
  assert.equal(put.headers.authorization, undefined);
  assert.equal(put.headers['content-type'], 'application/json');
  assert.equal(put.headers['content-encoding'], 'br');
  assert.deepEqual(JSON.parse(brotliDecompressSync(put.body)), list, 'the test list as given');
  const durationsToken = submit.headers.authorization.slice('Bearer '.length);
  assert.match(durationsToken, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.notEqual(durationsToken, fx.accessToken);
  assert.equal(submit.body.length, 0);
  for (const r of polls) assert.equal(r.headers.authorization, undefined);

  // each test has one attempt per environment, with the duration uploaded before
  const got = annotated.suites.flatMap((f) => f.suites.flatMap((s) => s.tests.map((x) => [s.title, x.attempts.map((a) => [a.environmentIdx, a.duration])])));
  assert.deepEqual(got, [['login', [[0, 1200], [1, 1500]]], ['cart', [[0, 300], [1, 200]]], ['search', [[0, 5000], [1, 4000]]]]);
  assert.deepEqual(annotated.environments, report.environments);

  assert.deepEqual(events.map((e) => [e.step, e.status]), [['create', 200], ['upload-test-list', 200], ['submit', 200], ...polls.map((r) => ['poll', r.status])]);
  assert.equal(events[1].bytes, put.body.length);
});

test('fetchDurations: every shard of a run gets the identical prediction; unknown tests have no attempts', async (t) => {
  const fx = await createFaultServer({ computeDelayMs: 200 });
  t.after(() => fx.close());
  const { report } = fixture();
  await uploadReport({ baseUrl: fx.baseUrl, accessToken: fx.accessToken, report });
  const list = testListOf(report);
  list.suites[0].suites[0].tests.push({ title: 'brand new', attempts: [] });
  const key = shardGroupKeyFor({ commitId: COMMIT, runId: '77' });
  const shards = await Promise.all([1, 2, 3].map(() => fetchDurations({ baseUrl: fx.baseUrl, accessToken: fx.accessToken, commitId: COMMIT, shardGroupKey: key, report: list })));
  assert.deepEqual(shards[1], shards[0]);
  assert.deepEqual(shards[2], shards[0]);
  const fresh = shards[0].suites[0].suites[0].tests.find((x) => x.title === 'brand new');
  assert.deepEqual(fresh.attempts, []);
  assert.equal(fx.requestsTo('create').length, 3);
});

test('a baseUrl with a path prefix keeps the prefix on every service call (with and without a trailing slash)', async (t) => {
  const fx = await createFaultServer({ prefix: '/tenant/acme' });
  t.after(() => fx.close());
  assert.ok(fx.baseUrl.endsWith('/tenant/acme'));
  const { report, attachments } = fixture();
  const r1 = await uploadReport({ baseUrl: fx.baseUrl, accessToken: fx.accessToken, report, attachments: attachments.slice(0, 2) });
  const r2 = await fetchDurations({ baseUrl: fx.baseUrl + '/', accessToken: fx.accessToken, commitId: COMMIT, shardGroupKey: 'prefix-run', report: testListOf(report) });
  assert.equal(fx.requestsTo('outsidePrefix').length, 0, 'no request left the prefix');
  assert.deepEqual(fx.requests.filter((r) => r.path.startsWith('/api/')).map((r) => r.path), [
    '/api/upload/start', '/api/upload/attachments', '/api/upload/finish', '/api/testDurations/create', '/api/testDurations/submit',
  ]);
  assert.equal(r1.reportUrl, new URL(r1.webUrl, fx.baseUrl).href, 'an absolute-path webUrl resolves against the origin');
  assert.ok(Array.isArray(r2.suites));
});

test('invalid inputs fail with INVALID_INPUT before anything is sent', async (t) => {
  const fx = await createFaultServer();
  t.after(() => fx.close());
  const { report, attachments } = fixture();
  const list = testListOf(report);
  const base = { baseUrl: fx.baseUrl, accessToken: fx.accessToken };
  const durations = { ...base, commitId: COMMIT, shardGroupKey: 'ok-key', report: list };
  const badReport = { ...report, commitId: 'HEAD' };
  delete badReport.category;
  const cases = [
    ['shardGroupKey with a space', () => fetchDurations({ ...durations, shardGroupKey: 'a b' }), /shardGroupKey/],
    ['empty shardGroupKey', () => fetchDurations({ ...durations, shardGroupKey: '' }), /shardGroupKey/],
    ['shardGroupKey of 251 characters', () => fetchDurations({ ...durations, shardGroupKey: 'k'.repeat(251) }), /shardGroupKey.*1 to 250/],
    ['commitId HEAD', () => fetchDurations({ ...durations, commitId: 'HEAD' }), /commitId/],
    ['uppercase commitId', () => fetchDurations({ ...durations, commitId: COMMIT.toUpperCase() }), /commitId/],
    ['invalid test list', () => fetchDurations({ ...durations, report: badReport }), /category: is required.*commitId/],
    ['invalid report', () => uploadReport({ ...base, report: badReport }), /report is not valid: category: is required; commitId: must be a git SHA-1.*validateReport/],
    ['invalid report bytes', () => uploadReport({ ...base, report: enc(JSON.stringify(badReport)) }), /category/],
    ['duplicate attachment id', () => uploadReport({ ...base, report, attachments: [attachments[0], { ...attachments[1], id: attachments[0].id }] }), /given twice/],
    ['attachment id of 257 characters', () => uploadReport({ ...base, report, attachments: [{ id: 'a'.repeat(257), contentType: 'text/plain', data: enc('x') }] }), /1 to 256 characters/],
    ['attachment data as a string', () => uploadReport({ ...base, report, attachments: [{ id: 'a', contentType: 'text/plain', data: 'x' }] }), /^attachments\[0\]\.data must be bytes \(a Uint8Array, ArrayBuffer or typed array\)$/],
    ['attachment with data and path', () => uploadReport({ ...base, report, attachments: [{ id: 'a', contentType: 'text/plain', data: enc('x'), path: '/tmp/x' }] }), /exactly one of/],
    ['concurrency 0', () => uploadReport({ ...base, report, concurrency: 0 }), /concurrency/],
    ['misspelt option', () => uploadReport({ ...base, report, timeoutMS: 5 }), /unknown option `timeoutMS`/],
    ['baseUrl without scheme', () => uploadReport({ ...base, baseUrl: '127.0.0.1:1', report }), /baseUrl/],
    ['Bearer in accessToken', () => uploadReport({ ...base, accessToken: `Bearer ${fx.accessToken}`, report }), /accessToken/],
    ['timeoutMs 0', () => uploadReport({ ...base, report, timeoutMs: 0 }), /timeoutMs/],
  ];
  for (const [what, run, message] of cases) {
    const err = await run().then(() => assert.fail(`${what}: resolved`), (e) => e);
    assert.ok(err instanceof ShardwiseError, `${what}: ${err}`);
    assert.equal(err.code, 'INVALID_INPUT', `${what}: ${err.message}`);
    assert.match(err.message, message, what);
    assert.ok(!String(err).includes(fx.accessToken) && !JSON.stringify(err).includes(fx.accessToken), `${what}: no token in the error`);
    assert.equal(fx.requests.length, 0, `${what}: nothing sent`);
  }
  // the limits themselves are fine
  await uploadReport({ ...base, report, attachments: [{ id: 'a'.repeat(256), contentType: 'text/plain', data: enc('x') }] });
  await fetchDurations({ ...durations, shardGroupKey: 'k'.repeat(250) });
});

test('shardGroupKeyFor: valid, equal for equal inputs, distinct per run; filled from CI variables', () => {
  const a = shardGroupKeyFor({ commitId: COMMIT, runId: '1', testRunner: 'playwright', config: { project: 'x', b: [1, 2] } });
  assert.match(a, /^[a-zA-Z0-9_-]{1,250}$/);
  assert.equal(a, shardGroupKeyFor({ testRunner: 'playwright', config: { b: [1, 2], project: 'x' }, runId: '1', commitId: COMMIT }));
  assert.notEqual(a, shardGroupKeyFor({ commitId: COMMIT, runId: '2', testRunner: 'playwright', config: { project: 'x', b: [1, 2] } }));
  assert.notEqual(a, shardGroupKeyFor({ commitId: COMMIT, runId: '1', testRunner: 'jest', config: { project: 'x', b: [1, 2] } }));
  const saved = { ...process.env };
  try {
    for (const k of ['GITHUB_RUN_ID', 'GITHUB_RUN_ATTEMPT', 'CI_PIPELINE_ID', 'CIRCLE_WORKFLOW_ID', 'BUILDKITE_BUILD_ID', 'BUILD_BUILDID', 'SHARDWISE_RUN_ID']) delete process.env[k];
    const none = shardGroupKeyFor({ commitId: COMMIT });
    process.env.GITHUB_RUN_ID = '991';
    process.env.GITHUB_RUN_ATTEMPT = '1';
    const gh = shardGroupKeyFor({ commitId: COMMIT });
    assert.notEqual(gh, none);
    assert.equal(gh, shardGroupKeyFor({ commitId: COMMIT, runId: '991' }));
    // a re-run of a failed job (attempt 2) plans as the first run did
    process.env.GITHUB_RUN_ATTEMPT = '2';
    assert.equal(shardGroupKeyFor({ commitId: COMMIT }), gh);
  } finally {
    process.env = saved;
  }
  assert.throws(() => shardGroupKeyFor({ commitId: '' }), (e) => e instanceof ShardwiseError && e.code === 'INVALID_INPUT');
  assert.throws(() => shardGroupKeyFor({ commitId: COMMIT, runID: '1' }), (e) => e.code === 'INVALID_INPUT' && /runID/.test(e.message));
});
