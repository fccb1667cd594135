// `npm run demo` for real (the build step skipped: pkg/ is built): the table it prints, balanced
// shards finishing sooner than Playwright's native ones, preview URLs of reports the service
// really holds, and nothing left running afterwards, also when interrupted with Ctrl-C.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from './helpers/until.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIR = path.join(ROOT, 'js-tests', '.out', 'demo');

/** Starts the demo; `exited` resolves with {code, signal, out}. */
function startDemo(dir) {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'demo.mjs')], {
    cwd: ROOT, env: { ...process.env, SHARDWISE_DEMO_SKIP_BUILD: '1', SHARDWISE_DEMO_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const listeners = new Set();
  const onData = (c) => { out += c; for (const l of listeners) l(out); };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, out })));
  const waitFor = (re) => new Promise((resolve) => {
    const check = (text) => { if (re.test(text)) { listeners.delete(check); resolve(); } };
    listeners.add(check);
    check(out);
  });
  return { child, exited, waitFor };
}

/**
 * Processes started for the demo in `dir`: the demo itself (its command line) and every
 * Playwright runner and worker (their environment names an output file under `dir`).
 */
function leftovers(dir) {
  const found = [];
  for (const pid of readdirSync('/proc').filter((x) => /^\d+$/.test(x) && Number(x) !== process.pid)) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      if (env.some((e) => e.startsWith('SW_JSON=') && e.includes(dir)) || (cmd.includes('scripts/demo.mjs') && env.includes(`SHARDWISE_DEMO_DIR=${dir}`)))
        found.push(`${pid} ${cmd}`);
    } catch { /* gone, or not ours */ }
  }
  return found;
}

const refused = async (url) => {
  try {
    await fetch(url, { signal: AbortSignal.timeout(5000) });
    return false;
  } catch (e) {
    return /ECONNREFUSED/.test(String(e.cause?.code ?? e.cause?.message ?? e));
  }
};

const secs = (s) => Math.round(Number(s) * 1000);

/**
 * The output of `npm run demo` that CI (`.ci/run`) ran just before `npm test` in this checkout, with
 * its data in `.demo/`: checked as the demo this file would run (its time aside: CI's includes
 * the build). Without it, the demo runs here.
 */
const GIVEN = process.env.SHARDWISE_DEMO_LOG;

test('demo: seeds history, runs 4 balanced and 4 native shards, prints the table, balanced makespan < native; leaves nothing running', { timeout: 400_000 }, async () => {
  const t0 = Date.now();
  const dir = GIVEN ? path.join(ROOT, '.demo') : DIR;
  const { out, code } = GIVEN ? { out: readFileSync(GIVEN, 'utf8'), code: 0 } : await startDemo(DIR).exited;
  const took = Date.now() - t0;
  if (!GIVEN) console.log(out);
  assert.equal(code, 0, out);

  const seedTests = Number(out.match(/^ {3}(\d+) tests, /m)?.[1]);
  assert.ok(seedTests >= 20 && seedTests <= 40, `the example has 20-40 tests: ${seedTests}`);
  assert.match(out, /every shard planned from durations: service; plan fingerprint \w+ \(the same on all shards\)/);

  const rows = { balanced: [], native: [] };
  const planned = (s) => (s === '-' ? undefined : secs(s.replace(/ s$/, '')));
  for (const m of out.matchAll(/^(balanced|native) +(\d+) +(\d+) +([\d.]+) s +([\d.]+ s|-) +([\d.]+) s$/gm))
    rows[m[1]].push({ shard: Number(m[2]), tests: Number(m[3]), predictedMs: secs(m[4]), plannedMs: planned(m[5]), actualMs: secs(m[6]) });
  const makespan = {};
  for (const m of out.matchAll(/^(balanced|native) +makespan +([\d.]+) s +([\d.]+ s|-) +([\d.]+) s$/gm)) makespan[m[1]] = { predictedMs: secs(m[2]), plannedMs: planned(m[3]), actualMs: secs(m[4]) };
  const bound = out.match(/makespan ([\d.]+) s, lower bound ([\d.]+) s$/m);
  assert.ok(bound, out);
  for (const mode of ['balanced', 'native']) {
    assert.deepEqual(rows[mode].map((r) => r.shard), [1, 2, 3, 4], `${mode} rows`);
    assert.equal(rows[mode].reduce((s, r) => s + r.tests, 0), seedTests, `${mode} shards together run every test once`);
    assert.equal(makespan[mode].actualMs, Math.max(...rows[mode].map((r) => r.actualMs)), `${mode} makespan is its longest shard`);
    assert.equal(makespan[mode].predictedMs, Math.max(...rows[mode].map((r) => r.predictedMs)));
  }
  // The claim of the demo, on both the prediction and the measured runs.
  assert.ok(makespan.balanced.predictedMs < makespan.native.predictedMs, JSON.stringify(makespan));
  assert.ok(makespan.balanced.actualMs < makespan.native.actualMs, JSON.stringify(makespan));
  // The plan's own prediction of each balanced shard (with what a shard pays per worker, file and
  // test, learned from the seed run on this machine): even, and its slowest near the best possible
  // makespan; native shards have none. (The tests' durations alone need not be even: a shard of
  // many files and tests pays more besides them. The bounds leave room for the costs this machine
  // measures: with files of up to 1.5 s to load, a planner's probe of 20,000 such costs on this
  // example gave at most 12% between shards and 21% over the lower bound, which counts each file
  // once where a shard that shares one pays it again.)
  assert.deepEqual(rows.native.map((r) => r.plannedMs), [undefined, undefined, undefined, undefined]);
  const p = rows.balanced.map((r) => r.plannedMs);
  assert.equal(makespan.balanced.plannedMs, Math.max(...p));
  assert.equal(makespan.balanced.plannedMs, secs(bound[1]), 'the plan line\'s makespan is its slowest shard');
  assert.ok(Math.min(...p) >= Math.max(...p) * 0.8, `the balanced shards are planned within 20% of each other: ${p}`);
  assert.ok(makespan.balanced.plannedMs <= secs(bound[2]) * 1.3, `the plan's slowest shard is within 30% of the lower bound: ${p} against ${bound[2]} s`);

  // Preview URLs of the 5 uploads (seed + 4 balanced shards), which the service's data holds.
  const urls = [...out.matchAll(/^ {2}(seed run|balanced shard \d): +(http:\/\/127\.0\.0\.1:\d+)\/preview\/\?url=\/api\/reports\/([\w-]+)\/report\.json\.br$/gm)];
  assert.equal(urls.length, 5, out);
  // the service's history (state.json, written whole when it closes)
  const index = JSON.parse(readFileSync(path.join(dir, 'service', 'state.json'), 'utf8'));
  assert.deepEqual(urls.map((m) => m[3]).sort(), index.reports.map((r) => r.id).sort());
  assert.match(out, /shardwise\.mjs serve --data \S+ --port \d+/);

  // Nothing left: the service is closed, no Playwright process remains.
  assert.ok(await refused(urls[0][2]), 'the service is stopped');
  assert.deepEqual(leftovers(dir), []);
  if (GIVEN) return;
  console.log(`demo took ${took} ms`);
  assert.ok(took < 240_000, `the demo took ${took} ms`);
});

test('demo: Ctrl-C while the shards run stops every process and the service', { timeout: 200_000 }, async () => {
  const dir = `${DIR}-interrupted`;
  const demo = startDemo(dir);
  await demo.waitFor(/== 2\. /);
  // the balanced shards are running: seen as soon as there are four
  const shards = (l) => l.filter((x) => x.includes('playwright')).length >= 4;
  const running = (await until(() => { const l = leftovers(dir); return shards(l) && l; }, { timeoutMs: 60_000 })) ?? leftovers(dir);
  assert.ok(running.filter((l) => l.includes('playwright')).length >= 4, `the check sees the shards while they run: ${running.join('\n')}`);
  demo.child.kill('SIGINT');
  const { code, out } = await demo.exited;
  assert.equal(code, 130, out);
  assert.match(out, /SIGINT: stopping/);
  const url = out.match(/local service at (\S+)/)[1];
  assert.ok(await refused(url), 'the service is stopped');
  // every process gone (as soon as it is, within 10 s)
  await until(() => leftovers(dir).length === 0);
  assert.deepEqual(leftovers(dir), []);
});

test('the demo starts on a fresh clone: its scripts import only Node built-ins and each other at load (never test code, never node_modules)', () => {
  // `npm run demo` runs before any `npm install` on a fresh clone: an import of a dependency (or of
  // a test helper that imports one) fails before its set-up can install them
  const dirs = [path.join(ROOT, 'scripts'), path.join(ROOT, 'scripts', 'lib')];
  for (const dir of dirs) {
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.mjs'))) {
      const text = readFileSync(path.join(dir, f), 'utf8');
      for (const m of text.matchAll(/^\s*import\s[^;]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'/gm)) {
        const spec = m[1] ?? m[2];
        const target = spec.startsWith('.') ? path.resolve(dir, spec) : undefined;
        assert.ok(spec.startsWith('node:') || (target && target.startsWith(path.join(ROOT, 'scripts') + path.sep)),
          `scripts/${path.relative(path.join(ROOT, 'scripts'), path.join(dir, f))} imports ${spec} at load`);
      }
    }
  }
});
