// API keys: create (secret shown once), list, revoke, roll with a grace period, and verify on each request.
import type { Prisma } from '@/generated/prisma/client';
import { db } from '@/server/db';
import { readApiKeyCredential, type ApiKeyRow, type CredentialAccount } from '@/server/db/credential-statements';
import { seedKeySpending } from '@/server/db/credit-statements';
import type { DataVersions } from '@/server/db/data-versions';
import { isoDay } from '@/server/core/dates';
import type { ApiKeyScope as DbScope } from '@/generated/prisma/enums';
import { AppError, limitReached } from '@/server/errors/app-error';
import { withAccountLock } from '@/server/db/row-locks';
import { accessOf, planInForce, type Access } from '@/server/services/accounts/plans';
import { recordEvents } from '@/server/services/events/events';
import { recordSecurityEvent } from '@/server/services/security-log/security-log';
import { periodOf } from '@/server/services/metering/credits';
import { generateApiKey, hashApiKey, isDisplayPrefix, isWellFormedApiKey, keyModeOf, type KeyMode } from './key-format';
import { restrictionsAfter, UNRESTRICTED, type KeyRestrictions, type KeyRestrictionsChange } from './restrictions';

export const API_KEY_SCOPES = ['read-only', 'read-write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export type ApiKeyStatus = 'active' | 'expired' | 'revoked';

/** Grace periods offered when rolling a key, in seconds. */
export const ROLL_GRACE_PERIODS = { now: 0, '1h': 3_600, '24h': 86_400, '7d': 604_800 } as const;
export type RollGracePeriod = keyof typeof ROLL_GRACE_PERIODS;

/**
 * The rows of api_keys that are keys: the table also holds connected apps (OAuth grants, src/server/oauth/), which
 * share a key's restrictions, budget and request log but are never listed, changed, rolled or revoked as keys.
 */
const KEYS = { kind: 'api_key' } as const;

/** last_used_at is rewritten at most this often per key (unless the address changes): no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Per key, when and from which address this process last wrote (or is writing) its last use. */
const lastUsedWrites = new Map<string, { at: number; ip: string | null }>();

/**
 * Whether this request writes its key's last use: when the stored one is a minute old or from another address, and
 * this process has not written it already. Without the second condition, every request that read the row before the
 * first write committed would update it too, each queueing on the row's lock with a pool connection held, and
 * concurrent first calls of a new key would hold up every request of the process (docs/benchmarks.md).
 */
function claimLastUseWrite(
  keyId: string,
  storedAt: Date | null,
  storedIp: string | null,
  context: { now: Date; ip: string | null },
): boolean {
  const now = context.now.getTime();
  if (storedAt && now - storedAt.getTime() < LAST_USED_RESOLUTION_MS && storedIp === context.ip) return false;
  const written = lastUsedWrites.get(keyId);
  if (written && now - written.at < LAST_USED_RESOLUTION_MS && written.ip === context.ip) return false;
  if (lastUsedWrites.size >= 10_000) {
    for (const [id, entry] of lastUsedWrites) if (now - entry.at >= LAST_USED_RESOLUTION_MS) lastUsedWrites.delete(id);
  }
  lastUsedWrites.set(keyId, { at: now, ip: context.ip });
  return true;
}

export const toDbScope = (scope: ApiKeyScope): DbScope => (scope === 'read-only' ? 'read_only' : 'read_write');
export const fromDbScope = (scope: DbScope): ApiKeyScope => (scope === 'read_only' ? 'read-only' : 'read-write');

export interface ApiKeyView {
  id: string;
  name: string;
  scope: ApiKeyScope;
  displayPrefix: string;
  lastFour: string;
  status: ApiKeyStatus;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  rolledAt: Date | null;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
  restrictions: KeyRestrictions;
  /** Credits the key spent in the current period against its monthly budget (0 for a key without one: not counted). */
  spentThisMonth: number;
}

const viewSelect = {
  id: true,
  name: true,
  scope: true,
  displayPrefix: true,
  lastFour: true,
  createdAt: true,
  expiresAt: true,
  revokedAt: true,
  rolledAt: true,
  lastUsedAt: true,
  lastUsedIp: true,
  allApps: true,
  appIds: true,
  allowedCidrs: true,
  monthlyBudget: true,
} as const;

/** viewSelect with the key's spending in the period of `now` (a connected app's row is read so too). */
export const viewSelectAt = (now: Date) =>
  ({ ...viewSelect, creditUsage: { where: { periodStart: periodOf(now).start }, select: { used: true } } }) as const;

type KeyRow = {
  scope: DbScope;
  revokedAt: Date | null;
  expiresAt: Date | null;
  allApps: boolean;
  appIds: string[];
  allowedCidrs: string[];
  monthlyBudget: number | null;
  creditUsage?: { used: number }[];
} & Omit<ApiKeyView, 'scope' | 'status' | 'restrictions' | 'spentThisMonth'>;

export function statusOf(key: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): ApiKeyStatus {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

export function restrictionsOf(
  row: Pick<KeyRow, 'allApps' | 'appIds' | 'allowedCidrs' | 'monthlyBudget'>,
): KeyRestrictions {
  return { appIds: row.allApps ? null : row.appIds, allowedCidrs: row.allowedCidrs, monthlyBudget: row.monthlyBudget };
}

/** The restrictions as the key's columns. */
export function restrictionColumns(restrictions: KeyRestrictions) {
  return {
    allApps: restrictions.appIds === null,
    appIds: restrictions.appIds ?? [],
    allowedCidrs: restrictions.allowedCidrs,
    monthlyBudget: restrictions.monthlyBudget,
  };
}

function toView(row: KeyRow, now: Date): ApiKeyView {
  const {
    allApps: _allApps,
    appIds: _appIds,
    allowedCidrs: _allowedCidrs,
    monthlyBudget: _monthlyBudget,
    creditUsage,
    ...rest
  } = row;
  return {
    ...rest,
    scope: fromDbScope(row.scope),
    status: statusOf(row, now),
    restrictions: restrictionsOf(row),
    spentThisMonth: creditUsage?.[0]?.used ?? 0,
  };
}

/** The account's own apps among `appIds`: a key is never given another account's app, nor an unknown id. */
export async function assertOwnApps(
  client: Pick<typeof db, 'trackedApp'>,
  accountId: string,
  appIds: string[] | null,
): Promise<void> {
  if (!appIds) return;
  const own = await client.trackedApp.findMany({ where: { accountId, id: { in: appIds } }, select: { id: true } });
  const known = new Set(own.map((app) => app.id));
  const index = appIds.findIndex((id) => !known.has(id));
  if (index === -1) return;
  const detail = `No app with the id ${appIds[index]} is tracked by your account.`;
  throw new AppError('VALIDATION_ERROR', detail, {
    errors: [{ in: 'body', pointer: `#/restrictions/appIds/${index}`, detail }],
  });
}

/** Keys that are neither revoked nor expired, per account: enough for every service and environment, not for a leak. */
export const MAX_ACTIVE_KEYS = 50;

/** The longest a key may be created for; a key without an expiry lives until it is revoked. */
const MAX_KEY_LIFETIME_DAYS = 366;

/** A key to create, as api-keys.schema.ts parses it. */
export interface NewApiKey {
  name: string;
  scope: ApiKeyScope;
  /** Omitted or null: the key lives until it is revoked. */
  expiresAt?: Date | null;
  /** Omitted: none (every app, any address, no budget). */
  restrictions?: KeyRestrictionsChange;
}

/** In the future, and at most MAX_KEY_LIFETIME_DAYS from now. */
function assertExpiryWithinBounds(expiresAt: Date, now: Date): void {
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

/**
 * The account's keys policy, once its plan is checked to include API access, and the mode of its keys: a test
 * sandbox's are test keys (its tier is `test`, which has API access whatever the live account's plan).
 */
export async function assertApiAccess(accountId: string): Promise<{ requireKeyExpiry: boolean; mode: KeyMode }> {
  const account = await db.account.findUnique({
    where: { id: accountId },
    select: { plan: true, trialEndsAt: true, trialCredits: true, requireKeyExpiry: true },
  });
  if (!account) throw new AppError('NOT_FOUND', 'The account does not exist.');
  if (!planInForce(account, new Date()).apiAccess) {
    throw new AppError(
      'PLAN_REQUIRED',
      'API keys are part of the paid plans. Choose a plan under Settings → Plan & billing to create live keys; test keys are open to every plan.',
    );
  }
  return { requireKeyExpiry: account.requireKeyExpiry, mode: account.plan === 'test' ? 'test' : 'live' };
}

/** The expiry the create dialog suggests. */
const SUGGESTED_KEY_LIFETIME_DAYS = 90;

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
      },
      select: viewSelectAt(now),
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
function keyTarget(key: { id: string; name: string; displayPrefix: string; lastFour: string }) {
  return { type: 'api_key' as const, id: key.id, label: `${key.name} (${key.displayPrefix}…${key.lastFour})` };
}

function keyEventData(
  key: { id: string; name: string; scope: DbScope; displayPrefix: string },
  extra: Record<string, string> = {},
) {
  return { keyId: key.id, name: key.name, scope: fromDbScope(key.scope), displayPrefix: key.displayPrefix, ...extra };
}

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

export type KeyVerification =
  | ({
      status: 'valid';
      keyId: string;
      accountId: string;
      scope: ApiKeyScope;
      restrictions: KeyRestrictions;
      keySpent: number;
      creditsUsed: number;
      versions: DataVersions;
    } & Access)
  | { status: 'malformed' | 'not_found' | 'revoked' | 'expired' };

/**
 * Checks a presented key on every request: shape and checksum first (no database), then one indexed lookup by
 * SHA-256 that also returns the owner's plan, this month's credit usage and the versions of the account's data (of the
 * app `context.appId` too, a well-formed uuid or null). No cache, so revocation and expiry apply at once.
 */
export async function verifyApiKey(
  secret: string,
  context: { now: Date; ip: string | null; appId?: string | null },
): Promise<KeyVerification> {
  if (!isWellFormedApiKey(secret)) return { status: 'malformed' };
  const credential = await readApiKeyCredential(hashApiKey(secret), {
    periodStart: isoDay(periodOf(context.now).start),
    appId: context.appId ?? null,
  });
  // A key is found in its own mode only: a test key names a sandbox (the tier `test`), a live key any other account.
  if (!credential || (keyModeOf(secret) === 'test') !== (credential.account.plan === 'test'))
    return { status: 'not_found' };
  const status = statusOf(credential.key, context.now);
  if (status !== 'active') return { status };
  // The enum's database value is the scope's own name (read-only, read-write).
  return verifiedCredential(credential, credential.key.scope as ApiKeyScope, context);
}

/**
 * An active credential row (a key, or a connected app) as the request's: its last use noted, its account's access
 * now, its scope, restrictions and spending.
 */
export function verifiedCredential(
  { key, account }: { key: ApiKeyRow; account: CredentialAccount },
  scope: ApiKeyScope,
  context: { now: Date; ip: string | null },
): KeyVerification & { status: 'valid' } {
  if (claimLastUseWrite(key.id, key.lastUsedAt, key.lastUsedIp, context)) {
    // Not awaited: bookkeeping must not add a round trip to the request.
    db.apiKey
      .update({ where: { id: key.id }, data: { lastUsedAt: context.now, lastUsedIp: context.ip } })
      .catch(() => lastUsedWrites.delete(key.id));
  }
  return {
    status: 'valid',
    keyId: key.id,
    accountId: account.accountId,
    ...accessOf(
      { plan: account.plan, trialEndsAt: account.trialEndsAt, trialCredits: account.trialCredits },
      context.now,
    ),
    scope,
    restrictions: { appIds: key.appIds, allowedCidrs: key.allowedCidrs, monthlyBudget: key.monthlyBudget },
    keySpent: key.spent,
    creditsUsed: account.creditsUsed,
    versions: account.versions,
  };
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
