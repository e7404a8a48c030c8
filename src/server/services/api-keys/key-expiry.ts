// When keys end: the longest a key may be created for, the account's rule that every key expires, and the hourly
// jobs that log each key that expired and notify each that expires within a week (api_key.expiring).
import { db } from '@/server/db';
import { AppError } from '@/server/errors/app-error';
import { recordEvents } from '@/server/services/events/events';
import { recordSecurityEvent } from '@/server/services/security-log/security-log';
import { KEYS, keyEventData, keyTarget } from './key-views';

/** The longest a key may be created for; a key without an expiry lives until it is revoked. */
export const MAX_KEY_LIFETIME_DAYS = 366;

/** In the future, and at most MAX_KEY_LIFETIME_DAYS from now. */
export function assertExpiryWithinBounds(expiresAt: Date, now: Date): void {
  const latest = now.getTime() + MAX_KEY_LIFETIME_DAYS * 86_400_000;
  const detail =
    expiresAt.getTime() <= now.getTime()
      ? 'The expiry must be in the future.'
      : expiresAt.getTime() > latest
        ? `A key expires at most ${MAX_KEY_LIFETIME_DAYS} days after it is created (by ${new Date(latest).toISOString()}); leave the expiry empty for a key that lives until it is revoked.`
        : null;
  if (detail)
    throw new AppError('VALIDATION_ERROR', detail, { errors: [{ in: 'body', pointer: '#/expiresAt', detail }] });
}

/** The expiry the create dialog suggests. */
export const SUGGESTED_KEY_LIFETIME_DAYS = 90;

export async function keyExpiryPolicy(accountId: string): Promise<{ requireKeyExpiry: boolean }> {
  const account = await db.account.findUnique({ where: { id: accountId }, select: { requireKeyExpiry: true } });
  return { requireKeyExpiry: account?.requireKeyExpiry ?? false };
}

/** Whether every new key of the account must have an expiry (its owner's choice, Settings → API access). */
export async function setKeyExpiryPolicy(
  accountId: string,
  requireKeyExpiry: boolean,
): Promise<{ requireKeyExpiry: boolean }> {
  await db.account.update({ where: { id: accountId }, data: { requireKeyExpiry } });
  return { requireKeyExpiry };
}

/** How far back the expiry of a key is looked for: a key that expired while no job ran for longer is not logged. */
const EXPIRY_LOOKBACK_MS = 30 * 86_400_000;

/**
 * Records in the security log each key that has expired since it was last looked at (run every hour by the
 * background work). A revoked key's end is its revocation, and a rolled key's end belongs to its roll: neither is
 * logged again here. Returns how many were logged.
 */
export async function logExpiredKeys(now = new Date()): Promise<number> {
  const expired = await db.apiKey.findMany({
    where: {
      ...KEYS,
      revokedAt: null,
      rolledAt: null,
      expiresAt: { lte: now, gt: new Date(now.getTime() - EXPIRY_LOOKBACK_MS) },
    },
    select: { id: true, accountId: true, name: true, displayPrefix: true, lastFour: true, expiresAt: true },
  });
  if (!expired.length) return 0;
  const logged = await db.securityEvent.findMany({
    where: { kind: 'api_key.expired', targetId: { in: expired.map((key) => key.id) } },
    select: { targetId: true },
  });
  const already = new Set(logged.map((entry) => entry.targetId));
  const fresh = expired.filter((key) => !already.has(key.id));
  for (const key of fresh) {
    await recordSecurityEvent({
      accountId: key.accountId,
      kind: 'api_key.expired',
      target: keyTarget(key),
      after: { expiredAt: key.expiresAt!.toISOString() },
      actor: { type: 'system' },
      occurredAt: key.expiresAt!,
    });
  }
  return fresh.length;
}

/** How long before its expiry a key's `api_key.expiring` notice (webhook event and dashboard banner) is due. */
const EXPIRY_NOTICE_DAYS = 7;

/**
 * Records `api_key.expiring` once for each key that expires within EXPIRY_NOTICE_DAYS (run every hour by the
 * background work). A rolled key's end belongs to its roll. Each key is claimed by a conditional update, so two runs
 * never notify twice. Returns how many were notified.
 */
export async function notifyExpiringKeys(now = new Date()): Promise<number> {
  const due = await db.apiKey.findMany({
    where: {
      ...KEYS,
      revokedAt: null,
      rolledAt: null,
      expiryNoticeAt: null,
      expiresAt: { gt: now, lte: new Date(now.getTime() + EXPIRY_NOTICE_DAYS * 86_400_000) },
    },
    select: { id: true, accountId: true, name: true, scope: true, displayPrefix: true, expiresAt: true },
  });
  let notified = 0;
  for (const key of due) {
    const claimed = await db.$transaction(async (tx) => {
      const { count } = await tx.apiKey.updateMany({
        where: { id: key.id, expiryNoticeAt: null },
        data: { expiryNoticeAt: now },
      });
      if (count)
        await recordEvents(
          [
            {
              accountId: key.accountId,
              type: 'api_key.expiring',
              data: { ...keyEventData(key), expiresAt: key.expiresAt!.toISOString() },
              occurredAt: now,
            },
          ],
          tx,
        );
      return count;
    });
    notified += claimed;
  }
  return notified;
}
