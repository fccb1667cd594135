// Upload benchmark: a ~10 MB report and 1,000 attachments (half text logs, half incompressible
// "images"), uploaded with `uploadReport` to the local service (pkg/server) on 127.0.0.1, at
// concurrency 1, 8 and 32. Each run is a fresh child process, so its peak memory (maxRSS) is its
// own; the service runs in this process. Prints wall time, requests, bytes sent and peak memory,
// and the wall time as a ratio to concurrency 1 measured in the same run.
// Usage: node bench/upload.mjs [runs per concurrency (default 1)]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPORT_BYTES = 10 << 20;
const ATTACHMENTS = 1000;
const mb = (n) => (n / (1 << 20)).toFixed(1);

if (process.argv[2] === '--client') {
  await client(JSON.parse(process.argv[3]));
} else {
  await main(Number(process.argv[2] ?? 1));
}

/** One upload in this process; prints one JSON line. */
async function client({ baseUrl, accessToken, concurrency }) {
  const { uploadReport } = await import('shardwise');
  const { reportJson, noise, rng } = await import('../js-tests/helpers/data.mjs');
  const report = JSON.parse(reportJson(REPORT_BYTES));
  const r = rng(3);
  const attachments = Array.from({ length: ATTACHMENTS }, (_, i) => {
    const text = i % 2 === 0;
    const size = 8_000 + ((r() * 40_000) | 0);
    const data = text ? new TextEncoder().encode(`[${i}] step ${(r() * 1e6) | 0} ok\n`.repeat(size / 24)) : noise(size, i + 1);
    return { id: `att-${i}`, contentType: text ? 'text/plain' : 'image/png', data };
  });
  const rawBytes = attachments.reduce((n, a) => n + a.data.length, 0);
  const before = process.memoryUsage().rss;
  let requests = 0;
  let retries = 0;
  const t0 = process.hrtime.bigint();
  const result = await uploadReport({
    baseUrl, accessToken, report, attachments, concurrency, timeoutMs: 600_000,
    onEvent: (e) => { requests++; if (e.attempt > 1) retries++; },
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const peak = process.resourceUsage().maxRSS * 1024;
  console.log(JSON.stringify({ concurrency, ms, requests, retries, bytes: result.bytes, rawBytes, attachments: result.attachments, before, peak }));
}

async function main(runs) {
  const { createServer } = await import('../pkg/server/index.mjs');
  const dataDir = mkdtempSync(join(tmpdir(), 'shardwise-bench-upload-'));
  const svc = await createServer({ dataDir });
  const self = fileURLToPath(import.meta.url);
  const rows = [];
  try {
    for (const concurrency of [1, 8, 32]) {
      for (let i = 0; i < runs; i++) {
        const out = await runChild(self, { baseUrl: svc.baseUrl, accessToken: svc.accessToken, concurrency });
        rows.push(out);
      }
    }
  } finally {
    await svc.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const best = (c) => rows.filter((r) => r.concurrency === c).sort((a, b) => a.ms - b.ms)[0];
  const base = best(1);
  console.log(`upload: report ${mb(REPORT_BYTES)} MB JSON, ${ATTACHMENTS} attachments (${mb(base.rawBytes)} MB raw, half text, half images); local service on 127.0.0.1; best of ${runs}`);
  console.log('concurrency  wall ms  vs c=1  requests  retries  sent MB  peak RSS MB  (RSS before upload)');
  for (const c of [1, 8, 32]) {
    const r = best(c);
    console.log(
      `${String(c).padStart(11)}  ${r.ms.toFixed(0).padStart(7)}  ${(r.ms / base.ms).toFixed(2).padStart(6)}  ${String(r.requests).padStart(8)}  ${String(r.retries).padStart(7)}  ${mb(r.bytes).padStart(7)}  ${mb(r.peak).padStart(11)}  (${mb(r.before)})`,
    );
  }
}

/** Runs one upload in a child process (this one's event loop stays free to serve it). */
function runChild(self, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [self, '--client', JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`client exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}
