// A static file server on 127.0.0.1 for browser tests: serves `routes` ({urlPrefix: dir});
// `onResponse(path, status)`, when given, hears every answer.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json', '.css': 'text/css', '.br': 'application/octet-stream' };

export async function serveStatic(routes, { onResponse } = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (onResponse) res.on('finish', () => onResponse(path, res.statusCode));
    for (const [prefix, dir] of Object.entries(routes)) {
      if (!path.startsWith(prefix)) continue;
      const rel = normalize(path.slice(prefix.length)).replace(/^(\.\.[/\\])+/, '');
      try {
        const body = await readFile(join(dir, rel || 'index.html'));
        res.writeHead(200, { 'content-type': TYPES[extname(rel)] ?? 'application/octet-stream' });
        return res.end(body);
      } catch { /* fall through to 404 */ }
    }
    res.writeHead(404).end('not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}
