// Credential resolution against the real database: API keys (valid, malformed, unknown, revoked, expired,
// rolled inside and after the grace period) and session JWTs (valid, tampered, expired, signed out).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { encode } from 'next-auth/jwt';
import pg from 'pg';
import { LATEST_VERSION } from '@/server/domain/api-versions';
import { getDb } from '@/server/db';
import { createApiKey, revokeApiKey } from '@/server/services/api-keys/api-keys';
import { rollApiKey } from '@/server/services/api-keys/key-rolls';
import { formatApiKey } from '@/server/services/api-keys/key-format';
import { sandboxOf } from '@/server/services/accounts/sandboxes';
import { makeAccount } from '../../../test/factories';
import { readBearer } from './bearer';
import { resolveBearer, resolveCredential } from './credentials';
import { endSession, issueSessionToken } from './session-token';

const at = (iso: string) => ({ now: new Date(iso), ip: '203.0.113.7' });
const bearer = (token: string) => `Bearer ${token}`;
const T0 = '2026-06-01T12:00:00.000Z';

afterEach(() => vi.restoreAllMocks());

describe('API keys', () => {
  it('resolves a valid key to its account, scope and plan', async () => {
    const owner = await makeAccount('business');
    const { key, secret } = await createApiKey(owner, { name: 'ci', scope: 'read-only' }, new Date(T0));
    const result = await resolveBearer(bearer(secret), at(T0));
    expect(result).toEqual({
      status: 'valid',
      actor: {
        kind: 'apiKey',
        accountId: owner.accountId,
        mode: 'live',
        liveAccountId: owner.accountId,
        keyId: key.id,
        plan: 'business',
        creditLimit: 10_000,
        trial: null,
        scope: 'read-only',
        restrictions: { appIds: null, allowedCidrs: [], monthlyBudget: null },
        keySpent: 0,
        // The account's first key pinned it to the newest version.
        apiVersion: LATEST_VERSION,
      },
      creditsUsed: 0,
      // No app asked about; an account without apps is at its first version.
      versions: { account: '0', store: expect.any(String), app: null, usage: '0' },
    });
  });

  it('resolves a test key to test mode, its sandbox’s data and the live account the sandbox belongs to', async () => {
    const owner = await makeAccount('free');
    const sandboxId = await sandboxOf(owner.accountId);
    const { secret } = await createApiKey(
      { accountId: sandboxId, userId: owner.userId },
      { name: 'ci', scope: 'read-only' },
    );
    expect(secret).toMatch(/^svc_test_/);
    const result = await resolveBearer(bearer(secret), at(T0));
    expect(result).toMatchObject({
      status: 'valid',
      actor: { kind: 'apiKey', accountId: sandboxId, mode: 'test', liveAccountId: owner.accountId, plan: 'test' },
    });
    // And the owner's session switched to test mode (X-Test-Mode) is the same: the sandbox's data, the live account's.
    const token = await issueSessionToken({ id: owner.userId, email: owner.email, accountId: owner.accountId });
    expect(await resolveCredential(readBearer(bearer(token)), { ...at(T0), testMode: true })).toMatchObject({
      status: 'valid',
      actor: { kind: 'session', accountId: sandboxId, mode: 'test', liveAccountId: owner.accountId },
    });
  });

  it('accepts the scheme in any case and refuses other schemes', async () => {
    const owner = await makeAccount();
    const { secret } = await createApiKey(owner, { name: 'ci', scope: 'read-write' });
    expect((await resolveBearer(`bearer ${secret}`, at(T0))).status).toBe('valid');
    expect((await resolveBearer(`Basic ${secret}`, at(T0))).status).toBe('malformed');
    expect((await resolveBearer(secret, at(T0))).status).toBe('malformed');
    expect((await resolveBearer(null, at(T0))).status).toBe('missing');
    expect((await resolveBearer('  ', at(T0))).status).toBe('missing');
  });

  it('rejects a malformed key or a bad checksum without touching the database', async () => {
    const lookup = vi.spyOn(pg.Pool.prototype, 'query');
    const randomPart = 'A'.repeat(32);
    const good = formatApiKey(randomPart);
    const badChecksum = good.slice(0, -1) + (good.endsWith('0') ? '1' : '0');
    expect((await resolveBearer(bearer(badChecksum), at(T0))).status).toBe('malformed');
    expect((await resolveBearer(bearer('svc_live_short'), at(T0))).status).toBe('malformed');
    expect(lookup).not.toHaveBeenCalled();
    // A well-formed key that was never issued does reach the lookup, and is unknown.
    expect((await resolveBearer(bearer(good), at(T0))).status).toBe('not_found');
    expect(lookup).toHaveBeenCalled();
  });

  it('refuses a revoked key at once and for ever', async () => {
    const owner = await makeAccount();
    const { key, secret } = await createApiKey(owner, { name: 'ci', scope: 'read-write' }, new Date(T0));
    expect((await resolveBearer(bearer(secret), at(T0))).status).toBe('valid');
    await revokeApiKey(owner.accountId, key.id, new Date(T0));
    expect((await resolveBearer(bearer(secret), at(T0))).status).toBe('revoked');
    expect((await resolveBearer(bearer(secret), at('2030-01-01T00:00:00.000Z'))).status).toBe('revoked');
  });

  it('refuses a key from its expiry on', async () => {
    const owner = await makeAccount();
    const { secret } = await createApiKey(
      owner,
      { name: 'ci', scope: 'read-only', expiresAt: new Date('2026-06-02T00:00:00.000Z') },
      new Date(T0),
    );
    expect((await resolveBearer(bearer(secret), at('2026-06-01T23:59:59.999Z'))).status).toBe('valid');
    expect((await resolveBearer(bearer(secret), at('2026-06-02T00:00:00.000Z'))).status).toBe('expired');
  });

  it('keeps a rolled key working during its grace period only; the new key works at once', async () => {
    const owner = await makeAccount();
    const old = await createApiKey(owner, { name: 'warehouse', scope: 'read-write' }, new Date(T0));
    const rolled = await rollApiKey(owner.accountId, { keyId: old.key.id, gracePeriod: '1h' }, new Date(T0));
    expect(rolled.key).toMatchObject({ name: 'warehouse', scope: 'read-write', status: 'active' });
    expect(rolled.secret).not.toBe(old.secret);
    expect((await resolveBearer(bearer(rolled.secret), at(T0))).status).toBe('valid');
    expect((await resolveBearer(bearer(old.secret), at('2026-06-01T12:59:59.000Z'))).status).toBe('valid');
    expect((await resolveBearer(bearer(old.secret), at('2026-06-01T13:00:00.000Z'))).status).toBe('expired');
    expect((await resolveBearer(bearer(rolled.secret), at('2026-06-01T13:00:00.000Z'))).status).toBe('valid');
  });

  it('ends the old secret immediately when rolled with grace "now", and refuses a second roll', async () => {
    const owner = await makeAccount();
    const old = await createApiKey(owner, { name: 'ci', scope: 'read-only' }, new Date(T0));
    await rollApiKey(owner.accountId, { keyId: old.key.id, gracePeriod: 'now' }, new Date(T0));
    expect((await resolveBearer(bearer(old.secret), at(T0))).status).toBe('expired');
    await expect(
      rollApiKey(owner.accountId, { keyId: old.key.id, gracePeriod: '1h' }, new Date(T0)),
    ).rejects.toMatchObject({
      appCode: 'VALIDATION_ERROR',
    });
  });

  it("writes a key's last use once, however many of its requests arrive together", async () => {
    const owner = await makeAccount();
    const { key, secret } = await createApiKey(owner, { name: 'burst', scope: 'read-only' }, new Date(T0));
    const update = vi.spyOn(getDb().apiKey, 'update');
    const results = await Promise.all(Array.from({ length: 20 }, () => resolveBearer(bearer(secret), at(T0))));
    expect(results.every((result) => result.status === 'valid')).toBe(true);
    expect(update.mock.calls.filter(([call]) => call.where.id === key.id)).toHaveLength(1);
    await vi.waitFor(
      async () => {
        const stored = await getDb().apiKey.findUniqueOrThrow({ where: { id: key.id } });
        expect(stored.lastUsedAt?.toISOString()).toBe(T0);
      },
      { timeout: 30_000 },
    );
    // Once written, the next call within the minute writes nothing; a new address is written at once.
    await resolveBearer(bearer(secret), at(T0));
    await resolveBearer(bearer(secret), { now: new Date(T0), ip: '198.51.100.9' });
    expect(update.mock.calls.filter(([call]) => call.where.id === key.id)).toHaveLength(2);
  });

  it('never stores the secret', async () => {
    const owner = await makeAccount();
    const { key, secret } = await createApiKey(owner, { name: 'ci', scope: 'read-only' });
    const rows = await getDb().$queryRawUnsafe<Record<string, unknown>[]>(
      'SELECT * FROM api_keys WHERE id = $1::uuid',
      key.id,
    );
    const stored = JSON.stringify(rows, (_k, value) =>
      value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value,
    );
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(9, 41));
  });
});

describe('session tokens', () => {
  it('resolves a valid token to the user with read-write scope and their role in the account', async () => {
    const owner = await makeAccount('solo');
    const token = await issueSessionToken({ id: owner.userId, email: owner.email, accountId: owner.accountId });
    expect(await resolveBearer(bearer(token), at(T0))).toEqual({
      status: 'valid',
      actor: {
        kind: 'session',
        accountId: owner.accountId,
        mode: 'live',
        liveAccountId: owner.accountId,
        userId: owner.userId,
        role: 'owner',
        sessionId: expect.any(String),
        plan: 'solo',
        creditLimit: 1_500,
        trial: null,
        scope: 'read-write',
        // Not pinned yet (no key): the newest.
        apiVersion: LATEST_VERSION,
      },
      creditsUsed: 0,
      versions: { account: '0', store: expect.any(String), app: null, usage: '0' },
    });
  });

  it('rejects a tampered token', async () => {
    const owner = await makeAccount();
    const token = await issueSessionToken({ id: owner.userId, email: owner.email, accountId: owner.accountId });
    const parts = token.split('.');
    const ciphertext = parts[3]!;
    parts[3] = (ciphertext[0] === 'A' ? 'B' : 'A') + ciphertext.slice(1);
    expect((await resolveBearer(bearer(parts.join('.')), at(T0))).status).toBe('invalid_token');
  });

  it('rejects a token signed with another secret', async () => {
    const owner = await makeAccount();
    const foreign = await encode({ token: { sub: owner.userId }, secret: 'some-other-secret-entirely-0123456789' });
    expect((await resolveBearer(bearer(foreign), at(T0))).status).toBe('invalid_token');
  });

  it('rejects an expired token', async () => {
    const owner = await makeAccount();
    const expired = await encode({ token: { sub: owner.userId }, secret: process.env.NEXTAUTH_SECRET!, maxAge: -120 });
    expect((await resolveBearer(bearer(expired), at(T0))).status).toBe('expired');
  });

  it('rejects a token after sign-out', async () => {
    const owner = await makeAccount();
    const token = await issueSessionToken({ id: owner.userId, email: owner.email, accountId: owner.accountId });
    const result = await resolveBearer(bearer(token), at(T0));
    expect(result.status).toBe('valid');
    const { decode } = await import('next-auth/jwt');
    await endSession(await decode({ token, secret: process.env.NEXTAUTH_SECRET! }));
    expect((await resolveBearer(bearer(token), at(T0))).status).toBe('invalid_token');
  });
});

describe('key events', () => {
  it('records api_key.created on create and roll, api_key.revoked once on revoke', async () => {
    const owner = await makeAccount();
    const { key } = await createApiKey(owner, { name: 'events', scope: 'read-only' }, new Date(T0));
    const rolled = await rollApiKey(owner.accountId, { keyId: key.id, gracePeriod: '1h' }, new Date(T0));
    await revokeApiKey(owner.accountId, rolled.key.id, new Date(T0));
    await revokeApiKey(owner.accountId, rolled.key.id, new Date(T0)); // idempotent: no second event
    const events = await getDb().domainEvent.findMany({ where: { accountId: owner.accountId } });
    // Same timestamp for all three: compare without order.
    expect(events.map((event) => `${event.type} ${(event.data as { keyId: string }).keyId}`).sort()).toEqual(
      [`api_key.created ${key.id}`, `api_key.created ${rolled.key.id}`, `api_key.revoked ${rolled.key.id}`].sort(),
    );
    expect(JSON.stringify(events)).not.toMatch(/svc_live_[0-9A-Za-z]{20}/);
  });
});
