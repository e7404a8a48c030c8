import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import {
  oauthIdHash,
  purgeExpiredOAuthRecords,
  purgeUnusedOAuthClients,
  UNUSED_CLIENT_DAYS,
} from '@/server/db/oauth-records';
import { createConnectedApp } from '@/server/services/oauth/connected-apps';
import { makeAccount } from '../../../test/factories';
import { OAuthAdapter } from './oauth-adapter';

describe('the OAuth adapter', () => {
  it('stores a record under the SHA-256 of its id, never the id nor a secret in clear, and finds it by the id', async () => {
    const tokens = new OAuthAdapter('AccessToken');
    const id = `token-${randomUUID()}`;
    await tokens.upsert(id, { jti: id, grantId: 'g1', clientId: 'c1', accountId: 'u1' }, 3600);
    expect(await tokens.find(id)).toMatchObject({ jti: id, clientId: 'c1' });
    const row = await db.oAuthRecord.findFirstOrThrow({ where: { kind: 'AccessToken', idHash: oauthIdHash(id) } });
    expect(row.idHash).not.toContain(id);
    // The payload's copy of the id (its jti) is sealed too.
    expect(JSON.stringify(row.payload)).not.toContain(id);
    const clients = new OAuthAdapter('Client');
    await clients.upsert(`client-${id}`, { client_id: `client-${id}`, client_secret: `secret-${id}` });
    expect(
      JSON.stringify(
        (await db.oAuthRecord.findFirstOrThrow({ where: { kind: 'Client', idHash: oauthIdHash(`client-${id}`) } }))
          .payload,
      ),
    ).not.toContain(`secret-${id}`);
    expect(await clients.find(`client-${id}`)).toEqual({ client_id: `client-${id}`, client_secret: `secret-${id}` });
    expect(await db.oAuthRecord.count({ where: { idHash: id } })).toBe(0);
    // Another kind with the same id is another record.
    expect(await new OAuthAdapter('RefreshToken').find(id)).toBeUndefined();
  });

  it('answers nothing for an expired record, and the purge removes it a day after', async () => {
    const codes = new OAuthAdapter('AuthorizationCode');
    const id = `code-${randomUUID()}`;
    await codes.upsert(id, { jti: id }, 60);
    await db.oAuthRecord.updateMany({
      where: { idHash: oauthIdHash(id) },
      data: { expiresAt: new Date(Date.now() - 2 * 86_400_000) },
    });
    expect(await codes.find(id)).toBeUndefined();
    expect(await purgeExpiredOAuthRecords()).toBeGreaterThanOrEqual(1);
    expect(await db.oAuthRecord.count({ where: { idHash: oauthIdHash(id) } })).toBe(0);
  });

  it('purges a registered client no one connected within days of its registration, and keeps any other', async () => {
    const clients = new OAuthAdapter('Client');
    const now = new Date();
    const issuedAt = (days: number) => Math.floor(now.getTime() / 1000) - days * 86_400;
    const client = (name: string, days: number | null) => {
      const id = `${name}-${randomUUID()}`;
      return {
        id,
        payload: { client_id: id, client_name: name, ...(days !== null && { client_id_issued_at: issuedAt(days) }) },
      };
    };
    const old = UNUSED_CLIENT_DAYS + 1;
    const unused = client('unused', old);
    const connected = client('connected', old);
    const revoked = client('revoked', old);
    const consenting = client('consenting', old);
    const recent = client('recent', UNUSED_CLIENT_DAYS - 1);
    const undated = client('undated', null);
    for (const each of [unused, connected, revoked, consenting, recent, undated])
      await clients.upsert(each.id, each.payload);
    // A connected app, a revoked one (its consent happened, so its client is someone's), and a grant whose consent is
    // still being recorded.
    const { accountId, userId } = await makeAccount('pro');
    await createConnectedApp({
      accountId,
      userId,
      grantId: randomUUID(),
      clientId: connected.id,
      clientName: 'connected',
      scope: 'read-only',
      restrictions: {},
    });
    const ended = await createConnectedApp({
      accountId,
      userId,
      grantId: randomUUID(),
      clientId: revoked.id,
      clientName: 'revoked',
      scope: 'read-only',
      restrictions: {},
    });
    await db.apiKey.update({ where: { id: ended.id }, data: { revokedAt: now } });
    const grantId = `grant-${randomUUID()}`;
    await new OAuthAdapter('Grant').upsert(grantId, { jti: grantId, accountId, clientId: consenting.id }, 3600);

    expect(await purgeUnusedOAuthClients(now)).toBeGreaterThanOrEqual(1);
    expect(await clients.find(unused.id)).toBeUndefined();
    for (const kept of [connected, revoked, consenting, recent, undated])
      expect(await clients.find(kept.id), kept.payload.client_name).toMatchObject({ client_id: kept.id });
  });

  it('marks a consumed code with when it was consumed, once', async () => {
    const codes = new OAuthAdapter('AuthorizationCode');
    const id = `code-${randomUUID()}`;
    await codes.upsert(id, { jti: id }, 60);
    await codes.consume(id);
    const first = (await codes.find(id))!.consumed as number;
    expect(first).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await codes.consume(id);
    expect((await codes.find(id))!.consumed).toBe(first);
  });

  it('finds an interaction or session by its uid and a device code by its user code', async () => {
    const sessions = new OAuthAdapter('Session');
    const uid = `uid-${randomUUID()}`;
    await sessions.upsert(`session-${randomUUID()}`, { uid, accountId: 'u1' }, 3600);
    expect(await sessions.findByUid(uid)).toMatchObject({ uid, accountId: 'u1' });
    const devices = new OAuthAdapter('DeviceCode');
    const userCode = `CODE-${randomUUID().slice(0, 4)}`;
    await devices.upsert(`device-${randomUUID()}`, { userCode }, 600);
    expect(await devices.findByUserCode(userCode)).toMatchObject({ userCode });
  });

  it('revokes a grant whole: the grant itself, its codes and its tokens, and nothing of another grant', async () => {
    const grantId = `grant-${randomUUID()}`;
    const other = `grant-${randomUUID()}`;
    await new OAuthAdapter('Grant').upsert(grantId, { jti: grantId, accountId: 'u1', clientId: 'c1' }, 3600);
    await new OAuthAdapter('AccessToken').upsert(`at-${grantId}`, { grantId }, 3600);
    await new OAuthAdapter('RefreshToken').upsert(`rt-${grantId}`, { grantId }, 3600);
    await new OAuthAdapter('AccessToken').upsert(`at-${other}`, { grantId: other }, 3600);
    await new OAuthAdapter('AccessToken').revokeByGrantId(grantId);
    expect(await new OAuthAdapter('Grant').find(grantId)).toBeUndefined();
    expect(await new OAuthAdapter('AccessToken').find(`at-${grantId}`)).toBeUndefined();
    expect(await new OAuthAdapter('RefreshToken').find(`rt-${grantId}`)).toBeUndefined();
    expect(await new OAuthAdapter('AccessToken').find(`at-${other}`)).toMatchObject({ grantId: other });
  });

  it('replaces a record whole on upsert, and destroys one by its id', async () => {
    const clients = new OAuthAdapter('Client');
    const id = `client-${randomUUID()}`;
    await clients.upsert(id, { client_id: id, client_name: 'First' });
    await clients.upsert(id, { client_id: id, redirect_uris: ['http://127.0.0.1/callback'] });
    expect(await clients.find(id)).toEqual({ client_id: id, redirect_uris: ['http://127.0.0.1/callback'] });
    await clients.destroy(id);
    expect(await clients.find(id)).toBeUndefined();
  });
});
