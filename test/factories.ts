// Test data through the real services (no mocks of our own database).
import { randomUUID } from 'node:crypto';
import { db } from '@/server/db';
import type { PlanTier } from '@/generated/prisma/enums';
import { createAccount } from '@/server/services/accounts/accounts';

export async function makeAccount(plan: PlanTier = 'pro') {
  const email = `user-${randomUUID()}@example.test`;
  const { accountId, userId } = await createAccount({ email, password: 'correct horse battery', plan });
  return { accountId, userId, email };
}

export async function makeApp(accountId: string, overrides: { primaryCountry?: string } = {}) {
  return db.trackedApp.create({
    data: {
      accountId,
      store: 'app_store',
      storeId: String(Math.floor(Math.random() * 1e10)),
      bundleId: 'com.example.test',
      name: 'Test App',
      developer: 'Test Developer',
      category: 'Utilities',
      primaryCountry: overrides.primaryCountry ?? 'US',
    },
  });
}
