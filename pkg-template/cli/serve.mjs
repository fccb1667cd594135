// `shardwise serve [--port N] [--data DIR]`: runs the local service until SIGINT/SIGTERM, with
// the browser report preview at /preview/.
import { fileURLToPath } from 'node:url';
import { createServer } from '../server/index.mjs';
import { parse, UsageError } from './args.mjs';

/** The package's root: its browser files (browser.mjs, src/, wasm/, preview/) back the preview page. */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

const HELP = `Usage: shardwise serve [--port N] [--data DIR] [--host H] [--keep-reports N] [--no-preview]

Runs the local service on 127.0.0.1: the durations and report-upload exchanges of the test
analytics service, and the browser report preview of the uploaded reports at /preview/. It prints
its base URL and an access token: give them to the runners as SHARDWISE_BASE_URL and
SHARDWISE_ACCESS_TOKEN (the token stays the same across restarts with the same --data).
  --port N      port to listen on (default: any free port)
  --data DIR    directory for reports, attachments and the history index (default: a temp dir)
  --host H      interface (default 127.0.0.1). Beyond loopback (e.g. 0.0.0.0), reading reports
                (the list, reports, attachments, the preview's data) needs the access token too;
                on 127.0.0.1, ::1 or localhost reads are open
  --keep-reports N  keep the newest N finished reports (and the history of the tests they ran);
                older ones are deleted (default 0: keep every report)
  --idle-timeout S  close a connection silent for S seconds (default 60)
  --no-preview  do not serve the report preview page (/preview/)
  --help        show this help`;

export async function run(argv) {
  const { values, positionals } = parse('serve', argv, {
    port: { type: 'string' }, data: { type: 'string' }, host: { type: 'string' }, 'keep-reports': { type: 'string' },
    'idle-timeout': { type: 'string' }, 'no-preview': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
  });
  if (values.help) { console.log(HELP); return 0; }
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'; see 'shardwise serve --help'`);
  const opts = values['no-preview'] ? {} : { staticDir: PACKAGE_DIR };
  if (values.port !== undefined) {
    if (!/^\d+$/.test(values.port) || Number(values.port) > 65535) throw new UsageError(`--port must be a port number from 0 to 65535, got '${values.port}'`);
    opts.port = Number(values.port);
  }
  if (values['keep-reports'] !== undefined) {
    if (!/^\d+$/.test(values['keep-reports'])) throw new UsageError(`--keep-reports must be a whole number (0 keeps every report), got '${values['keep-reports']}'`);
    opts.keepReports = Number(values['keep-reports']);
  }
  if (values['idle-timeout'] !== undefined) {
    const s = Number(values['idle-timeout']);
    if (!(s > 0) || !Number.isFinite(s)) throw new UsageError(`--idle-timeout must be a number of seconds above 0, got '${values['idle-timeout']}'`);
    opts.idleTimeoutMs = s * 1000;
  }
  if (values.data !== undefined) opts.dataDir = values.data;
  // for the crash tests and the benchmark: snapshots of the history more or less often than every 64 reports
  if (/^\d+$/.test(process.env.SHARDWISE_SNAPSHOT_EVERY ?? '')) opts.snapshotEvery = Number(process.env.SHARDWISE_SNAPSHOT_EVERY);
  if (values.host !== undefined) opts.host = values.host;
  let srv;
  try {
    srv = await createServer(opts);
  } catch (e) {
    if (e?.code === 'EADDRINUSE') throw new UsageError(`port ${opts.port} on ${opts.host ?? '127.0.0.1'} is taken (EADDRINUSE): stop what uses it, or pick another with --port`);
    if (e?.code === 'EDATALOCKED') throw new UsageError(`${e.message}: stop it, or pick another --data`);
    if (e?.code === 'EACCES') throw new UsageError(`port ${opts.port} needs privileges here (EACCES): pick one above 1023 with --port`);
    throw e;
  }
  console.log(`shardwise service listening on ${srv.baseUrl}`);
  console.log(`data directory: ${srv.dataDir}`);
  console.log(`access token: ${srv.accessToken}`);
  console.log(srv.readsNeedToken
    ? 'reads need the access token: this service listens beyond loopback (the preview asks for the token once)'
    : 'reads are open on loopback: anyone on this machine can read the reports (uploads need the token)');
  const { store } = srv;
  console.log(`history: ${store.reports.length} reports, ${store.predictor.size} tests${store.migrated !== undefined ? ` (migrated from index.json, kept as index.json.migrated)` : ''}${store.replayed ? `, ${store.replayed} replayed from the journal` : ''}; ${opts.keepReports ? `keeping the newest ${opts.keepReports}` : 'keeping every report (--keep-reports N bounds it)'}`);
  if (opts.staticDir) console.log(`report preview: ${srv.baseUrl}/preview/`);
  await new Promise((resolve) => { process.once('SIGINT', resolve); process.once('SIGTERM', resolve); });
  await srv.close();
  return 0;
}
