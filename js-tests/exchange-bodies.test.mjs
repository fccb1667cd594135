// Attachment bodies of uploadReport (issue 21) against the real local service on 127.0.0.1: every
// byte stored as given, whether given as bytes (sent from the caller's array) or by path (a
// file-backed Blob), text compressed by Node's zlib or sent as it is when it does not compress,
// at sizes around every boundary (0, 1, the 8 KiB sample, 16/64 KiB chunks, more); and a file
// that vanishes during the upload fails naming its attachment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync } from 'node:zlib';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uploadReport } from 'shardwise';
import { createServer } from '../pkg/server/index.mjs';
import { Store } from '../pkg/server/store.mjs';
import { noise, rng } from './helpers/data.mjs';
import { createFaultServer, tlsCertFile } from './helpers/fault-server.mjs';
import { createHash } from 'node:crypto';

const REPORT = {
  category: 'playwright', commitId: '0123456789abcdef0123456789abcdef01234567', startTimestamp: 1, duration: 1,
  environments: [{ name: 'chromium' }], tests: [{ title: 't', attempts: [] }],
};

/** Log-like text of `n` bytes (compresses well). */
function log(n, seed) {
  const r = rng(seed);
  let s = '';
  while (s.length < n) s += `2026-11-25T20:00:${String((r() * 60) | 0).padStart(2, '0')}Z [worker ${(r() * 4) | 0}] clicking button#b${(r() * 999) | 0}\n`;
  return new TextEncoder().encode(s.slice(0, n));
}

async function service(t) {
  const dataDir = mkdtempSync(join(tmpdir(), 'shardwise-bodies-'));
  const svc = await createServer({ dataDir });
  t.after(async () => { await svc.close(); rmSync(dataDir, { recursive: true, force: true }); });
  return { svc, dataDir, dir: mkdtempSync(join(dataDir, 'files-')) };
}

/**
 * Uploads `cases` ({id, contentType, bytes, byPath, compresses}) and checks each stored blob:
 * the same bytes once decoded, Brotli exactly when it compresses, `result.bytes` what was stored.
 */
async function uploadAndCheck(t, cases, opts = {}) {
  const { svc, dataDir, dir } = await service(t);
  const attachments = cases.map((c) => {
    if (!c.byPath) return { id: c.id, contentType: c.contentType, data: c.bytes };
    const path = join(dir, c.id);
    writeFileSync(path, c.bytes);
    return { id: c.id, contentType: c.contentType, path };
  });
  const result = await uploadReport({ baseUrl: svc.baseUrl, accessToken: svc.accessToken, report: REPORT, attachments, ...opts });
  assert.equal(result.attachments, cases.length);
  const id = result.webUrl.split('/').pop();
  const store = new Store(dataDir);
  let stored = store.get(`reports/${id}/report.json.br`).bytes.length;
  for (const c of cases) {
    const blob = store.get(`reports/${id}/attachments/${c.id}`);
    assert.ok(blob, `${c.id} stored`);
    stored += blob.bytes.length;
    assert.equal(blob.meta.contentType, c.contentType, c.id);
    if (c.compresses) {
      assert.equal(blob.meta.contentEncoding, 'br', `${c.id} compressed`);
      assert.ok(blob.bytes.length < c.bytes.length, `${c.id}: ${blob.bytes.length} < ${c.bytes.length}`);
      assert.ok(Buffer.from(brotliDecompressSync(blob.bytes)).equals(Buffer.from(c.bytes)), `${c.id} arrives byte for byte`);
    } else {
      assert.equal(blob.meta.contentEncoding, undefined, `${c.id} sent as it is`);
      assert.ok(Buffer.from(blob.bytes).equals(Buffer.from(c.bytes)), `${c.id} arrives byte for byte`);
    }
  }
  assert.equal(result.bytes, stored, 'result.bytes = the bytes stored (as sent)');
  const listed = await (await fetch(`${svc.baseUrl}/api/reports`)).json();
  assert.deepEqual(listed.map((r) => r.id), [id], 'finished');
}

test('a few hundred attachments, a few MB, bytes and paths: each stored byte for byte; text compressed where it pays', async (t) => {
  const r = rng(5);
  const cases = [];
  for (let i = 0; i < 200; i++) {
    const kind = i % 3; // 0 log text, 1 binary, 2 "text" that is random
    const size = 1 + ((r() * 30_000) | 0);
    const bytes = kind === 0 ? log(size, i + 1) : noise(size, i + 1);
    const contentType = kind === 1 ? 'image/png' : kind === 0 ? 'text/plain' : 'text/x-log';
    // tiny logs may not shrink: then they go as they are
    cases.push({ id: `a${i}`, contentType, bytes, byPath: i % 2 === 0, compresses: kind === 0 && size >= 64 });
  }
  // and a few larger files
  cases.push({ id: 'trace', contentType: 'application/zip', bytes: noise(1_500_000, 99), byPath: true, compresses: false });
  cases.push({ id: 'big-log', contentType: 'text/plain', bytes: log(1_200_000, 7), byPath: true, compresses: true });
  cases.push({ id: 'big-json', contentType: 'application/json', bytes: new TextEncoder().encode(JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ i, ok: i % 7 > 0 })))), byPath: false, compresses: true });
  await uploadAndCheck(t, cases);
});

test('sizes around every boundary (0, 1, 8 KiB sample, 16/64 KiB chunks, > 64 KiB), seeded random sizes too: stored byte for byte', async (t) => {
  const sizes = [0, 1, 2, 1023, 1024, 1025, 8191, 8192, 8193, 16383, 16384, 16385, 32768, 65535, 65536, 65537, 131073, 300_001];
  const r = rng(17);
  for (let i = 0; i < 6; i++) sizes.push((r() * 200_000) | 0);
  const cases = [];
  sizes.forEach((size, i) => {
    for (const byPath of [false, true]) {
      const p = byPath ? 'p' : 'd';
      cases.push({ id: `log-${p}-${i}`, contentType: 'text/plain', bytes: log(size, i + 1), byPath, compresses: size >= 64 });
      cases.push({ id: `rnd-${p}-${i}`, contentType: 'text/plain', bytes: noise(size, i + 1), byPath, compresses: false });
      cases.push({ id: `bin-${p}-${i}`, contentType: 'video/webm', bytes: noise(size, i + 7), byPath, compresses: false });
    }
  });
  // a subarray of a larger buffer: exactly its own bytes go
  const big = log(50_000, 3);
  cases.push({ id: 'view', contentType: 'text/plain', bytes: big.subarray(1000, 41_000), byPath: false, compresses: true });
  await uploadAndCheck(t, cases, { concurrency: 5 });
});

test('a file deleted during the upload: INVALID_INPUT at upload-attachment naming the attachment, no secret, never finished', async (t) => {
  const { svc, dir } = await service(t);
  const path = join(dir, 'video.webm');
  writeFileSync(path, noise(100_000, 4));
  const urls = [];
  // delete the file just before its PUT goes
  const fetchThatDeletes = (url, init) => {
    urls.push(String(url));
    if (String(url).includes('/attachments/vid-1?')) unlinkSync(path);
    return fetch(url, init);
  };
  const err = await uploadReport({
    baseUrl: svc.baseUrl, accessToken: svc.accessToken, report: REPORT, fetch: fetchThatDeletes,
    attachments: [{ id: 'vid-1', contentType: 'video/webm', path }],
  }).then(() => assert.fail('resolved'), (e) => e);
  assert.equal(err.name, 'ShardwiseError');
  assert.equal(err.code, 'INVALID_INPUT');
  assert.equal(err.step, 'upload-attachment');
  assert.equal(err.attempts, 1, 'not retried: another try cannot read it either');
  assert.match(err.message, /"vid-1"/);
  assert.match(err.message, /changed or deleted/);
  assert.ok(!err.message.includes(svc.accessToken) && !/sig=|signature=/i.test(err.message), err.message);
  assert.ok(!urls.some((u) => u.endsWith('/api/upload/finish')), 'finish never called');
  // a path missing from the start is named as well
  const e2 = await uploadReport({ baseUrl: svc.baseUrl, accessToken: svc.accessToken, report: REPORT, attachments: [{ id: 'gone', contentType: 'image/png', path: join(dir, 'nope.png') }] })
    .then(() => assert.fail('resolved'), (e) => e);
  assert.equal(e2.code, 'INVALID_INPUT');
  assert.match(e2.message, /"gone"/);
  assert.match(e2.message, /nope\.png/);
});

test('a process that configured fetch\'s path (a proxy dispatcher, a replaced globalThis.fetch) has the upload go through it; otherwise Node\'s own http', async (t) => {
  const { svc } = await service(t);
  const upload = () => uploadReport({ baseUrl: svc.baseUrl, accessToken: svc.accessToken, report: REPORT, attachments: [{ id: 'a', contentType: 'text/plain', data: log(20_000, 9) }] });
  const DISPATCHER = Symbol.for('undici.globalDispatcher.1');
  try { await fetch(`${svc.baseUrl}/`); } catch { /* only to load fetch's own dispatcher */ }
  const plain = globalThis[DISPATCHER];
  assert.equal(plain?.constructor?.name, 'Agent');
  let dispatched = 0;
  t.after(() => { globalThis[DISPATCHER] = plain; });

  // nothing configured (fetch's own plain Agent, counted here): it sees no request of the upload
  class Agent { dispatch(opts, handler) { dispatched++; return plain.dispatch(opts, handler); } }
  globalThis[DISPATCHER] = new Agent();
  await fetch(`${svc.baseUrl}/api/reports`).then((r) => r.arrayBuffer());
  assert.equal(dispatched, 1, 'the counting Agent is fetch\'s');
  await upload();
  assert.equal(dispatched, 1, 'the upload went through Node\'s http, not fetch');
  dispatched = 0;
  class ProxyAgent { dispatch(opts, handler) { dispatched++; return plain.dispatch(opts, handler); } }
  // what a proxy set-up does (undici's setGlobalDispatcher(new ProxyAgent(...))): every request through it
  globalThis[DISPATCHER] = new ProxyAgent();
  await upload();
  assert.equal(dispatched, 5, 'start, report, attachments, one PUT, finish');
  globalThis[DISPATCHER] = plain;

  // an instrumented fetch installed after the package loaded
  const seen = [];
  const original = globalThis.fetch;
  globalThis.fetch = (url, init) => { seen.push(new URL(url).pathname); return original(url, init); };
  t.after(() => { globalThis.fetch = original; });
  await upload();
  assert.equal(seen.length, 5);
  assert.ok(seen.includes('/api/upload/finish'), seen.join(' '));
});

test('a 100,000-test report given as its Brotli bytes: checked and sent without its text in wasm memory, stored byte for byte', async (t) => {
  // as the runners and `shardwise upload` hand it over: the saved report.json.br
  const { runRows, reportDocument } = await import('./helpers/reports.mjs');
  const { encodeReport } = await import('shardwise');
  const doc = reportDocument(runRows(100_000), 'large run');
  const jsonBytes = Buffer.byteLength(JSON.stringify(doc));
  const { svc, dataDir, dir } = await service(t);
  const file = join(dir, 'report.json.br');
  const br = encodeReport(doc);
  writeFileSync(file, br);
  // a fresh process (the service answers from this one): wasm memory never shrinks, so what it
  // grew by is what the upload held
  const child = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', `
    import { readFileSync } from 'node:fs';
    import { uploadReport, __wasmMemoryBytes } from 'shardwise';
    const report = new Uint8Array(readFileSync(${JSON.stringify(file)}));
    const before = __wasmMemoryBytes();
    const r = await uploadReport({ baseUrl: ${JSON.stringify(svc.baseUrl)}, accessToken: ${JSON.stringify(svc.accessToken)}, report });
    console.log(JSON.stringify({ webUrl: r.webUrl, bytes: r.bytes, grew: __wasmMemoryBytes() - before }));
  `], { cwd: join(import.meta.dirname, '..') });
  const out = JSON.parse(child.stdout);
  assert.equal(out.bytes, br.length);
  const stored = new Store(dataDir).get(`reports/${out.webUrl.split('/').pop()}/report.json.br`).bytes;
  assert.deepEqual(new Uint8Array(stored), br, 'stored as given');
  // the decoder's window (4 MB), its tables and the bytes themselves, not the 39 MB of text
  t.diagnostic(`wasm memory grew by ${out.grew} bytes for ${jsonBytes} bytes of JSON (${br.length} bytes of Brotli)`);
  assert.ok(out.grew < jsonBytes / 4, `wasm memory grew by ${out.grew} bytes for ${jsonBytes} bytes of JSON`);
});

test('report bytes as a view into a larger buffer, an ArrayBuffer, a DataView, Brotli or plain JSON: exactly their bytes are read and stored', async (t) => {
  const { runRows, reportDocument } = await import('./helpers/reports.mjs');
  const { encodeReport } = await import('shardwise');
  const doc = reportDocument(runRows(5000), 'views');
  const br = encodeReport(doc); // over 64 KiB: read in more than one step
  assert.ok(br.length > 64 * 1024, `${br.length}`);
  const json = new TextEncoder().encode(JSON.stringify(doc));
  const { svc, dataDir } = await service(t);
  const inside = (bytes) => {
    const big = new Uint8Array(bytes.length + 5000).fill(0x7b); // `{`: wrong bytes around it
    big.set(bytes, 3000);
    return big.subarray(3000, 3000 + bytes.length);
  };
  const forms = [
    ['a view into a larger buffer', inside(br), br],
    ['an ArrayBuffer', br.slice().buffer, br],
    ['a DataView', new DataView(inside(br).buffer, 3000, br.length), br],
    ['plain JSON in a view', inside(json), null],
  ];
  for (const [what, report, expected] of forms) {
    const r = await uploadReport({ baseUrl: svc.baseUrl, accessToken: svc.accessToken, report });
    const stored = new Store(dataDir).get(`reports/${r.webUrl.split('/').pop()}/report.json.br`).bytes;
    if (expected) assert.deepEqual(new Uint8Array(stored), expected, what);
    else assert.deepEqual(JSON.parse(brotliDecompressSync(stored)), doc, what);
  }
});

test('over HTTPS, as the service is reached: Node\'s own https requests (keep-alive) store the report and attachments by bytes and by path; a certificate the process does not trust fails with one clear error', async (t) => {
  const fx = await createFaultServer({ tls: true });
  t.after(() => fx.close());
  const dir = mkdtempSync(join(tmpdir(), 'shardwise-tls-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const video = noise(300_000, 21);
  const text = log(50_000, 22);
  writeFileSync(join(dir, 'video.webm'), video);
  const sha1 = (b) => createHash('sha1').update(b).digest('hex');
  const upload = (env) => promisify(execFile)(process.execPath, ['--input-type=module', '-e', `
    import https from 'node:https';
    let requests = 0;
    const request = https.request;
    https.request = (...args) => { requests++; return request(...args); };
    const { uploadReport } = await import('shardwise');
    try {
      const r = await uploadReport({
        baseUrl: ${JSON.stringify(fx.baseUrl)}, accessToken: ${JSON.stringify(fx.accessToken)}, report: ${JSON.stringify(REPORT)},
        attachments: [
          { id: ${JSON.stringify(sha1(text))}, contentType: 'text/plain', data: new Uint8Array(Buffer.from(${JSON.stringify(Buffer.from(text).toString('base64'))}, 'base64')) },
          { id: ${JSON.stringify(sha1(video))}, contentType: 'video/webm', path: ${JSON.stringify(join(dir, 'video.webm'))} },
        ],
      });
      console.log(JSON.stringify({ attachments: r.attachments, requests }));
    } catch (e) {
      console.log(JSON.stringify({ code: e.code, step: e.step, message: e.message, requests }));
    }
  `], { cwd: join(import.meta.dirname, '..'), env: { ...process.env, ...env } });

  const trusted = JSON.parse((await upload({ NODE_EXTRA_CA_CERTS: tlsCertFile })).stdout);
  assert.deepEqual(trusted, { attachments: 2, requests: 6 }, 'start, the report, attachments, two PUTs, finish: each through https.request');
  const put = (id) => fx.requestsTo('putAttachment').find((r) => r.path.endsWith(`/${id}`));
  assert.deepEqual(new Uint8Array(brotliDecompressSync(put(sha1(text)).body)), text);
  assert.deepEqual(new Uint8Array(put(sha1(video)).body), new Uint8Array(video));
  assert.equal(fx.requestsTo('finish').length, 1);

  fx.reset();
  const untrusted = JSON.parse((await upload({ NODE_EXTRA_CA_CERTS: '' })).stdout);
  t.diagnostic(JSON.stringify(untrusted));
  assert.equal(untrusted.step, 'start');
  assert.equal(untrusted.code, 'NETWORK');
  assert.match(untrusted.message, /DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate\): the server's TLS certificate is not trusted here \(a private CA's certificate goes in NODE_EXTRA_CA_CERTS\)$/);
  assert.ok(!untrusted.message.includes(fx.accessToken));
  assert.equal(fx.requestsTo('finish').length, 0);
});
