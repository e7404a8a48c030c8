// Domain events: recorded by the code path that causes them, in the same database, for the webhooks issue to
// deliver. Their kinds and the shape of each kind's data: ./event-kinds.ts.
import type { Prisma } from '@/generated/prisma/client';
import { currentRequestId } from '@/server/core/request-context';
import { db } from '@/server/db';
import type { EventPayload, EventType } from './event-kinds';

/** An event to record: its `data` is of its kind's schema (./event-kinds.ts), checked where it is made. */
export type NewEvent = {
  [T in EventType]: {
    accountId: string;
    type: T;
    appId?: string | null;
    data: EventPayload<T>;
    occurredAt?: Date;
    /** The request that caused it; by default the one this code runs for (core/request-context.ts). */
    requestId?: string | null;
  };
}[EventType];

type Client = Pick<Prisma.TransactionClient, 'domainEvent'>;

export async function recordEvents(events: NewEvent[], client: Client = db): Promise<void> {
  if (!events.length) return;
  const current = currentRequestId();
  await client.domainEvent.createMany({
    data: events.map((event) => ({
      ...event,
      appId: event.appId ?? null,
      occurredAt: event.occurredAt ?? new Date(),
      requestId: event.requestId === undefined ? current : event.requestId,
    })),
  });
}
