// Members' roles, enforced by the access policy on every channel (issue 40): the dashboard's procedures and a session
// token on the public API, settings endpoints included. A member removed is refused on their session's next request.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { handleDashboardTrpcRequest } from '@/server/dashboard/trpc-endpoint';
import { createRestPipeline } from '@/server/rest/pipeline';
import { PUBLIC_API_BASE_PATH } from '@/server/operations/routes';
import { makeAccount, makeApp, makeMember } from '../../../../test/factories';

const ORIGIN = 'http://roles.test';
let server: Server;
let base: string;
let owner: Awaited<ReturnType<typeof makeAccount>>;
let appId: string;

beforeAll(async () => {
  const rest = createRestPipeline({ origin: ORIGIN });
  server = createServer((req, res) => void rest(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PUBLIC_API_BASE_PATH}`;
  owner = await makeAccount('pro');
  appId = (await makeApp(owner.accountId)).id;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

function rest(session: string, path: string, init: { method?: string; body?: unknown } = {}) {
  return fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${session}`,
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

function dashboard(session: string, path: string, input: unknown = undefined, method: 'GET' | 'POST' = 'GET') {
  // From an address of this file's own: a refused call counts against its address's limit, not the addressless one.
  const cookie = `next-auth.session-token=${session}`;
  const from = { 'x-forwarded-for': '198.51.100.40' };
  return handleDashboardTrpcRequest(
    method === 'GET'
      ? new Request(
          `${ORIGIN}/api/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
          { headers: { cookie, ...from } },
        )
      : new Request(`${ORIGIN}/api/trpc/${path}`, {
          method,
          headers: { cookie, ...from, 'content-type': 'application/json' },
          body: JSON.stringify(input),
        }),
  );
}

async function problemOf(response: Response) {
  const body = (await response.json()) as {
    code?: string;
    detail?: string;
    error?: { data?: { problem?: { code: string; detail: string } } };
  };
  return body.error?.data?.problem ?? body;
}

describe('an analyst', () => {
  it('reads the data and usage, and is refused keys and webhook endpoints on both surfaces, with why', async () => {
    const analyst = await makeMember(owner.accountId, 'analyst');
    expect((await rest(analyst.session, '/apps')).status).toBe(200);
    expect((await rest(analyst.session, `/apps/${appId}`)).status).toBe(200);
    expect((await rest(analyst.session, '/usage')).status).toBe(200);

    const refused = await rest(analyst.session, '/keys', {
      method: 'POST',
      body: { name: 'by an analyst', scope: 'read-only' },
    });
    expect(refused.status).toBe(403);
    expect(await problemOf(refused)).toMatchObject({
      code: 'insufficient-scope',
      detail: expect.stringContaining('analyst, does not let you manage API keys'),
    });
    expect((await rest(analyst.session, '/webhook-endpoints')).status).toBe(403);
    expect(
      (await rest(analyst.session, `/apps/${appId}/keywords`, { method: 'POST', body: { terms: ['by an analyst'] } }))
        .status,
    ).toBe(403);

    const viaDashboard = await dashboard(
      analyst.session,
      'apiKeys.create',
      { name: 'by an analyst', scope: 'read-only' },
      'POST',
    );
    expect(viaDashboard.status).toBe(403);
    expect((await dashboard(analyst.session, 'apps.remove', { id: appId }, 'POST')).status).toBe(403);
    expect((await dashboard(analyst.session, 'securityLog.list', {})).status).toBe(403);
    expect((await dashboard(analyst.session, 'apps.list', {})).status).toBe(200);
    expect(await db.apiKey.count({ where: { accountId: owner.accountId } })).toBe(0);
    expect(await db.trackedApp.count({ where: { id: appId } })).toBe(1);
  });
});

describe('a billing member', () => {
  it('sees usage and the plan, never the data', async () => {
    const billing = await makeMember(owner.accountId, 'billing');
    expect((await rest(billing.session, '/usage')).status).toBe(200);
    expect((await rest(billing.session, '/apps')).status).toBe(403);
    expect((await dashboard(billing.session, 'billing.overview')).status).toBe(200);
    expect((await dashboard(billing.session, 'account.get')).status).toBe(200);
    expect((await dashboard(billing.session, 'apps.list', {})).status).toBe(403);
  });
});

describe('a developer', () => {
  it('manages keys, and acts in the account it was added to, not its own', async () => {
    const developer = await makeMember(owner.accountId, 'developer');
    const made = await rest(developer.session, '/keys', {
      method: 'POST',
      body: { name: 'by a developer', scope: 'read-only' },
    });
    expect(made.status).toBe(200);
    const key = await db.apiKey.findFirstOrThrow({ where: { name: 'by a developer' } });
    expect(key).toMatchObject({ accountId: owner.accountId, createdById: developer.userId });
    expect((await dashboard(developer.session, 'securityLog.list', {})).status).toBe(403);
    expect((await dashboard(developer.session, 'billing.overview')).status).toBe(403);
  });
});

describe('a member removed', () => {
  it('is refused on their session’s next request, on both surfaces; the key they made keeps working', async () => {
    const developer = await makeMember(owner.accountId, 'developer');
    const made = (await (
      await rest(developer.session, '/keys', {
        method: 'POST',
        body: { name: 'outlives its maker', scope: 'read-only' },
      })
    ).json()) as { secret: string };
    expect((await rest(developer.session, '/apps')).status).toBe(200);
    await db.membership.delete({
      where: { accountId_userId: { accountId: owner.accountId, userId: developer.userId } },
    });
    expect((await rest(developer.session, '/apps')).status).toBe(401);
    expect((await dashboard(developer.session, 'apps.list', {})).status).toBe(401);
    expect((await rest(made.secret, '/apps')).status).toBe(200);
  });
});

describe('a member of two accounts', () => {
  it('acts on REST for the account its session was switched to, and GET /usage says which', async () => {
    const member = await makeMember(owner.accountId, 'analyst');
    // Their own account on a plan with API access, as an agency's would be.
    await db.account.update({ where: { id: member.ownAccountId }, data: { plan: 'pro' } });
    const names = new Map(
      (await db.account.findMany({ where: { id: { in: [owner.accountId, member.ownAccountId] } } })).map((row) => [
        row.id,
        row.name,
      ]),
    );
    const usageAccount = async () =>
      ((await (await rest(member.session, '/usage')).json()) as { account: { id: string; name: string } }).account;
    expect(await usageAccount()).toEqual({ id: owner.accountId, name: names.get(owner.accountId) });
    expect((await rest(member.session, `/apps/${appId}`)).status).toBe(200);

    expect(
      (await dashboard(member.session, 'members.switchAccount', { accountId: member.ownAccountId }, 'POST')).status,
    ).toBe(200);
    expect(await usageAccount()).toEqual({ id: member.ownAccountId, name: names.get(member.ownAccountId) });
    expect((await rest(member.session, `/apps/${appId}`)).status).toBe(404);
  });
});
