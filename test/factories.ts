// Test data through the real services (no mocks of our own database).
import { randomUUID } from 'node:crypto';
import { db } from '@/server/db';
import type { MemberRole, PlanTier } from '@/generated/prisma/enums';
import { issueSessionToken } from '@/server/auth/session-token';
import { createAccount } from '@/server/services/accounts/accounts';

export async function makeAccount(plan: PlanTier = 'pro') {
  const email = `user-${randomUUID()}@example.test`;
  const { accountId, userId } = await createAccount({ email, password: 'correct horse battery', plan });
  // A user's account is a live one (a test sandbox has no users): `mode` lets the services that take an actor's
  // account and mode take the account as it is.
  return { accountId, userId, email, mode: 'live' as const };
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

/** The store app a tracked app is: what is observed of it is stored under it (docs/architecture.md, "Store facts"). */
export async function storeAppOf(appId: string): Promise<number> {
  return (await db.trackedApp.findUniqueOrThrow({ where: { id: appId }, select: { storeAppId: true } })).storeAppId;
}

/**
 * A person with an account of their own who is also a member of `accountId` with `role`, as accepting an invitation
 * makes them; `session` is a session token acting for `accountId`.
 */
export async function makeMember(accountId: string, role: MemberRole) {
  const person = await makeAccount('free');
  await db.membership.create({ data: { accountId, userId: person.userId, role } });
  const session = await issueSessionToken({ id: person.userId, email: person.email, accountId });
  return { ...person, ownAccountId: person.accountId, session };
}
