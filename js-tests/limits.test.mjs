// The local service's limits (pkg-template/server/limits.mjs) are a copy of those of the Rust core
// (src/limits.rs) that the client checks against: a client and a service that disagree on a limit
// fail only against each other, never in a test of either alone. This reads limits.rs as text
// (no build needed) and holds every shared limit equal, in the units each side keeps it in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as js from '../pkg-template/server/limits.mjs';

const RUST = readFileSync(new URL('../src/limits.rs', import.meta.url), 'utf8');

const S_TO_MS = (s) => s * 1000;
/** JS name -> [Rust name, the Rust value in the JS one's unit]. */
const SHARED = {
  SHARD_GROUP_KEY_PATTERN: ['SHARD_GROUP_KEY_PATTERN', (v) => v],
  SHARD_GROUP_KEY_MAX_LEN: ['SHARD_GROUP_KEY_MAX_LEN', (v) => v],
  DURATIONS_TOKEN_TTL_MS: ['TEST_DURATIONS_TOKEN_LIFETIME_S', S_TO_MS],
  DOWNLOAD_URL_TTL_MS: ['DOWNLOAD_URL_LIFETIME_S', S_TO_MS],
  UPLOAD_TOKEN_TTL_MS: ['UPLOAD_TOKEN_LIFETIME_S', S_TO_MS],
  MAX_ATTACHMENT_IDS: ['MAX_ATTACHMENT_IDS_PER_REQUEST', (v) => v],
  MAX_ATTACHMENT_ID_LEN: ['MAX_ATTACHMENT_ID_LEN', (v) => v],
  ATTACHMENT_ENCODINGS: ['ATTACHMENT_ENCODINGS', (v) => v],
};
/** The local service's own settings: the contract leaves them open, and the client has no copy. */
const LOCAL_ONLY = new Set([
  'UPLOAD_URL_TTL_MS', 'MAX_BODY_BYTES', 'MAX_JSON_BODY_BYTES', 'MAX_DECODED_BYTES',
  // create's `commitId` (any string identifying the commit), not a report's 40-hex `commitId`
  'MAX_COMMIT_ID_LEN',
  'IDLE_TIMEOUT_MS', 'REQUEST_TIMEOUT_MS', 'KEEP_REPORTS',
]);

/**
 * The value of a Rust constant expression as limits.rs writes them: integers (`1_000`, `0x10`)
 * (with a type suffix or not) with `+ - * / % << >> & | ^` and parentheses, string literals, and arrays of those. Integers
 * are BigInt while evaluated (`1 << 53` is not a JS `<<`), a Number when safe.
 */
function rustValue(expr) {
  const tokens = expr.match(/"(?:[^"\\]|\\.)*"|0x[\dA-Fa-f_]+(?:[ui](?:8|16|32|64|size))?|\d[\d_]*(?:[ui](?:8|16|32|64|size))?|<<|>>|[-+*/%&|^()[\],]|\S/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const take = (want) => {
    const t = tokens[i++];
    if (want !== undefined && t !== want) throw new Error(`expected ${want} at ${t ?? 'end'} in ${expr}`);
    return t;
  };
  // Rust's precedence, loosest first.
  const levels = [['|'], ['^'], ['&'], ['<<', '>>'], ['+', '-'], ['*', '/', '%']];
  const apply = { '|': (a, b) => a | b, '^': (a, b) => a ^ b, '&': (a, b) => a & b, '<<': (a, b) => a << b,
    '>>': (a, b) => a >> b, '+': (a, b) => a + b, '-': (a, b) => a - b, '*': (a, b) => a * b, '/': (a, b) => a / b,
    '%': (a, b) => a % b };
  const binary = (level) => {
    if (level === levels.length) return primary();
    let left = binary(level + 1);
    while (levels[level].includes(peek())) {
      const op = take();
      const right = binary(level + 1);
      if (typeof left !== 'bigint' || typeof right !== 'bigint') throw new Error(`${op} of a non-integer in ${expr}`);
      left = apply[op](left, right);
    }
    return left;
  };
  const primary = () => {
    const t = take();
    if (t === '(') { const v = binary(0); take(')'); return v; }
    if (t === '-') return -primary();
    if (t === '[') {
      const items = [];
      while (peek() !== ']') { items.push(binary(0)); if (peek() === ',') take(); }
      take(']');
      return items;
    }
    if (t?.startsWith('"')) return JSON.parse(t);
    if (/^(0x[\dA-Fa-f_]+|\d[\d_]*)([ui](8|16|32|64|size))?$/.test(t ?? '')) return BigInt(t.replace(/[ui](8|16|32|64|size)$/, '').replaceAll('_', ''));
    throw new Error(`cannot read ${t ?? 'the end'} in ${expr}`);
  };
  const value = binary(0);
  if (i !== tokens.length) throw new Error(`left over from ${tokens[i]} in ${expr}`);
  const plain = (v) => Array.isArray(v) ? v.map(plain)
    : typeof v === 'bigint' ? (v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v)
      : v;
  return plain(value);
}

/** Every `pub const NAME: T = expr;` of a Rust file, by name. */
function rustConsts(text) {
  const out = new Map();
  for (const [, name, expr] of text.matchAll(/^\s*pub const (\w+)\s*:[^=]+=\s*([^;]+);/gm)) out.set(name, rustValue(expr));
  return out;
}

test('the reader of limits.rs evaluates what limits.rs writes', () => {
  assert.equal(rustValue('10 * 60'), 600);
  assert.equal(rustValue('24 * 60 * 60'), 86_400);
  assert.equal(rustValue('64 << 20'), 64 * 1024 * 1024);
  assert.equal(rustValue('(1 << 53) - 1'), Number.MAX_SAFE_INTEGER);
  assert.equal(rustValue('1 + 2 * 3 << 1'), 14);
  assert.equal(rustValue('120_000'), 120000);
  assert.equal(rustValue('0x10'), 16);
  assert.equal(rustValue('1000u64'), 1000);
  assert.equal(rustValue('"^[a-zA-Z0-9_-]+$"'), '^[a-zA-Z0-9_-]+$');
  assert.equal(rustValue('"a\\"b"'), 'a"b');
  assert.deepEqual(rustValue('["deflate", "br", "gzip"]'), ['deflate', 'br', 'gzip']);
  assert.throws(() => rustValue('SOME_OTHER_CONST * 2'), /cannot read/);
});

test('every limit the local service shares with the Rust core is equal to it', () => {
  const rust = rustConsts(RUST);
  assert.ok(rust.size >= 10, `read ${rust.size} constants from src/limits.rs`);
  for (const [jsName, [rustName, inJsUnit]] of Object.entries(SHARED)) {
    assert.ok(jsName in js, `limits.mjs exports ${jsName}`);
    assert.ok(rust.has(rustName), `limits.rs declares ${rustName}`);
    const want = inJsUnit(rust.get(rustName));
    const have = js[jsName] instanceof RegExp ? js[jsName].source : js[jsName];
    assert.deepEqual(have, want, `limits.mjs ${jsName} against limits.rs ${rustName}`);
  }
  // A RegExp compares by source alone: no flag may change what it matches.
  assert.equal(js.SHARD_GROUP_KEY_PATTERN.flags, '');
});

test('every limit of the local service is either shared with the Rust core or its own', () => {
  for (const name of Object.keys(js)) {
    assert.ok((name in SHARED) !== LOCAL_ONLY.has(name),
      `${name}: put it in SHARED (with its limits.rs name) or in LOCAL_ONLY of js-tests/limits.test.mjs`);
  }
  for (const name of LOCAL_ONLY) assert.ok(name in js, `LOCAL_ONLY names ${name}, which limits.mjs no longer exports`);
});
