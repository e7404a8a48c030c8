// Webhook endpoints of an account: create (the signing secret is returned once), rotate the secret (the old one
// keeps signing for 24 hours), enable or disable, delete.
import { z } from 'zod';
import { db } from '@/server/db';
import { AppError } from '@/server/errors/app-error';
import { parseInput } from '@/server/errors/validation';
import { EVENT_TYPES } from '@/server/services/events/events';
import { checkDestinationUrl, resolveDestination } from './destinations';
import { generateWebhookSecret } from './signing';

export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

export const createEndpointInput = z.object({
  url: z.string().trim().min(1).max(2048),
  description: z.string().trim().max(200).optional(),
  eventTypes: z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length).default([]),
});

export async function createWebhookEndpoint(accountId: string, raw: z.input<typeof createEndpointInput>) {
  const input = parseInput(createEndpointInput, raw);
  const check = checkDestinationUrl(input.url);
  const reason = !check.ok ? check.reason : await resolveDestination(check.url).then((resolution) => (resolution.ok ? null : resolution.reason));
  if (reason) throw new AppError('VALIDATION_ERROR', reason, { errors: [{ in: 'body', pointer: '#/url', detail: reason }] });
  const secret = generateWebhookSecret();
  const endpoint = await db.webhookEndpoint.create({
    data: { accountId, url: input.url, description: input.description ?? null, eventTypes: [...new Set(input.eventTypes)], secret },
  });
  return { endpoint, secret };
}

export async function rotateWebhookSecret(accountId: string, endpointId: string, now = new Date()) {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: endpointId, accountId } });
  if (!endpoint) throw new AppError('NOT_FOUND', 'No such webhook endpoint.');
  const secret = generateWebhookSecret();
  await db.webhookEndpoint.update({
    where: { id: endpoint.id },
    data: { secret, previousSecret: endpoint.secret, previousSecretUntil: new Date(now.getTime() + ROTATION_OVERLAP_MS) },
  });
  return { secret, previousSecretUntil: new Date(now.getTime() + ROTATION_OVERLAP_MS) };
}
