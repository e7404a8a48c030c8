// Webhook delivery (CONTRACT "Webhooks"). Domain events are fanned out to the subscribed, enabled endpoints of
// their account; each delivery is attempted, signed over the exact bytes sent, and retried on the Svix schedule
// (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, ±10 % jitter) until a 2xx. An endpoint failing for 5 days is
// disabled with the reason. The job queue (worker.ts) runs these functions; they hold no state of their own.
import http from 'node:http';
import https from 'node:https';
import { ORIGINAL_VERSION, storedVersion, VERSION_HEADER } from '@/server/domain/api-versions';
import { db } from '@/server/db';
import { lockFanOutEndpoints, lockUndispatchedEvents } from '@/server/db/webhook-statements';
import { discordMessage, slackMessage, type EventEnvelope } from './chat-formats';
import { checkDestinationUrl, resolveDestination } from './destinations';
import { openSecret } from './secrets';
import { signatureHeader } from './signing';

export const RETRY_DELAYS_SECONDS = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
export const DISABLE_AFTER_MS = 5 * 86_400_000;
export const TIMEOUT_MS = 10_000;
const EXCERPT_LENGTH = 500;

/**
 * The signed body of a delivery. `livemode` false: the event is a test sandbox's (its account's), and goes to that
 * sandbox's endpoints only, which are test mode's, as every event goes to its own account's endpoints.
 */
export function envelopeOf(event: {
  id: string;
  type: string;
  occurredAt: Date;
  data: unknown;
  requestId: string | null;
  livemode: boolean;
  /**
   * The endpoint's pinned version, which the envelope names. No dated version has changed an
   * event's data yet (src/server/domain/api-versions.ts): one that does shapes it here.
   */
  apiVersion: string | null;
}): EventEnvelope {
  return {
    id: `evt_${event.id.replaceAll('-', '')}`,
    type: event.type,
    createdAt: event.occurredAt.toISOString(),
    requestId: event.requestId,
    livemode: event.livemode,
    apiVersion: storedVersion(event.apiVersion),
    data: (event.data ?? {}) as Record<string, unknown>,
  };
}

/** Creates the deliveries of events not yet dispatched; several processes may run it at once (SKIP LOCKED). */
export async function dispatchEvents(limit = 500): Promise<{ events: number; deliveryIds: string[] }> {
  return db.$transaction(async (tx) => {
    const events = await lockUndispatchedEvents(tx, limit);
    if (!events.length) return { events: 0, deliveryIds: [] };
    const endpoints = await lockFanOutEndpoints(tx, [...new Set(events.map((event) => event.account_id))]);
    const rows = events.flatMap((event) =>
      endpoints
        .filter(
          (endpoint) =>
            endpoint.accountId === event.account_id &&
            (!endpoint.eventTypes.length || endpoint.eventTypes.includes(event.type)),
        )
        .map((endpoint) => ({
          endpointId: endpoint.id,
          eventId: event.id,
          eventType: event.type,
          body: JSON.stringify(
            envelopeOf({
              id: event.id,
              type: event.type,
              occurredAt: event.occurred_at,
              data: event.data,
              requestId: event.request_id,
              livemode: event.livemode,
              apiVersion: endpoint.apiVersion,
            }),
          ),
        })),
    );
    const created = rows.length
      ? await tx.webhookDelivery.createManyAndReturn({ data: rows, skipDuplicates: true, select: { id: true } })
      : [];
    await tx.domainEvent.updateMany({
      where: { id: { in: events.map((event) => event.id) } },
      data: { dispatchedAt: new Date() },
    });
    return { events: events.length, deliveryIds: created.map((delivery) => delivery.id) };
  });
}

export type AttemptOutcome =
  | { status: 'succeeded'; attempt: number }
  | { status: 'retry'; attempt: number; delaySeconds: number }
  | { status: 'failed'; attempt: number; reason: string }
  | { status: 'skipped' };

interface SendResult {
  statusCode: number | null;
  excerpt: string | null;
  error: string | null;
}

/** POSTs to the checked address only (pinned lookup), no redirects, with a hard timeout. */
function send(
  url: URL,
  address: string,
  family: 4 | 6,
  headers: Record<string, string>,
  body: string,
): Promise<SendResult> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: (_hostname, _options, callback) => callback(null, address, family),
        timeout: TIMEOUT_MS,
      },
      (response) => {
        let excerpt = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (excerpt.length < EXCERPT_LENGTH) excerpt += chunk;
        });
        response.on('end', () =>
          resolve({ statusCode: response.statusCode ?? null, excerpt: excerpt.slice(0, EXCERPT_LENGTH), error: null }),
        );
        response.on('error', (error) =>
          resolve({
            statusCode: response.statusCode ?? null,
            excerpt: excerpt.slice(0, EXCERPT_LENGTH),
            error: error.message,
          }),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    request.on('error', (error) => resolve({ statusCode: null, excerpt: null, error: error.message }));
    request.end(body);
  });
}

export interface AttemptOptions {
  now?: () => Date;
  random?: () => number;
  lookup?: Parameters<typeof resolveDestination>[1];
}

/**
 * Attempt number `attempt` of a delivery (1-based). A duplicate job for an attempt already made is skipped.
 * The caller schedules the next attempt when told to retry.
 */
export async function attemptDelivery(
  deliveryId: string,
  attempt: number,
  options: AttemptOptions = {},
): Promise<AttemptOutcome> {
  const now = options.now ?? (() => new Date());
  const delivery = await db.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { endpoint: true } });
  if (!delivery || delivery.status !== 'pending' || delivery.attempts >= attempt) return { status: 'skipped' };
  const endpoint = delivery.endpoint;
  if (!endpoint.enabled) {
    // updateMany: a delivery its endpoint's deletion took meanwhile has nothing left to mark.
    await db.webhookDelivery.updateMany({
      where: { id: delivery.id },
      data: { status: 'failed', completedAt: now(), nextAttemptAt: null },
    });
    return { status: 'failed', attempt, reason: 'The endpoint is disabled.' };
  }

  const startedAt = now();
  const started = performance.now();
  let result: SendResult;
  const check = checkDestinationUrl(endpoint.url);
  const resolved = check.ok ? await resolveDestination(check.url, options.lookup) : null;
  if (!check.ok) result = { statusCode: null, excerpt: null, error: check.reason };
  else if (!resolved?.ok) result = { statusCode: null, excerpt: null, error: resolved!.ok ? '' : resolved!.reason };
  else {
    const envelope = JSON.parse(delivery.body) as EventEnvelope;
    const chat =
      check.kind === 'slack' ? slackMessage(envelope) : check.kind === 'discord' ? discordMessage(envelope) : null;
    const body = chat ? JSON.stringify(chat) : delivery.body;
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': 'ASO-Analytics-Webhooks/1',
      // The version the body is shaped by, as an API answer says it (deliveries made before versions: the original).
      [VERSION_HEADER]: envelope.apiVersion ?? ORIGINAL_VERSION,
    };
    if (!chat) {
      const sealed =
        endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > startedAt
          ? [endpoint.secret, endpoint.previousSecret]
          : [endpoint.secret];
      const secrets = sealed.map(openSecret);
      headers['X-Service-Event'] = delivery.eventType;
      headers['X-Service-Delivery'] = delivery.id;
      headers['X-Service-Signature'] = signatureHeader(secrets, Math.floor(startedAt.getTime() / 1000), body);
    }
    result = await send(check.url, resolved.address, resolved.family, headers, body);
  }
  const durationMs = Math.round(performance.now() - started);
  const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const error = succeeded
    ? null
    : (result.error ??
      (result.statusCode !== null && result.statusCode >= 300 && result.statusCode < 400
        ? `redirect (${result.statusCode}) not followed`
        : null));

  let outcome: AttemptOutcome;
  const failingSince = succeeded ? null : (endpoint.failingSince ?? startedAt);
  const disable = failingSince !== null && startedAt.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS;
  if (succeeded) outcome = { status: 'succeeded', attempt };
  else if (disable) {
    outcome = {
      status: 'failed',
      attempt,
      reason: 'Every delivery to this endpoint has failed for 5 days; it was disabled.',
    };
  } else if (attempt >= MAX_ATTEMPTS)
    outcome = { status: 'failed', attempt, reason: `No success after ${attempt} attempts.` };
  else {
    const base = RETRY_DELAYS_SECONDS[attempt - 1]!;
    const jitter = 1 + ((options.random ?? Math.random)() * 0.2 - 0.1);
    outcome = { status: 'retry', attempt, delaySeconds: Math.max(1, Math.round(base * jitter)) };
  }

  try {
    // The endpoint's row first, as its deletion takes it (then its deliveries'): the other way round, a deletion
    // landing while the attempt is recorded deadlocked with it.
    await db.$transaction([
      db.webhookEndpoint.update({
        where: { id: endpoint.id },
        data:
          disable && outcome.status === 'failed'
            ? { failingSince, enabled: false, disabledReason: outcome.reason }
            : { failingSince },
      }),
      db.webhookAttempt.create({
        data: {
          deliveryId: delivery.id,
          attemptedAt: startedAt,
          statusCode: result.statusCode,
          durationMs,
          responseExcerpt: result.excerpt,
          error,
        },
      }),
      db.webhookDelivery.update({
        where: { id: delivery.id },
        data: {
          attempts: attempt,
          status: outcome.status === 'succeeded' ? 'succeeded' : outcome.status === 'failed' ? 'failed' : 'pending',
          nextAttemptAt:
            outcome.status === 'retry' ? new Date(startedAt.getTime() + outcome.delaySeconds * 1000) : null,
          completedAt: outcome.status === 'retry' ? null : startedAt,
        },
      }),
    ]);
  } catch (recording) {
    // The endpoint was deleted while the attempt was on its way (its deliveries with it): nothing is left to record.
    if (!(await db.webhookDelivery.count({ where: { id: delivery.id } }))) return { status: 'skipped' };
    throw recording;
  }
  return outcome;
}
