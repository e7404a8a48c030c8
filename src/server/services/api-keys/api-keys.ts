// API keys: create (secret shown once), list, change, revoke. Rolling is ./key-rolls.ts, when keys end
// ./key-expiry.ts, what a key looks like ./key-views.ts, and the check of a presented key
// src/server/auth/api-key-verification.ts.
import type { Prisma } from '@/generated/prisma/client';
import { LATEST_VERSION, type ApiVersion } from '@/server/domain/api-versions';
import { db } from '@/server/db';
import { seedKeySpending } from '@/server/db/credit-statements';
import { AppError, limitReached } from '@/server/errors/app-error';
import { withAccountLock } from '@/server/db/row-locks';
import { planInForce } from '@/server/services/accounts/plans';
import { recordEvents } from '@/server/services/events/events';
import { recordSecurityEvent } from '@/server/services/security-log/security-log';
import { periodOf } from '@/server/services/metering/credits';
import { modeOf } from '@/server/auth/actor';
import { generateApiKey, isDisplayPrefix, keyModeOf, type KeyMode } from './key-format';
import {
  assertOwnApps,
  restrictionsAfter,
  UNRESTRICTED,
  type KeyRestrictions,
  type KeyRestrictionsChange,
} from './restrictions';
import {
  fromDbScope,
  KEYS,
  keyEventData,
  keyTarget,
  restrictionColumns,
  restrictionsOf,
  statusOf,
  toDbScope,
  toView,
  viewSelectAt,
  type ApiKeyScope,
  type ApiKeyView,
} from './key-views';
import { assertExpiryWithinBounds, MAX_KEY_LIFETIME_DAYS, SUGGESTED_KEY_LIFETIME_DAYS } from './key-expiry';

/** Keys that are neither revoked nor expired, per account: enough for every service and environment, not for a leak. */
export const MAX_ACTIVE_KEYS = 50;

/** A key to create, as api-keys.schema.ts parses it. */
export interface NewApiKey {
  name: string;
  scope: ApiKeyScope;
  /** Omitted or null: the key lives until it is revoked. */
  expiresAt?: Date | null;
  /** Omitted: none (every app, any address, no budget). */
  restrictions?: KeyRestrictionsChange;
  /** The key's own dated API version; omitted: its account's (pinned to the newest by the account's first key). */
  apiVersion?: ApiVersion;
}

/**
 * The account's keys policy, once its plan is checked to include API access, and the mode of its keys: a test
 * sandbox's are test keys (its tier is `test`, which has API access whatever the live account's plan).
 */
export async function assertApiAccess(accountId: string): Promise<{ requireKeyExpiry: boolean; mode: KeyMode }> {
  const account = await db.account.findUnique({
    where: { id: accountId },
    select: { plan: true, trialEndsAt: true, trialCredits: true, requireKeyExpiry: true, liveAccountId: true },
  });
  if (!account) throw new AppError('NOT_FOUND', 'The account does not exist.');
  if (!planInForce(account, new Date()).apiAccess) {
    throw new AppError(
      'PLAN_REQUIRED',
      'API keys are part of the paid plans. Choose a plan under Settings → Plan & billing to create live keys; test keys are open to every plan.',
    );
  }
  return {
    requireKeyExpiry: account.requireKeyExpiry,
    mode: modeOf({ accountId, liveAccountId: account.liveAccountId }).mode,
  };
}

export async function createApiKey(
  owner: { accountId: string; userId?: string | null },
  input: NewApiKey,
  now = new Date(),
): Promise<{ key: ApiKeyView; secret: string }> {
  if (input.expiresAt) assertExpiryWithinBounds(input.expiresAt, now);
  const policy = await assertApiAccess(owner.accountId);
  if (policy.requireKeyExpiry && !input.expiresAt) {
    const detail = `This account requires an expiry on new keys (its owner’s setting); give one within ${MAX_KEY_LIFETIME_DAYS} days (${SUGGESTED_KEY_LIFETIME_DAYS} is suggested).`;
    throw new AppError('VALIDATION_ERROR', detail, { errors: [{ in: 'body', pointer: '#/expiresAt', detail }] });
  }
  const restrictions = restrictionsAfter(UNRESTRICTED, input.restrictions ?? {});
  const generated = generateApiKey(policy.mode);
  const row = await withAccountLock(owner.accountId, async (tx) => {
    await assertOwnApps(tx, owner.accountId, restrictions.appIds);
    const active = await tx.apiKey.count({
      where: {
        ...KEYS,
        accountId: owner.accountId,
        revokedAt: null,
        OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
      },
    });
    if (active >= MAX_ACTIVE_KEYS) {
      throw limitReached(
        'active-api-keys',
        MAX_ACTIVE_KEYS,
        `An account has at most ${MAX_ACTIVE_KEYS} active keys; revoke one you no longer use first.`,
      );
    }
    const created = await tx.apiKey.create({
      data: {
        accountId: owner.accountId,
        createdById: owner.userId ?? null,
        name: input.name,
        scope: toDbScope(input.scope),
        secretHash: generated.hash,
        displayPrefix: generated.displayPrefix,
        lastFour: generated.lastFour,
        expiresAt: input.expiresAt ?? null,
        ...restrictionColumns(restrictions),
        apiVersion: input.apiVersion ?? null,
      },
      select: viewSelectAt(now),
    });
    // The account's first key pins its version: the newest, which its calls are shaped by until it chooses another.
    await tx.account.updateMany({
      where: { id: owner.accountId, apiVersion: null },
      data: { apiVersion: LATEST_VERSION },
    });
    await recordEvents(
      [{ accountId: owner.accountId, type: 'api_key.created', data: keyEventData(created), occurredAt: now }],
      tx,
    );
    await recordSecurityEvent(
      {
        accountId: owner.accountId,
        kind: 'api_key.created',
        target: keyTarget(created),
        after: {
          name: created.name,
          scope: fromDbScope(created.scope),
          expiresAt: created.expiresAt?.toISOString() ?? null,
          restrictions: { ...restrictions },
        },
        occurredAt: now,
      },
      tx,
    );
    return created;
  });
  return { key: toView(row, now), secret: generated.secret };
}

/** The key as a security log entry names it (its display prefix and last four characters: never the secret). */
export async function listApiKeys(accountId: string, now = new Date()): Promise<ApiKeyView[]> {
  const rows = await db.apiKey.findMany({
    where: { ...KEYS, accountId },
    orderBy: { createdAt: 'desc' },
    select: viewSelectAt(now),
  });
  return rows.map((row) => toView(row, now));
}

/** One key of the account (404 for any other id). */
export async function getApiKey(accountId: string, keyId: string, now = new Date()): Promise<ApiKeyView> {
  const row = await db.apiKey.findFirst({ where: { ...KEYS, id: keyId, accountId }, select: viewSelectAt(now) });
  if (!row) throw new AppError('NOT_FOUND', 'No such API key.');
  return toView(row, now);
}

/** A change of a key, as api-keys.schema.ts parses it. */
export interface ApiKeyChange {
  keyId: string;
  name?: string;
  /** The restrictions it names change; the others stay as they were. */
  restrictions?: KeyRestrictionsChange;
}

/**
 * Renames a key and changes its restrictions: what the input names, the rest as they were. Applies from the key's next
 * call; a lower budget than what the key has spent this month refuses its next charged call. Only an active key
 * changes: a revoked or expired one keeps what it had.
 */
/**
 * A credential row's restrictions (a key's, or a connected app's) after `change`: its apps checked to be the
 * account's, and, when it is given its first budget, its spending counted from what it spent this period so far.
 */
export async function restrictionsChanged(
  tx: Prisma.TransactionClient,
  row: { id: string; accountId: string },
  before: KeyRestrictions,
  change: KeyRestrictionsChange,
  now: Date,
): Promise<KeyRestrictions> {
  const after = restrictionsAfter(before, change);
  await assertOwnApps(tx, row.accountId, after.appIds);
  if (before.monthlyBudget === null && after.monthlyBudget !== null)
    await seedKeySpending(tx, row, periodOf(now).start);
  return after;
}

export async function updateApiKey(
  accountId: string,
  input: ApiKeyChange,
  now = new Date(),
): Promise<{ key: ApiKeyView; before: KeyRestrictions }> {
  return withAccountLock(accountId, async (tx) => {
    const current = await tx.apiKey.findFirst({
      where: { ...KEYS, id: input.keyId, accountId },
      select: viewSelectAt(now),
    });
    if (!current) throw new AppError('NOT_FOUND', 'No such API key.');
    if (statusOf(current, now) !== 'active')
      throw new AppError('VALIDATION_ERROR', 'Only an active key can be changed; this one is revoked or expired.');
    const before = restrictionsOf(current);
    const after = input.restrictions
      ? await restrictionsChanged(tx, { id: current.id, accountId }, before, input.restrictions, now)
      : before;
    const name = input.name ?? current.name;
    const row = await tx.apiKey.update({
      where: { id: current.id },
      data: { name, ...restrictionColumns(after) },
      select: viewSelectAt(now),
    });
    if (name !== current.name) {
      await recordSecurityEvent(
        {
          accountId,
          kind: 'api_key.renamed',
          target: keyTarget(row),
          before: { name: current.name },
          after: { name },
          occurredAt: now,
        },
        tx,
      );
    }
    if (input.restrictions) {
      await recordSecurityEvent(
        {
          accountId,
          kind: 'api_key.restricted',
          target: keyTarget(row),
          before: { ...before },
          after: { ...after },
          occurredAt: now,
        },
        tx,
      );
    }
    return { key: toView(row, now), before };
  });
}

/** Idempotent: revoking a revoked key returns it unchanged. */
export async function revokeApiKey(accountId: string, keyId: string, now = new Date()): Promise<ApiKeyView> {
  const revoked = await db.apiKey.updateMany({
    where: { ...KEYS, id: keyId, accountId, revokedAt: null },
    data: { revokedAt: now },
  });
  const row = await db.apiKey.findFirst({ where: { ...KEYS, id: keyId, accountId }, select: viewSelectAt(now) });
  if (!row) throw new AppError('NOT_FOUND', 'No such API key.');
  if (revoked.count) {
    await recordEvents([{ accountId, type: 'api_key.revoked', data: keyEventData(row), occurredAt: now }]);
    await recordSecurityEvent({
      accountId,
      kind: 'api_key.revoked',
      target: keyTarget(row),
      before: { status: statusOf({ ...row, revokedAt: null }, now) },
      after: { status: 'revoked' },
      occurredAt: now,
    });
  }
  return toView(row, now);
}

/** For the operator CLI: the display prefix must name exactly one key of the account that is not yet revoked. */
export async function revokeApiKeyByPrefix(
  accountId: string,
  displayPrefix: string,
  now = new Date(),
): Promise<ApiKeyView> {
  if (!isDisplayPrefix(displayPrefix)) {
    throw new AppError(
      'VALIDATION_ERROR',
      'A key prefix is "svc_live_" (or "svc_test_") followed by 4 letters or digits, as the dashboard shows it.',
    );
  }
  // A test key is its sandbox's.
  if (keyModeOf(displayPrefix) === 'test') {
    const sandbox = await db.account.findUnique({ where: { liveAccountId: accountId }, select: { id: true } });
    if (!sandbox) throw new AppError('NOT_FOUND', `No unrevoked key of this account starts with ${displayPrefix}.`);
    accountId = sandbox.id;
  }
  const candidates = await db.apiKey.findMany({
    where: { ...KEYS, accountId, displayPrefix, revokedAt: null },
    select: { id: true },
  });
  if (candidates.length === 0)
    throw new AppError('NOT_FOUND', `No unrevoked key of this account starts with ${displayPrefix}.`);
  if (candidates.length > 1) {
    throw new AppError(
      'VALIDATION_ERROR',
      `${candidates.length} keys of this account start with ${displayPrefix}; revoke them from the dashboard.`,
    );
  }
  return revokeApiKey(accountId, candidates[0]!.id, now);
}
