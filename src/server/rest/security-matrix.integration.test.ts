// The security matrix: every endpoint × every kind of credential, through the real handler and database; the
// dashboard's endpoint likewise; and the sign-in lockout attack (at the end). Each
// refusal is the documented one, a bad checksum never reaches the database, the secret itself never reaches the
// database (only its SHA-256 digest) nor any log line. OAuth access tokens are credentials here too; the attacks on
// the OAuth flow itself (a redirect URI not registered, a missing or wrong code_verifier, a code used twice, a refresh
// token replayed, a script or plain-HTTP redirect registered, another resource, state and iss) need a browser's cookies
// and a registered client, and are in src/server/oauth/oauth-flow.integration.test.ts and
// authorization-server.integration.test.ts.
import { randomUUID } from 'node:crypto';
import { decode, encode } from 'next-auth/jwt';
import pg from 'pg';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleDashboardTrpcRequest } from '@/server/dashboard/trpc-endpoint';
import { dashboardRouter } from '@/server/api/dashboard-router';
import { replyFixture } from '../../../test/reply-fixture';
import { exportFixture } from '../../../test/export-fixture';
import { appRouter } from '@/server/api/root';
import { successStatus, type ProcedureMeta } from '@/server/api/trpc';
import {
  authSecret,
  endSession,
  issueApiReferenceToken,
  issueSessionToken,
  verifySessionToken,
} from '@/server/auth/session-token';
import { db } from '@/server/db';
import { SIGN_IN_LIMITS, signInWithLimit } from '@/server/services/accounts/sign-in-limit';
import { createApiKey, revokeApiKey } from '@/server/services/api-keys/api-keys';
import { listSecurityEvents } from '@/server/services/security-log/security-log';
import { periodOf } from '@/server/services/metering/credits';
import { addApp } from '@/server/services/apps/apps';
import { createWebhookEndpoint, sendTestEvent } from '@/server/services/webhooks/endpoints';
import { sandboxOf } from '@/server/services/accounts/sandboxes';
import { inviteMember } from '@/server/services/accounts/members';
import { checksumOf, formatApiKey, KEY_PREFIXES, randomBase62 } from '@/server/services/api-keys/key-format';
import { makeAccount, makeApp, makeMember } from '../../../test/factories';
import { MEMBER_ROLES, roleAllows, type MemberRole } from '@/server/services/access/roles';
import { permissionOf } from '@/server/services/access/access-policy';
import { makeAsoApp } from '../../../test/aso-fixture';
import { callPublicApi } from '../../../test/public-api';
import { callMcpTool, postMcp } from '../../../test/mcp';
import { startAppStoreConnectStandIn } from '../../../test/stores/app-store-connect-stand-in';
import { resetConfig } from '@/server/core/config';
import { TOOLSET_NAMES, TOOLSETS } from '@/server/mcp/toolsets';
import { toolName } from '@/server/mcp/tools';
import { oauthIdHash } from '@/server/db/oauth-records';
import { OAuthAdapter } from '@/server/oauth/oauth-adapter';
import { createConnectedApp, revokeConnectedApp } from '@/server/services/oauth/connected-apps';
import { buildOperations, type Operation } from '@/server/operations/routes';

const ORIGIN = 'http://matrix.test';
const routes = buildOperations(appRouter);
const BODIES: Record<string, unknown> = {
  'POST /apps/{id}/keywords': { terms: ['matrix term'] },
  'POST /apps/{id}/competitors': { storeUrl: 'https://apps.apple.com/us/app/calm/id571800810' },
  'POST /apps': { storeUrl: 'https://apps.apple.com/us/app/calm/id571800810' },
  'POST /keys': { name: 'matrix made', scope: 'read-only' },
  'PATCH /keys/{keyId}': { name: 'matrix renamed' },
  'POST /keys/{keyId}/roll': { gracePeriod: '1h' },
  'POST /webhook-endpoints': { url: 'http://127.0.0.1:9/matrix-made' },
  'PATCH /webhook-endpoints/{endpointId}': { description: 'matrix' },
  'POST /apps/{id}/reviews/{reviewId}/reply-drafts': { body: 'Thank you for the review!' },
};
const QUERIES: Record<string, string> = { '/apps/{id}/keywords/research': '?term=sleep', '/search': '?query=sleep' };
/** Ids a path takes in another form than a bare uuid: fetch's are `app:<uuid>` or `keyword:<uuid>`. */
const ID_FORMS: Record<string, (id: string) => string> = { '/search/{id}': (id) => `app:${id}` };

/** A tool's arguments: the route's body, its path's ids (in their form), and the query a read needs. */
function toolArguments(route: Operation, values: Partial<Record<string, string>>): Record<string, unknown> {
  const args: Record<string, unknown> = { ...(BODIES[`${route.method} ${route.template}`] as object | undefined) };
  const form = ID_FORMS[route.template] ?? ((id: string) => id);
  for (const name of route.pathParameters) args[name] = form(values[name]!);
  if (route.template === '/apps/{id}/keywords/research') args.term = 'sleep';
  if (route.template === '/search') args.query = 'sleep';
  return args;
}

type Expectation = { status: number; slug?: string; challenge?: RegExp };
interface Credential {
  name: string;
  authorization: string | null;
  expect: (route: Operation) => Expectation;
  /** Refused before any database work. */
  noDatabase?: boolean;
}

/** The settings endpoints (keys, webhook endpoints): a session token only; every key is refused, whatever its scope. */
const settings = (route: Operation) => route.meta.scope === 'admin';

const unauthorized = (detail: RegExp | null = null): Expectation => ({
  status: 401,
  slug: 'unauthorized',
  challenge: detail ?? /^Bearer realm="public-api", error="invalid_token"$/,
});

let ids: {
  id: string;
  keywordId: string;
  keyId: string;
  endpointId: string;
  deliveryId: string;
  reviewId: string;
  draftId: string;
  exportId: string;
};
/** Puts the reply drafts the matrix approves and discards back to drafted (test/reply-fixture.ts). */
const redrafts: (() => Promise<void>)[] = [];
/** Puts the exports back as each call expects them (test/export-fixture.ts). */
const exportResets: ((operation: string) => Promise<void>)[] = [];
async function redraftFor(route: Operation): Promise<void> {
  if (/\/reply-drafts\/\{draftId\}\/(approve|discard)$/.test(route.template))
    for (const redraft of redrafts) await redraft();
  for (const reset of exportResets) await reset(`${route.method} ${route.template}`);
}
/** Asking for an export names an app of the account (in its body): another account's credential is refused 404. */
const asksForExport = (route: Operation) => route.method === 'POST' && route.template === '/exports';
/** Ids a route's successful call uses up (a key revoked, an endpoint deleted), apart from those the others read. */
let routeIds: Record<string, Partial<typeof ids>>;
let credentials: Credential[];
const secrets: string[] = [];
const logged: string[] = [];
const queried: string[] = [];

beforeAll(async () => {
  const { owner, app } = await makeAsoApp();
  const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id } });
  process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST = 'true';
  const managed = await createApiKey(owner, { name: 'matrix managed', scope: 'read-only' });
  const toRevoke = await createApiKey(owner, { name: 'matrix to revoke', scope: 'read-only' });
  const { endpoint, secret: endpointSecret } = await createWebhookEndpoint(owner.accountId, {
    url: 'http://127.0.0.1:9/matrix',
  });
  const { endpoint: toDelete, secret: toDeleteSecret } = await createWebhookEndpoint(owner.accountId, {
    url: 'http://127.0.0.1:9/matrix-gone',
  });
  const { deliveryId } = await sendTestEvent(owner, endpoint.id);
  const replies = await replyFixture(owner, app.id);
  redrafts.push(replies.redraft);
  const exported = await exportFixture(owner.accountId);
  exportResets.push(exported.beforeCall);
  BODIES['POST /exports'] = {
    datasets: ['ratings'],
    appIds: [app.id],
    from: '2026-06-01',
    to: '2026-06-30',
    format: 'csv',
  };
  ids = {
    id: app.id,
    keywordId: keyword.id,
    keyId: managed.key.id,
    endpointId: endpoint.id,
    deliveryId,
    reviewId: replies.reviewId,
    draftId: replies.draftId,
    exportId: exported.exportId,
  };
  routeIds = {
    'POST /keys/{keyId}/revoke': { keyId: toRevoke.key.id },
    'DELETE /webhook-endpoints/{endpointId}': { endpointId: toDelete.id },
  };
  const user = await db.user.findFirstOrThrow({ where: { accountId: owner.accountId } });
  const other = await makeAccount('pro');
  const free = await makeAccount('solo');

  const readWrite = (await createApiKey(owner, { name: 'matrix rw', scope: 'read-write' })).secret;
  const readOnly = (await createApiKey(owner, { name: 'matrix ro', scope: 'read-only' })).secret;
  const revoked = await createApiKey(owner, { name: 'matrix revoked', scope: 'read-write' });
  await revokeApiKey(owner.accountId, revoked.key.id);
  const expired = (
    await createApiKey(owner, { name: 'matrix expired', scope: 'read-write', expiresAt: new Date(Date.now() + 60_000) })
  ).secret;
  await db.apiKey.updateMany({
    where: { accountId: owner.accountId, name: 'matrix expired' },
    data: { expiresAt: new Date(Date.now() - 1_000) },
  });
  const otherKey = (await createApiKey(other, { name: 'matrix other', scope: 'read-write' })).secret;
  // Restricted keys of the owner: to another of its apps, to addresses this caller is not at, to a spent budget.
  const secondApp = await addApp(
    owner,
    { storeUrl: 'https://play.google.com/store/apps/details?id=com.matrix.second' },
    { backfill: 'caller' },
  );
  const otherAppOnly = (
    await createApiKey(owner, {
      name: 'matrix other app only',
      scope: 'read-write',
      restrictions: { appIds: [secondApp.app.id] },
    })
  ).secret;
  const elsewhereOnly = (
    await createApiKey(owner, {
      name: 'matrix elsewhere only',
      scope: 'read-write',
      restrictions: { allowedCidrs: ['10.0.0.0/8'] },
    })
  ).secret;
  const spent = await createApiKey(owner, {
    name: 'matrix budget spent',
    scope: 'read-write',
    restrictions: { monthlyBudget: 1 },
  });
  await db.keyCreditUsage.create({ data: { keyId: spent.key.id, periodStart: periodOf(new Date()).start, used: 1 } });
  const freeKey = (await createApiKey(free, { name: 'matrix free', scope: 'read-write' })).secret;
  await db.account.update({ where: { id: free.accountId }, data: { plan: 'free' } });

  const random = randomBase62(32);
  const badChecksum = `${KEY_PREFIXES.live}${random}${checksumOf(random) === '000000' ? '000001' : '000000'}`;
  const unknown = formatApiKey(randomBase62(32));
  const session = await issueSessionToken({ id: user.id, email: user.email, accountId: owner.accountId });
  const tampered = session.slice(0, -6) + (session.endsWith('AAAAAA') ? 'BBBBBB' : 'AAAAAA');
  const expiredSession = await issueSessionToken({ id: user.id, email: user.email, accountId: owner.accountId }, -60);
  const algNone = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: user.id, accountId: owner.accountId, exp: 9_999_999_999 })).toString('base64url')}.`;
  // A token signed with another secret: well-formed, undecryptable here.
  const foreign = await encode({
    token: { sub: user.id, accountId: owner.accountId },
    secret: `${authSecret()}-not-ours`,
    maxAge: 3600,
  });
  const stranger = await makeAccount('pro');
  const strangerSession = await issueSessionToken({
    id: stranger.userId,
    email: stranger.email,
    accountId: stranger.accountId,
  });
  // Members of the owner's account in every other role, and an analyst of another account (issue 40).
  const members = await Promise.all(
    MEMBER_ROLES.filter((role) => role !== 'owner').map(async (role) => ({
      role,
      ...(await makeMember(owner.accountId, role)),
    })),
  );
  const strangerAnalyst = await makeMember(stranger.accountId, 'analyst');
  const roleRefused: Expectation = { status: 403, slug: 'insufficient-scope' };
  const asMember = (role: MemberRole, expect: (route: Operation) => Expectation) => (route: Operation) =>
    roleAllows(role, permissionOf(route.meta)) ? expect(route) : roleRefused;
  secrets.push(managed.secret, toRevoke.secret, endpointSecret, toDeleteSecret, strangerSession);
  secrets.push(
    readWrite,
    readOnly,
    revoked.secret,
    expired,
    otherKey,
    otherAppOnly,
    elsewhereOnly,
    spent.secret,
    freeKey,
    badChecksum,
    unknown,
    session,
    tampered,
    expiredSession,
    foreign,
  );

  const writes = (route: Operation) => route.meta.scope === 'write';
  const hasAppId = (route: Operation) =>
    route.pathParameters.includes('id') || route.pathParameters.includes('exportId') || asksForExport(route);
  const keysManageNothing: Expectation = {
    status: 403,
    slug: 'insufficient-scope',
    challenge: /^Bearer error="insufficient_scope", scope="admin"$/,
  };
  const asKey = (expect: (route: Operation) => Expectation) => (route: Operation) =>
    settings(route) ? keysManageNothing : expect(route);
  credentials = [
    { name: 'valid read-write key', authorization: `Bearer ${readWrite}`, expect: asKey(() => ({ status: 200 })) },
    { name: 'valid session token', authorization: `Bearer ${session}`, expect: () => ({ status: 200 }) },
    {
      name: 'another account’s session token',
      authorization: `Bearer ${strangerSession}`,
      expect: (route) =>
        route.pathParameters.length > 0 || asksForExport(route) ? { status: 404, slug: 'not-found' } : { status: 200 },
    },
    // A key is rolled once and an endpoint deleted once (the owner's session above did): a member allowed to is then
    // told so, as the owner would be.
    ...members.map(
      ({ role, session: token }): Credential => ({
        name: `session token of a member, ${role}`,
        authorization: `Bearer ${token}`,
        expect: asMember(role, (route) =>
          route.template === '/keys/{keyId}/roll'
            ? { status: 400, slug: 'validation-error' }
            : route.method === 'DELETE'
              ? { status: 404, slug: 'not-found' }
              : { status: 200 },
        ),
      }),
    ),
    {
      name: 'session token of another account’s analyst',
      authorization: `Bearer ${strangerAnalyst.session}`,
      expect: asMember('analyst', (route) =>
        route.pathParameters.length > 0 || asksForExport(route) ? { status: 404, slug: 'not-found' } : { status: 200 },
      ),
    },
    {
      name: 'no credential',
      authorization: null,
      expect: () => unauthorized(/^Bearer realm="public-api"$/),
      noDatabase: true,
    },
    { name: 'empty bearer', authorization: 'Bearer ', expect: () => unauthorized(), noDatabase: true },
    { name: 'basic scheme', authorization: 'Basic dXNlcjpwYXNz', expect: () => unauthorized(), noDatabase: true },
    {
      name: 'malformed key',
      authorization: `Bearer ${KEY_PREFIXES.live}short`,
      expect: () => unauthorized(),
      noDatabase: true,
    },
    { name: 'bad checksum', authorization: `Bearer ${badChecksum}`, expect: () => unauthorized(), noDatabase: true },
    { name: 'unknown key', authorization: `Bearer ${unknown}`, expect: () => unauthorized() },
    { name: 'revoked key', authorization: `Bearer ${revoked.secret}`, expect: () => unauthorized() },
    { name: 'expired key', authorization: `Bearer ${expired}`, expect: () => unauthorized() },
    { name: 'tampered session token', authorization: `Bearer ${tampered}`, expect: () => unauthorized() },
    { name: 'expired session token', authorization: `Bearer ${expiredSession}`, expect: () => unauthorized() },
    { name: 'alg none token', authorization: `Bearer ${algNone}`, expect: () => unauthorized(), noDatabase: true },
    { name: 'token of another secret', authorization: `Bearer ${foreign}`, expect: () => unauthorized() },
    {
      name: 'read-only key',
      authorization: `Bearer ${readOnly}`,
      expect: asKey((route) =>
        writes(route)
          ? { status: 403, slug: 'insufficient-scope', challenge: /^Bearer error="insufficient_scope", scope="write"$/ }
          : { status: 200 },
      ),
    },
    {
      name: 'another account’s key',
      authorization: `Bearer ${otherKey}`,
      expect: asKey((route) => (hasAppId(route) ? { status: 404, slug: 'not-found' } : { status: 200 })),
    },
    {
      name: 'Free tier key',
      authorization: `Bearer ${freeKey}`,
      expect: () => ({ status: 403, slug: 'plan-required' }),
    },
    {
      name: 'key restricted to another app',
      authorization: `Bearer ${otherAppOnly}`,
      expect: asKey((route) =>
        route.method === 'POST' && route.template === '/apps'
          ? { status: 403, slug: 'insufficient-scope' }
          : hasAppId(route)
            ? { status: 404, slug: 'not-found' }
            : { status: 200 },
      ),
    },
    {
      name: 'key restricted to other addresses',
      authorization: `Bearer ${elsewhereOnly}`,
      expect: () => ({ status: 403, slug: 'ip-not-allowed' }),
    },
    {
      name: 'key with its budget spent',
      authorization: `Bearer ${spent.secret}`,
      // An export is charged by its rows, as it is asked for: the budget refuses it too.
      expect: asKey((route) =>
        (route.meta.credits ?? 0) > 0 || asksForExport(route)
          ? { status: 402, slug: 'key-budget-exhausted' }
          : { status: 200 },
      ),
    },
  ];

  // Every log line and every statement sent to the database during the matrix.
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      logged.push(String(chunk));
      return true;
    });
  }
  // Client, not Pool: Prisma's adapter takes a client from the pool and queries it, as the pool's own query does.
  const query = pg.Client.prototype.query;
  vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text?: string; values?: unknown[] };
    const values = typeof config === 'string' ? args[1] : config.values;
    queried.push(JSON.stringify([typeof config === 'string' ? config : config.text, values ?? [], args[1] ?? null]));
    return (query as (...params: unknown[]) => unknown).apply(this, args);
  } as never);
});

afterAll(() => {
  vi.restoreAllMocks();
  delete process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST;
});

function requestFor(
  route: Operation,
  authorization: string | null,
  {
    values = { ...ids, ...routeIds[`${route.method} ${route.template}`] },
    extra = {},
  }: { values?: typeof ids; extra?: Record<string, string> } = {},
): Request {
  const form = ID_FORMS[route.template] ?? ((id: string) => id);
  const path =
    route.template.replace(/\{(\w+)\}/g, (_, name: keyof typeof ids) => form(values[name]!)) +
    (QUERIES[route.template] ?? '');
  const headers: Record<string, string> = { ...extra };
  if (authorization !== null) headers.Authorization = authorization;
  let body: string | undefined;
  if (route.method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(BODIES[`${route.method} ${route.template}`]);
  }
  return new Request(`${ORIGIN}/api/public/v1${path}`, { method: route.method, headers, body });
}

/**
 * Issue 66: for one credential, every toolset in both modes offers exactly the toolset's tools the credential may call
 * (read-only, a read-only credential's), and a tool it did not offer is refused as an unknown one, before anything
 * runs. What the credential may call is what it is offered with every toolset.
 */
async function expectToolsetsHold(label: string, authorization: string): Promise<void> {
  const request = (method: string, params: object, headers: Record<string, string>) =>
    postMcp(ORIGIN, authorization, { jsonrpc: '2.0', id: 1, method, params }, headers);
  const list = async (headers: Record<string, string>) =>
    ((await request('tools/list', {}, headers)).body!.result as { tools: ListedTool[] }).tools;
  type ListedTool = { name: string; annotations: { readOnlyHint: boolean } };
  const callable = await list({ 'X-MCP-Toolsets': 'all' });
  expect(callable.length, label).toBeGreaterThan(0);
  const reads = new Set(callable.filter((tool) => tool.annotations.readOnlyHint).map((tool) => tool.name));
  const names = new Set(callable.map((tool) => tool.name));
  for (const [index, toolset] of TOOLSET_NAMES.entries()) {
    for (const readOnly of [false, true]) {
      const headers = { 'X-MCP-Toolsets': toolset, 'X-MCP-Readonly': String(readOnly) };
      const at = `${label}, ${toolset}${readOnly ? ', read-only' : ''}`;
      const expected = TOOLSETS[toolset].tools.filter((name) => names.has(name) && (!readOnly || reads.has(name)));
      expect((await list(headers)).map((tool) => tool.name).sort(), at).toEqual([...expected].sort());
      const outside = TOOLSETS[TOOLSET_NAMES[(index + 1) % TOOLSET_NAMES.length]!].tools[0]!;
      const refused = await request('tools/call', { name: outside, arguments: {} }, headers);
      expect((refused.body!.error as { code: number } | undefined)?.code, `${at}: ${outside}`).toBe(-32602);
      const writes = TOOLSETS[toolset].tools.filter((name) => names.has(name) && !reads.has(name));
      if (readOnly && writes.length) {
        const write = await request('tools/call', { name: writes[0], arguments: {} }, headers);
        expect((write.body!.error as { code: number } | undefined)?.code, `${at}: ${writes[0]}`).toBe(-32602);
      }
    }
  }
}

describe('security matrix: every endpoint × every credential', () => {
  it('answers each combination as documented', async () => {
    for (const credential of credentials) {
      for (const route of routes) {
        const label = `${credential.name} → ${route.method} ${route.template}`;
        await redraftFor(route);
        const before = queried.length;
        const response = await callPublicApi(requestFor(route, credential.authorization));
        const expected = credential.expect(route);
        const text = await response.text();
        expect(response.status, `${label}: ${text.slice(0, 200)}`).toBe(
          expected.status === 200 ? successStatus(route.meta) : expected.status,
        );
        if (expected.slug) {
          expect(response.headers.get('content-type'), label).toBe('application/problem+json');
          expect(JSON.parse(text).type, label).toBe(`${ORIGIN}/docs/problems/${expected.slug}`);
          expect(response.headers.get('x-credits-cost') ?? '0', label).toBe('0');
        }
        if (expected.challenge) expect(response.headers.get('www-authenticate'), label).toMatch(expected.challenge);
        // A secret is shown once, by the answer that makes it: no list or read shows one.
        if (route.method === 'GET')
          for (const secret of secrets) expect(text.includes(secret), `${label} shows a secret`).toBe(false);
        // The secrets the settings endpoints made: in no log line, nor sent to the database (checked below).
        if (response.ok && settings(route)) {
          for (const made of text.match(/svc_live_[0-9A-Za-z]{38}|whsec_[\w-]{43}/g) ?? []) secrets.push(made);
        }
        if (credential.noDatabase) expect(queried.length - before, `${label} reached the database`).toBe(0);
      }
    }
  });

  // Test mode (CONTRACT "Test mode"): the owner's sandbox is another account as far as ids go. Every id in a path is
  // tried in the other mode: a test key and a session in test mode on the live ids, a live key and a live session on the
  // sandbox's ids. 404 everywhere (a key on the settings routes gets the 403 above instead), nothing charged in either
  // mode; on the MCP server the same for every tool.
  it('keeps the modes apart: every test credential gets 404 on every live id, every live credential on every test id, nothing charged', async () => {
    const owner = await db.trackedApp.findUniqueOrThrow({ where: { id: ids.id }, select: { accountId: true } });
    const user = await db.user.findFirstOrThrow({ where: { accountId: owner.accountId } });
    const sandboxId = await sandboxOf(owner.accountId);
    // Their history is not needed here, and other files' backfill loops must not wait on it.
    await db.appBackfill.updateMany({ where: { app: { accountId: sandboxId } }, data: { finishedAt: new Date() } });
    const sandboxApp = await db.trackedApp.findFirstOrThrow({
      where: { accountId: sandboxId, keywords: { some: {} } },
      include: { keywords: true },
    });
    const testKey = await createApiKey(
      { accountId: sandboxId, userId: user.id },
      { name: 'matrix test key', scope: 'read-write' },
    );
    const { endpoint, secret } = await createWebhookEndpoint(sandboxId, { url: 'http://127.0.0.1:9/matrix-test' });
    const { deliveryId } = await sendTestEvent({ accountId: sandboxId, mode: 'test' }, endpoint.id);
    secrets.push(testKey.secret, secret);
    const testReplies = await replyFixture({ accountId: sandboxId, userId: user.id }, sandboxApp.id);
    redrafts.push(testReplies.redraft);
    const testExport = await exportFixture(sandboxId);
    exportResets.push(testExport.beforeCall);
    const testIds = {
      exportId: testExport.exportId,
      id: sandboxApp.id,
      keywordId: sandboxApp.keywords[0]!.id,
      keyId: testKey.key.id,
      endpointId: endpoint.id,
      deliveryId,
      reviewId: testReplies.reviewId,
      draftId: testReplies.draftId,
    };
    const session = await issueSessionToken({ id: user.id, email: user.email, accountId: owner.accountId });
    const liveKey = (
      await createApiKey(
        { accountId: owner.accountId, userId: user.id },
        { name: 'matrix live key', scope: 'read-write' },
      )
    ).secret;
    const spent = async () =>
      (
        await db.creditUsage.aggregate({
          where: { accountId: { in: [owner.accountId, sandboxId] } },
          _sum: { used: true },
        })
      )._sum.used ?? 0;
    const before = await spent();
    const legs: {
      name: string;
      authorization: string;
      key: boolean;
      values: typeof ids;
      extra: Record<string, string>;
    }[] = [
      { name: 'test key on live ids', authorization: `Bearer ${testKey.secret}`, key: true, values: ids, extra: {} },
      {
        name: 'session in test mode on live ids',
        authorization: `Bearer ${session}`,
        key: false,
        values: ids,
        extra: { 'X-Test-Mode': 'true' },
      },
      { name: 'live key on test ids', authorization: `Bearer ${liveKey}`, key: true, values: testIds, extra: {} },
      { name: 'live session on test ids', authorization: `Bearer ${session}`, key: false, values: testIds, extra: {} },
    ];
    const withIds = routes.filter((route) => route.pathParameters.length > 0);
    expect(withIds.length).toBeGreaterThan(20);
    for (const leg of legs) {
      for (const route of withIds) {
        if (leg.key && settings(route)) continue;
        const label = `${leg.name} → ${route.method} ${route.template}`;
        const response = await callPublicApi(
          requestFor(route, leg.authorization, { values: leg.values, extra: leg.extra }),
        );
        const text = await response.text();
        expect(response.status, `${label}: ${text.slice(0, 200)}`).toBe(404);
        expect(JSON.parse(text).type, label).toBe(`${ORIGIN}/docs/problems/not-found`);
        expect(response.headers.get('x-credits-cost'), label).toBe('0');
      }
      if (!leg.key) continue;
      for (const route of withIds.filter((each) => !settings(each))) {
        const args = toolArguments(route, leg.values);
        const label = `MCP ${leg.name} → ${toolName(route)}`;
        await redraftFor(route);
        const answer = await callMcpTool(ORIGIN, leg.authorization, toolName(route), args);
        expect(answer.problem, `${label}: ${answer.text.slice(0, 200)}`).toMatchObject({
          type: `${ORIGIN}/docs/problems/not-found`,
          status: 404,
        });
        expect((answer.result!._meta!.credits as { charged: number }).charged, label).toBe(0);
      }
    }
    // A test key's toolsets and modes hold as a live key's.
    await expectToolsetsHold('test key', `Bearer ${testKey.secret}`);
    expect(await spent()).toBe(before);
  });

  // The same credentials on the MCP server: every tool (the routes but the settings ones), each refusal the same
  // problem as REST's. What REST refuses before the operation is known (the credential, the client address) is refused
  // on the HTTP request; anything later is a tool error carrying the problem, and nothing is charged.
  it('answers each combination on the MCP server as on REST: a refused credential on HTTP, any later refusal as a tool error', async () => {
    const tools = routes.filter((route) => !settings(route));
    expect(tools).toHaveLength(30);
    for (const credential of credentials) {
      for (const route of tools) {
        const label = `MCP ${credential.name} → ${toolName(route)}`;
        const values = { ...ids, ...routeIds[`${route.method} ${route.template}`] };
        const args = toolArguments(route, values);
        await redraftFor(route);
        const before = queried.length;
        const answer = await callMcpTool(ORIGIN, credential.authorization, toolName(route), args);
        const expected = credential.expect(route);
        if (expected.status === 401 || expected.slug === 'ip-not-allowed') {
          expect(answer.status, `${label}: ${answer.text.slice(0, 200)}`).toBe(expected.status);
          expect((answer.body as { type?: string }).type, label).toBe(`${ORIGIN}/docs/problems/${expected.slug}`);
          if (expected.challenge) {
            // REST's challenge, and where an agent finds how to sign in with OAuth instead (RFC 9728 §5.1).
            const metadata = `, resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/api/mcp"`;
            const challenge = String(answer.headers['www-authenticate']);
            expect(challenge, label).toContain(metadata);
            expect(challenge.replace(metadata, ''), label).toMatch(expected.challenge);
          }
        } else {
          expect(answer.status, `${label}: ${answer.text.slice(0, 200)}`).toBe(200);
          expect(answer.result, `${label}: ${answer.text.slice(0, 200)}`).toBeDefined();
          if (expected.slug) {
            expect(answer.problem, `${label}: ${answer.text.slice(0, 200)}`).toMatchObject({
              type: `${ORIGIN}/docs/problems/${expected.slug}`,
              status: expected.status,
            });
            expect((answer.result!._meta!.credits as { charged: number }).charged, label).toBe(0);
          } else expect(answer.result!.isError, `${label}: ${answer.text.slice(0, 300)}`).toBeFalsy();
        }
        if (credential.noDatabase) expect(queried.length - before, `${label} reached the database`).toBe(0);
      }
    }
  });

  // OAuth access tokens (src/server/oauth/): issued for the MCP server only, so every REST route refuses them; on the
  // MCP server each acts as its connected app, with its scope and apps; a revoked, expired or another resource's token
  // is refused on HTTP with the metadata's address.
  it('answers OAuth access tokens: refused on every REST route, on the MCP server as their connected app', async () => {
    const owner = (await db.trackedApp.findUniqueOrThrow({ where: { id: ids.id } })).accountId;
    const user = await db.user.findFirstOrThrow({ where: { accountId: owner } });
    const other = await makeAccount('pro');
    const otherUser = await db.user.findFirstOrThrow({ where: { accountId: other.accountId } });
    const tokenFor = async ({
      accountId,
      userId,
      scope,
      appIds = null,
      audience = `${ORIGIN}/api/mcp`,
      expiresIn = 3600,
    }: {
      accountId: string;
      userId: string;
      scope: 'read-only' | 'read-write';
      appIds?: string[] | null;
      audience?: string;
      expiresIn?: number;
    }) => {
      const grantId = randomUUID();
      const app = await createConnectedApp({
        accountId,
        userId,
        grantId,
        clientId: `matrix-${grantId}`,
        clientName: 'matrix agent',
        scope,
        restrictions: { appIds },
      });
      const value = randomBase62(43);
      await new OAuthAdapter('AccessToken').upsert(
        value,
        {
          jti: value,
          kind: 'AccessToken',
          grantId,
          clientId: `matrix-${grantId}`,
          aud: audience,
          scope: scope === 'read-write' ? 'read-only read-write' : 'read-only',
        },
        expiresIn,
      );
      secrets.push(value);
      return { value, app };
    };
    const readWrite = await tokenFor({ accountId: owner, userId: user.id, scope: 'read-write' });
    const readOnly = await tokenFor({ accountId: owner, userId: user.id, scope: 'read-only' });
    const otherApp = await tokenFor({
      accountId: owner,
      userId: user.id,
      scope: 'read-write',
      appIds: [(await makeApp(owner)).id],
    });
    const strangers = await tokenFor({ accountId: other.accountId, userId: otherUser.id, scope: 'read-write' });
    const elsewhere = await tokenFor({
      accountId: owner,
      userId: user.id,
      scope: 'read-write',
      audience: `${ORIGIN}/api/public/v1`,
    });
    const expired = await tokenFor({ accountId: owner, userId: user.id, scope: 'read-write' });
    await db.oAuthRecord.updateMany({
      where: { kind: 'AccessToken', idHash: oauthIdHash(expired.value) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const revoked = await tokenFor({ accountId: owner, userId: user.id, scope: 'read-write' });
    await revokeConnectedApp(owner, revoked.app.id);

    for (const token of [readWrite, readOnly, strangers, elsewhere]) {
      for (const route of routes) {
        await redraftFor(route);
        const response = await callPublicApi(requestFor(route, `Bearer ${token.value}`));
        expect(response.status, `OAuth token → ${route.method} ${route.template}`).toBe(401);
      }
    }
    const metadata = `resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/api/mcp"`;
    for (const route of routes.filter((each) => !settings(each))) {
      const name = toolName(route);
      const values = { ...ids, ...routeIds[`${route.method} ${route.template}`] };
      const args = toolArguments(route, values);
      const writes = route.meta.scope === 'write';
      const call = async (token: { value: string }) => {
        await redraftFor(route);
        return callMcpTool(ORIGIN, `Bearer ${token.value}`, name, args);
      };
      for (const token of [elsewhere, expired, revoked]) {
        const refused = await call(token);
        expect(refused.status, `refused token → ${name}`).toBe(401);
        expect(String(refused.headers['www-authenticate']), name).toContain(metadata);
      }
      const asReadOnly = await call(readOnly);
      if (writes) expect(asReadOnly.problem?.code, `read-only OAuth → ${name}`).toBe('insufficient-scope');
      else
        expect(asReadOnly.result?.isError, `read-only OAuth → ${name}: ${asReadOnly.text.slice(0, 200)}`).toBeFalsy();
      if (route.pathParameters.includes('id')) {
        expect((await call(strangers)).problem?.code, `another account's OAuth → ${name}`).toBe('not-found');
        expect((await call(otherApp)).problem?.code, `OAuth restricted to another app → ${name}`).toBe('not-found');
      }
      if (!writes) expect((await call(readWrite)).result?.isError, `read-write OAuth → ${name}`).toBeFalsy();
    }
    // Each grant's scope and apps filter every toolset's list, in both modes.
    for (const [label, token] of [
      ['read-write OAuth', readWrite],
      ['read-only OAuth', readOnly],
      ['OAuth restricted to another app', otherApp],
    ] as const)
      await expectToolsetsHold(label, `Bearer ${token.value}`);
  });

  it('offers every toolset in both modes exactly the tools each credential may call, and refuses the others unrun', async () => {
    // The owner's account: the admitted credentials are its (other test files charge other accounts meanwhile).
    const { accountId } = await db.trackedApp.findUniqueOrThrow({ where: { id: ids.id }, select: { accountId: true } });
    const charged = () => db.creditUsage.aggregate({ where: { accountId }, _sum: { used: true } });
    const before = await charged();
    const admitted = credentials.filter((credential) =>
      ['valid read-write key', 'valid session token', 'read-only key', 'key restricted to another app'].includes(
        credential.name,
      ),
    );
    expect(admitted).toHaveLength(4);
    for (const credential of admitted) await expectToolsetsHold(credential.name, credential.authorization!);
    expect(await charged()).toEqual(before);
  });

  it('sent the database only digests of the secrets, and wrote no secret to any log line', () => {
    expect(queried.length).toBeGreaterThan(100);
    // Both paths to the database were watched: the hot statements and Prisma's.
    expect(queried.some((entry) => entry.includes('FROM api_keys'))).toBe(true);
    expect(queried.some((entry) => entry.includes('\\"public\\".'))).toBe(true);
    expect(logged.length).toBeGreaterThan(100);
    const everything = queried.join('\n') + logged.join('\n');
    for (const secret of secrets) {
      expect(everything.includes(secret), secret.slice(0, 16)).toBe(false);
      // Not even a recognisable part of one (the display prefix svc_live_XXXX is not secret; the rest is).
      expect(everything.includes(secret.slice(13, 33)), secret.slice(0, 16)).toBe(false);
    }
  });
});

// The dashboard's endpoint (/api/trpc), every procedure it serves × every kind of credential (issue 18: it served the
// whole app router, and sessions outlived sign-out). It reads the session cookie only: no API key, no Bearer header,
// no API reference token, no token of a signed-out session. Another account's ids are not found.
describe('security matrix: the dashboard endpoint', () => {
  type Procedure = { _def: { type: 'query' | 'mutation'; meta?: ProcedureMeta } };
  // Sign-up, an invitation link's page and signing up from it need no one signed in: the members' tests have the
  // link's. Leaving is called last: a member who may leave has left.
  const PUBLIC = new Set(['account.signUp', 'members.invitation', 'members.join']);
  const procedures = Object.entries(dashboardRouter._def.procedures as unknown as Record<string, Procedure>)
    .filter(([path]) => !PUBLIC.has(path))
    .sort(([a], [b]) => Number(a === 'members.leave') - Number(b === 'members.leave'));
  let inputs: Record<string, unknown>;
  let owner: { cookie: string; ids: string[] };
  /** Puts the draft that the calls approve and discard back to drafted, before each such call. */
  let redraftBefore: (path: string) => Promise<void>;
  let billingWithoutStripe: (path: string) => boolean;
  let credentials: { name: string; headers: Record<string, string>; expect: (path: string) => number }[];
  let members: { role: MemberRole; cookie: string }[];

  let appleStandIn: Awaited<ReturnType<typeof startAppStoreConnectStandIn>>;

  beforeAll(async () => {
    process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST = 'true';
    // Store accounts are checked with the store as they are connected: App Store Connect's stand-in here.
    appleStandIn = await startAppStoreConnectStandIn();
    process.env.APP_STORE_CONNECT_ORIGIN = appleStandIn.origin;
    resetConfig();
    const { owner: account, app } = await makeAsoApp();
    const user = await db.user.findFirstOrThrow({ where: { accountId: account.accountId } });
    const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id } });
    const apiKey = await createApiKey(account, { name: 'dashboard matrix', scope: 'read-write' });
    const toRoll = await createApiKey(account, { name: 'dashboard matrix roll', scope: 'read-only' });
    const toRestrict = await createApiKey(account, { name: 'dashboard matrix restrict', scope: 'read-only' });
    const { endpoint } = await createWebhookEndpoint(account.accountId, { url: 'http://127.0.0.1:9/hook' });
    const { deliveryId } = await sendTestEvent(account, endpoint.id);
    // What the owner's session removes is its own, so that the other procedures still find what they read.
    const removable = await addApp(
      account,
      { storeUrl: 'https://play.google.com/store/apps/details?id=com.matrix.removable' },
      { backfill: 'caller' },
    );
    const [removableKeyword] = await db.trackedKeyword.createManyAndReturn({
      data: [{ appId: app.id, country: 'US', term: 'matrix removable', termKey: 'matrix removable' }],
    });
    const competitor = await db.competitor.create({
      data: {
        appId: app.id,
        store: 'app_store',
        storeId: '571800810',
        storeUrl: 'https://apps.apple.com/us/app/id571800810',
      },
    });
    const connect = (clientName: string) =>
      createConnectedApp({
        accountId: account.accountId,
        userId: user.id,
        grantId: randomUUID(),
        clientId: `client-${randomUUID()}`,
        clientName,
        scope: 'read-only',
        restrictions: {},
      });
    const [toDisconnect, toRestrictConnection] = [
      await connect('matrix agent'),
      await connect('matrix agent restricted'),
    ];
    // Room for the members below and an invitation more.
    await db.account.update({ where: { id: account.accountId }, data: { plan: 'business' } });
    const asOwner = { accountId: account.accountId, userId: user.id, role: 'owner' as const };
    const [toReassign, toRemove] = [
      await makeMember(account.accountId, 'analyst'),
      await makeMember(account.accountId, 'analyst'),
    ];
    const replies = await replyFixture({ accountId: account.accountId, userId: user.id }, app.id);
    const exported = await exportFixture(account.accountId);
    redraftBefore = async (path) => {
      if (path === 'reviews.approveReplyDraft' || path === 'reviews.discardReplyDraft') await replies.redraft();
      if (path === 'exports.create') await exported.beforeCall('POST /exports');
      if (path === 'exports.cancel') await exported.beforeCall('POST /exports/{exportId}/cancel');
    };
    const { invitation: toWithdraw } = await inviteMember(asOwner, {
      email: `matrix-withdrawn-${randomUUID()}@example.test`,
      role: 'analyst',
    });
    inputs = {
      'members.list': undefined,
      'members.invite': { email: `matrix-invited-${randomUUID()}@example.test`, role: 'analyst' },
      'members.revokeInvitation': { invitationId: toWithdraw.id },
      'members.changeRole': { userId: toReassign.userId, role: 'developer' },
      'members.remove': { userId: toRemove.userId },
      'members.leave': undefined,
      'members.memberships': undefined,
      'members.switchAccount': { accountId: account.accountId },
      'members.acceptInvitation': { token: 'matrix-no-such-invitation' },
      'members.ownershipOffer': undefined,
      'members.offerOwnership': { userId: toReassign.userId },
      'members.withdrawOwnershipOffer': undefined,
      'members.answerOwnership': { accept: false },
      'connectedApps.list': undefined,
      'connectedApps.revoke': { id: toDisconnect.id },
      'connectedApps.restrict': { id: toRestrictConnection.id, restrictions: { monthlyBudget: 100 } },
      'account.get': undefined,
      'apiKeys.list': undefined,
      'apiKeys.create': { name: 'matrix', scope: 'read-only' },
      'apiKeys.revoke': { keyId: apiKey.key.id },
      'apiKeys.roll': { keyId: toRoll.key.id, gracePeriod: '1h' },
      'apiKeys.restrict': { keyId: toRestrict.key.id, restrictions: { monthlyBudget: 1000 } },
      'apiKeys.get': { keyId: toRestrict.key.id },
      'apiKeys.update': { keyId: toRestrict.key.id, name: 'dashboard matrix renamed' },
      'apiKeys.usage': { keyId: toRestrict.key.id },
      'apiKeys.calls': { keyId: toRestrict.key.id },
      'apiKeys.expiryPolicy': undefined,
      'apiKeys.setExpiryPolicy': { requireKeyExpiry: false },
      'securityLog.list': {},
      'securityLog.export': {},
      'usage.get': {},
      'webhooks.list': undefined,
      'webhooks.create': { url: 'http://127.0.0.1:9/other' },
      'webhooks.setEnabled': { endpointId: endpoint.id, enabled: true },
      'webhooks.get': { endpointId: endpoint.id },
      'webhooks.update': { endpointId: endpoint.id, description: 'dashboard matrix' },
      'webhooks.rotateSecret': { endpointId: endpoint.id },
      'webhooks.delete': { endpointId: randomUUID() },
      'webhooks.deliveries': { endpointId: endpoint.id },
      'webhooks.sendTest': { endpointId: endpoint.id },
      'webhooks.redeliver': { deliveryId },
      'apps.list': {},
      'apps.get': { id: app.id },
      'apps.asoScore': { id: app.id },
      'keywords.list': { id: app.id },
      'keywords.history': { id: app.id, keywordId: keyword.id },
      'reviews.list': { id: app.id },
      'account.onboarding': undefined,
      'account.resetTestData': undefined,
      'billing.overview': undefined,
      // Stripe is not configured here: both answer 404 (the plan page offers neither), for every account alike.
      'billing.checkout': { tier: 'solo' },
      'billing.portal': undefined,
      'apps.create': { storeUrl: 'https://apps.apple.com/us/app/matrix/id1000000001' },
      'apps.remove': { id: removable.app.id },
      'apps.addStorefront': { id: app.id, country: 'GB' },
      'apps.removeStorefront': { id: app.id, country: 'GB' },
      'apps.searchStore': { term: 'sleep', country: 'US' },
      'apps.storefrontHealth': { id: app.id },
      'keywords.add': { id: app.id, terms: ['matrix added'] },
      'keywords.remove': { id: app.id, keywordId: removableKeyword!.id },
      'competitors.list': { id: app.id },
      'competitors.add': { id: app.id, storeUrl: 'https://apps.apple.com/us/app/matrix-rival/id1000000002' },
      'competitors.remove': { id: app.id, competitorId: competitor.id },
      'apps.opportunities': { id: app.id },
      'apps.keywordSpy': { id: app.id },
      'apps.categoryRank': { id: app.id },
      'apps.ratingHistory': { id: app.id },
      'metadata.get': { id: app.id },
      'metadata.changelog': { id: app.id },
      'reviews.insights': { id: app.id },
      'keywords.recentRanks': { id: app.id },
      'keywords.room': {},
      'usage.ledger': {},
      'storeAccounts.list': undefined,
      'storeAccounts.connect': { store: 'app_store', ...appleStandIn.key },
      'storeAccounts.remove': { store: 'app_store' },
      'reviews.draftReply': { id: app.id, reviewId: replies.reviewId, body: 'Thank you for the review!' },
      'reviews.replyDrafts': { id: app.id },
      'reviews.replyDraft': { id: app.id, draftId: replies.draftId },
      'reviews.discardReplyDraft': { id: app.id, draftId: replies.draftId },
      'reviews.approveReplyDraft': { id: app.id, draftId: replies.draftId },
      'exports.create': {
        datasets: ['ratings'],
        appIds: [app.id],
        from: '2026-06-01',
        to: '2026-06-30',
        format: 'csv',
      },
      'exports.list': undefined,
      'exports.get': { exportId: exported.exportId },
      'exports.cancel': { exportId: exported.exportId },
    };
    billingWithoutStripe = (path: string) => path === 'billing.checkout' || path === 'billing.portal';
    const cookieOf = (token: string) => ({ cookie: `next-auth.session-token=${token}` });
    const session = await issueSessionToken({ id: user.id, email: user.email, accountId: account.accountId });
    owner = {
      cookie: cookieOf(session).cookie,
      ids: [
        toReassign.userId,
        toRemove.userId,
        toWithdraw.id,
        app.id,
        keyword.id,
        apiKey.key.id,
        toRoll.key.id,
        toRestrict.key.id,
        endpoint.id,
        deliveryId,
        removable.app.id,
        removableKeyword!.id,
        competitor.id,
        toDisconnect.id,
        toRestrictConnection.id,
        replies.reviewId,
        replies.draftId,
        exported.exportId,
      ],
    };
    const signedOut = await issueSessionToken({ id: user.id, email: user.email, accountId: account.accountId });
    const signedOutClaims = await decode({ token: signedOut, secret: authSecret() });
    await endSession(signedOutClaims);
    const actor = await verifySessionToken(session, { use: 'cookie' });
    const reference = await issueApiReferenceToken({
      userId: user.id,
      sessionId: actor.status === 'valid' ? actor.actor.sessionId! : '',
    });
    const expired = await issueSessionToken({ id: user.id, email: user.email, accountId: account.accountId }, -60);
    const stranger = await makeAccount('pro');
    const strangerSession = await issueSessionToken({
      id: stranger.userId,
      email: stranger.email,
      accountId: stranger.accountId,
    });
    members = await Promise.all(
      MEMBER_ROLES.filter((role) => role !== 'owner').map(async (role) => ({
        role,
        cookie: cookieOf((await makeMember(account.accountId, role)).session).cookie,
      })),
    );
    const strangerAnalyst = await makeMember(stranger.accountId, 'analyst');
    const allowed = (role: MemberRole, path: string) =>
      roleAllows(role, permissionOf(procedures.find(([each]) => each === path)![1]._def.meta));
    const byId = (path: string) => {
      const input = inputs[path];
      // A store account's connection names the store's ids (issuer, key), nothing of the owner's.
      if (path === 'storeAccounts.connect') return false;
      return typeof input === 'object' && input !== null && Object.keys(input).some((name) => /ids?$/i.test(name));
    };
    const refused = () => 401;
    // An account's only owner may not leave it; a link that names no invitation, and an answer to an offer of ownership
    // nobody made, are not found: for every member alike.
    const notOffered = (path: string) => path === 'members.acceptInvitation' || path === 'members.answerOwnership';
    const lastOwnerOrNoInvitation = (path: string) => (path === 'members.leave' ? 400 : notOffered(path) ? 404 : null);
    credentials = [
      { name: 'no credential', headers: {}, expect: refused },
      {
        name: 'tampered cookie',
        headers: cookieOf(session.slice(0, -4) + (session.endsWith('AAAA') ? 'BBBB' : 'AAAA')),
        expect: refused,
      },
      { name: 'expired session', headers: cookieOf(expired), expect: refused },
      { name: 'signed-out session', headers: cookieOf(signedOut), expect: refused },
      { name: 'API reference token as the cookie', headers: cookieOf(reference), expect: refused },
      { name: 'API key as the cookie', headers: cookieOf(apiKey.secret), expect: refused },
      { name: 'API key as a Bearer header', headers: { authorization: `Bearer ${apiKey.secret}` }, expect: refused },
      { name: 'session token as a Bearer header', headers: { authorization: `Bearer ${session}` }, expect: refused },
      {
        name: 'another account’s session',
        headers: cookieOf(strangerSession),
        expect: (path) => lastOwnerOrNoInvitation(path) ?? (byId(path) || billingWithoutStripe(path) ? 404 : 200),
      },
      {
        name: 'another account’s analyst',
        headers: cookieOf(strangerAnalyst.session),
        expect: (path) => (!allowed('analyst', path) ? 403 : notOffered(path) || byId(path) ? 404 : 200),
      },
    ];
  });

  afterAll(async () => {
    delete process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST;
    delete process.env.APP_STORE_CONNECT_ORIGIN;
    resetConfig();
    await appleStandIn.close();
  });

  const call = (path: string, type: 'query' | 'mutation', headers: Record<string, string>) => {
    const input = inputs[path];
    return handleDashboardTrpcRequest(
      type === 'query'
        ? new Request(
            `${ORIGIN}/api/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
            { headers },
          )
        : new Request(`${ORIGIN}/api/trpc/${path}`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify(input ?? {}),
          }),
    );
  };

  it('serves exactly the procedures the dashboard calls, each with a sample input here', () => {
    expect(procedures.map(([path]) => path).sort()).toEqual(Object.keys(inputs).sort());
  });

  it('answers each combination as documented, and never shows the owner’s data to anyone else', async () => {
    for (const [index, credential] of credentials.entries()) {
      // A refused credential's calls count against its client address's limit (docs/api-decisions.md): each comes from
      // its own, so that the matrix spends neither one address's minute nor the one every addressless test shares.
      const from = { 'x-forwarded-for': `203.0.113.${index + 1}` };
      for (const [path, procedure] of procedures) {
        await redraftBefore(path);
        const response = await call(path, procedure._def.type, { ...credential.headers, ...from });
        const text = await response.text();
        const label = `${credential.name} → ${path}: ${text.slice(0, 200)}`;
        expect(response.status, label).toBe(credential.expect(path));
        for (const id of owner.ids) expect(text.includes(id), `${label} shows ${id}`).toBe(false);
      }
    }
  });

  it('refuses each member, in every role, every procedure their role does not allow: 403, nothing of the account shown', async () => {
    let refusals = 0;
    for (const { role, cookie } of members) {
      for (const [path, procedure] of procedures) {
        if (roleAllows(role, permissionOf(procedure._def.meta))) continue;
        await redraftBefore(path);
        const response = await call(path, procedure._def.type, { cookie });
        const text = await response.text();
        expect(response.status, `${role} → ${path}: ${text.slice(0, 200)}`).toBe(403);
        for (const id of owner.ids) expect(text.includes(id), `${role} → ${path} shows ${id}`).toBe(false);
        refusals++;
      }
    }
    // The analyst and the billing member are refused most of the dashboard; an admin only the plan.
    expect(refusals).toBeGreaterThan(40);
  });

  it('the owner’s own session is served by every procedure', async () => {
    for (const [path, procedure] of procedures) {
      await redraftBefore(path);
      const response = await call(path, procedure._def.type, { cookie: owner.cookie });
      // webhooks.delete of an id that is not the account's, a link that names no invitation, and billing without Stripe:
      // 404; the only owner leaving: 400; every other procedure succeeds.
      const expected =
        path === 'members.leave'
          ? 400
          : ['webhooks.delete', 'members.acceptInvitation', 'members.answerOwnership'].includes(path) ||
              billingWithoutStripe(path)
            ? 404
            : 200;
      expect(response.status, `${path}: ${(await response.text()).slice(0, 200)}`).toBe(expected);
    }
  });
});

describe('security matrix: the sign-in lockout attack', () => {
  // Anyone who knows a customer's email tries to keep them out of the dashboard (OWASP: lockout as a denial of
  // service). The waits are recorded rather than waited: each browser keeps its cookies, as a browser does.
  const PASSWORD = 'correct horse battery';
  function browser(from: string) {
    const cookies = new Map<string, string>();
    const waits: number[] = [];
    return {
      waits,
      async signIn(email: string, password: string, address = from) {
        const outcome = await signInWithLimit(
          { email, password, address, cookies },
          { wait: async (milliseconds) => waits.push(milliseconds) },
        );
        if (outcome.kind === 'signed-in') cookies.set(outcome.knownBrowser.name, outcome.knownBrowser.value);
        return outcome.kind;
      },
    };
  }

  it('50 wrong passwords from other addresses: the victim’s own browser signs in at once, a new one waits at most the cap, the attacker is blocked', async () => {
    const victim = await makeAccount();
    const own = browser('203.0.113.7');
    expect(await own.signIn(victim.email, PASSWORD)).toBe('signed-in');

    const attackers = Array.from({ length: 10 }, (_, index) => browser(`192.0.2.${index + 1}`));
    // Four attackers at a time: ten at once, each attempt's three counts queued on the shared limits' two connections,
    // outwaited a pool's 5 s for a connection on a slow host.
    const atATime = pLimit(4);
    const guesses = await Promise.all(
      attackers.map(async (attacker) =>
        atATime(async () => {
          const outcomes = [];
          for (let guess = 0; guess < 5; guess++) outcomes.push(await attacker.signIn(victim.email, `guess ${guess}`));
          return outcomes;
        }),
      ),
    );
    expect(guesses.flat()).toEqual(Array(50).fill('refused'));

    // The victim's own browser: at once, from home and from the attacker's own network alike.
    expect(await own.signIn(victim.email, PASSWORD)).toBe('signed-in');
    expect(await own.signIn(victim.email, PASSWORD, '192.0.2.1')).toBe('signed-in');
    expect(own.waits).toEqual([]);
    // A browser the email does not know signs in too, after no more than the documented cap.
    const fresh = browser('198.51.100.23');
    expect(await fresh.signIn(victim.email, PASSWORD)).toBe('signed-in');
    expect(fresh.waits).toEqual([SIGN_IN_LIMITS.perEmail.maxDelayMs]);
    // The attacker's addresses are blocked for this email, the right password included.
    for (const attacker of attackers) expect(await attacker.signIn(victim.email, PASSWORD)).toBe('blocked');
    // The owner sees the attack in the security log: its first failures, then one entry per tenfold wave.
    const { entries } = await listSecurityEvents(victim.accountId, { page: 1, pageSize: 200 });
    expect(entries.filter((entry) => entry.kind === 'session.sign_in_failed')).toHaveLength(
      SIGN_IN_LIMITS.perEmail.slowAfter,
    );
    expect(
      entries.filter((entry) => entry.kind === 'session.sign_ins_slowed').map((entry) => entry.after?.failures),
    ).toEqual([50, 5]);
  });
});
