// A failed exchange stops cleanly (issue 18): on the first permanent failure, an abort or a
// timeout, uploadReport and fetchDurations start no new request, abort the ones in flight, and
// settle only after every request they started has settled. Checked against the real local
// service behind the fault-injecting proxy, which records when each request arrives, and with a
// `fetch` that records when each request the exchange made settled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { fetchDurations, uploadReport, ReportBuilder, __uploadFetch } from 'shardwise';
import { createFaultServer } from './helpers/fault-server.mjs';
import { noise } from './helpers/data.mjs';

const COMMIT = 'fedcba9876543210fedcba9876543210fedcba98';

function fixture(n = 20) {
  const b = new ReportBuilder({ category: 'playwright', commitId: COMMIT, startTimestamp: 1760000000000 });
  b.addEnvironment({ name: 'chromium' });
  for (let i = 0; i < n; i++) b.addAttempt(b.addTest({ titlePath: [`test ${i}`], file: `t/${i % 4}.spec.ts`, line: 1, column: 1 }), { startTimestamp: 1, duration: 10 + i });
  const report = b.build();
  return { report, list: JSON.parse(JSON.stringify(report, (k, v) => (k === 'attempts' ? [] : v))) };
}

/**
 * A `fetch` that records each request's start and settle times. A failed request settles 150 ms
 * after its failure (as a fetch over a slow network may), so an exchange that did not wait for
 * its requests would settle first.
 */
function recordingFetch(base = globalThis.fetch) {
  const calls = [];
  const fetch = (url, init) => {
    const call = { url: String(url), method: init?.method, started: performance.now(), settled: undefined, outcome: undefined };
    calls.push(call);
    const p = base(url, init).catch(async (e) => { await sleep(150); throw e; });
    p.then(() => { call.settled = performance.now(); call.outcome = 'ok'; }, (e) => { call.settled = performance.now(); call.outcome = e?.name ?? 'error'; });
    return p;
  };
  return { fetch, calls };
}

/**
 * Runs `run()`, which must reject; returns the error, when it settled (performance.now() and
 * Date.now()), after waiting `quietMs` for anything that would still arrive.
 */
async function settle(run, quietMs = 800) {
  const err = await run().then(() => assert.fail('resolved'), (e) => e);
  const at = { perf: performance.now(), wall: Date.now() };
  await sleep(quietMs);
  return { err, at };
}

function assertClean(fx, calls, at) {
  const late = fx.requests.filter((r) => r.at > at.wall);
  assert.deepEqual(late.map((r) => `${r.method} ${r.route}`), [], 'nothing reaches the service or storage after the promise settled');
  for (const c of calls) {
    assert.ok(c.settled !== undefined && c.settled <= at.perf, `${c.method} ${c.url.split('?')[0]} settled ${c.settled === undefined ? 'never' : `${(c.settled - at.perf).toFixed(1)} ms after`} the exchange's promise`);
  }
}

// Node's fetch, and uploadReport's own transport (Node http, used when no `fetch` is given)
for (const [transport, base] of [['fetch', globalThis.fetch], ['Node http', __uploadFetch]])
test(`a 403 on one attachment (${transport}): the other PUTs in flight are aborted and settled before uploadReport rejects; no queued one starts`, async (t) => {
  // 40 attachments at concurrency 4: three PUTs hang in storage (2 s), the fourth is refused
  const fx = await createFaultServer({ script: { putAttachment: [{ delayMs: 2000, times: 3 }, { status: 403 }] } });
  t.after(() => fx.close());
  const { report } = fixture();
  const attachments = Array.from({ length: 40 }, (_, i) => ({ id: `a${i}`, contentType: 'image/png', data: noise(5000, i + 1) }));
  const { fetch, calls } = recordingFetch(base);
  const t0 = performance.now();
  const { err, at } = await settle(() => uploadReport({ baseUrl: fx.baseUrl, accessToken: fx.accessToken, report, attachments, concurrency: 4, fetch }));
  assert.deepEqual([err.code, err.step, err.status], ['HTTP_STATUS', 'upload-attachment', 403]);
  assert.ok(at.perf - t0 < 1500, `rejects at once, not after the hanging PUTs (${(at.perf - t0).toFixed(0)} ms)`);
  const puts = calls.filter((c) => c.method === 'PUT' && !c.url.includes('report.json.br'));
  assert.equal(puts.length, 4, 'the four PUTs started before the failure, and no queued one');
  assert.deepEqual(puts.map((c) => c.outcome).sort(), ['AbortError', 'AbortError', 'AbortError', 'ok'], 'the three in flight were aborted');
  assert.equal(fx.requestsTo('finish').length, 0);
  assertClean(fx, calls, at);
});

test('an abort during attachment uploads: ABORTED after every request settled; nothing arrives later', async (t) => {
  const fx = await createFaultServer({ script: { putAttachment: [{ delayMs: 3000, times: Infinity }] } });
  t.after(() => fx.close());
  const attachments = Array.from({ length: 30 }, (_, i) => ({ id: `b${i}`, contentType: 'text/plain', data: noise(2000, i + 7) }));
  const recording = recordingFetch();
  const { calls } = recording;
  const controller = new AbortController();
  // abort once the eighth attachment PUT is on its way
  const fetch = (url, init) => {
    const p = recording.fetch(url, init);
    if (calls.filter((c) => c.method === 'PUT' && !c.url.includes('report.json.br')).length === 8) setTimeout(() => controller.abort(), 100);
    return p;
  };
  const { err, at } = await settle(() => uploadReport({ baseUrl: fx.baseUrl, accessToken: fx.accessToken, report: fixture().report, attachments, concurrency: 8, signal: controller.signal, fetch }));
  assert.deepEqual([err.code, err.step], ['ABORTED', 'upload-attachment']);
  assert.equal(calls.filter((c) => c.method === 'PUT' && !c.url.includes('report.json.br')).length, 8, 'only the first eight started');
  assertClean(fx, calls, at);
});

for (const [transport, base] of [['fetch', globalThis.fetch], ['Node http', __uploadFetch]])
test(`a timeout while storage hangs (${transport}): TIMEOUT after every request settled; nothing arrives later`, async (t) => {
  const fx = await createFaultServer({ script: { putAttachment: [{ delayMs: 8000, times: Infinity }] } });
  t.after(() => fx.close());
  const attachments = Array.from({ length: 12 }, (_, i) => ({ id: `c${i}`, contentType: 'image/png', data: noise(1000, i + 3) }));
  const { fetch, calls } = recordingFetch(base);
  const { err, at } = await settle(() => uploadReport({ baseUrl: fx.baseUrl, accessToken: fx.accessToken, report: fixture().report, attachments, concurrency: 3, timeoutMs: 2000, fetch }));
  assert.deepEqual([err.code, err.step], ['TIMEOUT', 'upload-attachment']);
  assertClean(fx, calls, at);
});

test('fetchDurations: a permanent failure, an abort and a timeout each settle after the request in flight, and nothing follows', async (t) => {
  const { list } = fixture();
  // 401 on submit: nothing after it
  {
    const fx = await createFaultServer({ script: { submit: [401] } });
    t.after(() => fx.close());
    const { fetch, calls } = recordingFetch();
    const { err, at } = await settle(() => fetchDurations({ baseUrl: fx.baseUrl, accessToken: fx.accessToken, commitId: COMMIT, shardGroupKey: 's401', report: list, fetch }));
    assert.deepEqual([err.code, err.step, err.status], ['HTTP_STATUS', 'submit', 401]);
    assert.deepEqual(fx.requests.map((r) => r.route), ['create', 'putTestList', 'submit']);
    assertClean(fx, calls, at);
  }
  // an abort while the download hangs
  {
    const fx = await createFaultServer({ script: { download: [{ delayMs: 4000, times: Infinity }] } });
    t.after(() => fx.close());
    const recording = recordingFetch();
    const { calls } = recording;
    const controller = new AbortController();
    // abort while the first poll hangs
    const fetch = (url, init) => {
      const p = recording.fetch(url, init);
      if (init?.method === 'GET') setTimeout(() => controller.abort(), 200);
      return p;
    };
    const { err, at } = await settle(() => fetchDurations({ baseUrl: fx.baseUrl, accessToken: fx.accessToken, commitId: COMMIT, shardGroupKey: 'sabort', report: list, signal: controller.signal, fetch }));
    assert.deepEqual([err.code, err.step], ['ABORTED', 'poll']);
    assert.equal(calls.at(-1).outcome, 'AbortError');
    assertClean(fx, calls, at);
  }
  // a timeout while polling 404s (the deadline leaves the create, the list's PUT and the submit
  // room on a loaded CI machine: at 1.2 s, three test files beside it and a browser, it passed
  // during the submit once)
  {
    const fx = await createFaultServer({ script: { download: [{ status: 404, times: Infinity }] } });
    t.after(() => fx.close());
    const { fetch, calls } = recordingFetch();
    const { err, at } = await settle(() => fetchDurations({ baseUrl: fx.baseUrl, accessToken: fx.accessToken, commitId: COMMIT, shardGroupKey: 'stimeout', report: list, timeoutMs: 3000, fetch }));
    assert.deepEqual([err.code, err.step], ['TIMEOUT', 'poll']);
    assertClean(fx, calls, at);
  }
});
