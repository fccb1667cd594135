// HMAC-signed, expiring storage URLs: /storage/<key>?method=PUT&expires=<ms>&sig=<hex>.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { fail } from './errors.mjs';

const mac = (secret, method, key, expires) =>
  createHmac('sha256', secret).update(`${method}\n${key}\n${expires}`).digest('hex');

/** Returns an absolute presigned URL for `method` on storage `key`. */
export function presign(baseUrl, secret, method, key, ttlMs, nowMs) {
  const expires = nowMs + ttlMs;
  const q = new URLSearchParams({ method, expires: String(expires), sig: mac(secret, method, key, expires) });
  return `${baseUrl}/storage/${key}?${q}`;
}

/** Checks the signature and expiry of a storage request; throws an HttpError 403 otherwise. */
export function verifyPresigned(secret, method, key, query, nowMs) {
  const expires = query.get('expires');
  const sig = query.get('sig') ?? '';
  if (query.get('method') !== method || !expires) fail(403, 'invalid_signature', 'presigned URL does not allow this request');
  const want = Buffer.from(mac(secret, method, key, expires));
  const got = Buffer.from(sig);
  if (got.length !== want.length || !timingSafeEqual(got, want)) fail(403, 'invalid_signature', 'presigned URL signature mismatch');
  if (!(Number(expires) > nowMs)) fail(403, 'url_expired', 'presigned URL expired');
}
