// The whole OAuth flow over HTTP, as an agent and a browser go through it: registration, authorization with PKCE,
// the owner's consent (signed in to the dashboard), the code for tokens, MCP calls under the consent's restrictions,
// refresh with rotation, and each attack on it answered as the specs say.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSessionToken } from '@/server/auth/session-token';
import { db } from '@/server/db';
import { createMcpEndpoint, MCP_PATH, mcpResource } from '@/server/mcp/mcp-endpoint';
import { usageReport } from '@/server/services/metering/credits';
import { listConnectedApps, revokeConnectedApp } from '@/server/services/oauth/connected-apps';
import { makeAccount, makeApp, makeMember } from '../../../test/factories';
import { callPublicApi } from '../../../test/public-api';
import { createAuthorizationServer } from './authorization-server';

let server: Server;
let origin: string;
const REDIRECT = 'https://agent.example/callback';

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const authorization = createAuthorizationServer({ origin });
  const mcp = createMcpEndpoint({ origin });
  server.on('request', (req, res) => {
    req.headers['x-forwarded-for'] = '127.0.0.1';
    req.headers['x-forwarded-proto'] = 'http';
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === MCP_PATH) return void mcp(req, res);
    if (!authorization.serve(req, res, path)) res.writeHead(404).end();
  });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A browser's cookies, by name (paths aside: every request of the flow is under /oauth). */
class Browser {
  private readonly cookies = new Map<string, string>();
  constructor(session?: string) {
    if (session) this.cookies.set('next-auth.session-token', session);
  }
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(new URL(url, origin), {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        Cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return response;
  }
}

async function signedInOwner(plan: 'pro' | 'free' = 'pro') {
  const account = await makeAccount(plan);
  const user = await db.user.findUniqueOrThrow({ where: { id: account.userId } });
  const session = await issueSessionToken({ id: user.id, email: user.email, accountId: account.accountId });
  const [mine, other] = [await makeApp(account.accountId), await makeApp(account.accountId)];
  return { ...account, browser: new Browser(session), mine, other };
}

async function registerClient(): Promise<string> {
  const answer = await fetch(`${origin}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test agent', redirect_uris: [REDIRECT] }),
  });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { client_id: string }).client_id;
}

/** Authorize → consent → back to the client: the code, or the error the client receives. */
async function authorize(
  browser: Browser,
  clientId: string,
  consent: Record<string, string | string[]>,
  { scope = 'read-write' } = {},
) {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope,
    state: 'state-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: mcpResource(origin),
  });
  const started = await browser.fetch(`/oauth/authorize?${query}`);
  expect(started.status).toBe(303);
  const consentPath = started.headers.get('location')!;
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(consent)) for (const each of [value].flat()) form.append(name, each);
  const decided = await browser.fetch(consentPath, {
    method: 'POST',
    headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  expect(decided.status, await decided.clone().text()).toBe(303);
  let location = decided.headers.get('location')!;
  // Back through the authorization endpoint, which sends the browser to the client.
  while (location.startsWith('/') || location.startsWith(origin)) {
    if (location.startsWith('/oauth/consent/'))
      return { consentError: new URL(location, origin).searchParams.get('error'), verifier };
    const next = await browser.fetch(location);
    expect(next.status).toBe(303);
    location = next.headers.get('location')!;
  }
  const back = new URL(location);
  expect(back.origin + back.pathname).toBe(REDIRECT);
  expect(back.searchParams.get('state')).toBe('state-1');
  expect(back.searchParams.get('iss')).toBe(origin);
  return { code: back.searchParams.get('code'), error: back.searchParams.get('error'), verifier };
}

async function token(parameters: Record<string, string>) {
  const answer = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(parameters).toString(),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, string | number> };
}

const exchange = (clientId: string, code: string, verifier: string) =>
  token({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id: clientId,
    code_verifier: verifier,
  });

async function callTool(accessToken: string, name: string, args: Record<string, unknown>) {
  const answer = await fetch(`${origin}${MCP_PATH}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${accessToken}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await answer.text();
  const data = text.split('\n').find((line) => line.startsWith('data: '));
  return {
    status: answer.status,
    challenge: answer.headers.get('www-authenticate'),
    result: data
      ? (JSON.parse(data.slice(6)).result as {
          isError?: boolean;
          content: { text: string }[];
          _meta: Record<string, unknown>;
        })
      : null,
    text,
  };
}

const problemOf = (result: { content: { text: string }[] } | null) =>
  JSON.parse(result!.content[0]!.text) as { code: string };

describe('OAuth for the MCP server', () => {
  it('connects an agent with the owner’s consent: read-only on one app, charged like a key, refused elsewhere and once revoked', async () => {
    const owner = await signedInOwner();
    const clientId = await registerClient();
    const { code, verifier } = await authorize(owner.browser, clientId, {
      decision: 'allow',
      scope: 'read-only',
      apps: 'some',
      appIds: [owner.mine.id],
    });
    expect(code).toEqual(expect.any(String));

    // A wrong verifier is refused, and does not use up the code.
    expect(
      await token({
        grant_type: 'authorization_code',
        code: code!,
        redirect_uri: REDIRECT,
        client_id: clientId,
        code_verifier: randomBytes(32).toString('base64url'),
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const tokens = await exchange(clientId, code!, verifier);
    expect(tokens).toMatchObject({
      status: 200,
      body: {
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'read-only',
        access_token: expect.any(String),
        refresh_token: expect.any(String),
      },
    });
    const accessToken = String(tokens.body.access_token);

    const [connected] = await listConnectedApps(owner.accountId);
    expect(connected).toMatchObject({
      clientId,
      clientName: 'Test agent',
      scope: 'read-only',
      status: 'active',
      restrictions: { appIds: [owner.mine.id], allowedCidrs: [], monthlyBudget: null },
    });
    // A connection lasts a year from its consent, as its grant does.
    expect(Math.round((connected!.expiresAt!.getTime() - connected!.createdAt.getTime()) / 86_400_000)).toBe(365);
    const grant = await db.oAuthRecord.findFirstOrThrow({
      where: { kind: 'Grant', grantId: { not: null } },
      orderBy: { expiresAt: 'desc' },
    });
    expect(Math.round((grant.expiresAt!.getTime() - Date.now()) / 86_400_000)).toBe(365);
    const log = await db.securityEvent.findMany({ where: { accountId: owner.accountId, kind: 'oauth_grant.created' } });
    expect(log).toHaveLength(1);

    const read = await callTool(accessToken, 'apps_get', { id: owner.mine.id });
    expect(read.result?.isError, read.text).toBeFalsy();
    expect(read.result?._meta.credits).toMatchObject({ charged: 1 });
    expect(problemOf((await callTool(accessToken, 'apps_get', { id: owner.other.id })).result).code).toBe('not-found');
    expect(
      problemOf((await callTool(accessToken, 'keywords_add', { id: owner.mine.id, terms: ['x'] })).result).code,
    ).toBe('insufficient-scope');
    // The connected app's calls are in its request log and usage, as a key's.
    const usage = await db.creditUsageDaily.findMany({ where: { accountId: owner.accountId, subject: connected!.id } });
    expect(usage.reduce((sum, row) => sum + row.credits, 0)).toBe(1);
    // GET /usage lists it beside the keys.
    expect((await usageReport(owner.accountId, null, new Date())).byKey).toContainEqual(
      expect.objectContaining({
        keyId: connected!.id,
        kind: 'connected_app',
        name: 'Test agent',
        key: null,
        calls: 1,
        credits: 1,
      }),
    );

    // Issued for the MCP server only: the public API refuses it.
    const rest = await callPublicApi(
      new Request(`${origin}/api/public/v1/usage`, { headers: { Authorization: `Bearer ${accessToken}` } }),
    );
    expect(rest.status).toBe(401);
    expect(await rest.json()).toMatchObject({ detail: expect.stringContaining('MCP server') });

    // Revoked in the dashboard: the next call is refused, and so is the refresh.
    await revokeConnectedApp(owner.accountId, connected!.id);
    const refused = await callTool(accessToken, 'apps_get', { id: owner.mine.id });
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain(`resource_metadata="${origin}/.well-known/oauth-protected-resource/api/mcp"`);
    expect(
      await token({
        grant_type: 'refresh_token',
        refresh_token: String(tokens.body.refresh_token),
        client_id: clientId,
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await db.securityEvent.count({ where: { accountId: owner.accountId, kind: 'oauth_grant.revoked' } })).toBe(
      1,
    );
  });

  it('rotates the refresh token on every use; a replayed one revokes the whole grant and its connected app', async () => {
    const owner = await signedInOwner();
    const clientId = await registerClient();
    const { code, verifier } = await authorize(owner.browser, clientId, {
      decision: 'allow',
      scope: 'read-write',
      apps: 'all',
      monthlyBudget: '50',
    });
    const first = await exchange(clientId, code!, verifier);
    const rotated = await token({
      grant_type: 'refresh_token',
      refresh_token: String(first.body.refresh_token),
      client_id: clientId,
    });
    expect(rotated).toMatchObject({
      status: 200,
      body: { access_token: expect.any(String), refresh_token: expect.any(String) },
    });
    expect(rotated.body.refresh_token).not.toBe(first.body.refresh_token);
    const writes = await callTool(String(rotated.body.access_token), 'keywords_add', {
      id: owner.mine.id,
      terms: ['focus'],
    });
    expect(writes.result?.isError, writes.text).toBeFalsy();

    // The first refresh token again: refused, and every token of the grant with it.
    expect(
      await token({
        grant_type: 'refresh_token',
        refresh_token: String(first.body.refresh_token),
        client_id: clientId,
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await callTool(String(rotated.body.access_token), 'apps_get', { id: owner.mine.id })).status).toBe(401);
    expect(
      await token({
        grant_type: 'refresh_token',
        refresh_token: String(rotated.body.refresh_token),
        client_id: clientId,
      }),
    ).toMatchObject({ status: 400 });
    await expect.poll(async () => (await listConnectedApps(owner.accountId))[0]?.status).toBe('revoked');
    const entry = await db.securityEvent.findFirstOrThrow({
      where: { accountId: owner.accountId, kind: 'oauth_grant.revoked' },
    });
    expect(entry).toMatchObject({
      actorType: 'system',
      after: { status: 'revoked', reason: 'a used authorization code or refresh token was presented again' },
    });
  });

  it('holds a connection to the monthly budget given at consent, as a key is held to its own', async () => {
    const owner = await signedInOwner();
    const clientId = await registerClient();
    const { code, verifier } = await authorize(owner.browser, clientId, {
      decision: 'allow',
      scope: 'read-only',
      apps: 'all',
      monthlyBudget: '1',
    });
    const accessToken = String((await exchange(clientId, code!, verifier)).body.access_token);
    expect((await callTool(accessToken, 'apps_get', { id: owner.mine.id })).result?.isError).toBeFalsy();
    const refused = (await callTool(accessToken, 'apps_get', { id: owner.mine.id })).result;
    expect(problemOf(refused)).toMatchObject({ code: 'key-budget-exhausted' });
    expect(refused?._meta.credits).toMatchObject({ charged: 0 });
  });

  it('a code exchanged twice is refused the second time, and the tokens issued from it are revoked', async () => {
    const owner = await signedInOwner();
    const clientId = await registerClient();
    const { code, verifier } = await authorize(owner.browser, clientId, {
      decision: 'allow',
      scope: 'read-only',
      apps: 'all',
    });
    const first = await exchange(clientId, code!, verifier);
    expect(first.status).toBe(200);
    expect(await exchange(clientId, code!, verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await callTool(String(first.body.access_token), 'apps_list', {})).status).toBe(401);
  });

  it('a deny goes back to the client as access_denied, and makes no connected app', async () => {
    const owner = await signedInOwner();
    const clientId = await registerClient();
    expect(await authorize(owner.browser, clientId, { decision: 'deny' })).toMatchObject({
      code: null,
      error: 'access_denied',
    });
    expect(await listConnectedApps(owner.accountId)).toEqual([]);
  });

  it('a Free account cannot connect an app: the consent says why, and nothing is granted', async () => {
    const owner = await signedInOwner('free');
    const clientId = await registerClient();
    const { consentError } = await authorize(owner.browser, clientId, {
      decision: 'allow',
      scope: 'read-only',
      apps: 'all',
    });
    expect(consentError).toMatch(/paid plans/);
    expect(await listConnectedApps(owner.accountId)).toEqual([]);
  });

  it('a member whose role manages no keys cannot connect an app either: the consent says why, and nothing is granted', async () => {
    const owner = await signedInOwner();
    const analyst = await makeMember(owner.accountId, 'analyst');
    const clientId = await registerClient();
    const { consentError } = await authorize(new Browser(analyst.session), clientId, {
      decision: 'allow',
      scope: 'read-only',
      apps: 'all',
    });
    expect(consentError).toMatch(/analyst, does not let you manage API keys and connected apps/);
    expect(await listConnectedApps(owner.accountId)).toEqual([]);
  });

  it('refuses a consent posted from another site, or without the dashboard’s sign-in', async () => {
    const owner = await signedInOwner();
    const clientId = await registerClient();
    const query = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: REDIRECT,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const consentPath = (await owner.browser.fetch(`/oauth/authorize?${query}`)).headers.get('location')!;
    const form = 'decision=allow&scope=read-only&apps=all';
    const crossSite = await owner.browser.fetch(consentPath, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect(crossSite.status).toBe(403);
    const anonymous = await new Browser().fetch(consentPath, {
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toMatch(/^\/sign-in\?callbackUrl=/);
    // Another signed-in user's browser, without this flow's interaction cookie.
    const stranger = await signedInOwner();
    expect(
      (
        await stranger.browser.fetch(consentPath, {
          method: 'POST',
          headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: form,
        })
      ).status,
    ).toBe(400);
    expect(await listConnectedApps(owner.accountId)).toEqual([]);
    expect(await listConnectedApps(stranger.accountId)).toEqual([]);
  });
});
