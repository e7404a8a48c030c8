// A dashboard page is one request of its user's against the dashboard's rate (600 calls a minute), however many
// procedures its server components call; /api/trpc counts each call (trpc-endpoint.integration.test.ts).
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { consumeDashboardCall } from '@/server/services/limits/request-rates';
import { makeAccount } from '../../../test/factories';
import { pageCaller, signedInActor } from './page-caller';
import { issueSessionToken } from '@/server/auth/session-token';

describe('a page’s calls', () => {
  it('count once against the user’s rate', async () => {
    const owner = await makeAccount('pro');
    const user = await db.user.findFirstOrThrow({ where: { accountId: owner.accountId } });
    const token = await issueSessionToken({ id: user.id, email: user.email, accountId: owner.accountId });
    const actor = await signedInActor(`next-auth.session-token=${token}`);
    expect(actor?.userId).toBe(user.id);
    // All but one of the minute's calls spent.
    for (let call = 0; call < 599; call++) await consumeDashboardCall(`user:${user.id}`);
    const page = pageCaller(actor, '198.51.100.20');
    await page.account.get();
    await page.apps.list({});
    await page.account.onboarding();
    // The next page is refused at its first call.
    await expect(pageCaller(actor, '198.51.100.20').account.get()).rejects.toMatchObject({
      cause: { appCode: 'RATE_LIMITED' },
    });
  });
});
