// The security log through the services that write it: each kind of event, with who acted and from where as the
// request says (a dashboard user, the operator, the system), before and after but never a secret; filters and pages;
// and the database's own refusal of any edit, and of any deletion before the retention.
import { resetConfig } from '@/server/core/config';
import { connectStoreAccount, removeStoreAccount } from '@/server/services/store-accounts/store-accounts';
import { startAppStoreConnectStandIn } from '../../../../test/stores/app-store-connect-stand-in';
import { randomUUID } from 'node:crypto';
import { db } from '@/server/db';
import { afterAll, describe, expect, it } from 'vitest';
import { withRequest } from '@/server/core/request-context';
import { changePlan } from '@/server/services/accounts/plan-changes';
import { endAllSessions } from '@/server/services/accounts/sessions';
import { signInWithLimit } from '@/server/services/accounts/sign-in-limit';
import { recordSignOut } from '@/server/services/accounts/sign-in-limit';
import { createApiKey, revokeApiKey, updateApiKey } from '@/server/services/api-keys/api-keys';
import { logExpiredKeys } from '@/server/services/api-keys/key-expiry';
import { rollApiKey } from '@/server/services/api-keys/key-rolls';
import { createConnectedApp, restrictConnectedApp, revokeConnectedApp } from '@/server/services/oauth/connected-apps';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookSecret,
  setWebhookEndpointEnabled,
} from '@/server/services/webhooks/endpoints';
import {
  acceptInvitation,
  acceptOwnership,
  changeMemberRole,
  endMembership,
  inviteMember,
  offerOwnership,
  revokeInvitation,
} from '@/server/services/accounts/members';
import { makeAccount, makeApp } from '../../../../test/factories';
import { answerEveryWay } from '../../../../test/reply-states';
import { listSecurityEvents, purgeSecurityEvents, RETENTION_DAYS, SECURITY_EVENT_KINDS } from './security-log';

const saved = process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST;
process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST = 'true';
afterAll(() => {
  process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST = saved;
});

const asUser = <T>(userId: string, work: () => Promise<T>) =>
  withRequest(
    {
      requestId: '5f0c2a7e-3b1d-4c8e-9a6f-2d4b7e1c0a93',
      clientAddress: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (test)',
      actor: { kind: 'user', userId, via: 'dashboard' },
    },
    work,
  );

describe('the security log', () => {
  it('records every kind of event with its actor, address, user agent and change, and never a secret', async () => {
    const owner = await makeAccount('pro');
    const app = await makeApp(owner.accountId);
    const secrets: string[] = [];
    await asUser(owner.userId, async () => {
      const created = await createApiKey(owner, {
        name: 'logged',
        scope: 'read-only',
        expiresAt: new Date(Date.now() + 86_400_000),
      });
      secrets.push(created.secret);
      await updateApiKey(owner.accountId, {
        keyId: created.key.id,
        restrictions: { appIds: [app.id], monthlyBudget: 500 },
      });
      await updateApiKey(owner.accountId, { keyId: created.key.id, name: 'logged, renamed' });
      await updateApiKey(owner.accountId, { keyId: created.key.id, name: 'logged' });
      const rolled = await rollApiKey(owner.accountId, { keyId: created.key.id, gracePeriod: 'now' });
      secrets.push(rolled.secret);
      await revokeApiKey(owner.accountId, rolled.key.id);
      const { endpoint, secret } = await createWebhookEndpoint(owner.accountId, { url: 'http://127.0.0.1:9/hook' });
      secrets.push(secret);
      await setWebhookEndpointEnabled(owner.accountId, endpoint.id, false);
      secrets.push((await rotateWebhookSecret(owner.accountId, endpoint.id)).secret);
      await deleteWebhookEndpoint(owner.accountId, endpoint.id);
      await db.$transaction((tx) =>
        changePlan(tx, { accountId: owner.accountId, to: 'business', reason: 'operator', now: new Date() }),
      );
      await recordSignOut(owner.accountId, owner.userId);
      // An agent connected through OAuth (its consent), restricted, then revoked.
      const connected = await createConnectedApp({
        accountId: owner.accountId,
        userId: owner.userId,
        grantId: randomUUID(),
        clientId: 'logged-client',
        clientName: 'Logged agent',
        scope: 'read-only',
        restrictions: {},
      });
      await restrictConnectedApp(owner.accountId, { id: connected.id, restrictions: { monthlyBudget: 100 } });
      await revokeConnectedApp(owner.accountId, connected.id);
      // Members: one invited who joins, changes role and leaves; one removed; an invitation withdrawn.
      const asOwner = { ...owner, role: 'owner' as const };
      const [colleague, removed, withdrawn] = await Promise.all([
        makeAccount('free'),
        makeAccount('free'),
        makeAccount('free'),
      ]);
      await acceptInvitation(
        (await inviteMember(asOwner, { email: colleague.email, role: 'analyst' })).token,
        colleague.userId,
      );
      await changeMemberRole(asOwner, colleague.userId, 'developer');
      await endMembership(
        { accountId: owner.accountId, userId: colleague.userId, role: 'developer' },
        colleague.userId,
      );
      await acceptInvitation(
        (await inviteMember(asOwner, { email: removed.email, role: 'billing' })).token,
        removed.userId,
      );
      await endMembership(asOwner, removed.userId);
      await revokeInvitation(
        asOwner,
        (await inviteMember(asOwner, { email: withdrawn.email, role: 'admin' })).invitation.id,
      );
      // A store account connected (against App Store Connect's stand-in), its key replaced, then removed.
      const apple = await startAppStoreConnectStandIn();
      process.env.APP_STORE_CONNECT_ORIGIN = apple.origin;
      resetConfig();
      try {
        secrets.push(apple.key.privateKey.split('\n')[1]!);
        await connectStoreAccount(owner, { store: 'app_store', ...apple.key }, new Date());
        await connectStoreAccount(owner, { store: 'app_store', ...apple.key }, new Date());
        await removeStoreAccount(owner, 'app_store');
      } finally {
        delete process.env.APP_STORE_CONNECT_ORIGIN;
        resetConfig();
        await apple.close();
      }
      // Replies to reviews in every state, through a simulated store account.
      await answerEveryWay(owner, app.id);
      // Ownership offered to a member, who takes it.
      const heir = await makeAccount('free');
      await acceptInvitation(
        (await inviteMember(asOwner, { email: heir.email, role: 'developer' })).token,
        heir.userId,
      );
      await offerOwnership(asOwner, heir.userId);
      await acceptOwnership(owner.accountId, heir.userId);
    });
    // Sign-ins: five failed (a wave: new browsers are slowed, without waiting here), one made; the operator ends the
    // user's sessions; a key expires (the hourly job).
    await withRequest({ requestId: null, clientAddress: '198.51.100.9', userAgent: 'curl/8' }, async () => {
      const attempt = (password: string) =>
        signInWithLimit(
          { email: owner.email, password, address: '198.51.100.9', cookies: new Map() },
          { wait: async () => {} },
        );
      for (let failure = 0; failure < 4; failure++) await attempt('not the password');
      await attempt('correct horse battery');
      await attempt('not the password');
    });
    await withRequest({ requestId: null, actor: { kind: 'operator' } }, () => endAllSessions(owner.email));
    const expiring = await createApiKey(owner, {
      name: 'expiring',
      scope: 'read-only',
      expiresAt: new Date(Date.now() + 60_000),
    });
    await db.apiKey.update({ where: { id: expiring.key.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(await logExpiredKeys()).toBeGreaterThanOrEqual(1);
    expect(await logExpiredKeys()).toBe(0);

    const { entries, total } = await listSecurityEvents(owner.accountId, { page: 1, pageSize: 200 });
    const kinds = new Set(entries.map((entry) => entry.kind));
    expect([...SECURITY_EVENT_KINDS].filter((kind) => !kinds.has(kind))).toEqual([]);
    expect(total).toBe(entries.length);

    const restricted = entries.find((entry) => entry.kind === 'api_key.restricted')!;
    expect(restricted).toMatchObject({
      actor: owner.email,
      actorType: 'user',
      ipAddress: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (test)',
      requestId: '5f0c2a7e-3b1d-4c8e-9a6f-2d4b7e1c0a93',
      target: { type: 'api_key', label: expect.stringMatching(/^logged \(svc_live_\w{4}…\w{4}\)$/) },
      before: { appIds: null, allowedCidrs: [], monthlyBudget: null },
      after: { appIds: [app.id], allowedCidrs: [], monthlyBudget: 500 },
    });
    expect(entries.find((entry) => entry.kind === 'api_key.renamed')).toMatchObject({
      before: { name: 'logged, renamed' },
      after: { name: 'logged' },
    });
    expect(entries.find((entry) => entry.kind === 'plan.changed')).toMatchObject({
      before: { plan: 'pro' },
      after: { plan: 'business', reason: 'operator' },
    });
    expect(entries.find((entry) => entry.kind === 'session.sign_in_failed')).toMatchObject({
      actor: 'Someone signing in',
      ipAddress: '198.51.100.9',
      userAgent: 'curl/8',
      after: { reason: 'wrong password' },
    });
    expect(entries.find((entry) => entry.kind === 'session.sign_ins_slowed')).toMatchObject({
      actor: 'Someone signing in',
      after: { failures: 5, withinMinutes: 15, knownBrowsersSlowed: false },
    });
    expect(entries.find((entry) => entry.kind === 'session.signed_in')).toMatchObject({
      actor: owner.email,
      ipAddress: '198.51.100.9',
    });
    expect(entries.find((entry) => entry.kind === 'session.ended')).toMatchObject({
      actor: 'Operator CLI',
      actorType: 'operator',
      ipAddress: null,
    });
    expect(entries.find((entry) => entry.kind === 'api_key.expired')).toMatchObject({
      actor: 'System',
      target: { label: expect.stringContaining('expiring') },
    });

    const everything = JSON.stringify(
      await db.securityEvent.findMany({ where: { accountId: owner.accountId } }),
      (_, value: unknown) => (typeof value === 'bigint' ? String(value) : value),
    );
    for (const secret of secrets) expect(everything).not.toContain(secret.slice(12, 32));
  });

  it('filters by kind and day, and pages newest first', async () => {
    const owner = await makeAccount('pro');
    for (let index = 0; index < 5; index++) await createApiKey(owner, { name: `key ${index}`, scope: 'read-only' });
    const first = await listSecurityEvents(owner.accountId, { kinds: ['api_key.created'], page: 1, pageSize: 2 });
    expect(first).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect(first.entries.map((entry) => entry.target?.label?.split(' (')[0])).toEqual(['key 4', 'key 3']);
    const last = await listSecurityEvents(owner.accountId, { kinds: ['api_key.created'], pageSize: 2, page: 3 });
    expect(last.entries.map((entry) => entry.target?.label?.split(' (')[0])).toEqual(['key 0']);
    expect(
      (await listSecurityEvents(owner.accountId, { kinds: ['api_key.revoked'], page: 1, pageSize: 50 })).total,
    ).toBe(0);
    expect((await listSecurityEvents(owner.accountId, { to: '2020-01-01', page: 1, pageSize: 50 })).total).toBe(0);
    await expect(
      listSecurityEvents(owner.accountId, { from: '2026-02-02', to: '2026-02-01', page: 1, pageSize: 50 }),
    ).rejects.toMatchObject({ appCode: 'VALIDATION_ERROR' });
  });

  it('is append-only: no edit, no deletion before the retention; the purge deletes what is past it', async () => {
    const owner = await makeAccount('pro');
    await createApiKey(owner, { name: 'kept', scope: 'read-only' });
    const entry = await db.securityEvent.findFirstOrThrow({ where: { accountId: owner.accountId } });
    await expect(
      db.securityEvent.update({ where: { id: entry.id }, data: { actorLabel: 'someone else' } }),
    ).rejects.toThrow(/append-only/);
    await expect(db.securityEvent.delete({ where: { id: entry.id } })).rejects.toThrow(/append-only/);
    const old = await db.securityEvent.create({
      data: {
        accountId: owner.accountId,
        kind: 'session.signed_in',
        actorType: 'user',
        actorLabel: owner.email,
        occurredAt: new Date(Date.now() - (RETENTION_DAYS + 2) * 86_400_000),
      },
    });
    expect(await purgeSecurityEvents()).toBeGreaterThanOrEqual(1);
    expect(await db.securityEvent.findUnique({ where: { id: old.id } })).toBeNull();
    expect(await db.securityEvent.findUnique({ where: { id: entry.id } })).not.toBeNull();
  });
});
