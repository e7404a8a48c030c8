// Idempotency-Key on the POST endpoints: the first 2xx response is kept for 24 hours and replayed for the same key
// with the same method, path and body (the same JSON value, however it is written) and charged once; the same key with
// another request is 422. The stored answer is sealed with the data-encryption key (core/data-encryption.ts): an
// answer may hold a secret shown once (a new API key, a webhook signing secret), which a database dump must not show.
import { createHash } from 'node:crypto';
import { Prisma } from '@/generated/prisma/client';
import { db } from '@/server/db';
import { canonicalJson } from '@/server/core/canonical-json';
import { open, seal } from '@/server/core/data-encryption';
import { AppError } from '@/server/errors/app-error';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export type Claim = { kind: 'claimed' } | { kind: 'replay'; status: number; body: string };

/**
 * What makes two requests the same: method, path and the body's JSON value, not its bytes. White space and the order
 * of object members are the client's serialiser's choice (`body` is parsed, at most MAX_JSON_DEPTH deep).
 */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body)}`)
    .digest('hex');
}

export async function claimIdempotencyKey(accountId: string, key: string, hash: string, now: Date): Promise<Claim> {
  if (!KEY_PATTERN.test(key)) {
    throw new AppError('VALIDATION_ERROR', 'Idempotency-Key must be 1 to 255 visible ASCII characters.', {
      errors: [{ in: 'body', pointer: '#', detail: 'Invalid Idempotency-Key header.' }],
    });
  }
  // A key older than the window is forgotten.
  await db.idempotencyKey.deleteMany({
    where: { accountId, key, createdAt: { lt: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS) } },
  });
  try {
    await db.idempotencyKey.create({ data: { accountId, key, requestHash: hash, createdAt: now } });
    return { kind: 'claimed' };
  } catch (error) {
    if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')) throw error;
  }
  const existing = await db.idempotencyKey.findUnique({ where: { accountId_key: { accountId, key } } });
  if (!existing) return claimIdempotencyKey(accountId, key, hash, now); // released meanwhile
  if (existing.requestHash !== hash) {
    throw new AppError(
      'IDEMPOTENCY_CONFLICT',
      'This Idempotency-Key was already used for a different request in the last 24 hours.',
    );
  }
  if (existing.responseStatus === null || existing.responseBody === null) {
    throw new AppError(
      'IDEMPOTENCY_CONFLICT',
      'A request with this Idempotency-Key is still being processed; retry shortly.',
    );
  }
  return { kind: 'replay', status: existing.responseStatus, body: open(existing.responseBody) };
}

/** Keeps a success for replay; anything else releases the key, so that a retry runs again. */
export async function settleIdempotencyKey(
  accountId: string,
  key: string,
  status: number,
  body: string,
): Promise<void> {
  if (status >= 200 && status < 300) {
    await db.idempotencyKey.update({
      where: { accountId_key: { accountId, key } },
      data: { responseStatus: status, responseBody: seal(body) },
    });
  } else {
    await db.idempotencyKey.deleteMany({ where: { accountId, key, responseStatus: null } });
  }
}

export async function purgeExpiredIdempotencyKeys(now = new Date()): Promise<number> {
  const { count } = await db.idempotencyKey.deleteMany({
    where: { createdAt: { lt: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS) } },
  });
  return count;
}
