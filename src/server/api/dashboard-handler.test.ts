// /api/trpc against cross-site request forgery: a signed-in user's browser, led by another site to post a mutation,
// gets 403 and nothing happens; the same mutation from the app's own pages (or a non-browser client) goes through.
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { issueSessionToken } from '@/server/auth/session-token';
import { makeAccount } from '../../../test/factories';
import { handleDashboardTrpcRequest, isCrossSiteMutation } from './dashboard-handler';

const ORIGIN = 'http://app.test';

async function signedInCookie() {
  const owner = await makeAccount();
  const token = await issueSessionToken({ id: owner.userId, email: owner.email, accountId: owner.accountId });
  return { owner, cookie: `next-auth.session-token=${token}` };
}

function createKey(cookie: string, headers: Record<string, string>) {
  return handleDashboardTrpcRequest(
    new Request(`${ORIGIN}/api/trpc/apiKeys.create`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ name: 'csrf', scope: 'read-write' }),
    }),
  );
}

describe('cross-site requests to the dashboard API', () => {
  it('refuses a mutation posted from another site and creates nothing', async () => {
    const { owner, cookie } = await signedInCookie();
    const attempts: Record<string, string>[] = [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ];
    for (const headers of attempts) {
      const response = await createKey(cookie, headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
    }
    expect(await db.apiKey.count({ where: { accountId: owner.accountId } })).toBe(0);
  });

  it('lets the app’s own pages and non-browser clients through', async () => {
    const { owner, cookie } = await signedInCookie();
    expect((await createKey(cookie, { origin: ORIGIN, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await createKey(cookie, { origin: ORIGIN })).status).toBe(200);
    expect((await createKey(cookie, {})).status).toBe(200);
    expect(await db.apiKey.count({ where: { accountId: owner.accountId } })).toBe(3);
    // Reads are never refused (they change nothing).
    expect(isCrossSiteMutation(new Request(`${ORIGIN}/api/trpc/apiKeys.list`, { headers: { 'sec-fetch-site': 'cross-site' } }))).toBe(false);
  });
});
