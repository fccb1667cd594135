// `shardwise serve` as a service a team runs: reads behind the token beyond loopback (and the
// preview asking for it once), the old index.json migrated, retention, 32 shards at once, and bad
// input of every kind answered with a JSON error and nothing written. Real processes
// (pkg/bin/shardwise.mjs serve) on 127.0.0.1, the package's uploadReport/fetchDurations as the
// client, raw fetch and net sockets for the bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zc } from 'node:zlib';
import { mkdtempSync, rmSync, writeFileSync, existsSync, readFileSync, readdirSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uploadReport, fetchDurations } from 'shardwise';
import { signJwt } from '../pkg/server/jwt.mjs';
import { presign } from '../pkg/server/presign.mjs';
import { keyOf } from '../pkg/src/tests.js';
import { startServe, stopServe, socketCount, listFiles, suite, reportOf, COMMIT } from './helpers/serve-process.mjs';
import { launchChromium } from './helpers/chromium.mjs';

const tmp = (t) => { const d = mkdtempSync(join(tmpdir(), 'sw-ops-')); t.after(() => rmSync(d, { recursive: true, force: true })); return d; };
const sha1 = (b) => createHash('sha1').update(b).digest('hex');
const auth = (token) => ({ authorization: `Bearer ${token}` });
const REPORT_H = { 'content-type': 'application/json', 'content-encoding': 'br' };
async function expectError(resP, status, code) {
  const res = await resP;
  assert.equal(res.status, status, `${res.url}: ${res.status}`);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  const b = await res.json();
  assert.equal(b.error.code, code, b.error.message);
  assert.equal(typeof b.error.message, 'string');
  assert.doesNotMatch(b.error.message, /sig=|swat_|eyJ/, 'no token or signature in an error message');
  return b;
}
/** A raw HTTP exchange on a socket: writes `head` (+ body), resolves with everything read until the server closes. */
function raw(baseUrl, text, { waitMs = 5000 } = {}) {
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(new URL(baseUrl).port), '127.0.0.1');
    let got = '';
    const timer = setTimeout(() => { s.destroy(); resolve({ text: got, closedByServer: false }); }, waitMs);
    s.on('data', (c) => { got += c; });
    s.on('close', () => { clearTimeout(timer); resolve({ text: got, closedByServer: true }); });
    s.on('error', reject);
    s.write(text);
  });
}
const statusOf = (text) => Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]);
const jsonOf = (text) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));

test('beyond loopback reads need the token; the preview asks for it once and keeps it out of URLs; on loopback reads stay open', { timeout: 60_000 }, async (t) => {
  const dir = tmp(t);
  const srv = await startServe(['--data', dir, '--host', '0.0.0.0']);
  t.after(() => stopServe(srv));
  assert.match(srv.out, /^reads need the access token: this service listens beyond loopback/m);
  const data = new TextEncoder().encode('secret log line\n');
  const id = sha1(data);
  const up = await uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report: reportOf(suite(30).map((x) => ({ ...x, ms: 40 })), { title: 'exposed', attachmentId: id }), attachments: [{ id, contentType: 'text/plain', data }] });
  assert.match(up.reportUrl, /^http:\/\/127\.0\.0\.1:\d+\/reports\//, 'URLs handed out use the address the client reached');
  const rid = up.webUrl.split('/').pop();
  const reads = ['/api/reports', `/api/reports/${rid}/report.json.br`, `/api/reports/${rid}/attachments/${id}`];
  for (const p of reads) {
    await expectError(fetch(srv.baseUrl + p), 401, 'unauthorized');
    await expectError(fetch(srv.baseUrl + p, { headers: auth('wrong') }), 401, 'unauthorized');
    await expectError(fetch(`${srv.baseUrl}${p}?token=${srv.accessToken}`), 401, 'unauthorized');
    assert.equal((await fetch(srv.baseUrl + p, { headers: auth(srv.accessToken) })).status, 200, p);
  }
  const att = await fetch(srv.baseUrl + reads[2], { headers: auth(srv.accessToken) });
  assert.equal(await att.text(), 'secret log line\n');
  assert.equal(att.headers.get('x-content-type-options'), 'nosniff');
  assert.match(att.headers.get('content-security-policy'), /sandbox/);
  const list = await (await fetch(srv.baseUrl + reads[0], { headers: auth(srv.accessToken) })).json();
  assert.deepEqual(list.map((r) => r.title), ['exposed']);
  // durations still work with the token, as before
  const d = await fetchDurations({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, commitId: COMMIT, shardGroupKey: 'exposed', report: reportOf(suite(30)) });
  assert.equal(d.suites[0].tests[0].attempts[0].duration, 40);

  // The preview: one prompt on the first 401, the token in sessionStorage, sent as a header, never in a URL.
  const browser = await launchChromium();
  t.after(() => browser.close());
  const page = await browser.newPage();
  const dialogs = [];
  page.on('dialog', (dlg) => { dialogs.push(dlg.message()); dlg.accept(srv.accessToken); });
  const urls = [];
  page.on('request', (r) => urls.push(r.url()));
  await page.goto(`${srv.baseUrl}/reports/${rid}`);
  await page.waitForSelector('#status[data-state="ready"]', { timeout: 30_000 });
  await page.waitForFunction(() => document.querySelectorAll('#recent option[value*="/api/reports/"]').length === 1);
  assert.equal(dialogs.length, 1, `asked once: ${dialogs}`);
  assert.match(dialogs[0], /access token/);
  assert.equal(await page.evaluate(() => sessionStorage.getItem('shardwise-access-token')), srv.accessToken);
  await page.reload();
  await page.waitForSelector('#status[data-state="ready"]', { timeout: 30_000 });
  assert.equal(dialogs.length, 1, 'not asked again in the same tab');
  // a test's attachment is read with the token too (shown inline: text)
  await page.evaluate(() => { location.hash = 'test=0'; });
  await page.waitForFunction(() => document.querySelector('#test-detail .attachments pre.text')?.textContent === 'secret log line\n', null, { timeout: 30_000 });
  assert.equal(dialogs.length, 1);
  assert.ok(urls.length > 5 && urls.every((u) => !u.includes(srv.accessToken)), 'the token is in no URL the page requested');
  assert.ok(!page.url().includes(srv.accessToken));
  assert.ok(!srv.out.replace(`access token: ${srv.accessToken}`, '').includes(srv.accessToken) && !srv.err.includes(srv.accessToken), 'the token is in no log line but its own');

  // On loopback reads are open, and the start-up lines say so.
  const open = await startServe(['--data', tmp(t)]);
  t.after(() => stopServe(open));
  assert.match(open.out, /^reads are open on loopback/m);
  assert.equal((await fetch(`${open.baseUrl}/api/reports`)).status, 200);
});

/**
 * A report's per-test durations as index.json kept them (the format before): each test named by
 * the service's own walk then, JSON [location file, ...suite titles, title], per environment.
 */
const indexDurations = (doc) => Object.fromEntries(doc.suites.flatMap((s) => s.tests.filter((x) => x.attempts.length)
  .map((x) => [JSON.stringify([x.location.file, s.title, x.title]), { [doc.environments[0].name]: x.attempts[0].duration }])));

test('an index.json data directory (the format before) is migrated on start: same reports, token and predictions', async (t) => {
  const dir = tmp(t);
  const runs = [[100, 40], [200, undefined], [50, 7]];
  const reports = runs.map(([a, b], i) => {
    const doc = reportOf([{ file: 'a.spec.ts', title: 't1', ms: a }, ...(b === undefined ? [] : [{ file: 'a.spec.ts', title: 't2', ms: b }])]);
    return { id: `old-${i}`, finishedAt: 1000 + i, category: 'playwright', commitId: COMMIT, attachmentIds: [], durations: indexDurations(doc) };
  });
  writeFileSync(join(dir, 'index.json'), JSON.stringify({ secret: 'c'.repeat(64), accessToken: 'swat_old', reports }));
  // an old durations result of a shard group: kept, so a re-run of that run's job gets the same
  mkdirSync(join(dir, 'blobs', 'groups'), { recursive: true });
  const srv = await startServe(['--data', dir]);
  t.after(() => stopServe(srv));
  assert.equal(srv.accessToken, 'swat_old');
  assert.match(srv.out, /history: 3 reports, 2 tests \(migrated from index\.json/);
  assert.ok(existsSync(join(dir, 'index.json.migrated')) && !existsSync(join(dir, 'index.json')));
  const list = await (await fetch(`${srv.baseUrl}/api/reports`)).json();
  assert.deepEqual(list.map((r) => r.id), ['old-0', 'old-1', 'old-2']);
  assert.equal(list[0].durations, undefined);
  const got = await fetchDurations({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, commitId: COMMIT, shardGroupKey: 'm', report: reportOf([{ file: 'a.spec.ts', title: 't1' }, { file: 'a.spec.ts', title: 't2' }]) });
  // the weighted mean of before: t1 100 -> 150 -> 100; t2 40 -> 7 gives 23.5 -> 24
  assert.deepEqual(got.suites[0].tests.map((x) => x.attempts[0].duration), [100, 24]);
  assert.equal(await stopServe(srv), 0);
  const again = await startServe(['--data', dir]);
  t.after(() => stopServe(again));
  assert.match(again.out, /history: 3 reports, 2 tests;/);
});

test('--keep-reports N: the oldest reports and their blobs go, the newest N stay', async (t) => {
  const dir = tmp(t);
  const srv = await startServe(['--data', dir, '--keep-reports', '3'], { SHARDWISE_SNAPSHOT_EVERY: '2' });
  t.after(() => stopServe(srv));
  const ids = [];
  for (let i = 0; i < 6; i++) {
    const up = await uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report: reportOf([{ file: 'a.spec.ts', title: `only in run ${i}`, ms: 10 }, { file: 'a.spec.ts', title: 'always', ms: 100 + i }], { title: `run ${i}` }) });
    ids.push(up.webUrl.split('/').pop());
  }
  const list = await (await fetch(`${srv.baseUrl}/api/reports`)).json();
  assert.deepEqual(list.map((r) => r.title), ['run 3', 'run 4', 'run 5']);
  assert.equal((await fetch(`${srv.baseUrl}/api/reports/${ids[0]}/report.json.br`)).status, 404);
  assert.equal(await stopServe(srv), 0);
  assert.deepEqual(readdirSync(join(dir, 'blobs', 'reports')).sort(), ids.slice(3).sort(), 'the dropped reports\' blobs are deleted');
  const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'));
  const kept = ['always', 'only in run 3', 'only in run 4', 'only in run 5'];
  const keyOfTitle = new Map(kept.map((x) => [keyOf(`a.spec.ts › ${x}`), x]));
  assert.deepEqual(state.tests.map(([k]) => keyOfTitle.get(k)).sort(), kept, 'tests not seen since the oldest kept report are forgotten');
  assert.deepEqual(state.history.tests.filter(Boolean).map(([, unitId]) => unitId).sort(), kept.map((x) => `a.spec.ts › ${x}`), 'and their names in the history');
});

test('32 shards at once: each asks for durations of the whole suite and uploads its part; identical predictions, every report kept', { timeout: 60_000 }, async (t) => {
  const SHARDS = 32;
  const TESTS = 1000;
  const srv = await startServe(['--data', tmp(t)]);
  t.after(() => stopServe(srv));
  const all = suite(TESTS);
  const base = { baseUrl: srv.baseUrl, accessToken: srv.accessToken };
  await uploadReport({ ...base, report: reportOf(all.map((x, i) => ({ ...x, ms: 1 + (i % 97) * 3 })), { title: 'seed' }) });
  const t0 = Date.now();
  const results = await Promise.all(Array.from({ length: SHARDS }, async (_, s) => {
    const got = await fetchDurations({ ...base, commitId: COMMIT, shardGroupKey: 'load-run-1', report: reportOf(all) });
    const mine = all.filter((_, i) => i % SHARDS === s).map((x, i) => ({ ...x, ms: 5 + i }));
    await uploadReport({ ...base, report: reportOf(mine, { title: `shard ${s + 1}/${SHARDS}` }) });
    return JSON.stringify(got);
  }));
  const took = Date.now() - t0;
  assert.equal(new Set(results).size, 1, 'every shard got byte-identical predictions');
  const got = JSON.parse(results[0]);
  const flat = got.suites.flatMap((f) => f.tests);
  assert.equal(flat.length, TESTS);
  assert.deepEqual(flat.map((x) => x.attempts[0].duration), all.map((_, i) => 1 + (i % 97) * 3), 'predictions are the seed run\'s durations');
  const list = await (await fetch(`${srv.baseUrl}/api/reports`)).json();
  assert.equal(list.length, SHARDS + 1);
  assert.deepEqual(new Set(list.map((r) => r.title)).size, SHARDS + 1);
  t.diagnostic(`${SHARDS} shards x ${TESTS} tests: durations + upload each, all at once: ${took} ms`);
});

test('bad input: a JSON error for each, nothing written, no socket left behind', { timeout: 60_000 }, async (t) => {
  const dir = tmp(t);
  const srv = await startServe(['--data', dir, '--idle-timeout', '1']);
  t.after(() => stopServe(srv));
  const B = srv.baseUrl;
  const P = (p, token, body, headers = {}) => fetch(B + p, { method: 'POST', headers: { ...auth(token), ...headers }, body });
  // A finished report to aim at, and sessions made before the snapshot of the directory.
  const data = Buffer.from('attachment bytes');
  const aid = sha1(data);
  const up = await uploadReport({ baseUrl: B, accessToken: srv.accessToken, report: reportOf([{ file: 'a.spec.ts', title: 't', ms: 5 }], { attachmentId: aid }), attachments: [{ id: aid, contentType: 'image/png', data }] });
  const rid = up.webUrl.split('/').pop();
  const s = await (await P('/api/upload/start', srv.accessToken)).json();
  const [att] = await (await P('/api/upload/attachments', s.uploadToken, JSON.stringify({ attachmentIds: ['ab'] }), { 'content-type': 'application/json' })).json();
  const c = await (await P('/api/testDurations/create', srv.accessToken, JSON.stringify({ commitId: COMMIT, shardGroupKey: 'k' }), { 'content-type': 'application/json' })).json();
  const { secret } = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  const before = listFiles(dir);
  const sockets = socketCount(srv.pid);

  // path traversal in ids and attachment names
  for (const p of [`/api/reports/..%2f..%2fconfig.json/report.json.br`, `/api/reports/${rid}/attachments/..%2f..%2f..%2fconfig.json`,
    `/api/reports/${rid}/attachments/%2e%2e`, `/api/reports/${rid}/attachments/${aid}%00`, `/api/reports/${rid}%2f..%2f${rid}/report.json.br`])
    await expectError(fetch(B + p), 404, 'not_found');
  for (const bad of ['..', '.', '../config.json', 'a/b', 'a\\b', 'a\u0000b'])
    await expectError(P('/api/upload/attachments', s.uploadToken, JSON.stringify({ attachmentIds: [bad] }), { 'content-type': 'application/json' }), 400, 'invalid_request');
  const key = `reports/${s.presignedReportUrl.split('/reports/')[1].split('/')[0]}/report.json.br`;
  for (const p of ['reports/x/%2e%2e/%2e%2e/config.json', 'reports/x/../../config.json', `${key}/..`]) {
    const q = new URL(presign('http://h', secret, 'PUT', p, 60_000, Date.now())).search;
    const r = await raw(B, `PUT /storage/${p}${q} HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-encoding: br\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`);
    assert.ok([400, 403].includes(statusOf(r.text)), r.text);
    assert.match(jsonOf(r.text).error.code, /^(invalid_request|invalid_signature)$/);
  }
  // oversized bodies: 413 at once from Content-Length, and while reading a JSON body
  const big = await raw(B, `PUT ${new URL(s.presignedReportUrl).pathname}${new URL(s.presignedReportUrl).search} HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-encoding: br\r\ncontent-length: ${300 * 1024 * 1024}\r\n\r\n`);
  assert.equal(statusOf(big.text), 413);
  assert.equal(jsonOf(big.text).error.code, 'payload_too_large');
  assert.ok(big.closedByServer, 'the connection is closed instead of reading 300 MB');
  await expectError(P('/api/upload/attachments', s.uploadToken, JSON.stringify({ attachmentIds: ['x'.repeat(2 << 20)] }), { 'content-type': 'application/json' }), 413, 'payload_too_large');
  // a Brotli bomb: 300 MB of JSON whitespace in a few hundred bytes
  const bomb = brotliCompressSync(Buffer.alloc(300 << 20, 0x20), { params: { [zc.BROTLI_PARAM_QUALITY]: 1 } });
  assert.ok(bomb.length < 1 << 20);
  await expectError(fetch(s.presignedReportUrl, { method: 'PUT', headers: REPORT_H, body: bomb }), 413, 'payload_too_large');
  // malformed JSON and Brotli
  await expectError(P('/api/testDurations/create', srv.accessToken, '{"commitId":', { 'content-type': 'application/json' }), 400, 'invalid_body');
  await expectError(P('/api/upload/attachments', s.uploadToken, 'null', { 'content-type': 'application/json' }), 400, 'invalid_request');
  await expectError(fetch(s.presignedReportUrl, { method: 'PUT', headers: REPORT_H, body: 'not brotli at all' }), 400, 'invalid_body');
  await expectError(fetch(s.presignedReportUrl, { method: 'PUT', headers: REPORT_H, body: brotliCompressSync('{"truncated": ') }), 400, 'invalid_body');
  await expectError(fetch(s.presignedReportUrl, { method: 'PUT', headers: REPORT_H, body: brotliCompressSync('[1,2]') }), 400, 'invalid_body');
  await expectError(fetch(c.uploadUrl, { method: 'PUT', headers: REPORT_H, body: brotliCompressSync(JSON.stringify({ a: 1 })).subarray(0, 5) }), 400, 'invalid_body');
  // wrong methods
  for (const [m, p] of [['DELETE', '/api/reports'], ['POST', `/api/reports/${rid}/report.json.br`], ['GET', '/api/upload/start'], ['PUT', '/api/upload/finish'], ['DELETE', new URL(att.presignedUrl).pathname + new URL(att.presignedUrl).search]])
    await expectError(fetch(B + p, { method: m }), 405, 'method_not_allowed');
  // expired or tampered signatures and tokens
  const u = new URL(att.presignedUrl);
  const expiredUrl = presign(B, secret, 'PUT', u.pathname.slice('/storage/'.length), -1000, Date.now());
  await expectError(fetch(expiredUrl, { method: 'PUT', body: 'x' }), 403, 'url_expired');
  await expectError(fetch(att.presignedUrl.replace(/sig=./, (m) => (m.endsWith('0') ? 'sig=1' : 'sig=0')), { method: 'PUT', body: 'x' }), 403, 'invalid_signature');
  await expectError(fetch(att.presignedUrl.replace(/expires=\d+/, (m) => `${m}0`), { method: 'PUT', body: 'x' }), 403, 'invalid_signature');
  await expectError(fetch(att.presignedUrl.replace('/attachments/ab', '/attachments/ac'), { method: 'PUT', body: 'x' }), 403, 'invalid_signature');
  await expectError(fetch(att.presignedUrl.replace('method=PUT', 'method=GET'), { method: 'GET' }), 403, 'invalid_signature');
  await expectError(P('/api/upload/finish', signJwt(secret, { typ: 'upload', uid: 'x' }, -1000, Date.now())), 401, 'token_expired');
  const [h, body, sig] = s.uploadToken.split('.');
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url')), uid: rid })).toString('base64url');
  await expectError(P('/api/upload/finish', `${h}.${forged}.${sig}`), 401, 'unauthorized');
  await expectError(P('/api/upload/finish', signJwt('not the secret', { typ: 'upload', uid: 'x' }, 60_000, Date.now())), 401, 'unauthorized');
  // a finished upload cannot be written again
  await expectError(P('/api/upload/attachments', signJwt(secret, { typ: 'upload', uid: rid }, 60_000, Date.now()), JSON.stringify({ attachmentIds: ['cd'] }), { 'content-type': 'application/json' }), 409, 'out_of_order');

  // slow and stalled clients: headers never finished, a body that stops; each is answered 408 or closed
  const stalls = await Promise.all([
    ...Array.from({ length: 10 }, () => raw(B, 'POST /api/upload/start HTTP/1.1\r\nHost: x\r\n', { waitMs: 8000 })),
    ...Array.from({ length: 10 }, () => raw(B, `PUT ${u.pathname}${u.search} HTTP/1.1\r\nHost: x\r\ncontent-length: 1000\r\n\r\nonly some bytes`, { waitMs: 8000 })),
    raw(B, '', { waitMs: 8000 }),
  ]);
  for (const r of stalls) assert.ok(r.closedByServer, 'a stalled connection is closed by the service');
  for (const r of stalls.slice(10, 20)) {
    assert.equal(statusOf(r.text), 408, r.text);
    assert.equal(jsonOf(r.text).error.code, 'request_timeout');
  }
  // kept-alive connections of the fetches above close after the idle timeout too
  for (let i = 0; i < 50 && socketCount(srv.pid) > sockets; i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(socketCount(srv.pid) <= sockets, `no socket left behind: ${socketCount(srv.pid)} > ${sockets}`);

  assert.deepEqual(listFiles(dir), before, 'nothing was written by any bad request');
  assert.equal((await fetch(`${B}/api/reports`)).status, 200, 'the service still answers');
});
