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
