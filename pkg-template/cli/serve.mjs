// `shardwise serve [--port N] [--data DIR]`: runs the local service until SIGINT/SIGTERM.
import { createServer } from '../server/index.mjs';

const HELP = `Usage: shardwise serve [--port N] [--data DIR] [--host H]

Runs the local test-durations and report-upload service (service-api.md) on 127.0.0.1.
  --port N    port to listen on (default: any free port)
  --data DIR  directory for reports, attachments and the history index (default: a temp dir)
  --host H    interface (default 127.0.0.1)
  --help      show this help`;

export async function run(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') { console.log(HELP); return 0; }
    const v = argv[i + 1];
    if (a === '--port' && /^\d+$/.test(v ?? '')) { opts.port = Number(v); i++; }
    else if (a === '--data' && v) { opts.dataDir = v; i++; }
    else if (a === '--host' && v) { opts.host = v; i++; }
    else { console.error(`shardwise serve: bad argument ${a}\n\n${HELP}`); return 2; }
  }
  const srv = await createServer(opts);
  console.log(`shardwise service listening on ${srv.baseUrl}`);
  console.log(`data directory: ${srv.dataDir}`);
  console.log(`access token: ${srv.accessToken}`);
  await new Promise((resolve) => { process.once('SIGINT', resolve); process.once('SIGTERM', resolve); });
  await srv.close();
  return 0;
}
