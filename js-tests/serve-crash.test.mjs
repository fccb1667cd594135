// `shardwise serve` killed with SIGKILL at random moments while shards upload reports (with an
// attachment) and ask for durations, then restarted on the same data directory, many times:
// every report whose `finish` was answered is listed and whole, no report shows partly, the
// predictions a shard got for a commit + shard group are byte-identical after the restart, and
// the service always starts. History snapshots are taken every 3 reports here (64 by default) so
// that kills also land during snapshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { uploadReport, fetchDurations, encodeReport } from 'shardwise';
import { startServe, stopServe, suite, reportOf, COMMIT } from './helpers/serve-process.mjs';
import { until } from './helpers/until.mjs';

const ROUNDS = Number(process.env.SHARDWISE_CRASH_ROUNDS ?? 20);
const LIST = suite(3000).map(({ file, title }) => ({ file, title }));
const LIST_BYTES = encodeReport(reportOf(LIST));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test(`kill -9 during uploads and durations, ${ROUNDS} rounds: answered finishes survive whole, predictions stay identical, the service starts`, { timeout: 150_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sw-crash-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const sent = new Map(); // title -> {tests, attachment} of every upload tried
  const answered = new Set(); // titles whose finish was answered
  const predictions = new Map(); // shardGroupKey -> JSON of the predictions a shard got
  const checked = new Set(); // report ids read back whole already
  const restored = new Set(); // shard groups whose predictions were checked after a restart
  let token;
  let killedBusy = 0;
  let workMs;

  async function verify(srv) {
    const list = await (await fetch(`${srv.baseUrl}/api/reports`)).json();
    const titles = new Map(list.map((r) => [r.title, r]));
    assert.equal(titles.size, list.length, 'no report is listed twice');
    for (const title of answered) assert.ok(titles.has(title), `the answered upload ${title} is listed`);
    for (const r of list) {
      if (checked.has(r.id)) continue;
      const want = sent.get(r.title);
      assert.ok(want, `a listed report was uploaded: ${r.title}`);
      const res = await fetch(`${srv.baseUrl}/api/reports/${r.id}/report.json.br`);
      assert.equal(res.status, 200);
      const doc = await res.json();
      assert.equal(doc.suites.reduce((n, s) => n + s.tests.length, 0), want.tests, `${r.title} is whole`);
      assert.deepEqual(r.attachmentIds, [want.attachment.id]);
      const att = await fetch(`${srv.baseUrl}/api/reports/${r.id}/attachments/${want.attachment.id}`);
      assert.equal(att.status, 200);
      assert.equal(await att.text(), Buffer.from(want.attachment.data).toString());
      checked.add(r.id);
    }
    for (const [key, json] of predictions) {
      if (restored.has(key)) continue; // checked after one restart already
      restored.add(key);
      const again = await fetchDurations({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, commitId: COMMIT, shardGroupKey: key, report: LIST_BYTES });
      assert.equal(JSON.stringify(again), json, `predictions of ${key} are byte-identical after the restart`);
    }
    return list.length;
  }

  for (let round = 0; round <= ROUNDS; round++) {
    const srv = await startServe(['--data', dir], { SHARDWISE_SNAPSHOT_EVERY: '3' });
    t.after(() => srv.child.kill('SIGKILL'));
    token ??= srv.accessToken;
    assert.equal(srv.accessToken, token, 'the access token survives');
    await verify(srv);
    if (round === ROUNDS) {
      assert.equal(await stopServe(srv), 0);
      break;
    }
    const ac = new AbortController();
    const opts = { baseUrl: srv.baseUrl, accessToken: srv.accessToken, signal: ac.signal, timeoutMs: 30_000 };
    const jobs = [];
    let busy = 0;
    for (let i = 0; i < 6; i++) {
      const title = `round ${round} upload ${i}`;
      const n = 100 + Math.floor(rnd() * 900);
      const tests = LIST.slice(0, n).map((x, k) => ({ ...x, ms: 10 + ((k * 37 + round * 11 + i) % 500) }));
      const data = new TextEncoder().encode(`log of ${title}\n`.repeat(50));
      const attachment = { id: createHash('sha1').update(data).digest('hex'), contentType: 'text/plain', data };
      sent.set(title, { tests: n, attachment });
      busy++;
      jobs.push(uploadReport({ ...opts, report: reportOf(tests, { title, attachmentId: attachment.id }), attachments: [attachment] })
        .then(() => { answered.add(title); }, () => {}).finally(() => busy--));
    }
    for (let i = 0; i < 3; i++) {
      const key = `round-${round}-group-${i % 2}`;
      busy++;
      jobs.push(fetchDurations({ ...opts, commitId: COMMIT, shardGroupKey: key, report: LIST_BYTES })
        .then((r) => {
          const json = JSON.stringify(r);
          if (predictions.has(key)) assert.equal(json, predictions.get(key), 'shards of one group get the same predictions');
          predictions.set(key, json);
        }, () => {}).finally(() => busy--));
    }
    // Round 0 runs its work through (and is killed idle): how long a round's work takes sets when
    // later rounds are killed, at random within 0.05..0.9 of it, or once only 1 to 3 of their 9
    // calls are left, if that comes first (a round 0 slowed by another test file on the same
    // cores would otherwise time later kills after their work is done).
    const t0 = Date.now();
    if (round === 0) { await Promise.all(jobs); workMs = Date.now() - t0; } else {
      const left = 1 + Math.floor(rnd() * 3);
      await Promise.race([sleep(workMs * (0.05 + rnd() * 0.85)), until(() => busy <= left, { timeoutMs: 150_000, everyMs: 5 })]);
    }
    if (busy) killedBusy++;
    srv.child.kill('SIGKILL');
    ac.abort();
    await Promise.all(jobs);
    assert.equal(await srv.exited, 'SIGKILL');
    if (process.env.SHARDWISE_CRASH_TRACE) console.error(`round ${round}: ${Date.now() - t0} ms, ${answered.size}/${sent.size} answered`);
  }
  t.diagnostic(`a round's work: ${workMs} ms; ${ROUNDS} kills (${killedBusy} with requests in flight); ${answered.size} of ${sent.size} uploads answered, ${checked.size} reports listed and whole; ${predictions.size} shard groups' predictions identical after restarts`);
  assert.ok(killedBusy >= ROUNDS / 2, `most kills hit work in flight (${killedBusy})`);
  assert.ok(answered.size > 0 && answered.size < sent.size, `some uploads were answered, some cut: ${answered.size}/${sent.size}`);
});
