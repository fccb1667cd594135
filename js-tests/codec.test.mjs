// The Brotli API of the built package, imported by name (ESM, Node entry).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { compress, decompress, Compressor, Decompressor, ShardwiseError } from 'shardwise';
import { noise, reportJson } from './helpers/data.mjs';

const enc = new TextEncoder();
const FIVE_MB = enc.encode(reportJson(5 << 20));
const nodeBrotli = (buf, quality = 9) => new Uint8Array(zlib.brotliCompressSync(buf, {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_LGWIN]: 22 },
}));

function expectError(fn, code) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof ShardwiseError, `not a ShardwiseError: ${e}`);
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'ShardwiseError');
    assert.equal(e.code, code, e.message);
    assert.ok(e.message.length > 10, 'message should say what to do');
    return true;
  });
}

function streamed(Stream, data, chunk, opts) {
  const s = new Stream(opts);
  const parts = [];
  for (let i = 0; i < data.length; i += chunk) parts.push(s.push(data.subarray(i, i + chunk)));
  if (data.length === 0) parts.push(s.push(data));
  parts.push(s.finish());
  return Buffer.concat(parts);
}

test('round trips 0 bytes, 1 byte, 5 MB and incompressible data', () => {
  for (const data of [new Uint8Array(0), new Uint8Array([42]), FIVE_MB, noise(1 << 20)]) {
    const c = compress(data);
    assert.ok(c instanceof Uint8Array);
    assert.deepEqual(Buffer.from(decompress(c)), Buffer.from(data));
  }
  assert.ok(compress(FIVE_MB).length < FIVE_MB.length / 5, 'report JSON compresses well');
  assert.ok(compress(noise(1 << 20)).length < (1 << 20) + 1024, 'incompressible data barely grows');
});

test('a string is compressed as UTF-8', () => {
  const s = 'größe ✓ 測試';
  assert.equal(Buffer.from(decompress(compress(s))).toString('utf8'), s);
});

test('every quality 0..11 round trips and is readable by Node zlib', () => {
  const data = FIVE_MB.subarray(0, 200_000);
  for (let quality = 0; quality <= 11; quality++) {
    const c = compress(data, { quality });
    assert.deepEqual(decompress(c), data, `quality ${quality}`);
    assert.deepEqual(new Uint8Array(zlib.brotliDecompressSync(c)), data, `zlib reads quality ${quality}`);
  }
});

test('defaults are quality 9 / lgwin 22: output close to Node zlib at the same settings', () => {
  const ours = compress(FIVE_MB).length;
  const native = nodeBrotli(FIVE_MB).length;
  assert.ok(Math.abs(ours - native) / native < 0.01, `ours ${ours} vs native ${native}`);
  assert.deepEqual(compress(FIVE_MB.subarray(0, 50_000)), compress(FIVE_MB.subarray(0, 50_000), { quality: 9, lgwin: 22 }));
});

test('decodes what Node zlib encodes, at every quality', () => {
  const data = FIVE_MB.subarray(0, 100_000);
  for (let quality = 0; quality <= 11; quality++) {
    assert.deepEqual(decompress(nodeBrotli(data, quality)), data, `quality ${quality}`);
  }
  assert.deepEqual(decompress(nodeBrotli(FIVE_MB)), FIVE_MB);
});

test('garbage input is BROTLI_CORRUPT', () => {
  expectError(() => decompress(enc.encode('{"this":"is json, not brotli"}')), 'BROTLI_CORRUPT');
  expectError(() => decompress(noise(10_000, 3)), 'BROTLI_CORRUPT');
});

test('truncated input is BROTLI_CORRUPT, at any cut', () => {
  const c = compress(FIVE_MB.subarray(0, 300_000));
  for (const cut of [1, 2, 10, c.length >> 1, c.length - 1]) {
    expectError(() => decompress(c.subarray(0, cut)), 'BROTLI_CORRUPT');
  }
  expectError(() => decompress(new Uint8Array(0)), 'BROTLI_CORRUPT');
});

test('corrupted streams decode or fail with a ShardwiseError, never a wasm trap', () => {
  // Brotli has no checksum: a flipped bit may still decode (to other bytes). What must not
  // happen is a RuntimeError from the wasm (a panic or an out-of-bounds access) or a hang.
  const c = compress(FIVE_MB.subarray(0, 200_000));
  const codes = new Set();
  for (let i = 0; i < 400; i++) {
    const bad = c.slice();
    bad[(i * 7919) % bad.length] ^= 1 << (i % 8);
    const attempts = [() => decompress(bad, { maxOutputBytes: 1 << 20 })];
    if (i % 40 === 0) attempts.push(() => streamed(Decompressor, bad, 1 + (i % 7), { maxOutputBytes: 1 << 20 }));
    for (const attempt of attempts) {
      try {
        attempt();
        codes.add('decoded');
      } catch (e) {
        assert.ok(e instanceof ShardwiseError, `flip ${i}: ${e}`);
        assert.ok(['BROTLI_CORRUPT', 'LIMIT_EXCEEDED'].includes(e.code), `flip ${i}: ${e.code}`);
        codes.add(e.code);
      }
    }
  }
  assert.ok(codes.has('BROTLI_CORRUPT'), `outcomes: ${[...codes]}`);
});

test('a decompression bomb stops at maxOutputBytes with LIMIT_EXCEEDED', () => {
  const bomb = nodeBrotli(new Uint8Array(256 << 20), 5);
  assert.ok(bomb.length < 100_000);
  expectError(() => decompress(bomb, { maxOutputBytes: 10 << 20 }), 'LIMIT_EXCEEDED');
  const d = new Decompressor({ maxOutputBytes: 1 << 20 });
  expectError(() => d.push(bomb), 'LIMIT_EXCEEDED');
});

test('maxOutputBytes: exactly the size passes, one byte less fails', () => {
  const data = FIVE_MB.subarray(0, 123_456);
  const c = compress(data);
  assert.equal(decompress(c, { maxOutputBytes: data.length }).length, data.length);
  expectError(() => decompress(c, { maxOutputBytes: data.length - 1 }), 'LIMIT_EXCEEDED');
});

test('streaming in chunks of 1 byte and 1 MB equals one-shot output', () => {
  const data = FIVE_MB;
  const oneShot = compress(data);
  const small = data.subarray(0, 40_000);
  assert.deepEqual(streamed(Compressor, small, 1), Buffer.from(compress(small)));
  assert.deepEqual(streamed(Compressor, data, 1 << 20), Buffer.from(oneShot));
  assert.deepEqual(streamed(Decompressor, oneShot, 1), Buffer.from(data));
  assert.deepEqual(streamed(Decompressor, oneShot, 1 << 20), Buffer.from(data));
  assert.deepEqual(streamed(Compressor, new Uint8Array(0), 1), Buffer.from(compress(new Uint8Array(0))));
});

test('a truncated stream fails at finish()', () => {
  const c = compress(FIVE_MB.subarray(0, 100_000));
  const d = new Decompressor();
  d.push(c.subarray(0, c.length - 5));
  expectError(() => d.finish(), 'BROTLI_CORRUPT');
});

test('options out of range or misspelt are INVALID_INPUT', () => {
  for (const opts of [{ quality: -1 }, { quality: 12 }, { quality: 4.5 }, { lgwin: 9 }, { lgwin: 25 }, { quality: 'high' }, { qualty: 5 }]) {
    expectError(() => compress('x', opts), 'INVALID_INPUT');
    expectError(() => new Compressor(opts), 'INVALID_INPUT');
  }
  for (const opts of [{ maxOutputBytes: -1 }, { maxOutputBytes: 1.5 }, { maxBytes: 10 }]) {
    expectError(() => decompress(compress('x'), opts), 'INVALID_INPUT');
  }
  expectError(() => compress(42), 'INVALID_INPUT');
  expectError(() => decompress('not bytes'), 'INVALID_INPUT');
});

test('ShardwiseError can be constructed and checked by users', () => {
  const e = new ShardwiseError('boom', { code: 'TIMEOUT', step: 'poll', attempts: 3 });
  assert.ok(e instanceof Error);
  assert.equal(e.code, 'TIMEOUT');
  assert.equal(e.step, 'poll');
  assert.equal(e.attempts, 3);
});

test('the .wasm stays within its size budget (1,414,000 bytes after wasm-opt -Oz)', () => {
  // What every install and every browser preview downloads. Cargo.toml's release profile says
  // how it got there (opt-level "s" for the crate, 3 for the codec). 1,100,000 bytes until the
  // shard verification (verifyShards), the mending of runner attempts, the one Brotli-or-JSON
  // reading rule and the exchanges' clean stop (issues 18 and 19): 1,094,114 -> 1,101,455 bytes
  // net, after 15 KB found elsewhere (one retry state machine for every call, one promise
  // adapter for both exchanges). 1,110,000 until shard counts that pay for themselves (issue
  // 22: `plan --shards auto` planning every count with a fixed cost read from past reports, and
  // a shard's time over its workers): 1,101,736 -> 1,110,799 bytes (after moving their results
  // to serde_json's writer and their input through planShards' reader: 31 KB at first).
  // 1,127,000 since attachment bodies that stay in JS (issue 21: the caller's bytes and files
  // sent by handle, Node's zlib for text started ahead and for the report, the 64 MiB in flight
  // and the adaptive window): 1,113,788 -> 1,126,971 bytes. 1,135,000 since a report's text is
  // checked piece by piece (issue 21: each top-level suite and test read, checked and dropped,
  // not the whole report as one document: a 100,000-test report's check held 336 MB of wasm
  // memory, now 55 MB with the text decoded into a buffer of its size): 1,124,035 -> 1,132,852
  // bytes. 1,140,000 since report bytes are checked as their Brotli stream decodes, read from
  // the caller's Uint8Array in steps, never holding the text (issue 21: a reader over the
  // decoder, a splitter of the text into its top level and its top-level suites and tests, which
  // replaced serde visitors; the 100,000-test report's wasm memory 55 -> 5.8 MB):
  // 1,132,871 -> 1,139,685 bytes. 1,141,000 since a TLS certificate the process does not trust
  // is named with what to do (NODE_EXTRA_CA_CERTS): 1,140,383 bytes. 1,206,000 since a shard's
  // costs are modelled (issue 30: plan::cost, its options, the costs record read from a report's
  // sources, learning from a run's wall, its workers' timelines, warm-up and busy time,
  // shardCosts; and discover's numbering of repeated titles): 1,140,383 -> 1,205,500 bytes (each
  // sort of a new element type costs several KB: the model orders attempts and files by integer
  // keys with the planner's own sort of u64, 13 KB less than sorting them as they are). Not yet
  // trimmed further: the serde readers and writers of the new types are the suspects. 1,206,300
  // since the preview finds each test by the place and title Rust lists it with, not by walking
  // the report in Rust's order (issue 35: `__decodeReportTests` gives titles and places by column,
  // places as one Uint32Array; as arrays of arrays it cost 1,577 bytes): 1,205,544 -> 1,206,215
  // bytes. 1,207,600 since a shard's cold cost grows with its files (issue 30: `coldMs`, its
  // table of powers of 4/5 and the assignment's cost of a shard by its number of groups):
  // 1,205,873 -> 1,207,489 bytes. 1,224,000 since a sharded run's folder is a timings file
  // (issue 30: `__mergeRuns`, plan::runs: the shards' reports as one document, each test once per
  // environment, and `learn_runs`, the costs learned from every shard): 1,207,489 -> 1,223,944
  // bytes (written with the maps, entries and sorts the .wasm already had: with a map of f64 and
  // a collected BTreeMap it was 1,235,100). 1,228,800 since `verify` knows Playwright's setup and
  // teardown projects (issue 32: a shard record's `shared` projects read, their tests expected on
  // any shard, a shard that ran tests without their setup named, also when its record lists none
  // of the setup's tests): +4,335 bytes alone (the reader of `shared` 1.1 KB, the serialized
  // `withoutSetup` 0.5 KB, the check 2.8 KB). node:test's cost profile (issue 34: its defaults
  // and shards by file) fitted in it: 1,228,279 -> 1,228,366 bytes. 1,230,700 since a re-run
  // picks what failed (issue 32: each test's outcome per environment in `__testDurations`, from
  // its attempts' `status` and `expectedStatus` read in the planner's view of a report): +1,851
  // bytes. 1,281,900 since any runner by file (issue 34:
  // `shardwise run`): the JUnit XML import (report::junit, its XML reader, the dialects' file and
  // title rules, `__importJunit` returning JSON text through serde_json's writer) and the file
  // patterns (glob, `__FilePatterns`): +50,920 bytes alone (1,228,279 -> 1,279,199). Measured apart: glob 11 KB,
  // the import the rest, 2.3 KB of it its result's serialization (JSON text, the known files as
  // two arrays and the times parsed by hand, not with core's float parser, took it down from
  // 1,298,621), 0.4 KB a classname read in linear time (a fuzz finding) and 0.6 KB a map of the
  // titles the sources declare (10,000 tests without a file find theirs among 500 sources in one
  // lookup each, not a scan of every source). Not yet trimmed: the reader's closures over
  // str::find and its messages are the suspects. 1,301,000 since Playwright's setup and teardown
  // projects are planned (issue 32: plan::setups, a shard's phases, the assignment that keeps
  // dependents where their setup is paid, the `setups` option and its fingerprint words):
  // 1,281,138 -> 1,300,919 bytes (a stable sort of the setups, a sort and a dedup of candidates
  // and a clone-and-sort per prediction took it to 1,317,354 at first: each new sort costs
  // several KB; insertion into the planner's sorted bins has none, and both improvement passes
  // now find their heaviest shard with one function, one sort: 5.6 KB). 1,302,000 since node:test's
  // subtests count once in a file's time (from_report: the nested rule moved from the JS
  // timings into the planner's walks): 1,300,919 -> 1,301,719 bytes, a flag per walk checked as
  // it descends (a set of title paths to look the parents up in took 12 KB: a BTreeSet of tuples,
  // then of strings, each its own tree code). 1,303,000 since the cost model's calibration plans
  // the report's units once in canonical order and asks only each try's makespan (plan::makespan_of:
  // learning from a 3,000-test report 98 -> 30 ms warm, 192 -> 125 ms cold, on every shard's start
  // and end): 1,301,719 -> 1,302,267 bytes. 1,304,000 since the calibration can add the time
  // Jest's workers spend between files to every file (Profile::max_gap_ms; one bisection and one
  // costs adjustment for both searches: two copies took 2.9 KB): 1,302,267 -> 1,303,040 bytes.
  // 1,305,000 since a plan with setups also tries the plan without them and keeps the one that
  // ends sooner (a greedy start by the phases model could be 16% worse than ignoring the setups):
  // 1,302,981 -> 1,304,532 bytes. 1,326,000 since start costs (issues 30 and 32: `costs.starts`,
  // a cost a shard pays once when it holds a unit of theirs: Jest's jsdom first load per worker,
  // learned from its record; a Playwright project's workers, learned from the switches on the
  // workers' timelines), and a start of the setups' assignment that keeps each kind together:
  // 1,304,532 -> 1,325,922 bytes (a generic sort of setups and starts by id: +463). Measured apart (twiggy, before wasm-opt): the option's and the
  // record's readers about 8 KB (serde's struct code), learning 5 KB, the planner's masks and the
  // consecutive start 3 KB; a map collected from an iterator sorts with a copy of its own (2.5 KB
  // each: the sets of files are inserted one by one instead). 1,327,000 since the cost model's fit
  // plans a report's files as the runners do (one unit a file, its tests summed before rounding:
  // `file_units_from_report`, sharing the walk's map type and its conversion to units): 1,325,922
  // -> 1,326,604 bytes (a first version with a map and a sort of its own cost 9 KB). 1,333,000
  // since `costs.order` (issue 34: node:test runs a shard's files by name, so its shards are
  // planned and predicted in that order: the order's simulation, a pass that improves the plan in
  // it, and the option read by hand, not by serde's enum reader, which cost 1.7 KB more):
  // 1,326,604 -> 1,332,709 bytes. 1,334,000 since the costs record's `launchMs` (what a
  // `shardwise node-test` shard spent before node:test started, left out of the fixed cost per
  // shard: each shard measures and adds its own): 1,332,709 -> 1,333,204 bytes. 1,335,000 since
  // the name order's pass evaluates its changes by merging the moved group into a shard's
  // handed-out order, not by sorting the shard again, and tries the moves that would close the
  // gap first (2,000 files over 4 shards: 784 ms -> 124 ms, and a better plan): 1,333,217 ->
  // 1,334,754 bytes. 1,336,000 since a shard record's `leftOut` (a dependency Playwright left out
  // of the shard's run: verify names its dependents' shard even when every shard ran so), read
  // strictly as a boolean: 1,334,754 -> 1,335,054 bytes. 1,339,000 since the setups' planner
  // tries one more start, each kind needing a setup on shards of its own with the others spread
  // beside them (`kinds_apart`: Playwright's setup suite over 2 shards starts two projects'
  // workers a shard, not three): 1,335,054 -> 1,338,467 bytes (a first version with a sort of the
  // pieces and a vector per piece cost 8 KB). 1,342,000 since LPT keeps a file's groups together
  // when the file has a cost (a runner pays it on every shard that runs one of its tests: the
  // fully parallel Playwright suite over 4 shards, 26-28 of 30 files on every shard, now 10-13):
  // 1,338,467 -> 1,341,356 bytes. 1,348,500 since the planner counts what a shard pays again for
  // a file it shares with another shard (a file's fixed cost, less its share: `Split`, kept
  // through the improvement pass's moves) and keeps LPT by file only when that is no slower than
  // LPT by test improved the same way (a split file cost nothing more before, so LPT by file was
  // kept also where it left shards uneven; the fully parallel suite's shards hold 8 files, not
  // 10-13, each predicted within 1.5% of its files planned alone): 1,341,243 ->
  // 1,347,979 bytes (a first version with a hash map a shard cost 3.5 KB more). 1,361,000 since
  // `runnerSplit` (Jest's and Vitest's own split set beside the plan, predicted with the same
  // costs, and kept unless the plan is predicted 10% sooner: the option read and checked per
  // unit, the split's costs by either model, `runnerSplitMs` and `keptRunnerSplit` on both result paths):
  // 1,347,979 -> 1,358,327 bytes. 1,361,000 since a timings file is read once for a shard's plan
  // (`__readTimings`: the report, its durations and its cost model from one decoding, where three
  // calls carried the whole report across three times; 130 -> 118 ms of a Vitest shard's start):
  // 1,358,327 -> 1,360,724 bytes. 1,363,000 since several runs merged give each test its mean
  // (`__mergeRuns`: each test's time in each report tallied, the kept attempts scaled to the
  // mean; one run's durations carry its machine's noise): 1,360,513 -> 1,362,770 bytes (a first
  // version with a map of tallies of its own cost 4.7 KB). 1,363,500 since an attempt without a
  // duration counts 0 ms (report-format: `duration` default 0; a merged, normalized document
  // writes a 0 ms test so, and 3,161 of a Vitest suite's 3,488 tests were read as unknown):
  // 1,362,770 -> 1,363,205 bytes. 1,365,000 since a Playwright run's worker start is its
  // switches' median (a lane's wait at a setup's barrier is no start) and a record its reporter
  // fitted is learned as it stands (fitted again, every file 1.5x): 1,363,205 -> 1,364,544 bytes.
  // 1,377,000 since a shard's modules (issue 30: the relative imports `discover` reads, 0.8 KB;
  // `costs.modules` checked and merged by the files that load them, and charged as work of the
  // shards that load them: 9.8 KB, most of it serde's reader of the new option): 1,364,849 ->
  // 1,375,507 bytes; with a shard's record of the share of the modules it loaded (its cold cost
  // read at full over it): 1,376,056 bytes; with the run's start read from a report (what came
  // before its first test is at most the time to it): 1,376,700 bytes. 1,378,800 since the plan
  // gives each shard its share of the modules it charges (`modulesShare`, on both result paths:
  // the share a shard's report keeps was the JS's, over every module read, where the plan charges
  // the 48 largest merged): 1,376,410 -> 1,378,356 bytes; with the other specifiers a file loads
  // (`bareImports`: the names Jest's configuration maps to the suite's files): 1,378,758 bytes.
  // 1,381,000 since a file runner's shard reads its timings by file (`__readTimings(bytes,
  // byFile)`: its tests' durations summed by file in Rust, not each test's with its title path
  // carried across and summed in JS; and no schema check of a timings file: together a Vitest
  // shard's first read of 3,535 tests' timings in a fresh process about 210 -> 155 ms, medians):
  // 1,378,708 -> 1,380,497 bytes (with a map type of its own to place the files, 1,384,309).
  // 1,382,500 since a timings folder (a sharded run's shards' reports) is read in one call
  // (`__readTimingsRuns`: each report's bytes into the model, merged and read in Rust, where each
  // was decoded to an object, carried back as text to merge, and the merged one back again: a
  // Vitest suite's 4 shards' reports in a fresh process about 355 -> 270 ms, medians of 6):
  // 1,380,243 -> 1,381,903 bytes. 1,383,000 since that call names the report it cannot read
  // (a shard stopped by one shard's report of a folder said what was wrong, not where):
  // 1,381,903 -> 1,382,758 bytes. 1,384,000 since several runs' reports teach their workers'
  // start together (the median of what every shard's workers' first files paid beyond a steady
  // file), and a first file that paid far beyond it keeps the rest as its own cost (commander.js'
  // TypeScript compile, 5 s, which Jest runs first on its shard: read as a worker's start, the
  // plans from a shards' folder charged it to every shard and predicted its own shard 1.29x
  // short): 1,382,758 -> 1,383,962 bytes; 1,384,100 since a run whose first files are alike keeps
  // its own mean as its workers' start (the suite's start only tells which first file paid for
  // itself): 1,384,039 bytes. 1,384,200 since a folder learns again only the runs the suite's start
  // changes (too few files, or a first file far beyond it), where it learned every run twice:
  // 1,384,139 bytes. 1,384,300 since a timeout or abort that cuts a poll short names as many
  // attempts as the polls made (the progress the edge reads counts the earlier polls; it said 1):
  // 1,384,216 bytes. 1,384,500 since a cold cost under 500 ms is not shared out over the suite's
  // modules and a shard does not read them (`__chargesModules`, plan::cost::charges_modules):
  // 1,384,461 bytes. 1,384,600 since a run's first files are held to the median of its other
  // files, not of all (a run of few files, where the first ones are many of them): 1,384,557.
  // 1,385,100 since a folder of an even number of shards takes the mean of the middle two's fixed
  // costs, where the one nearer their mean decided alone: 1,385,027. 1,385,900 since each shard
  // of a plan says its tests' own time as the plan counted it, estimates included (`testsMs`:
  // a shard's closing line read an estimated file at its own files' mean and called its
  // durations stale): 1,385,801. 1,392,700 since a Vitest run's transforms of the suite's modules
  // are its shards' cold cost (a record's `transformMs`, read over the share of the modules a shard
  // loaded), each module weighs its transforms' time (`costs.moduleMs`, from the record's
  // `transforms`, the mean over a folder's runs), a module one file loads is that file's work (on
  // the plan, and on each shard where one group loads it), and a run is fitted with the cold cost
  // it paid, not at full (a shard that loaded part of the modules came out with too little fixed
  // cost): 1,392,599 (date-fns's 4-shard plans from a folder had predicted 4.2 s for shards of
  // 7.5-8.3 s). 1,393,300 since the improvement passes level the shards below the slowest when
  // it can go no lower (`settle`: one long file's shard set it, and the others were left as LPT
  // filled them, 7.2 to 11.1 s): 1,393,185. 1,394,500 since a Playwright worker's start is
  // learned without the waits at a barrier (`start_part`: a lane that waited for the others'
  // last tests of a phase before starting the next project's worker), which had made it 2.67 s
  // where the shards' starts took 1.3-1.5 s: 1,394,411. 1,396,700 since a start cost (a
  // Playwright project's workers, a Jest environment) is work of its phase on each worker that
  // runs a unit needing it, where it was one serial charge a shard (`setups::lanes`: a shard of
  // three projects took 0.75-0.93 of its prediction, 0.91-1.08 with it): 1,396,632. 1,407,200
  // since wasm-opt inlines nothing (scripts/build.mjs): a shard's process calls most of the module
  // once, and V8 compiled the functions wasm-opt had grown (`learn_given`, 33 KB) with TurboFan
  // while the shard waited: shardwise's own time on a shard in a fresh process 0.80x, its CPU
  // 0.73x (`npm run bench:shard-overhead`, 10 alternated runs); on a Vitest shard of date-fns that
  // kept Vitest's split, its time over the runner's alone 0.31-0.44 -> 0.16 s: 1,396,632 -> 1,407,090;
  // 1,407,154 with `__readTimings`' `withReport` (a file runner's plan takes no report object).
  // 1,408,800 since a charged module costs each worker that loads it once and a file with all its
  // modules is a floor under its shard (`setups::Model::floor_extra`: date-fns's `fp` file alone
  // on a shard was predicted 9.3 s and took 5.1-6.8 s; its balanced shards' predictions within
  // ±15% 13 -> 16 of 18 runs) and under the lower bound a plan prints (`largest_floor`: 4.4 s
  // where no split of date-fns's can go below 6.8 s): 1,406,352 -> 1,408,751. 1,411,000 since a
  // stall of a whole Playwright run (every lane idle over 10 s) is no file's cost and no worker's
  // start (`cost::stalls`: a new machine's first seed run, both lanes idle 33 s, had every shard
  // planned from it predicted at 102-108 s for 34-38 s): 1,410,895; 1,410,426 with the floors read
  // once (`largest_floor` from the phases model). 1,412,600 since a run whose tests start with
  // their file (Jest's) is fitted over its files' own span (`cost::files_span`: commander.js'
  // shard that began with its TypeScript compile was read as busy 2.2 s longer than its workers
  // were, its files fitted 212 ms of gap each against Jest's 30-50 ms; the bench's commander
  // shards were 13 of 18 within ±15% of their predictions, 16 of 18 with it):
  // 1,412,083. 1,414,000 since Vitest's modules are charged as its main process transforms them
  // (`cost::Costs::served_ms`, `setups::Model::lone`: each module's recorded transforms over the
  // run's workers asking, the cold cost at full their sum, and a shard of one file waits for its
  // modules alone): date-fns's `fp` file alone was predicted 5.3 s from a sharded run's folder and
  // took 4.2-4.6 s, so Vitest's own split was kept at 3 and 4 shards; with it, 0.81 and 0.88 of
  // that split, its balanced shards 18 of 18 within ±15% (14 of 18 before): 1,412,473 ->
  // 1,413,815. Every byte over it needs the same account.
  const wasm = createRequire(import.meta.url).resolve('shardwise/shardwise_bg.wasm');
  const size = statSync(wasm).size;
  assert.ok(size <= 1_414_000, `shardwise_bg.wasm is ${size} bytes, over the 1,414,000-byte budget`);
});
