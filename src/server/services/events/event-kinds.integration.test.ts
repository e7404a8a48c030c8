// Every kind of event, as the code paths that cause them record it, is of its documented shape: the schemas of
// ./event-kinds.ts are the contract's `webhooks` payloads, so a producer that drifted from them would break receivers.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDays } from '@/server/core/dates';
import { db } from '@/server/db';
import { changePlan } from '@/server/services/accounts/plan-changes';
import { createApiKey, revokeApiKey } from '@/server/services/api-keys/api-keys';
import { notifyExpiringKeys } from '@/server/services/api-keys/key-expiry';
import { rollApiKey } from '@/server/services/api-keys/key-rolls';
import { refreshApp } from '@/server/services/ingest/refresh';
import { periodOf } from '@/server/services/metering/credits';
import { createWebhookEndpoint, sendTestEvent } from '@/server/services/webhooks/endpoints';
import { FIXED_DAY, makeAsoApp } from '../../../../test/aso-fixture';
import { callPublicApi } from '../../../../test/public-api';
import { answerEveryWay } from '../../../../test/reply-states';
import { createExport } from '@/server/services/exports/exports';
import { runNextExport } from '@/server/services/exports/export-worker';
import { EVENT_PAYLOADS, EVENT_TYPES, type EventType } from './event-kinds';

// The test event's endpoint is a local one, as in development.
beforeAll(() => {
  process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST = 'true';
});
afterAll(() => {
  delete process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST;
});

it('records every kind of event with data of its documented shape', async () => {
  const { owner, app, caller } = await makeAsoApp({ storeId: '700000031' });
  await refreshApp(app.id, { through: addDays(FIXED_DAY, 30) });
  await caller.competitors.add({ id: app.id, storeUrl: 'https://apps.apple.com/us/app/calm/id571800810' });
  const { key } = await createApiKey(owner, { name: 'events', scope: 'read-only' });
  const rolled = await rollApiKey(owner.accountId, { keyId: key.id, gracePeriod: '1h' });
  await revokeApiKey(owner.accountId, rolled.key.id);
  await createApiKey(owner, { name: 'expiring', scope: 'read-only', expiresAt: new Date(Date.now() + 3 * 86_400_000) });
  // Another file's run of the hourly job may notify this key first (it sweeps every account): the event is recorded
  // either way, and the kinds recorded are checked below.
  await notifyExpiringKeys();
  const { endpoint } = await createWebhookEndpoint(owner.accountId, { url: 'http://127.0.0.1:9/hook' });
  await sendTestEvent(owner, endpoint.id);
  await db.$transaction((tx) =>
    changePlan(tx, { accountId: owner.accountId, to: 'business', reason: 'operator', now: new Date() }),
  );
  // Replies to reviews in every state, through a simulated store account.
  await answerEveryWay(owner, app.id);
  // An export completed, and one that failed for good (a dataset that is none, at its last attempt).
  const exported = await createExport(
    { accountId: owner.accountId, mode: 'live', plan: 'pro', creditLimit: null, userId: owner.userId },
    { datasets: ['ratings'], from: '2026-06-01', to: '2026-06-30', format: 'csv' },
    randomUUID(),
    new Date(),
  );
  const broken = await db.export.create({
    data: {
      accountId: owner.accountId,
      request: { datasets: ['no_such_dataset'], appIds: null, storefronts: null, from: '2026-06-01', to: '2026-06-30' },
      format: 'csv',
      state: 'queued',
      attempts: 2,
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  for (let turns = 0; turns < 50; turns++) {
    const states = await db.export.findMany({
      where: { id: { in: [exported.id, broken.id] } },
      select: { state: true },
    });
    if (states.every((row) => row.state !== 'queued' && row.state !== 'running')) break;
    await runNextExport(new Date(), () => false, owner.accountId);
  }
  // One call crosses 80 % and then 100 % of the month's allowance.
  const reader = await createApiKey(owner, { name: 'reader', scope: 'read-only' });
  await db.creditUsage.upsert({
    where: { accountId_periodStart: { accountId: owner.accountId, periodStart: periodOf(new Date()).start } },
    create: { accountId: owner.accountId, periodStart: periodOf(new Date()).start, used: 9_999 },
    update: { used: 9_999 },
  });
  const answer = await callPublicApi(
    new Request('http://api.test/api/public/v1/apps', { headers: { Authorization: `Bearer ${reader.secret}` } }),
  );
  expect(answer.status).toBe(200);

  const events = await db.domainEvent.findMany({ where: { accountId: owner.accountId } });
  const kinds = new Set(events.map((event) => event.type));
  expect([...kinds].sort()).toEqual([...EVENT_TYPES].sort());
  for (const event of events) {
    const parsed = EVENT_PAYLOADS[event.type as EventType].safeParse(event.data);
    expect(parsed.success ? [] : [event.type, event.data, parsed.error.issues], event.type).toEqual([]);
  }
});
