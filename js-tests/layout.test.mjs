// The report folder's layout (src/layout.js), which the runners write and the preview reads, and
// the preview's worker protocol (preview/protocol.mjs): pure modules, tested here in Node. And
// the direction of the package's imports: nothing outside preview/ imports the preview.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPORT_FILE, ATTACHMENTS_DIR, reportsIn, byShardFolder, shardFolder, shardTitle, shardOfFolder, shardOfTitle } from '../pkg/src/layout.js';
import { reportPlace } from '../pkg/src/runner/report.mjs';
import { TO_WORKER, FROM_WORKER, message, dispatcher } from '../pkg/preview/protocol.mjs';

const PKG = fileURLToPath(new URL('../pkg/', import.meta.url));

test('layout: a shard\'s folder and title, written by reportPlace, read back', () => {
  assert.deepEqual(reportPlace('out', 2, 3), { folder: path.join('out', 'shard-2-of-3'), title: 'shard 2/3' });
  assert.deepEqual(reportPlace('out', 1, 1), { folder: 'out' });
  assert.deepEqual(shardOfFolder(shardFolder(2, 3)), { index: 2, count: 3 });
  assert.deepEqual(shardOfFolder(`run/${shardFolder(12, 40)}/`), { index: 12, count: 40 });
  assert.equal(shardOfFolder('shard-2-of-3x/'), undefined);
  assert.equal(shardOfFolder(''), undefined);
  assert.deepEqual(shardOfTitle(shardTitle(2, 3)), { index: 2, count: 3 });
  assert.equal(shardOfTitle('shard 2/3 again'), undefined);
});

test('layout: the reports in a folder\'s files, each with the attachments beside it, ordered by shard', () => {
  const files = [
    REPORT_FILE, `${ATTACHMENTS_DIR}/aa`, `${ATTACHMENTS_DIR}/nested/bb`, 'attachments.json',
    `shard-10-of-10/${REPORT_FILE}`, `shard-10-of-10/${ATTACHMENTS_DIR}/cc`,
    `shard-2-of-10/${REPORT_FILE}`, `shard-2-of-10/${ATTACHMENTS_DIR}/dd`, `shard-2-of-10/${ATTACHMENTS_DIR}/ee`,
    `other/${ATTACHMENTS_DIR}/ff`, // no report beside it
    `old/${REPORT_FILE}.bak`, 'notes/report.json', `x${REPORT_FILE}`,
  ].map((p) => ({ p }));
  const found = reportsIn(files, (f) => f.p);
  const shown = Object.fromEntries([...found].map(([dir, { report, attachments }]) => [dir, [report.p, Object.fromEntries([...attachments].map(([id, f]) => [id, f.p]))]]));
  assert.deepEqual(shown, {
    '': [REPORT_FILE, { aa: `${ATTACHMENTS_DIR}/aa` }],
    'shard-10-of-10/': [`shard-10-of-10/${REPORT_FILE}`, { cc: `shard-10-of-10/${ATTACHMENTS_DIR}/cc` }],
    'shard-2-of-10/': [`shard-2-of-10/${REPORT_FILE}`, { dd: `shard-2-of-10/${ATTACHMENTS_DIR}/dd`, ee: `shard-2-of-10/${ATTACHMENTS_DIR}/ee` }],
  });
  assert.deepEqual([...found.keys(), 'b/', 'a/'].sort(byShardFolder), ['', 'a/', 'b/', 'shard-2-of-10/', 'shard-10-of-10/']);
});

test('protocol: a message carries only the fields its type names; every type has one handler', () => {
  assert.deepEqual(message(TO_WORKER, 'plan', { seq: 3, shardCount: 4, environment: undefined }), { type: 'plan', seq: 3, shardCount: 4 });
  assert.throws(() => message(TO_WORKER, 'plan', { seq: 3, shards: 4 }), /a plan message has no field shards/);
  assert.throws(() => message(FROM_WORKER, 'open'), /no message type open/);
  assert.throws(() => message(TO_WORKER, 'toString'), /no message type toString/);
  const seen = [];
  const handlers = Object.fromEntries(Object.keys(FROM_WORKER).map((t) => [t, (d) => seen.push(d)]));
  dispatcher(FROM_WORKER, handlers)({ type: 'rows', list: 'flaky', from: 0, rows: [] });
  assert.deepEqual(seen, [{ type: 'rows', list: 'flaky', from: 0, rows: [] }]);
  const { rows, ...missing } = handlers;
  assert.throws(() => dispatcher(FROM_WORKER, missing), /handlers missing for rows/);
  assert.throws(() => dispatcher(FROM_WORKER, { ...handlers, open: () => {} }), /for no message: open/);
  assert.throws(() => dispatcher(FROM_WORKER, handlers)({ type: 'constructor' }), /no message type constructor/);
});

test('imports run one way: nothing outside preview/ imports the preview (the runners, CLI and service stand without the UI)', () => {
  const offenders = [];
  const visit = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      const rel = path.relative(PKG, p).split(path.sep).join('/');
      if (e.isDirectory()) { if (rel !== 'preview' && rel !== 'wasm' && rel !== 'node_modules') visit(p); continue; }
      if (!/\.(m?js|cjs)$/.test(e.name) || rel === 'node.cjs') continue;
      const text = readFileSync(p, 'utf8');
      for (const m of text.matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)) {
        if (!m[1].startsWith('.')) continue;
        const target = path.relative(PKG, path.resolve(dir, m[1])).split(path.sep).join('/');
        if (target.startsWith('preview/')) offenders.push(`${rel} imports ${m[1]}`);
      }
    }
  };
  visit(PKG);
  assert.deepEqual(offenders, []);
});
