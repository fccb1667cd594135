/**
 * Every error answer of the local service has the body
 * `{ "error": { "code": "<code>", "message": "<human readable>" } }` with a 4xx/5xx status.
 * Codes: unauthorized (401), token_expired (401), forbidden_authorization_header (400),
 * invalid_signature (403), url_expired (403), invalid_request (400), invalid_body (400),
 * out_of_order (409), not_found (404), method_not_allowed (405), payload_too_large (413),
 * request_timeout (408). Messages never carry a token or a presigned URL's query.
 */
export class HttpError extends Error {
  constructor(status, code, message, headers) { super(message); this.status = status; this.code = code; this.headers = headers; }
}
export const fail = (status, code, message, headers) => { throw new HttpError(status, code, message, headers); };
export function sendJson(res, status, value, headers = {}) {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length, ...headers });
  res.end(body);
}
export function sendError(res, err) {
  const status = err instanceof HttpError ? err.status : 500;
  const code = err instanceof HttpError ? err.code : 'internal';
  sendJson(res, status, { error: { code, message: err instanceof HttpError ? err.message : 'internal error' } }, err?.headers);
}
