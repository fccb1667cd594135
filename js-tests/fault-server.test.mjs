import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliCompressSync } from 'node:zlib';
import { createFaultServer } from './helpers/fault-server.mjs';

const post = (fx, path, token, body) => fetch(fx.baseUrl + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });

test('503 twice then pass-through; storage URLs go through the proxy', async (t) => {
  const fx = await createFaultServer({ script: { create: [503, 503], download: [{ status: 404, times: 2 }] } });
  t.after(() => fx.close());
  const body = { commitId: 'c', shardGroupKey: 'k' };
  assert.equal((await post(fx, '/api/testDurations/create', fx.accessToken, body)).status, 503);
  assert.equal((await post(fx, '/api/testDurations/create', fx.accessToken, body)).status, 503);
  const c = await (await post(fx, '/api/testDurations/create', fx.accessToken, body)).json();
  assert.ok(c.uploadUrl.startsWith(fx.baseUrl));
  const list = { category: 'x', commitId: 'a'.repeat(40), startTimestamp: 0, duration: 0, environments: [{ name: 'e' }], tests: [{ title: 't', attempts: [] }] };
  assert.equal((await fetch(c.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/json', 'content-encoding': 'br' }, body: brotliCompressSync(JSON.stringify(list)) })).status, 200);
  const { downloadUrl } = await (await post(fx, '/api/testDurations/submit', c.testDurationsToken)).json();
  assert.equal((await fetch(downloadUrl)).status, 404);
  assert.equal((await fetch(downloadUrl)).status, 404);
  const r = await fetch(downloadUrl);
  assert.equal(r.status, 200);
  assert.deepEqual((await r.json()).tests[0].attempts, []);
  assert.equal(fx.requestsTo('create').length, 3);
  assert.equal(fx.requestsTo('putTestList')[0].headers['content-encoding'], 'br');
});

test('reset, malformed JSON and truncated body', async (t) => {
  const fx = await createFaultServer({ script: { start: [{ reset: true }, { malformedJson: true }, { truncateBody: 5 }, { resetAfterBytes: 3 }] } });
  t.after(() => fx.close());
  await assert.rejects(post(fx, '/api/upload/start', fx.accessToken));
  await assert.rejects((await post(fx, '/api/upload/start', fx.accessToken)).json());
  assert.equal((await (await post(fx, '/api/upload/start', fx.accessToken)).arrayBuffer()).byteLength, 5);
  await assert.rejects(async () => (await post(fx, '/api/upload/start', fx.accessToken)).arrayBuffer());
  assert.equal((await post(fx, '/api/upload/start', fx.accessToken)).status, 200);
});
