// Webhook signatures (CONTRACT "Webhooks"): X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256> where the
// HMAC key is the whole secret string (whsec_ prefix included, UTF-8) and the signed string is "<t>.<raw body>",
// the exact bytes sent. During a secret rotation both secrets sign: two v1 entries. Receivers reject timestamps
// older than 300 s. This module also holds the receiver-side check used by the docs and the tests.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
export const TOLERANCE_SECONDS = 300;

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

export function signature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/** The header value for a body sent at `timestamp` (unix seconds), signed by every given secret. */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signature(secret, timestamp, body)}`)].join(',');
}

export type Verification = { ok: true; timestamp: number } | { ok: false; reason: 'malformed' | 'stale' | 'mismatch' };

/** Receiver side: constant-time comparison against every v1 value, timestamp within the tolerance. */
export function verifySignature(
  header: string,
  body: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  tolerance = TOLERANCE_SECONDS,
): Verification {
  const parts = header.split(',').map((part) => part.trim());
  const timestamps = parts.filter((part) => part.startsWith('t=')).map((part) => part.slice(2));
  const candidates = parts.filter((part) => part.startsWith('v1=')).map((part) => part.slice(3));
  if (timestamps.length !== 1 || !/^\d{1,12}$/.test(timestamps[0]!) || !candidates.length)
    return { ok: false, reason: 'malformed' };
  const timestamp = Number(timestamps[0]);
  if (Math.abs(nowSeconds - timestamp) > tolerance) return { ok: false, reason: 'stale' };
  const expected = Buffer.from(signature(secret, timestamp, body), 'hex');
  const matches = candidates.some((candidate) => {
    if (!/^[0-9a-f]{64}$/.test(candidate)) return false;
    return timingSafeEqual(Buffer.from(candidate, 'hex'), expected);
  });
  return matches ? { ok: true, timestamp } : { ok: false, reason: 'mismatch' };
}
