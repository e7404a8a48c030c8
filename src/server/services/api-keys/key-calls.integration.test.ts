// A key's request log and its calls per day, through the public API as a client calls it: every call of a valid key
// is listed with its time, endpoint, status, cost, address and request id, failures included; the log keeps the last
// KEY_CALLS_KEPT; another account cannot read it.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { isoDay } from '@/server/core/dates';
import { callPublicApi } from '../../../../test/public-api';
import { makeAccount, makeApp } from '../../../../test/factories';
import { parseInput } from '@/server/errors/validation';
import { listKeyCallsInput } from '@/server/api/routers/api-keys/api-keys.schema';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { flushKeyCalls, KEY_CALLS_KEPT, keyUsage, listKeyCalls, recordKeyCall } from './key-calls';

const ORIGIN = 'https://api.example.test';

function call(secret: string, path: string, init: RequestInit = {}) {
  return callPublicApi(
    new Request(`${ORIGIN}/api/public/v1${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${secret}`, ...init.headers },
    }),
  );
}

describe('a key’s request log', () => {
  it('lists every call of the key, failures included, newest first, and filters them', async () => {
    const owner = await makeAccount('pro');
    const app = await makeApp(owner.accountId);
    const { key, secret } = await createApiKey(owner, { name: 'ci', scope: 'read-only' });
    const { secret: otherSecret } = await createApiKey(owner, { name: 'other', scope: 'read-only' });

    const answers = [
      await call(secret, '/apps'),
      await call(secret, `/apps/${app.id}`),
      await call(secret, `/apps/${randomUUID()}`),
      await call(secret, '/no-such-endpoint'),
      await call(secret, '/apps', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: 'https://apps.apple.com/us/app/x/id1' }),
      }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 404, 404, 403]);
    await call(otherSecret, '/apps');

    const log = await listKeyCalls(owner.accountId, { keyId: key.id, page: 1, pageSize: 50 });
    expect(log.total).toBe(5);
    expect(log.calls.map((entry) => [entry.endpoint, entry.status])).toEqual([
      ['POST /apps', 403],
      ['GET /no-such-endpoint', 404],
      ['GET /apps/{id}', 404],
      ['GET /apps/{id}', 200],
      ['GET /apps', 200],
    ]);
    expect(log.calls.map((entry) => entry.requestId)).toEqual(
      answers.map((answer) => answer.headers.get('x-request-id')).reverse(),
    );
    // What each call cost, as its answer said: failures cost nothing.
    expect(log.calls.map((entry) => entry.credits)).toEqual(
      answers.map((answer) => Number(answer.headers.get('x-credits-cost'))).reverse(),
    );
    expect(log.calls.filter((entry) => entry.status >= 400).every((entry) => entry.credits === 0)).toBe(true);
    expect(log.endpoints).toEqual(['GET /apps', 'GET /apps/{id}', 'GET /no-such-endpoint', 'POST /apps']);

    const failures = await listKeyCalls(owner.accountId, { keyId: key.id, statusClass: '4xx', page: 1, pageSize: 50 });
    expect(failures.total).toBe(3);
    const oneEndpoint = await listKeyCalls(owner.accountId, {
      keyId: key.id,
      endpoint: 'GET /apps/{id}',
      statusClass: '2xx',
      page: 1,
      pageSize: 50,
    });
    expect(oneEndpoint.calls.map((entry) => entry.status)).toEqual([200]);
    const secondPage = await listKeyCalls(owner.accountId, { keyId: key.id, page: 2, pageSize: 2 });
    expect(secondPage.calls.map((entry) => entry.status)).toEqual([404, 200]);

    const usage = await keyUsage(owner.accountId, { keyId: key.id });
    expect(usage.days).toHaveLength(30);
    const charged = answers.reduce((sum, answer) => sum + Number(answer.headers.get('x-credits-cost')), 0);
    expect(charged).toBeGreaterThan(0);
    expect(usage.days.at(-1)).toEqual({ date: isoDay(new Date()), calls: 5, failures: 3, credits: charged });
    expect(usage.days.slice(0, -1).every((day) => day.calls === 0 && day.credits === 0)).toBe(true);
  });

  it('is the owner’s alone', async () => {
    const owner = await makeAccount('pro');
    const stranger = await makeAccount('pro');
    const { key } = await createApiKey(owner, { name: 'mine', scope: 'read-only' });
    await expect(listKeyCalls(stranger.accountId, { keyId: key.id, page: 1, pageSize: 50 })).rejects.toMatchObject({
      appCode: 'NOT_FOUND',
    });
    await expect(keyUsage(stranger.accountId, { keyId: key.id })).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    expect(() => parseInput(listKeyCallsInput, { keyId: 'not-a-uuid' })).toThrow(
      expect.objectContaining({ appCode: 'VALIDATION_ERROR' }),
    );
    await expect(
      keyUsage(owner.accountId, { keyId: key.id, from: '2026-02-01', to: '2026-01-01' }),
    ).rejects.toMatchObject({ appCode: 'VALIDATION_ERROR' });
  });

  it('keeps the last calls of each key, and counts every call of the day', async () => {
    const owner = await makeAccount('pro');
    const { key } = await createApiKey(owner, { name: 'busy', scope: 'read-only' });
    const day = new Date(Date.UTC(2026, 10, 2, 12));
    const record = (index: number) =>
      recordKeyCall({
        keyId: key.id,
        at: new Date(day.getTime() + index),
        method: 'GET',
        endpoint: 'GET /apps',
        status: index % 10 === 0 ? 429 : 200,
        credits: 0,
        clientAddress: '192.0.2.1',
        requestId: randomUUID(),
      });
    // Two writes: the second trims what the first left past the last KEY_CALLS_KEPT.
    for (let index = 0; index < 600; index++) record(index);
    await flushKeyCalls();
    for (let index = 600; index < 1200; index++) record(index);
    await flushKeyCalls();
    expect(await db.keyCall.count({ where: { keyId: key.id } })).toBe(KEY_CALLS_KEPT);
    const oldest = await db.keyCall.findFirstOrThrow({ where: { keyId: key.id }, orderBy: { at: 'asc' } });
    expect(oldest.at.getTime()).toBe(day.getTime() + 200);

    // A burst larger than the log between two writes: the log gets its newest calls, the day counts all of them.
    for (let index = 1200; index < 4200; index++) record(index);
    await flushKeyCalls();
    expect(await db.keyCall.count({ where: { keyId: key.id } })).toBe(KEY_CALLS_KEPT);
    const newest = await listKeyCalls(owner.accountId, { keyId: key.id, page: 1, pageSize: 1 });
    expect(newest.calls[0]!.at).toBe(new Date(day.getTime() + 4199).toISOString());
    expect(
      await db.keyCallDay.findUniqueOrThrow({ where: { keyId_day: { keyId: key.id, day: new Date('2026-11-02') } } }),
    ).toMatchObject({ calls: 4200, failures: 420 });
  });
});
