// Issue 18 §7: a key created with expiry +100000-01-01 answered 500 but was stored, and from then on the keys list
// and Settings → API access answered 500 for the whole account (the date cannot be read back as an ISO instant).
import { describe, expect, it } from 'vitest';
import { handleDashboardTrpcRequest } from '@/server/api/dashboard-handler';
import { issueSessionToken } from '@/server/auth/session-token';
import { db } from '@/server/db';
import { makeAccount } from '../../../../test/factories';
import { createApiKey, listApiKeys, MAX_KEY_LIFETIME_DAYS } from './api-keys';

const T0 = new Date('2026-06-01T12:00:00.000Z');
const DAY = 86_400_000;

describe('key expiry', () => {
  it('is refused beyond its documented maximum, with its pointer, and nothing is stored', async () => {
    const owner = await makeAccount();
    for (const expiresAt of ['+100000-01-01', new Date(T0.getTime() + (MAX_KEY_LIFETIME_DAYS + 1) * DAY).toISOString()]) {
      await expect(createApiKey(owner, { name: 'far', scope: 'read-only', expiresAt }, T0)).rejects.toMatchObject({
        appCode: 'VALIDATION_ERROR',
        extras: { errors: [{ in: 'body', pointer: '#/expiresAt', detail: expect.stringContaining(`${MAX_KEY_LIFETIME_DAYS} days`) }] },
      });
    }
    expect(await db.apiKey.count({ where: { accountId: owner.accountId } })).toBe(0);
    const longest = await createApiKey(owner, { name: 'a year', scope: 'read-only', expiresAt: new Date(T0.getTime() + MAX_KEY_LIFETIME_DAYS * DAY) }, T0);
    expect(longest.key.expiresAt?.toISOString()).toBe(new Date(T0.getTime() + MAX_KEY_LIFETIME_DAYS * DAY).toISOString());
  });

  it('through the dashboard: 400, and the keys list keeps working', async () => {
    const owner = await makeAccount();
    const token = await issueSessionToken({ id: owner.userId, email: owner.email, accountId: owner.accountId });
    const call = (path: string, init: RequestInit = {}) =>
      handleDashboardTrpcRequest(new Request(`http://keys.test/api/trpc/${path}`, { ...init, headers: { cookie: `next-auth.session-token=${token}`, 'content-type': 'application/json' } }));
    const created = await call('apiKeys.create', { method: 'POST', body: JSON.stringify({ name: 'far', scope: 'read-only', expiresAt: '+100000-01-01' }) });
    expect(created.status).toBe(400);
    expect((await call('apiKeys.list')).status).toBe(200);
  });

  it('no row can hold an expiry that cannot be read back: the database refuses it, whoever writes', async () => {
    const owner = await makeAccount();
    const { key } = await createApiKey(owner, { name: 'operator', scope: 'read-only' }, T0);
    await expect(db.$executeRawUnsafe(`UPDATE api_keys SET expires_at = '100000-01-01' WHERE id = $1::uuid`, key.id)).rejects.toThrow(/api_keys_expires_at_readable/);
    expect((await listApiKeys(owner.accountId)).map((row) => row.id)).toEqual([key.id]);
  });
});
