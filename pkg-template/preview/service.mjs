// Reading from the service that serves this page (`shardwise serve`): its routes for a report
// and its attachments, the access token its read routes may want, and fetching bytes with a
// message that says what went wrong.

/** The route of a report's bytes on the service. */
export const reportRoute = (id) => `/api/reports/${encodeURIComponent(id)}/report.json.br`;

/** The report id of a URL of this page's service's report route, or undefined. */
export function reportIdOf(url) {
  const u = new URL(url, location.href);
  const m = /^\/api\/reports\/([^/]+)\/report\.json\.br$/.exec(u.pathname);
  return m && u.origin === location.origin ? decodeURIComponent(m[1]) : undefined;
}

/** Where the attachments of report `id` are read: the base their ids are appended to. */
export const attachmentsBase = (id) => `${location.origin}/api/reports/${encodeURIComponent(id)}/attachments/`;

const TOKEN_KEY = 'shardwise-access-token';
/**
 * fetch for this page's own service: listening beyond loopback, `shardwise serve` answers its read
 * routes 401 without the access token. Asked once (on a 401), kept in sessionStorage, sent as a
 * header, never put in a URL; never sent to another origin.
 */
export async function readFetch(url) {
  const own = new URL(url, location.href).origin === location.origin;
  const send = (token) => fetch(url, own && token ? { headers: { authorization: `Bearer ${token}` } } : undefined);
  const sent = own ? sessionStorage.getItem(TOKEN_KEY) : null;
  let res = await send(sent);
  if (res.status !== 401 || !own) return res;
  let token = sessionStorage.getItem(TOKEN_KEY);
  if (!token || token === sent) {
    token = (prompt('This service needs its access token to show reports (the "access token:" line shardwise serve printed):') ?? '').trim();
    if (!token) return res;
    sessionStorage.setItem(TOKEN_KEY, token); // a fetch answered 401 meanwhile uses it instead of asking again
  }
  res = await send(token);
  if (res.status === 401 && sessionStorage.getItem(TOKEN_KEY) === token) sessionStorage.removeItem(TOKEN_KEY);
  return res;
}

/** The bytes at `url`, or an error that says why not. */
export async function fetchBytes(url) {
  let res;
  try {
    res = await readFetch(url);
  } catch (e) {
    throw new Error(`cannot reach ${url} (${e.message}); is the server running?`);
  }
  if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
  const bytes = await res.arrayBuffer();
  // sent compressed (Content-Encoding), fetch gives the decoded bytes: what came over the wire is
  // its Content-Length
  const sent = res.headers.get('content-encoding') ? Number(res.headers.get('content-length')) : NaN;
  if (Number.isFinite(sent) && sent > 0 && sent !== bytes.byteLength) bytes.downloadedBytes = sent;
  return bytes;
}

/** The service's list of reports (oldest first), or undefined when this page is not served by one. */
export async function listReports() {
  try {
    const res = await readFetch('/api/reports');
    if (!res.ok) return undefined;
    const list = await res.json();
    return Array.isArray(list) ? list : undefined;
  } catch {
    return undefined; // not served by `shardwise serve`: no list
  }
}

let traceViewerAnswer;
/**
 * Whether this page's service serves Playwright's trace viewer (`{available, hint?}`), asked once;
 * `{available: false}` when the page is not served by `shardwise serve`.
 */
export function traceViewer() {
  traceViewerAnswer ??= fetch('/api/trace-viewer').then((r) => (r.ok ? r.json() : { available: false })).catch(() => ({ available: false }));
  return traceViewerAnswer;
}

/** The trace viewer's page for the trace at `url` (served by this page's service). */
export const traceViewerUrl = (url) => `${location.origin}/trace/index.html?trace=${encodeURIComponent(new URL(url, location.href).href)}`;
