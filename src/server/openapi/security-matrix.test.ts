// The security matrix: every endpoint × every kind of credential, through the real handler and database. Each
// refusal is the documented one, a bad checksum never reaches the database, the secret itself never reaches the
// database (only its SHA-256 digest) nor any log line.
import { encode } from 'next-auth/jwt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appRouter } from '@/server/api/root';
import { authSecret, issueSessionToken } from '@/server/auth/session-token';
import { db } from '@/server/db';
import { createApiKey, revokeApiKey } from '@/server/services/api-keys/api-keys';
import { checksumOf, formatApiKey, KEY_PREFIX, randomBase62 } from '@/server/services/api-keys/key-format';
import { makeAccount } from '../../../test/factories';
import { makeAsoApp } from '../../../test/aso-fixture';
import { handlePublicApiRequest } from './handler';
import { buildRoutes, type RestRoute } from './routes';

const ORIGIN = 'http://matrix.test';
const routes = buildRoutes(appRouter);
const BODIES: Record<string, unknown> = {
  'POST /apps/{id}/keywords': { terms: ['matrix term'] },
  'POST /apps/{id}/competitors': { storeUrl: 'https://apps.apple.com/us/app/calm/id571800810' },
};
const QUERIES: Record<string, string> = { '/apps/{id}/keywords/research': '?term=sleep' };

type Expectation = { status: number; slug?: string; challenge?: RegExp };
interface Credential {
  name: string;
  authorization: string | null;
  expect: (route: RestRoute) => Expectation;
  /** Refused before any database work. */
  noDatabase?: boolean;
}

const unauthorized = (detail: RegExp | null = null): Expectation => ({
  status: 401,
  slug: 'unauthorized',
  challenge: detail ?? /^Bearer realm="public-api", error="invalid_token"$/,
});

let ids: { id: string; keywordId: string };
let credentials: Credential[];
const secrets: string[] = [];
const logged: string[] = [];
const queried: string[] = [];

beforeAll(async () => {
  const { owner, app } = await makeAsoApp();
  const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id } });
  ids = { id: app.id, keywordId: keyword.id };
  const user = await db.user.findFirstOrThrow({ where: { accountId: owner.accountId } });
  const other = await makeAccount('pro');
  const free = await makeAccount('solo');

  const readWrite = (await createApiKey(owner, { name: 'matrix rw', scope: 'read-write' })).secret;
  const readOnly = (await createApiKey(owner, { name: 'matrix ro', scope: 'read-only' })).secret;
  const revoked = await createApiKey(owner, { name: 'matrix revoked', scope: 'read-write' });
  await revokeApiKey(owner.accountId, revoked.key.id);
  const expired = (await createApiKey(owner, { name: 'matrix expired', scope: 'read-write', expiresAt: new Date(Date.now() + 60_000) })).secret;
  await db.apiKey.updateMany({ where: { accountId: owner.accountId, name: 'matrix expired' }, data: { expiresAt: new Date(Date.now() - 1_000) } });
  const otherKey = (await createApiKey(other, { name: 'matrix other', scope: 'read-write' })).secret;
  const freeKey = (await createApiKey(free, { name: 'matrix free', scope: 'read-write' })).secret;
  await db.account.update({ where: { id: free.accountId }, data: { plan: 'free' } });

  const random = randomBase62(32);
  const badChecksum = `${KEY_PREFIX}${random}${checksumOf(random) === '000000' ? '000001' : '000000'}`;
  const unknown = formatApiKey(randomBase62(32));
  const session = await issueSessionToken({ id: user.id, email: user.email, accountId: owner.accountId });
  const tampered = session.slice(0, -6) + (session.endsWith('AAAAAA') ? 'BBBBBB' : 'AAAAAA');
  const expiredSession = await issueSessionToken({ id: user.id, email: user.email, accountId: owner.accountId }, -60);
  const algNone = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: user.id, accountId: owner.accountId, exp: 9_999_999_999 })).toString('base64url')}.`;
  // A token signed with another secret: well-formed, undecryptable here.
  const foreign = await encode({ token: { sub: user.id, accountId: owner.accountId }, secret: `${authSecret()}-not-ours`, maxAge: 3600 });
  secrets.push(readWrite, readOnly, revoked.secret, expired, otherKey, freeKey, badChecksum, unknown, session, tampered, expiredSession, foreign);

  const writes = (route: RestRoute) => route.meta.scope === 'write';
  const hasAppId = (route: RestRoute) => route.pathParameters.includes('id');
  credentials = [
    { name: 'valid read-write key', authorization: `Bearer ${readWrite}`, expect: () => ({ status: 200 }) },
    { name: 'valid session token', authorization: `Bearer ${session}`, expect: () => ({ status: 200 }) },
    { name: 'no credential', authorization: null, expect: () => unauthorized(/^Bearer realm="public-api"$/), noDatabase: true },
    { name: 'empty bearer', authorization: 'Bearer ', expect: () => unauthorized(), noDatabase: true },
    { name: 'basic scheme', authorization: 'Basic dXNlcjpwYXNz', expect: () => unauthorized(), noDatabase: true },
    { name: 'malformed key', authorization: `Bearer ${KEY_PREFIX}short`, expect: () => unauthorized(), noDatabase: true },
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
      expect: (route) => (writes(route) ? { status: 403, slug: 'insufficient-scope', challenge: /^Bearer error="insufficient_scope", scope="write"$/ } : { status: 200 }),
    },
    { name: 'another account’s key', authorization: `Bearer ${otherKey}`, expect: (route) => (hasAppId(route) ? { status: 404, slug: 'not-found' } : { status: 200 }) },
    { name: 'Free tier key', authorization: `Bearer ${freeKey}`, expect: () => ({ status: 403, slug: 'plan-required' }) },
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
}, 120_000);

afterAll(() => vi.restoreAllMocks());

function requestFor(route: RestRoute, authorization: string | null): Request {
  const path = route.template.replace(/\{(\w+)\}/g, (_, name: keyof typeof ids) => ids[name]) + (QUERIES[route.template] ?? '');
  const headers: Record<string, string> = {};
  if (authorization !== null) headers.Authorization = authorization;
  let body: string | undefined;
  if (route.method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(BODIES[`${route.method} ${route.template}`]);
  }
  return new Request(`${ORIGIN}/api/public/v1${path}`, { method: route.method, headers, body });
}

describe('security matrix: every endpoint × every credential', () => {
  it('answers each combination as documented', async () => {
    for (const credential of credentials) {
      for (const route of routes) {
        const label = `${credential.name} → ${route.method} ${route.template}`;
        const before = queried.length;
        const response = await handlePublicApiRequest(requestFor(route, credential.authorization));
        const expected = credential.expect(route);
        const text = await response.text();
        expect(response.status, `${label}: ${text.slice(0, 200)}`).toBe(expected.status);
        if (expected.slug) {
          expect(response.headers.get('content-type'), label).toBe('application/problem+json');
          expect(JSON.parse(text).type, label).toBe(`${ORIGIN}/docs/problems/${expected.slug}`);
          expect(response.headers.get('x-credits-cost') ?? '0', label).toBe('0');
        }
        if (expected.challenge) expect(response.headers.get('www-authenticate'), label).toMatch(expected.challenge);
        if (credential.noDatabase) expect(queried.length - before, `${label} reached the database`).toBe(0);
      }
    }
  }, 120_000);

  it('sent the database only digests of the secrets, and wrote no secret to any log line', () => {
    expect(queried.length).toBeGreaterThan(100);
    // Both paths to the database were watched: the hot statements and Prisma's.
    expect(queried.some((entry) => entry.includes('FROM api_keys k'))).toBe(true);
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
