// `shardwise serve [--port N] [--data DIR]`: runs the local service until SIGINT/SIGTERM, with
// the browser report preview at /preview/.
import { fileURLToPath } from 'node:url';
import { createServer } from '../server/index.mjs';
import { parse, UsageError } from './args.mjs';

/** The package's root: its browser files (browser.mjs, src/, wasm/, preview/) back the preview page. */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

const HELP = `Usage: shardwise serve [--port N] [--data DIR] [--host H] [--no-preview]

Runs the local service on 127.0.0.1: the durations and report-upload exchanges of the test
analytics service, and the browser report preview of the uploaded reports at /preview/. It prints
its base URL and an access token: give them to the runners as SHARDWISE_BASE_URL and
SHARDWISE_ACCESS_TOKEN (the token stays the same across restarts with the same --data).
  --port N      port to listen on (default: any free port)
  --data DIR    directory for reports, attachments and the history index (default: a temp dir)
  --host H      interface (default 127.0.0.1)
  --no-preview  do not serve the report preview page (/preview/)
  --help        show this help`;

export async function run(argv) {
  const { values, positionals } = parse('serve', argv, {
    port: { type: 'string' }, data: { type: 'string' }, host: { type: 'string' }, 'no-preview': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
  });
  if (values.help) { console.log(HELP); return 0; }
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'; see 'shardwise serve --help'`);
  const opts = values['no-preview'] ? {} : { staticDir: PACKAGE_DIR };
  if (values.port !== undefined) {
    if (!/^\d+$/.test(values.port) || Number(values.port) > 65535) throw new UsageError(`--port must be a port number from 0 to 65535, got '${values.port}'`);
    opts.port = Number(values.port);
  }
  if (values.data !== undefined) opts.dataDir = values.data;
  if (values.host !== undefined) opts.host = values.host;
  let srv;
  try {
    srv = await createServer(opts);
  } catch (e) {
    if (e?.code === 'EADDRINUSE') throw new UsageError(`port ${opts.port} on ${opts.host ?? '127.0.0.1'} is taken (EADDRINUSE): stop what uses it, or pick another with --port`);
    if (e?.code === 'EACCES') throw new UsageError(`port ${opts.port} needs privileges here (EACCES): pick one above 1023 with --port`);
    throw e;
  }
  console.log(`shardwise service listening on ${srv.baseUrl}`);
  console.log(`data directory: ${srv.dataDir}`);
  console.log(`access token: ${srv.accessToken}`);
  if (opts.staticDir) console.log(`report preview: ${srv.baseUrl}/preview/`);
  await new Promise((resolve) => { process.once('SIGINT', resolve); process.once('SIGTERM', resolve); });
  await srv.close();
  return 0;
}
