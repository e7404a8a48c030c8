// Domain events: recorded by the code path that causes them, in the same database, for the webhooks issue to
// deliver. Kinds as CONTRACT "Webhooks" names them.
import type { Prisma } from '@/generated/prisma/client';
import { db } from '@/server/db';

export const EVENT_TYPES = [
  'keyword.rank_changed',
  'keyword.added',
  'competitor.added',
  'app.metadata_changed',
  'review.created',
  'usage.threshold_reached',
  'api_key.created',
  'api_key.revoked',
  'plan.changed',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** One line per kind, for the webhooks docs and the endpoint form. */
export const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  'keyword.rank_changed': 'A tracked keyword moved 5 or more places, or entered or left the top 200.',
  'keyword.added': 'Keywords were added to an app’s tracked list.',
  'competitor.added': 'A competitor was added to an app.',
  'app.metadata_changed': 'A field of an app’s store listing changed (title, subtitle, description…).',
  'review.created': 'New reviews of a tracked app were recorded.',
  'usage.threshold_reached': 'The account used 80 % or 100 % of its monthly credits (once each per month).',
  'api_key.created': 'An API key was created or rolled.',
  'api_key.revoked': 'An API key was revoked.',
  'plan.changed': 'The account’s plan changed: a new subscription, a cancellation, or the end of the trial.',
  'webhook.test': 'A test event sent from the dashboard to one endpoint.',
};

export interface NewEvent {
  accountId: string;
  type: EventType;
  appId?: string | null;
  data: Prisma.InputJsonValue;
  occurredAt?: Date;
}

type Client = Pick<Prisma.TransactionClient, 'domainEvent'>;

export async function recordEvents(events: NewEvent[], client: Client = db): Promise<void> {
  if (!events.length) return;
  await client.domainEvent.createMany({
    data: events.map((event) => ({ ...event, appId: event.appId ?? null, occurredAt: event.occurredAt ?? new Date() })),
  });
}
