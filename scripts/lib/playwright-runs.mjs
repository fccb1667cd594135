// Running a Playwright project for real, as a separate process, and reading what ran from
// Playwright's own JSON report (independent of shardwise). Used by the demo (scripts/demo.mjs),
// and by the tests that drive real Playwright runs (tests may use scripts, never the reverse).
// Nothing here needs node_modules at import: the demo imports it on a fresh clone, before its
// set-up installs them.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);
/** Playwright's CLI, resolved the way `import '@playwright/test'` resolves from the repository (when first run). */
export const playwrightCli = () => path.join(path.dirname(require.resolve('@playwright/test/package.json')), 'cli.js');

/** Every run still going: its process group is killed by `killRuns()`. */
const running = new Set();

/**
 * Runs `playwright test -c <config>` (optionally `--shard=<shard>/<total>`) in its own process
 * group. `env` is added to a cleaned copy of process.env (no SHARDWISE_* / CI from the caller);
 * `json` is where the config's JSON reporter writes (passed as SW_JSON).
 * @returns {Promise<{code: number|null, signal: string|null, text: string, json?: object, wallMs: number}>}
 */
export function runPlaywright({ config, shard, total, workers, json, env = {}, timeoutMs = 300_000 }) {
  const base = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };
  for (const k of Object.keys(base)) if (k.startsWith('SHARDWISE_') || k === 'CI' || k.startsWith('SW_')) delete base[k];
  const args = [playwrightCli(), 'test', '-c', config];
  if (shard) args.push(`--shard=${shard}/${total}`);
  if (workers) args.push(`--workers=${workers}`);
  rmSync(json, { force: true });
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: path.dirname(config), env: { ...base, ...env, SW_JSON: json }, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let text = '';
    child.stdout.on('data', (c) => { text += c; });
    child.stderr.on('data', (c) => { text += c; });
    const timer = setTimeout(() => { text += `\n[killed after ${timeoutMs} ms]`; kill(child); }, timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); running.delete(child); reject(e); });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      const parsed = existsSync(json) ? JSON.parse(readFileSync(json, 'utf8')) : undefined;
      resolve({ code, signal, text, json: parsed, wallMs: Date.now() - started });
    });
  });
}

function kill(child) {
  try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
}

/** Kills every run still going (each run's whole process group: the runner and its workers). */
export function killRuns() {
  for (const child of running) kill(child);
  running.clear();
}

/** The pids of the runs still going. */
export const runningPids = () => [...running].map((c) => c.pid);

/**
 * Playwright JSON report -> Map "<file> > <describe titles> > <title>" -> ms of the tests that ran
 * (every attempt that was not skipped). `file` is as Playwright reports it (relative to testDir).
 */
export function executedTests(json) {
  const out = new Map();
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const runs = (t.results ?? []).filter((r) => r.status !== 'skipped');
        if (runs.length) out.set([spec.file, ...titles, spec.title].join(' > '), runs.reduce((a, r) => a + r.duration, 0));
      }
    }
    for (const s of suite.suites ?? []) walk(s, s.file === s.title ? titles : [...titles, s.title]);
  };
  for (const s of json?.suites ?? []) walk(s, []);
  return out;
}
