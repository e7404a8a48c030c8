import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signature, signatureHeader, verifySignature } from './signing';

// Golden vectors computed independently (Python: hmac.new(secret.encode(), f"{t}.{body}".encode(), sha256).hexdigest()).
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const SECOND = 'whsec_second-secret-for-rotation';
const T = 1_763_683_200;
const BODY = '{"id":"evt_1","type":"webhook.test","createdAt":"2026-11-21T00:00:00.000Z","data":{}}';
const V1 = 'ed210c0a503029612c7e61e64ed53db88803ab7cd1cc98fd2c44ea607907e806';
const V1_SECOND = 'c7930010380d3f1cf6049fd04b3d21a64388dcd9c67c77643ef15e89500d74b9';

describe('webhook signatures', () => {
  it('match the golden vectors', () => {
    expect(signature(SECRET, T, BODY)).toBe(V1);
    expect(signatureHeader([SECRET], T, BODY)).toBe(`t=${T},v1=${V1}`);
  });

  it('carry one v1 per secret during a rotation, each verifiable with its own secret', () => {
    const header = signatureHeader([SECOND, SECRET], T, BODY);
    expect(header).toBe(`t=${T},v1=${V1_SECOND},v1=${V1}`);
    expect(verifySignature(header, BODY, SECRET, T)).toEqual({ ok: true, timestamp: T });
    expect(verifySignature(header, BODY, SECOND, T)).toEqual({ ok: true, timestamp: T });
  });

  it('are rejected for a changed body, a wrong secret, a stale or future timestamp, or a malformed header', () => {
    const header = signatureHeader([SECRET], T, BODY);
    expect(verifySignature(header, BODY.replace('evt_1', 'evt_2'), SECRET, T)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verifySignature(header, BODY + ' ', SECRET, T)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifySignature(header, BODY, 'whsec_wrong', T)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifySignature(header, BODY, SECRET, T + 301)).toEqual({ ok: false, reason: 'stale' });
    expect(verifySignature(header, BODY, SECRET, T - 301)).toEqual({ ok: false, reason: 'stale' });
    expect(verifySignature(header, BODY, SECRET, T + 300)).toEqual({ ok: true, timestamp: T });
    for (const bad of [
      '',
      `v1=${V1}`,
      `t=${T}`,
      `t=abc,v1=${V1}`,
      `t=${T},t=${T},v1=${V1}`,
      `t=${T},v1=${V1.toUpperCase()}`,
      `t=${T},v1=zz`,
    ]) {
      expect(verifySignature(bad, BODY, SECRET, T).ok, bad).toBe(false);
    }
  });

  it('generates whsec_ secrets of 256 random bits', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});
