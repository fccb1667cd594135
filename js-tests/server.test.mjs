import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '../pkg/server/index.mjs';
import { keyOf } from '../pkg/src/tests.js';
import { COSTS_SOURCE, costsRecordOf } from '../pkg/src/sources.js';

const br = (v) => brotliCompressSync(Buffer.from(JSON.stringify(v)));
const JSONH = { 'content-type': 'application/json' };
const REPORT_H = { 'content-type': 'application/json', 'content-encoding': 'br' };
const auth = (t) => ({ authorization: `Bearer ${t}` });
const post = (srv, path, token, body) => fetch(srv.baseUrl + path, { method: 'POST', headers: { ...auth(token), ...(body ? JSONH : {}) }, body: body && JSON.stringify(body) });
async function expectError(resP, status, code) {
  const res = await resP;
  assert.equal(res.status, status);
  const b = await res.json();
  assert.equal(b.error.code, code, b.error.message);
  assert.equal(typeof b.error.message, 'string');
}
const envs = [{ name: 'linux' }, { name: 'mac' }];
const report = (durs) => ({ category: 'node', commitId: 'a'.repeat(40), startTimestamp: 0, duration: 1, environments: envs,
  suites: [{ type: 'file', title: 'a.test.js', tests: [
    { title: 't1', location: { file: 'a.test.js', line: 1, column: 1 }, attempts: durs.t1 },
    { title: 't2', location: { file: 'a.test.js', line: 2, column: 1 }, attempts: durs.t2 }] }] });
const testList = () => ({ ...report({ t1: [], t2: [] }), suites: [{ type: 'file', title: 'a.test.js', tests: [
  { title: 't1', location: { file: 'a.test.js', line: 1, column: 1 }, attempts: [] },
  { title: 't2', location: { file: 'a.test.js', line: 2, column: 1 }, attempts: [] },
  { title: 'new', location: { file: 'a.test.js', line: 3, column: 1 }, attempts: [] }] }] });

async function upload(srv, doc, attachments = {}) {
  const s = await (await post(srv, '/api/upload/start', srv.accessToken)).json();
  assert.equal((await fetch(s.presignedReportUrl, { method: 'PUT', headers: REPORT_H, body: br(doc) })).status, 200);
  const ids = Object.keys(attachments);
  if (ids.length) {
    const urls = await (await post(srv, '/api/upload/attachments', s.uploadToken, { attachmentIds: ids })).json();
    for (const u of urls) assert.equal((await fetch(u.presignedUrl, { method: 'PUT', body: attachments[u.attachmentId] })).status, 200);
  }
  assert.equal((await post(srv, '/api/upload/finish', s.uploadToken)).status, 200);
  return s;
}
async function durations(srv, commitId, shardGroupKey, list = testList()) {
  const c = await (await post(srv, '/api/testDurations/create', srv.accessToken, { commitId, shardGroupKey })).json();
  assert.equal((await fetch(c.uploadUrl, { method: 'PUT', headers: REPORT_H, body: br(list) })).status, 200);
  const { downloadUrl } = await (await post(srv, '/api/testDurations/submit', c.testDurationsToken)).json();
  for (;;) {
    const r = await fetch(downloadUrl);
    if (r.status === 200) { assert.equal(r.headers.get('content-encoding'), 'br'); return Buffer.from(await r.arrayBuffer()); }
    assert.equal(r.status, 404);
    await new Promise((ok) => setTimeout(ok, 20));
  }
}
// fetch decodes Content-Encoding: br transparently, so the bytes are JSON already.
const parse = (bytes) => JSON.parse(bytes.toString('utf8'));

test('predictions: weighted per environment, shared per shard group, survive a restart', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sw-test-'));
  let srv = await createServer({ dataDir, computeDelayMs: 50 });
  await upload(srv, report({ t1: [{ environmentIdx: 0, duration: 100, startTimestamp: 0 }, { environmentIdx: 1, duration: 40, startTimestamp: 0 }], t2: [] }), { abc: Buffer.from('hi') });
  await upload(srv, report({ t1: [{ environmentIdx: 0, duration: 200, startTimestamp: 0 }], t2: [{ environmentIdx: 1, duration: 7, startTimestamp: 0 }] }));
  const a = await durations(srv, 'c1', 'run-1');
  const b = await durations(srv, 'c1', 'run-1');
  assert.deepEqual(a, b);
  const tests = parse(a).suites[0].tests;
  assert.deepEqual(tests[0].attempts, [{ environmentIdx: 0, duration: 150, startTimestamp: 0 }, { environmentIdx: 1, duration: 40, startTimestamp: 0 }]);
  assert.deepEqual(tests[1].attempts, [{ environmentIdx: 1, duration: 7, startTimestamp: 0 }]);
  assert.deepEqual(tests[2].attempts, []);
  const list = await (await fetch(srv.baseUrl + '/api/reports')).json();
  assert.equal(list.length, 2);
  await srv.close();
  srv = await createServer({ dataDir, computeDelayMs: 0 });
  const c = parse(await durations(srv, 'c2', 'run-2'));
  assert.equal(c.suites[0].tests[0].attempts[0].duration, 150);
  const r = await fetch(`${srv.baseUrl}/api/reports/${list[0].id}/report.json.br`);
  assert.equal(r.status, 200);
  await srv.close();
});

test('costs: the runs\' costs records are kept per runner and given back with durations, for the list\'s files, across a restart', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sw-test-'));
  let srv = await createServer({ dataDir, computeDelayMs: 0 });
  const withCosts = (record) => ({ ...report({ t1: [{ duration: 100, startTimestamp: 5 }], t2: [] }),
    sources: [{ filePath: COSTS_SOURCE, text: JSON.stringify(record), contentType: 'application/json' }] });
  // none yet: no record in the durations document
  assert.equal(parse(await durations(srv, 'c0', 'run-0')).sources, undefined);
  // a start cost (a test environment's first load per worker), with its files
  const jsdom = (ms, files) => [{ id: 'environment jest-environment-jsdom', durationMs: ms, files }];
  await upload(srv, withCosts({ runner: 'node', workers: 2, perShardMs: 1000, perWorkerMs: 0, perFileMs: 80, perTestMs: 2, files: { 'a.test.js': 300, 'gone.test.js': 50 }, starts: jsdom(400, ['a.test.js', 'gone.test.js']) }));
  await upload(srv, withCosts({ runner: 'node', workers: 2, perShardMs: 2000, perWorkerMs: 0, perFileMs: 80, perTestMs: 2, files: { 'a.test.js': 500 }, starts: jsdom(600, ['a.test.js']), transforms: { 'lib/b.ts': 30, 'lib/a.ts': 120 } }));
  // another runner's record is its own
  await upload(srv, { ...withCosts({ perShardMs: 9000, files: { 'a.test.js': 9000 } }), category: 'other' });
  const got = costsRecordOf(parse(await durations(srv, 'c1', 'run-1')));
  // the same weighted means as a test's duration: 1000 then 2000 -> 1500; only the list's files
  // each module's transforms (Vitest's), whatever files the list has
  assert.deepEqual(got, { runner: 'node', perShardMs: 1500, perWorkerMs: 0, perFileMs: 80, perTestMs: 2, workers: 2, fittedFiles: { 'a.test.js': 400 }, starts: jsdom(500, ['a.test.js']), transforms: { 'lib/a.ts': 120, 'lib/b.ts': 30 } });
  await srv.close();
  srv = await createServer({ dataDir, computeDelayMs: 0 });
  assert.deepEqual(costsRecordOf(parse(await durations(srv, 'c2', 'run-2'))), got);
  await srv.close();
});

test('validation: every rule answers a 4xx with a JSON error body', async (t) => {
  const srv = await createServer({ computeDelayMs: 0 });
  t.after(() => srv.close());
  const P = (path, token, body) => post(srv, path, token, body);
  await expectError(fetch(srv.baseUrl + '/api/testDurations/create', { method: 'POST', headers: JSONH, body: '{}' }), 401, 'unauthorized');
  await expectError(P('/api/testDurations/create', 'wrong', { commitId: 'c', shardGroupKey: 'k' }), 401, 'unauthorized');
  await expectError(P('/api/testDurations/create', srv.accessToken, { shardGroupKey: 'k' }), 400, 'invalid_request');
  for (const k of ['', 'a b', 'x'.repeat(251), 'é', 5]) await expectError(P('/api/testDurations/create', srv.accessToken, { commitId: 'c', shardGroupKey: k }), 400, 'invalid_request');
  assert.equal((await P('/api/testDurations/create', srv.accessToken, { commitId: 'c', shardGroupKey: 'x'.repeat(250) })).status, 200);
  const c = await (await P('/api/testDurations/create', srv.accessToken, { commitId: 'c', shardGroupKey: 'k' })).json();
  await expectError(P('/api/testDurations/submit', c.testDurationsToken), 409, 'out_of_order');
  await expectError(P('/api/testDurations/submit', srv.accessToken), 401, 'unauthorized');
  await expectError(fetch(c.uploadUrl, { method: 'PUT', headers: { 'content-encoding': 'br' }, body: br(testList()) }), 400, 'invalid_request');
  await expectError(fetch(c.uploadUrl, { method: 'PUT', headers: JSONH, body: br(testList()) }), 400, 'invalid_request');
  await expectError(fetch(c.uploadUrl, { method: 'PUT', headers: REPORT_H, body: 'not brotli' }), 400, 'invalid_body');
  await expectError(fetch(c.uploadUrl, { method: 'PUT', headers: { ...REPORT_H, ...auth(srv.accessToken) }, body: br(testList()) }), 400, 'forbidden_authorization_header');
  await expectError(fetch(c.uploadUrl.replace(/sig=../, 'sig=00'), { method: 'PUT', headers: REPORT_H, body: br(testList()) }), 403, 'invalid_signature');
  await expectError(fetch(c.uploadUrl.replace(/expires=\d+/, 'expires=99999999999999'), { method: 'PUT', headers: REPORT_H, body: br(testList()) }), 403, 'invalid_signature');

  const s = await (await P('/api/upload/start', srv.accessToken)).json();
  await expectError(P('/api/upload/finish', s.uploadToken), 409, 'out_of_order');
  await expectError(P('/api/upload/attachments', s.uploadToken, { attachmentIds: Array.from({ length: 1001 }, (_, i) => `a${i}`) }), 400, 'invalid_request');
  await expectError(P('/api/upload/attachments', s.uploadToken, { attachmentIds: ['x'.repeat(257)] }), 400, 'invalid_request');
  await expectError(P('/api/upload/attachments', c.testDurationsToken, { attachmentIds: [] }), 401, 'unauthorized');
  assert.equal((await fetch(s.presignedReportUrl, { method: 'PUT', headers: REPORT_H, body: br(report({ t1: [], t2: [] })) })).status, 200);
  const [u] = await (await P('/api/upload/attachments', s.uploadToken, { attachmentIds: ['x'.repeat(256)] })).json();
  await expectError(P('/api/upload/finish', s.uploadToken), 409, 'out_of_order');
  await expectError(fetch(u.presignedUrl, { method: 'PUT', headers: { 'content-encoding': 'zstd' }, body: 'x' }), 400, 'invalid_request');
  assert.equal((await fetch(u.presignedUrl, { method: 'PUT', headers: { 'content-encoding': 'gzip' }, body: 'x' })).status, 200);
  assert.equal((await P('/api/upload/finish', s.uploadToken)).status, 200);
});

test('expired tokens and presigned URLs are rejected', async (t) => {
  let clock = 1_000_000;
  const srv = await createServer({ now: () => clock, computeDelayMs: 0 });
  t.after(() => srv.close());
  const c = await (await post(srv, '/api/testDurations/create', srv.accessToken, { commitId: 'c', shardGroupKey: 'k' })).json();
  const s = await (await post(srv, '/api/upload/start', srv.accessToken)).json();
  clock += 61 * 60 * 1000;
  await expectError(post(srv, '/api/testDurations/submit', c.testDurationsToken), 401, 'token_expired');
  await expectError(fetch(c.uploadUrl, { method: 'PUT', headers: REPORT_H, body: br(testList()) }), 403, 'url_expired');
  assert.equal((await post(srv, '/api/upload/attachments', s.uploadToken, { attachmentIds: [] })).status, 200);
  clock += 24 * 60 * 60 * 1000;
  await expectError(post(srv, '/api/upload/finish', s.uploadToken), 401, 'token_expired');
});

test('the webUrl start hands out opens the report in the preview; a busy port is an error of createServer', async (t) => {
  const staticDir = join(import.meta.dirname, '..', 'pkg');
  const srv = await createServer({ staticDir });
  t.after(() => srv.close());
  const s = await upload(srv, report({ t1: [{ duration: 5, startTimestamp: 0 }], t2: [] }));
  const id = s.webUrl.split('/').pop();
  const res = await fetch(new URL(s.webUrl, srv.baseUrl));
  assert.equal(res.status, 200, 'the link the reporters print answers with the report page');
  assert.equal(res.url, `${srv.baseUrl}/pkg/preview/?url=${encodeURIComponent(`/api/reports/${id}/report.json.br`)}`);
  assert.match(await res.text(), /<html/i);
  await expectError(fetch(`${srv.baseUrl}/reports/no-such-report`), 404, 'not_found');
  const bare = await createServer({});
  t.after(() => bare.close());
  const s2 = await upload(bare, report({ t1: [], t2: [] }));
  await expectError(fetch(new URL(s2.webUrl, bare.baseUrl)), 404, 'not_found');
  const port = Number(new URL(srv.baseUrl).port);
  await assert.rejects(createServer({ port }), (e) => e.code === 'EADDRINUSE');
});

// One test, one key: the predictions are kept by the key the history and the preview use (a hash
// of the planner's unit id, as the package's wasm lists the report's tests), so a test named the
// same by the planner is the same test however the report spells it.
const keyOfUnit = (unitId) => keyOf(unitId);
const shaped = (tests, { location = true, wrap = false } = {}) => {
  const ts = tests.map(([title, ms]) => ({ title, ...(location ? { location: { file: 'a.test.js', line: 1, column: 1 } } : {}), attempts: ms === undefined ? [] : [{ environmentIdx: 0, duration: ms, startTimestamp: 0 }] }));
  return { category: 'node', commitId: 'a'.repeat(40), startTimestamp: 0, duration: 1, environments: [{ name: 'linux' }],
    suites: [{ type: 'file', title: 'a.test.js', ...(wrap ? { suites: [{ type: 'suite', title: '', tests: ts }] } : { tests: ts }) }] };
};

test('predictions are kept by the tests\' keys, the history\'s: a test is matched however its report spells the same planner name', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sw-test-'));
  const srv = await createServer({ dataDir, computeDelayMs: 0 });
  t.after(() => srv.close());
  // no test location (its file from the file suite) and an untitled describe around the tests:
  // the planner names them `a.test.js › t1`, as it names the test list's below
  await upload(srv, shaped([['t1', 100], ['t2', 30]], { location: false, wrap: true }));
  const keys = [keyOfUnit('a.test.js › t1'), keyOfUnit('a.test.js › t2')];
  assert.deepEqual([...srv.store.predictor.tests.keys()].sort(), [...keys].sort(), 'the prediction state is keyed by the tests\' keys');
  assert.deepEqual(keys.map((k) => srv.store.history.indexOf(k) !== undefined), [true, true], 'the same keys as the history');
  const got = parse(await durations(srv, 'c1', 'k1', shaped([['t1'], ['t2'], ['t3']])));
  assert.deepEqual(got.suites[0].tests.map((x) => x.attempts.map((a) => a.duration)), [[100], [30], []]);
  await srv.close();
  const state = JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
  assert.deepEqual(state.tests.map(([k]) => k).sort(), [...keys].sort());
  assert.deepEqual(state.history.tests.map(([k]) => k).sort(), [...keys].sort());
});

test('a data folder whose predictions were kept under the service\'s own names (before keys) still answers: the old states predict, then carry over to the keys', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sw-test-'));
  let srv = await createServer({ dataDir, computeDelayMs: 0 });
  await upload(srv, shaped([['t1', 100], ['t2', 30]]));
  await srv.close();
  // the state as the service before wrote it: each test named JSON [location file, ...suite titles, title]
  const file = join(dataDir, 'state.json');
  const state = JSON.parse(readFileSync(file, 'utf8'));
  const last = state.seq;
  const old = (title) => JSON.stringify(['a.test.js', 'a.test.js', title]);
  state.tests = [[old('t1'), { linux: [1234, 5, 10, last] }], [old('t2'), { linux: [60, 5, 1, last] }], [old('gone'), { linux: [9, 1, 0, last] }]];
  writeFileSync(file, JSON.stringify(state));

  srv = await createServer({ dataDir, computeDelayMs: 0 });
  t.after(() => srv.close());
  assert.equal((await fetch(`${srv.baseUrl}/api/reports`)).status, 200);
  assert.equal((await fetch(`${srv.baseUrl}/api/history/tests/${keyOfUnit('a.test.js › t1')}`)).status, 200);
  // before any new report: the old states answer for the tests
  let got = parse(await durations(srv, 'c1', 'k1', shaped([['t1'], ['t2'], ['t3']])));
  assert.deepEqual(got.suites[0].tests.map((x) => x.attempts.map((a) => a.duration)), [[1234], [60], []]);
  // a report of t1: its old state carried over to its key (0.5 x 2000 + 0.5 x 1234), the old name gone
  await upload(srv, shaped([['t1', 2000]]));
  got = parse(await durations(srv, 'c2', 'k2', shaped([['t1'], ['t2']])));
  assert.deepEqual(got.suites[0].tests.map((x) => x.attempts.map((a) => a.duration)), [[1617], [60]]);
  assert.deepEqual(srv.store.predictor.tests.get(keyOfUnit('a.test.js › t1')).linux.slice(0, 2), [1617, 6], 'the count goes on from the old state');
  assert.deepEqual([...srv.store.predictor.legacy.keys()].sort(), [old('gone'), old('t2')].sort());
  await srv.close();
  const after = JSON.parse(readFileSync(file, 'utf8'));
  assert.ok(!after.tests.some(([k]) => k === old('t1')), 'a carried-over state is not written again under its old name');
  assert.ok(after.tests.some(([k]) => k === keyOfUnit('a.test.js › t1')));
});

test('a test list the package\'s wasm cannot read is refused at submit, saying why', async (t) => {
  const srv = await createServer({ computeDelayMs: 0 });
  t.after(() => srv.close());
  const c = await (await post(srv, '/api/testDurations/create', srv.accessToken, { commitId: 'c', shardGroupKey: 'bad' })).json();
  assert.equal((await fetch(c.uploadUrl, { method: 'PUT', headers: REPORT_H, body: br({ suites: 'none' }) })).status, 200);
  const res = await post(srv, '/api/testDurations/submit', c.testDurationsToken);
  assert.equal(res.status, 400);
  const b = await res.json();
  assert.equal(b.error.code, 'invalid_body');
  assert.match(b.error.message, /the test list cannot be read as a report/);
});
