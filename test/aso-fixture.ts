// A tracked app with 180 days of demo data through a fixed day, so values are deterministic.
import { randomUUID } from 'node:crypto';
import { createCaller } from '@/server/api/root';
import type { Actor } from '@/server/auth/actor';
import { db } from '@/server/db';
import { addKeywords } from '@/server/services/apps/apps';
import { refreshApp } from '@/server/services/ingest/refresh';
import { makeAccount } from './factories';
import { LATEST_VERSION } from '@/server/domain/api-versions';

export const FIXED_DAY = new Date('2026-06-30T00:00:00.000Z');

export function callerFor(accountId: string, scope: Actor['scope'] = 'read-write') {
  return createCaller({
    actor: {
      kind: 'apiKey',
      apiVersion: LATEST_VERSION,
      accountId,
      mode: 'live',
      liveAccountId: accountId,
      keyId: randomUUID(),
      plan: 'pro',
      creditLimit: 5_000,
      trial: null,
      scope,
    },
    transport: 'rest',
    requestId: randomUUID(),
    clientIp: null,
    now: new Date(),
    steps: 'taken',
  });
}

export async function makeAsoApp(
  options: { storeId?: string; terms?: string[]; owner?: Awaited<ReturnType<typeof makeAccount>> } = {},
) {
  const owner = options.owner ?? (await makeAccount('pro'));
  const app = await db.trackedApp.create({
    data: {
      accountId: owner.accountId,
      store: 'app_store',
      storeId: options.storeId ?? '1459969523',
      bundleId: 'com.calmlabs.breathe',
      name: 'Breathe: Sleep & Meditation',
      developer: 'Calm Labs Inc.',
      category: 'Health & Fitness',
      primaryCountry: 'US',
    },
  });
  await addKeywords(owner.accountId, {
    appId: app.id,
    terms: options.terms ?? ['meditation', 'sleep sounds', 'breathing exercises', 'anxiety relief', 'mindfulness'],
  });
  await refreshApp(app.id, { through: FIXED_DAY });
  return { owner, app, caller: callerFor(owner.accountId) };
}
