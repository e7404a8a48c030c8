// Connected apps: what an account owner's consent to an OAuth client (an AI agent connecting to the MCP server) becomes.
// Each is a credential row of api_keys of kind oauth_grant, beside the keys, so that everything a key has applies to
// the grant's tokens unchanged: its scope, its apps, client addresses and monthly budget (./../api-keys/restrictions.ts),
// the charging statement's budget check, the request log and the usage per day. The tokens themselves are
// oidc-provider's (src/server/oauth/); revoking a connected app destroys its grant and every token of it at once.
import { randomUUID } from 'node:crypto';
import type { Prisma } from '@/generated/prisma/client';
import { db } from '@/server/db';
import { destroyOAuthGrant } from '@/server/db/oauth-records';
import { withAccountLock } from '@/server/db/row-locks';
import { AppError } from '@/server/errors/app-error';
import { assertApiAccess, restrictionsChanged } from '@/server/services/api-keys/api-keys';
import { assertOwnApps } from '@/server/services/api-keys/restrictions';
import {
  fromDbScope,
  restrictionColumns,
  restrictionsOf,
  statusOf,
  toDbScope,
  viewSelectAt,
  type ApiKeyScope,
  type ApiKeyStatus,
} from '@/server/services/api-keys/key-views';
import {
  restrictionsAfter,
  UNRESTRICTED,
  type KeyRestrictions,
  type KeyRestrictionsChange,
} from '@/server/services/api-keys/restrictions';
import { recordSecurityEvent } from '@/server/services/security-log/security-log';

const CONNECTED_APPS = { kind: 'oauth_grant' } as const;

/** How long a connection lasts from its consent: its grant's lifetime, whatever its refreshes; then the agent asks again. */
export const CONNECTION_SECONDS = 365 * 86_400;

/** A grant to record, as the consent page gives it: the account, who consented, the client and what it may do. */
export interface NewConnectedApp {
  accountId: string;
  userId: string;
  grantId: string;
  clientId: string;
  clientName: string;
  scope: ApiKeyScope;
  restrictions: KeyRestrictionsChange;
}

export interface ConnectedAppView {
  id: string;
  clientId: string;
  clientName: string;
  scope: ApiKeyScope;
  status: ApiKeyStatus;
  restrictions: KeyRestrictions;
  spentThisMonth: number;
  createdAt: Date;
  /** A year after its consent (CONNECTION_SECONDS). */
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
}

/** A key's columns, and the client's id. */
const select = (now: Date) => ({ ...viewSelectAt(now), oauthClientId: true }) as const;

type Row = Prisma.ApiKeyGetPayload<{ select: ReturnType<typeof select> }>;

function viewOf(row: Row, now: Date): ConnectedAppView {
  return {
    id: row.id,
    clientId: row.oauthClientId ?? '',
    clientName: row.name,
    scope: fromDbScope(row.scope),
    status: statusOf(row, now),
    restrictions: restrictionsOf(row),
    spentThisMonth: row.creditUsage[0]?.used ?? 0,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
    lastUsedIp: row.lastUsedIp,
  };
}

const target = (row: { id: string; name: string }) => ({ type: 'oauth_grant' as const, id: row.id, label: row.name });

/** Records a consent: the account must have API access (a paid plan or a trial), and the apps must be its own. */
export async function createConnectedApp(input: NewConnectedApp, now = new Date()): Promise<ConnectedAppView> {
  await assertApiAccess(input.accountId);
  const restrictions = restrictionsAfter(UNRESTRICTED, input.restrictions);
  const row = await withAccountLock(input.accountId, async (tx) => {
    await assertOwnApps(tx, input.accountId, restrictions.appIds);
    const created = await tx.apiKey.create({
      data: {
        id: randomUUID(),
        accountId: input.accountId,
        createdById: input.userId,
        kind: 'oauth_grant',
        name: input.clientName,
        scope: toDbScope(input.scope),
        oauthGrantId: input.grantId,
        oauthClientId: input.clientId,
        displayPrefix: 'oauth',
        lastFour: input.clientId.slice(-4),
        ...restrictionColumns(restrictions),
        createdAt: now,
        expiresAt: new Date(now.getTime() + CONNECTION_SECONDS * 1000),
      },
      select: select(now),
    });
    await recordSecurityEvent(
      {
        accountId: input.accountId,
        kind: 'oauth_grant.created',
        target: target(created),
        after: { clientId: input.clientId, scope: input.scope, ...restrictions },
        occurredAt: now,
      },
      tx,
    );
    return created;
  });
  return viewOf(row, now);
}

/** The account's connected apps, newest first, revoked ones included. */
export async function listConnectedApps(accountId: string, now = new Date()): Promise<ConnectedAppView[]> {
  const rows = await db.apiKey.findMany({
    where: { ...CONNECTED_APPS, accountId },
    orderBy: { createdAt: 'desc' },
    select: select(now),
  });
  return rows.map((row) => viewOf(row, now));
}

/** A change of a connected app's restrictions, as connected-apps.schema.ts parses it: what it names changes. */
export interface ConnectedAppChange {
  id: string;
  restrictions: KeyRestrictionsChange;
}

/** Changes an active connected app's restrictions, from its next call, as a key's (a budget is counted from now on). */
export async function restrictConnectedApp(
  accountId: string,
  input: ConnectedAppChange,
  now = new Date(),
): Promise<ConnectedAppView> {
  return withAccountLock(accountId, async (tx) => {
    const current = await tx.apiKey.findFirst({
      where: { ...CONNECTED_APPS, id: input.id, accountId },
      select: select(now),
    });
    if (!current) throw new AppError('NOT_FOUND', 'No such connected app.');
    if (statusOf(current, now) !== 'active')
      throw new AppError('VALIDATION_ERROR', 'Only an active connection can be changed; this one is revoked.');
    const before = restrictionsOf(current);
    const after = await restrictionsChanged(tx, { id: current.id, accountId }, before, input.restrictions, now);
    const row = await tx.apiKey.update({
      where: { id: current.id },
      data: restrictionColumns(after),
      select: select(now),
    });
    await recordSecurityEvent(
      {
        accountId,
        kind: 'oauth_grant.restricted',
        target: target(row),
        before: { ...before },
        after: { ...after },
        occurredAt: now,
      },
      tx,
    );
    return viewOf(row, now);
  });
}

/**
 * Revokes at once: the grant and every code and token of it are destroyed, so the next MCP call with its access token
 * and the next refresh are refused. Idempotent.
 */
export async function revokeConnectedApp(accountId: string, id: string, now = new Date()): Promise<ConnectedAppView> {
  const row = await db.apiKey.findFirst({
    where: { ...CONNECTED_APPS, id, accountId },
    select: { ...select(now), oauthGrantId: true },
  });
  if (!row) throw new AppError('NOT_FOUND', 'No such connected app.');
  await markRevoked({ ...row, accountId }, now);
  if (row.oauthGrantId) await destroyOAuthGrant(row.oauthGrantId);
  return viewOf({ ...row, revokedAt: row.revokedAt ?? now }, now);
}

/**
 * A grant the authorization server itself revoked (a code exchanged twice, a refresh token replayed after its
 * rotation): its connected app is revoked too, by the system, with the reason in the log.
 */
export async function revokeConnectedAppOfGrant(grantId: string, reason: string, now = new Date()): Promise<void> {
  const row = await db.apiKey.findFirst({
    where: { ...CONNECTED_APPS, oauthGrantId: grantId, revokedAt: null },
    select: { id: true, name: true, accountId: true },
  });
  if (row) await markRevoked(row, now, { reason });
}

/** Marks a connected app revoked, once: the first to do so writes the security log's entry (`system`: the server did). */
async function markRevoked(
  row: { id: string; name: string; accountId: string },
  now: Date,
  system?: { reason: string },
): Promise<void> {
  const { count } = await db.apiKey.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: now } });
  if (!count) return;
  await recordSecurityEvent({
    accountId: row.accountId,
    kind: 'oauth_grant.revoked',
    target: target(row),
    before: { status: 'active' },
    after: { status: 'revoked', ...(system && { reason: system.reason }) },
    ...(system && { actor: { type: 'system' as const } }),
    occurredAt: now,
  });
}
