// Rolling a key: a new secret with the same settings, the old one working on for a grace period.
import { db } from '@/server/db';
import { AppError } from '@/server/errors/app-error';
import { recordEvents } from '@/server/services/events/events';
import { recordSecurityEvent } from '@/server/services/security-log/security-log';
import { periodOf } from '@/server/services/metering/credits';
import { generateApiKey } from './key-format';
import {
  KEYS,
  keyEventData,
  keyTarget,
  restrictionColumns,
  restrictionsOf,
  statusOf,
  toView,
  viewSelect,
  viewSelectAt,
  type ApiKeyView,
} from './key-views';
import { assertApiAccess } from './api-keys';

/** Grace periods offered when rolling a key, in seconds. */
export const ROLL_GRACE_PERIODS = { now: 0, '1h': 3_600, '24h': 86_400, '7d': 604_800 } as const;
export type RollGracePeriod = keyof typeof ROLL_GRACE_PERIODS;

export interface KeyRoll {
  keyId: string;
  gracePeriod: RollGracePeriod;
}

/**
 * Issues a new secret with the same name, scope and expiry. The old secret keeps working until the end of
 * the grace period (or its own expiry, if sooner), then authenticates no more.
 */
export async function rollApiKey(
  accountId: string,
  input: KeyRoll,
  now = new Date(),
): Promise<{ key: ApiKeyView; secret: string; previous: ApiKeyView }> {
  const { mode } = await assertApiAccess(accountId);
  const generated = generateApiKey(mode);
  return db.$transaction(async (tx) => {
    const old = await tx.apiKey.findFirst({
      where: { ...KEYS, id: input.keyId, accountId },
      select: { ...viewSelectAt(now), createdById: true },
    });
    if (!old) throw new AppError('NOT_FOUND', 'No such API key.');
    if (statusOf(old, now) !== 'active' || old.rolledAt) {
      throw new AppError('VALIDATION_ERROR', 'Only an active key that has not been rolled yet can be rolled.');
    }
    const graceEnd = new Date(now.getTime() + ROLL_GRACE_PERIODS[input.gracePeriod] * 1000);
    const oldEnd = old.expiresAt && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
    // The conditional update makes two concurrent rolls of one key produce one successor.
    const claimed = await tx.apiKey.updateMany({
      where: { id: old.id, rolledAt: null },
      data: { rolledAt: now, expiresAt: oldEnd },
    });
    if (claimed.count !== 1) throw new AppError('VALIDATION_ERROR', 'This key has just been rolled.');
    const created = await tx.apiKey.create({
      data: {
        accountId,
        createdById: old.createdById,
        name: old.name,
        scope: old.scope,
        secretHash: generated.hash,
        displayPrefix: generated.displayPrefix,
        lastFour: generated.lastFour,
        expiresAt: old.expiresAt,
        rolledFromId: old.id,
        ...restrictionColumns(restrictionsOf(old)),
        apiVersion: old.apiVersion,
      },
      select: viewSelect,
    });
    // The successor carries the month's spending over: a roll does not renew a budget. (During the grace period the
    // old secret spends from its own count.)
    const spent = old.creditUsage[0]?.used ?? 0;
    if (spent > 0)
      await tx.keyCreditUsage.create({ data: { keyId: created.id, periodStart: periodOf(now).start, used: spent } });
    const previous = { ...old, rolledAt: now, expiresAt: oldEnd };
    await recordEvents(
      [{ accountId, type: 'api_key.created', data: keyEventData(created, { rolledFrom: old.id }), occurredAt: now }],
      tx,
    );
    await recordSecurityEvent(
      {
        accountId,
        kind: 'api_key.rolled',
        target: keyTarget(old),
        before: { key: `${old.displayPrefix}…${old.lastFour}`, expiresAt: old.expiresAt?.toISOString() ?? null },
        after: { key: `${created.displayPrefix}…${created.lastFour}`, previousKeyEndsAt: oldEnd.toISOString() },
        occurredAt: now,
      },
      tx,
    );
    return {
      key: toView({ ...created, creditUsage: [{ used: spent }] }, now),
      secret: generated.secret,
      previous: toView(previous, now),
    };
  });
}
