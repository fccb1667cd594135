// `shardwise serve [--port N] [--data DIR]`: runs the local service until SIGINT/SIGTERM, with
// the browser report preview at /preview/.
import { fileURLToPath } from 'node:url';
import { createServer } from '../server/index.mjs';

/** The package's root: its browser files (browser.mjs, src/, wasm/, preview/) back the preview page. */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

const HELP = `Usage: shardwise serve [--port N] [--data DIR] [--host H] [--no-preview]

Runs the local test-durations and report-upload service (service-api.md) on 127.0.0.1,
and the browser report preview of the uploaded reports at /preview/.
  --port N      port to listen on (default: any free port)
  --data DIR    directory for reports, attachments and the history index (default: a temp dir)
  --host H      interface (default 127.0.0.1)
  --no-preview  do not serve the report preview page (/preview/)
  --help        show this help`;

export async function run(argv) {
  const opts = { staticDir: PACKAGE_DIR };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') { console.log(HELP); return 0; }
    const v = argv[i + 1];
    if (a === '--port' && /^\d+$/.test(v ?? '')) { opts.port = Number(v); i++; }
    else if (a === '--data' && v) { opts.dataDir = v; i++; }
    else if (a === '--host' && v) { opts.host = v; i++; }
    else if (a === '--no-preview') delete opts.staticDir;
    else { console.error(`shardwise serve: bad argument ${a}\n\n${HELP}`); return 2; }
  }
  const srv = await createServer(opts);
  console.log(`shardwise service listening on ${srv.baseUrl}`);
  console.log(`data directory: ${srv.dataDir}`);
  console.log(`access token: ${srv.accessToken}`);
  if (opts.staticDir) console.log(`report preview: ${srv.baseUrl}/preview/`);
  await new Promise((resolve) => { process.once('SIGINT', resolve); process.once('SIGTERM', resolve); });
  await srv.close();
  return 0;
}
