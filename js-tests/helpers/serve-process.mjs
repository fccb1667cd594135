// `shardwise serve` as a real process (pkg/bin/shardwise.mjs), for the service tests and bench/serve.mjs,
// and the report documents they upload.
import { spawn } from 'node:child_process';
import { readdirSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../pkg/bin/shardwise.mjs', import.meta.url));
export const COMMIT = '0123456789abcdef0123456789abcdef01234567';

/**
 * Spawns `shardwise serve --port 0 ...args` and resolves once it printed its lines:
 * {child, baseUrl (always via 127.0.0.1), accessToken, out (stdout so far), err, pid, exited (promise of the exit code)}.
 */
export function startServe(args, env = {}) {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const p = { child, pid: child.pid, out: '', err: '' };
  p.exited = new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)));
  child.stderr.on('data', (c) => { p.err += c; });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (c) => {
      p.out += c;
      const base = /listening on http:\/\/(?:\[[^\]]+\]|[^:/]+):(\d+)/.exec(p.out);
      const token = /access token: (\S+)/.exec(p.out);
      if (base && token && /^history: .*$/m.test(p.out)) {
        p.baseUrl = `http://127.0.0.1:${base[1]}`;
        p.accessToken = token[1];
        resolve(p);
      }
    });
    p.exited.then((code) => reject(new Error(`serve exited (${code}): ${p.out}${p.err}`)));
  });
}

/** Stops it with SIGTERM (a clean close) and resolves with its exit code. */
export async function stopServe(p) {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  return p.exited;
}

/** Sockets the process holds open (Linux /proc). */
export function socketCount(pid) {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try { if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) n++; } catch { /* closed meanwhile */ }
  }
  return n;
}

/** Every file under dir (relative paths, with sizes), tmp/ and lock excluded: "nothing written" is this unchanged. */
export function listFiles(dir, rel = '') {
  const out = [];
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (r === 'tmp' || r === 'lock') continue;
    if (e.isDirectory()) out.push(...listFiles(dir, r));
    else out.push(`${r} ${statSync(join(dir, r)).size}`);
  }
  return out.sort();
}

/** A suite of `n` tests in files of 50: [{file, title}]. */
export const suite = (n) => Array.from({ length: n }, (_, i) => ({ file: `tests/f${Math.floor(i / 50)}.spec.ts`, title: `test ${i}` }));

/** A report of `tests` ([{file, title, ms?}]), one environment; tests without ms have no attempt (a test list). */
export function reportOf(tests, { title, env = 'linux', attachmentId } = {}) {
  const files = new Map();
  for (const t of tests) {
    if (!files.has(t.file)) files.set(t.file, []);
    files.get(t.file).push({
      title: t.title, location: { file: t.file, line: 1 + files.get(t.file).length, column: 1 },
      attempts: t.ms === undefined ? [] : [{ environmentIdx: 0, status: 'passed', expectedStatus: 'passed', startTimestamp: 1_700_000_000_000, duration: t.ms,
        ...(attachmentId && t === tests[0] ? { attachments: [{ name: 'log', contentType: 'text/plain', id: attachmentId }] } : {}) }],
    });
  }
  return {
    category: 'playwright', commitId: COMMIT, startTimestamp: 1_700_000_000_000, duration: 1000, ...(title ? { title } : {}),
    environments: [{ name: env }],
    suites: [...files].map(([file, ts]) => ({ type: 'file', title: file, location: { file, line: 1, column: 1 }, tests: ts })),
  };
}
