// Webhook endpoints of an account: create (the signing secret is returned once), rotate the secret (the old one
// keeps signing for 24 hours), enable or disable, delete.
import { LATEST_VERSION, storedVersion, type ApiVersion } from '@/server/domain/api-versions';
import type { Actor } from '@/server/auth/actor';
import type { Prisma } from '@/generated/prisma/client';
import { currentRequestId } from '@/server/core/request-context';
import { recordSecurityEvent } from '@/server/services/security-log/security-log';
import { db, retryOnConflict } from '@/server/db';
import { sharedRateLimit } from '@/server/services/limits/shared-rate-limit';
import { AppError, limitReached, rateLimited } from '@/server/errors/app-error';
import { withAccountLock } from '@/server/db/row-locks';
import { holdEndpoint, lockEndpoint } from '@/server/db/webhook-statements';
import type { EventType } from '@/server/services/events/event-kinds';
import { checkDestinationUrl, resolveDestination } from './destinations';
import { envelopeOf } from './delivery';
import { openSecret, sealSecret } from './secrets';
import { generateWebhookSecret } from './signing';

const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** Webhook endpoints per account (as Stripe allows). */
export const MAX_WEBHOOK_ENDPOINTS = 16;

/**
 * Test events and redeliveries together, per endpoint and minute: each is a request the service sends to someone's
 * server on demand, which must not become a way to flood it.
 */
export const TEST_DELIVERIES_PER_MINUTE = 10;

const ENDPOINT_NOT_FOUND = 'No such webhook endpoint.';

/** An endpoint to create, as webhooks.schema.ts parses it. */
export interface NewWebhookEndpoint {
  url: string;
  description?: string;
  /** Omitted or empty: every kind. */
  eventTypes?: EventType[];
  /** The dated API version its events are shaped by; omitted: the account's, else the newest. */
  apiVersion?: ApiVersion;
}

export async function createWebhookEndpoint(accountId: string, input: NewWebhookEndpoint) {
  await assertDestination(input.url);
  const secret = generateWebhookSecret();
  const endpoint = await withAccountLock(accountId, async (tx) => {
    if ((await tx.webhookEndpoint.count({ where: { accountId } })) >= MAX_WEBHOOK_ENDPOINTS) {
      throw limitReached(
        'webhook-endpoints',
        MAX_WEBHOOK_ENDPOINTS,
        `An account has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first.`,
      );
    }
    const created = await tx.webhookEndpoint.create({
      data: {
        accountId,
        url: input.url,
        description: input.description ?? null,
        eventTypes: [...new Set(input.eventTypes ?? [])],
        secret: sealSecret(secret),
        // Its events are shaped by the version asked for, else the account's, else the newest: a new endpoint is new
        // code, written against today's documentation.
        apiVersion:
          input.apiVersion ??
          (await tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { apiVersion: true } })).apiVersion ??
          LATEST_VERSION,
      },
    });
    await recordSecurityEvent(
      {
        accountId,
        kind: 'webhook_endpoint.created',
        target: endpointTarget(created),
        after: { url: created.url, description: created.description, eventTypes: created.eventTypes, enabled: true },
      },
      tx,
    );
    return created;
  });
  return { endpoint, secret };
}

export async function rotateWebhookSecret(accountId: string, endpointId: string, now = new Date()) {
  const { id } = await ownEndpoint(accountId, endpointId);
  const secret = generateWebhookSecret();
  await db.$transaction(async (tx) => {
    // The secret it replaces is read under the lock: of two rotations at once, the second keeps the first's as previous.
    const endpoint = await lockedEndpoint(tx, id);
    await tx.webhookEndpoint.update({
      where: { id },
      data: {
        secret: sealSecret(secret),
        previousSecret: endpoint.secret,
        previousSecretUntil: new Date(now.getTime() + ROTATION_OVERLAP_MS),
      },
    });
    await recordSecurityEvent(
      {
        accountId,
        kind: 'webhook_endpoint.secret_rotated',
        target: endpointTarget(endpoint),
        after: { previousSecretWorksUntil: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString() },
        occurredAt: now,
      },
      tx,
    );
  });
  return { secret, previousSecretUntil: new Date(now.getTime() + ROTATION_OVERLAP_MS) };
}

/** The endpoint as a security log entry names it. */
function endpointTarget(endpoint: { id: string; url: string }) {
  return { type: 'webhook_endpoint' as const, id: endpoint.id, label: endpoint.url };
}

async function ownEndpoint(accountId: string, endpointId: string) {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: endpointId, accountId } });
  if (!endpoint) throw new AppError('NOT_FOUND', ENDPOINT_NOT_FOUND);
  return endpoint;
}

/**
 * The endpoint as it is now, its row locked until the transaction ends: a change builds on the last one rather than
 * overwriting it, and an endpoint deleted since it was read is 404 (a deletion under way is waited for).
 */
async function lockedEndpoint(tx: Prisma.TransactionClient, endpointId: string) {
  if (!(await lockEndpoint(tx, endpointId))) throw new AppError('NOT_FOUND', ENDPOINT_NOT_FOUND);
  return tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
}

/** What the dashboard shows of an endpoint: never its secret, only the start of it. */
export function endpointView(endpoint: Awaited<ReturnType<typeof ownEndpoint>>) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    // Written from NewWebhookEndpoint or WebhookEndpointChange only: kinds of EVENT_TYPES.
    eventTypes: endpoint.eventTypes as EventType[],
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    failingSince: endpoint.failingSince?.toISOString() ?? null,
    secretHint: `${openSecret(endpoint.secret).slice(0, 10)}…`,
    rotatingUntil:
      endpoint.previousSecretUntil && endpoint.previousSecretUntil > new Date()
        ? endpoint.previousSecretUntil.toISOString()
        : null,
    createdAt: endpoint.createdAt.toISOString(),
    apiVersion: storedVersion(endpoint.apiVersion),
  };
}

export async function listWebhookEndpoints(accountId: string) {
  const endpoints = await db.webhookEndpoint.findMany({ where: { accountId }, orderBy: { createdAt: 'asc' } });
  return endpoints.map(endpointView);
}

/** One endpoint of the account (404 for any other id). */
export async function getWebhookEndpoint(accountId: string, endpointId: string) {
  return endpointView(await ownEndpoint(accountId, endpointId));
}

/** A change of an endpoint, as webhooks.schema.ts parses it: what it names changes. */
export interface WebhookEndpointChange {
  url?: string;
  /** null or "": none. */
  description?: string | null;
  /** []: every kind. */
  eventTypes?: EventType[];
  enabled?: boolean;
}

/** The endpoint's destination, checked as at creation (HTTPS, no special-purpose address): else a validation error. */
async function assertDestination(url: string): Promise<void> {
  const check = checkDestinationUrl(url);
  const reason = !check.ok
    ? check.reason
    : await resolveDestination(check.url).then((resolution) => (resolution.ok ? null : resolution.reason));
  if (reason)
    throw new AppError('VALIDATION_ERROR', reason, { errors: [{ in: 'body', pointer: '#/url', detail: reason }] });
}

/**
 * Changes what the input names: the URL (checked as at creation), the description, the event kinds, enabled. Enabling
 * again clears the reason the service disabled it for. The security log gets the fields that changed.
 */
export async function updateWebhookEndpoint(accountId: string, endpointId: string, input: WebhookEndpointChange) {
  const read = await ownEndpoint(accountId, endpointId);
  if (input.url !== undefined && input.url !== read.url) await assertDestination(input.url);
  const updated = await db.$transaction(async (tx) => {
    const endpoint = await lockedEndpoint(tx, read.id);
    const next = {
      url: input.url ?? endpoint.url,
      description: input.description === undefined ? endpoint.description : input.description || null,
      eventTypes: input.eventTypes === undefined ? endpoint.eventTypes : [...new Set(input.eventTypes)],
      enabled: input.enabled ?? endpoint.enabled,
    };
    const changed = (Object.keys(next) as (keyof typeof next)[]).filter(
      (field) => JSON.stringify(next[field]) !== JSON.stringify(endpoint[field]),
    );
    const row = await tx.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { ...next, ...(input.enabled === true && { disabledReason: null, failingSince: null }) },
    });
    if (changed.length) {
      const pick = (from: typeof next) => Object.fromEntries(changed.map((field) => [field, from[field]]));
      await recordSecurityEvent(
        {
          accountId,
          kind: 'webhook_endpoint.changed',
          target: endpointTarget(row),
          before: pick(endpoint),
          after: pick(next),
        },
        tx,
      );
    }
    return row;
  });
  return endpointView(updated);
}

/** The dashboard's Enable and Disable: updateWebhookEndpoint with `enabled` only. */
export function setWebhookEndpointEnabled(accountId: string, endpointId: string, enabled: boolean) {
  return updateWebhookEndpoint(accountId, endpointId, { enabled });
}

export async function deleteWebhookEndpoint(accountId: string, endpointId: string): Promise<void> {
  const endpoint = await ownEndpoint(accountId, endpointId);
  // The cascade to its deliveries may meet the worker recording one of them: a deadlock, retried.
  await retryOnConflict(() => db.webhookEndpoint.delete({ where: { id: endpoint.id } }));
  await recordSecurityEvent({
    accountId,
    kind: 'webhook_endpoint.deleted',
    target: endpointTarget(endpoint),
    before: {
      url: endpoint.url,
      description: endpoint.description,
      eventTypes: endpoint.eventTypes,
      enabled: endpoint.enabled,
    },
  });
}

/** The latest deliveries of an endpoint with every attempt, newest first. */
export async function listDeliveries(accountId: string, endpointId: string, limit = 50) {
  const endpoint = await ownEndpoint(accountId, endpointId);
  const deliveries = await db.webhookDelivery.findMany({
    where: { endpointId: endpoint.id },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: limit,
    include: { attemptLogs: { orderBy: { attemptedAt: 'asc' } } },
  });
  return deliveries.map((delivery) => ({
    id: delivery.id,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attemptLogs.map((attempt) => ({
      attemptedAt: attempt.attemptedAt.toISOString(),
      statusCode: attempt.statusCode,
      durationMs: attempt.durationMs,
      responseExcerpt: attempt.responseExcerpt,
      error: attempt.error,
    })),
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    requested: delivery.requestedAt !== null,
    createdAt: delivery.createdAt.toISOString(),
  }));
}

/** Counts a test event or redelivery to the endpoint, or throws 429 past TEST_DELIVERIES_PER_MINUTE. */
async function countTestDelivery(endpointId: string): Promise<void> {
  const decision = await sharedRateLimit('webhook-test', TEST_DELIVERIES_PER_MINUTE, 60).consume(endpointId);
  if (!decision.allowed) {
    const { retryAfterSeconds } = decision;
    throw rateLimited(
      `At most ${TEST_DELIVERIES_PER_MINUTE} test events and redeliveries a minute per endpoint; retry in ${retryAfterSeconds} s.`,
      retryAfterSeconds,
    );
  }
}

/**
 * A `webhook.test` event to this endpoint only, delivered within about a second. An endpoint deleted meanwhile (in
 * another tab, by a script) is 404, and no event is left behind.
 */
export async function sendTestEvent({ accountId, mode }: Pick<Actor, 'accountId' | 'mode'>, endpointId: string) {
  const endpoint = await ownEndpoint(accountId, endpointId);
  await countTestDelivery(endpoint.id);
  const now = new Date();
  const livemode = mode === 'live';
  return db.$transaction(async (tx) => {
    if (!(await holdEndpoint(tx, endpoint.id))) throw new AppError('NOT_FOUND', ENDPOINT_NOT_FOUND);
    const event = await tx.domainEvent.create({
      data: {
        accountId,
        type: 'webhook.test',
        data: { endpointId: endpoint.id, message: 'Test event from ASO Analytics' },
        occurredAt: now,
        dispatchedAt: now,
        requestId: currentRequestId(),
      },
    });
    const delivery = await tx.webhookDelivery.create({
      data: {
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        body: JSON.stringify(envelopeOf({ ...event, livemode, apiVersion: endpoint.apiVersion })),
        requestedAt: now,
      },
    });
    return { deliveryId: delivery.id };
  });
}

/** Sends a delivery again (same delivery id), whatever its state. */
export async function redeliver(accountId: string, deliveryId: string) {
  const delivery = await db.webhookDelivery.findFirst({ where: { id: deliveryId, endpoint: { accountId } } });
  if (!delivery) throw new AppError('NOT_FOUND', 'No such delivery.');
  await countTestDelivery(delivery.endpointId);
  // Gone if its endpoint was deleted meanwhile (the deletion takes its deliveries).
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: delivery.id },
    data: { status: 'pending', requestedAt: new Date(), completedAt: null, nextAttemptAt: null },
  });
  if (!count) throw new AppError('NOT_FOUND', 'No such delivery.');
  return { deliveryId: delivery.id };
}
