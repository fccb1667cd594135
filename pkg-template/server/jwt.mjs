// HS256 JWTs with node:crypto.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { fail } from './errors.mjs';

const b64 = (v) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

/** Signs `claims` (adds iat/exp in seconds) with `secret`. */
export function signJwt(secret, claims, ttlMs, nowMs) {
  const iat = Math.floor(nowMs / 1000);
  const head = b64({ alg: 'HS256', typ: 'JWT' });
  const body = b64({ ...claims, iat, exp: Math.floor((nowMs + ttlMs) / 1000) });
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

/** Verifies a token of kind `typ`; throws an HttpError 401 otherwise. Returns the claims. */
export function verifyJwt(secret, token, typ, nowMs) {
  const parts = String(token).split('.');
  if (parts.length !== 3) fail(401, 'unauthorized', 'malformed token');
  const want = createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest();
  const got = Buffer.from(parts[2], 'base64url');
  if (got.length !== want.length || !timingSafeEqual(got, want)) fail(401, 'unauthorized', 'invalid token signature');
  let claims;
  try { claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString()); } catch { fail(401, 'unauthorized', 'malformed token'); }
  if (claims.typ !== typ) fail(401, 'unauthorized', `wrong token kind: expected ${typ}`);
  if (!(claims.exp * 1000 > nowMs)) fail(401, 'token_expired', `${typ} token expired`);
  return claims;
}
