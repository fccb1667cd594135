// Playwright's trace viewer, served by `shardwise serve` from the user's own installed
// playwright-core (its lib/vite/traceViewer/: the same files `npx playwright show-trace` serves),
// so a trace attachment opens in it with nothing downloaded and no copy in this package. Found
// from the directory the service runs in (the user's project), through @playwright/test if only
// that is a direct dependency; absent, the preview's trace link says what to install.
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The hint the preview shows when no trace viewer can be served. */
export const NO_TRACE_VIEWER = 'to open traces here, install @playwright/test (or playwright-core) in the project shardwise serve runs from';

/** `{dir, version}` of the trace viewer reachable from `from` (a directory), or undefined. */
export function findTraceViewer(from) {
  const req = createRequire(join(from, 'package.json'));
  const candidates = [() => req.resolve('playwright-core/package.json'),
    () => createRequire(req.resolve('@playwright/test/package.json')).resolve('playwright-core/package.json'),
    () => createRequire(req.resolve('playwright/package.json')).resolve('playwright-core/package.json')];
  for (const c of candidates) {
    let pkg;
    try { pkg = c(); } catch { continue; }
    const dir = join(dirname(pkg), 'lib', 'vite', 'traceViewer');
    if (!existsSync(join(dir, 'index.html')) || !existsSync(join(dir, 'sw.bundle.js'))) continue;
    let version;
    try { version = JSON.parse(readFileSync(pkg, 'utf8')).version; } catch { /* unknown */ }
    return { dir, version };
  }
  return undefined;
}

/** The trace viewer's files: names of its directory and of one level below (assets/). */
export const TRACE_FILES = /^[\w][\w.-]*(\/[\w][\w.-]*)?$/;

export const TRACE_TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf', '.woff2': 'font/woff2', '.webmanifest': 'application/manifest+json', '.json': 'application/json', '.png': 'image/png',
};
