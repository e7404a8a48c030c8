// The keys of concurrent requests are read together (readApiKeyCredential): each request gets its own key's row (its
// account, its spending, the version of the app it names when that app is its account's) or null, whatever was read
// beside it; and whatever fails the shared statement fails the request that caused it, not its neighbours.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isoDay } from '@/server/core/dates';
import { createApiKey, revokeApiKey } from '@/server/services/api-keys/api-keys';
import { hashApiKey } from '@/server/services/api-keys/key-format';
import { periodOf } from '@/server/services/metering/credits';
import { makeAccount, makeApp } from '../../../test/factories';
import { readApiKeyCredential } from './credential-statements';

const periodStart = isoDay(periodOf(new Date()).start);

async function keysOf(plan: 'pro' | 'solo', count: number) {
  const owner = await makeAccount(plan);
  const keys = [];
  for (let index = 0; index < count; index++) {
    const { key, secret } = await createApiKey(owner, { name: `key ${index}`, scope: 'read-only' });
    keys.push({ id: key.id, hash: hashApiKey(secret) });
  }
  return { accountId: owner.accountId, keys };
}

describe('reading the keys of concurrent requests', () => {
  it('answers each with its own key and account, null for an unknown one, the app’s version only for its account', async () => {
    const first = await keysOf('pro', 6);
    const second = await keysOf('solo', 6);
    const app = await makeApp(first.accountId);
    await revokeApiKey(first.accountId, first.keys[5]!.id);
    const asked = [
      ...first.keys.map((key) => ({ ...key, accountId: first.accountId, appId: app.id as string | null })),
      ...second.keys.map((key) => ({ ...key, accountId: second.accountId, appId: app.id as string | null })),
      ...second.keys.map((key) => ({ ...key, accountId: second.accountId, appId: null })),
      ...Array.from({ length: 4 }, () => ({ id: null, hash: randomBytes(32), accountId: null, appId: null })),
    ].sort(() => Math.random() - 0.5);
    // Asked in one turn: the first goes alone, the others wait for it and go together.
    const answers = await Promise.all(
      asked.map((each) => readApiKeyCredential(each.hash, { periodStart, appId: each.appId })),
    );
    answers.forEach((answer, index) => {
      const { id, accountId, appId } = asked[index]!;
      if (id === null) return expect(answer).toBeNull();
      expect(answer?.key.id).toBe(id);
      expect(answer?.account.accountId).toBe(accountId);
      expect(answer?.account.plan).toBe(accountId === first.accountId ? 'pro' : 'solo');
      expect(answer?.account.versions.app === null).toBe(!(appId && accountId === first.accountId));
      expect(answer?.key.revokedAt !== null).toBe(id === first.keys[5]!.id);
    });
  });

  it('fails only the request whose read the database refused, and answers the others', async () => {
    const { accountId, keys } = await keysOf('pro', 4);
    const reads = [
      readApiKeyCredential(keys[0]!.hash, { periodStart, appId: null }),
      readApiKeyCredential(keys[1]!.hash, { periodStart, appId: null }),
      // Not a uuid: the pipeline never passes one (it validates the path first), so the database is what refuses it.
      readApiKeyCredential(keys[2]!.hash, { periodStart, appId: 'not-a-uuid' }),
      readApiKeyCredential(keys[3]!.hash, { periodStart, appId: null }),
    ];
    const settled = await Promise.allSettled(reads);
    expect(settled.map((each) => each.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    for (const index of [0, 1, 3]) {
      const answer = settled[index] as PromiseFulfilledResult<Awaited<(typeof reads)[number]>>;
      expect([answer.value?.key.id, answer.value?.account.accountId]).toEqual([keys[index]!.id, accountId]);
    }
  });
});
