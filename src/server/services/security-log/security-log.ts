// Settings → Security log: every event that touches access to an account, recorded by the code path that makes it, in
// the same transaction where there is one. Who acted, from which address and user agent, comes from the request the
// code runs for (core/request-context.ts): a user of the dashboard, a session token on the public API, the operator
// CLI, or the system (a job). Before and after name the changed fields, never a secret. Entries are append-only (a
// database trigger refuses any edit, and any deletion before the retention) and kept RETENTION_DAYS.
import type { Prisma } from '@/generated/prisma/client';
import { currentRequest } from '@/server/core/request-context';
import { db } from '@/server/db';
import { AppError } from '@/server/errors/app-error';

export const SECURITY_EVENT_KINDS = [
  'api_key.created',
  'api_key.rolled',
  'api_key.revoked',
  'api_key.restricted',
  'api_key.renamed',
  'api_key.expired',
  'oauth_grant.created',
  'oauth_grant.restricted',
  'oauth_grant.revoked',
  'webhook_endpoint.created',
  'webhook_endpoint.changed',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.deleted',
  'store_account.connected',
  'store_account.replaced',
  'store_account.removed',
  'review_reply.drafted',
  'review_reply.approved',
  'review_reply.discarded',
  'review_reply.sent',
  'review_reply.failed',
  'review_reply.rejected',
  'plan.changed',
  'session.signed_in',
  'session.sign_in_failed',
  'session.sign_ins_slowed',
  'session.signed_out',
  'session.ended',
  'member.invited',
  'member.invitation_revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.left',
  'ownership.offered',
  'ownership.transferred',
] as const;
type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

export const SECURITY_EVENT_LABELS: Record<SecurityEventKind, string> = {
  'api_key.created': 'API key created',
  'api_key.rolled': 'API key rolled',
  'api_key.revoked': 'API key revoked',
  'api_key.restricted': 'API key restrictions changed',
  'api_key.renamed': 'API key renamed',
  'api_key.expired': 'API key expired',
  'oauth_grant.created': 'App connected (OAuth)',
  'oauth_grant.restricted': 'Connected app restrictions changed',
  'oauth_grant.revoked': 'Connected app revoked',
  'webhook_endpoint.created': 'Webhook endpoint created',
  'webhook_endpoint.changed': 'Webhook endpoint changed',
  'webhook_endpoint.secret_rotated': 'Webhook signing secret rotated',
  'webhook_endpoint.deleted': 'Webhook endpoint deleted',
  'store_account.connected': 'Store account connected',
  'store_account.replaced': 'Store account key replaced',
  'store_account.removed': 'Store account removed',
  'review_reply.drafted': 'Reply to a review drafted',
  'review_reply.approved': 'Reply to a review approved',
  'review_reply.discarded': 'Reply draft discarded',
  'review_reply.sent': 'Reply sent to the store',
  'review_reply.failed': 'Reply could not be sent',
  'review_reply.rejected': 'Reply refused by the store',
  'plan.changed': 'Plan changed',
  'session.signed_in': 'Signed in',
  'session.sign_in_failed': 'Sign-in failed',
  'session.sign_ins_slowed': 'Failed sign-ins: new browsers slowed',
  'session.signed_out': 'Signed out',
  'session.ended': 'Sessions ended',
  'member.invited': 'Member invited',
  'member.invitation_revoked': 'Invitation withdrawn',
  'member.joined': 'Member joined',
  'member.role_changed': 'Member’s role changed',
  'member.removed': 'Member removed',
  'member.left': 'Member left',
  'ownership.offered': 'Ownership offered',
  'ownership.transferred': 'Ownership transferred',
};

/** How long an entry is kept; the job schedule purges older ones (purgeSecurityEvents). */
export const RETENTION_DAYS = 365;

type Json = Prisma.InputJsonValue;

export interface SecurityEventEntry {
  accountId: string;
  kind: SecurityEventKind;
  target?: {
    type:
      | 'api_key'
      | 'oauth_grant'
      | 'webhook_endpoint'
      | 'account'
      | 'user'
      | 'invitation'
      | 'store_account'
      | 'reply_draft';
    id: string;
    label: string;
  };
  before?: Record<string, Json | null> | null;
  after?: Record<string, Json | null> | null;
  /** Who acted when no request says so (a job: the system); a request's actor wins. */
  actor?: { type: 'user'; userId: string; label: string } | { type: 'anonymous' } | { type: 'system' };
  occurredAt?: Date;
}

type Client = Pick<Prisma.TransactionClient, 'securityEvent' | 'user'>;

/** The acting user's email, for the entry's label (an entry outlives its user). */
async function userLabel(client: Client, userId: string): Promise<string> {
  return (await client.user.findUnique({ where: { id: userId }, select: { email: true } }))?.email ?? 'a deleted user';
}

async function actorOf(client: Client, entry: SecurityEventEntry) {
  const actor = currentRequest()?.actor;
  if (actor?.kind === 'user' && actor.via === 'api')
    return {
      actorType: 'api',
      actorUserId: actor.userId,
      actorLabel: `API (session): ${await userLabel(client, actor.userId)}`,
    };
  if (actor?.kind === 'user')
    return { actorType: 'user', actorUserId: actor.userId, actorLabel: await userLabel(client, actor.userId) };
  if (actor?.kind === 'operator') return { actorType: 'operator', actorUserId: null, actorLabel: 'Operator CLI' };
  if (actor?.kind === 'apiKey')
    return { actorType: 'api_key', actorUserId: null, actorLabel: `API key ${actor.keyId}` };
  if (entry.actor?.type === 'user')
    return { actorType: 'user', actorUserId: entry.actor.userId, actorLabel: entry.actor.label };
  if (entry.actor?.type === 'anonymous')
    return { actorType: 'anonymous', actorUserId: null, actorLabel: 'Someone signing in' };
  return { actorType: 'system', actorUserId: null, actorLabel: 'System' };
}

export async function recordSecurityEvent(entry: SecurityEventEntry, client: Client = db): Promise<void> {
  const request = currentRequest();
  await client.securityEvent.create({
    data: {
      accountId: entry.accountId,
      kind: entry.kind,
      ...(await actorOf(client, entry)),
      ipAddress: request?.clientAddress ?? null,
      userAgent: request?.userAgent?.slice(0, 500) ?? null,
      targetType: entry.target?.type ?? null,
      targetId: entry.target?.id ?? null,
      targetLabel: entry.target?.label ?? null,
      before: entry.before ?? undefined,
      after: entry.after ?? undefined,
      requestId: request?.requestId ?? null,
      ...(entry.occurredAt && { occurredAt: entry.occurredAt }),
    },
  });
}

/** Which entries, as security-log.schema.ts parses it: days as YYYY-MM-DD, both included. */
export interface SecurityEventsFilter {
  kinds?: SecurityEventKind[];
  from?: string;
  to?: string;
}

export interface SecurityEventsQuery extends SecurityEventsFilter {
  page: number;
  pageSize: number;
}

/** The most entries one CSV export holds: a year of a busy account's log. */
const EXPORT_LIMIT = 10_000;

function whereOf(accountId: string, input: SecurityEventsFilter): Prisma.SecurityEventWhereInput {
  if (input.from && input.to && input.from > input.to) {
    throw new AppError('VALIDATION_ERROR', 'The first day is after the last one.', {
      errors: [{ in: 'body', pointer: '#/from', detail: 'Must be on or before the last day.' }],
    });
  }
  return {
    accountId,
    ...(input.kinds?.length && { kind: { in: input.kinds } }),
    ...((input.from || input.to) && {
      occurredAt: {
        ...(input.from && { gte: new Date(`${input.from}T00:00:00.000Z`) }),
        ...(input.to && { lt: new Date(new Date(`${input.to}T00:00:00.000Z`).getTime() + 86_400_000) }),
      },
    }),
  };
}

function toView(row: Prisma.SecurityEventGetPayload<object>) {
  return {
    id: row.id.toString(),
    kind: row.kind as SecurityEventKind,
    label: SECURITY_EVENT_LABELS[row.kind as SecurityEventKind] ?? row.kind,
    occurredAt: row.occurredAt.toISOString(),
    actorType: row.actorType,
    actor: row.actorLabel,
    ipAddress: row.ipAddress,
    userAgent: row.userAgent,
    target: row.targetType ? { type: row.targetType, id: row.targetId, label: row.targetLabel } : null,
    before: row.before as Record<string, unknown> | null,
    after: row.after as Record<string, unknown> | null,
    requestId: row.requestId,
  };
}
export type SecurityEventView = ReturnType<typeof toView>;

/** A page of the account's log, newest first, with the number of entries the filter matches. */
export async function listSecurityEvents(accountId: string, input: SecurityEventsQuery) {
  const where = whereOf(accountId, input);
  const [total, rows] = await Promise.all([
    db.securityEvent.count({ where }),
    db.securityEvent.findMany({
      where,
      orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
  ]);
  return { total, page: input.page, pageSize: input.pageSize, entries: rows.map(toView) };
}

/** Every entry the filter matches (up to EXPORT_LIMIT, newest first), for the CSV export. */
export async function exportSecurityEvents(accountId: string, input: SecurityEventsFilter) {
  const rows = await db.securityEvent.findMany({
    where: whereOf(accountId, input),
    orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
    take: EXPORT_LIMIT,
  });
  return rows.map(toView);
}

/** Deletes the entries past their retention (the only deletion the database allows); returns how many. */
export async function purgeSecurityEvents(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - RETENTION_DAYS * 86_400_000 - 60_000);
  const { count } = await db.securityEvent.deleteMany({ where: { occurredAt: { lt: cutoff } } });
  return count;
}
