// The proxy answers a credential refused on its shape exactly as the route does, lets everything else through,
// and its matcher (which only saves work) never sends it a credential that needs a lookup.
import fc from 'fast-check';
import { NextRequest } from 'next/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readBearer } from '@/server/auth/bearer';
import { handlePublicApiRequest } from '@/server/openapi/handler';
import { BASE62_ALPHABET, formatApiKey, generateApiKey } from '@/server/services/api-keys/key-format';
import { config, proxy } from './proxy';
import { captureLogs } from '../test/logs';

const API = 'http://api.test/api/public/v1';
const APP = '00000000-0000-4000-8000-000000000000';

afterEach(() => vi.restoreAllMocks());

/** Everything but the request id, which differs by design, and the duration. */
async function answerOf(response: Response) {
  const body = (await response.json()) as Record<string, unknown>;
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'x-request-id'));
  expect(body.requestId).toBe(response.headers.get('x-request-id'));
  return { status: response.status, headers, body: { ...body, requestId: undefined } };
}

const validKey = generateApiKey().secret;
const badChecksum = validKey.slice(0, -1) + (validKey.endsWith('0') ? '1' : '0');

describe('proxy', () => {
  const refusedHeaders: [string, string | null][] = [
    ['no Authorization header', null],
    ['an empty one', ''],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a bearer of rubbish', 'Bearer not-a-key'],
    ['a key with a wrong checksum', `Bearer ${badChecksum}`],
    ['a key cut short', `Bearer ${validKey.slice(0, -2)}`],
  ];
  const requests: [string, string][] = [
    ['GET', `${API}/apps`],
    ['GET', `${API}/apps/${APP}/keywords?rankWindow=90d`],
    ['POST', `${API}/apps/${APP}/keywords`],
    ['DELETE', `${API}/webhooks/${APP}`],
    ['GET', `${API}/no-such-endpoint`],
    ['GET', API],
  ];

  for (const [name, authorization] of refusedHeaders) {
    it(`answers ${name} with the route's own 401, headers and log line`, async () => {
      for (const [method, url] of requests) {
        const headers: Record<string, string> = authorization === null ? {} : { Authorization: authorization };
        const init = { method, headers };
        const lines = captureLogs();
        const fromProxy = proxy(new NextRequest(url, init));
        const fromRoute = await handlePublicApiRequest(new Request(url, init));
        vi.restoreAllMocks();

        expect(fromProxy.status).toBe(401);
        expect(await answerOf(fromProxy)).toEqual(await answerOf(fromRoute));
        const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
        expect(logged).toHaveLength(2);
        const withoutIds = logged.map(({ requestId, durationMs, time, ...rest }) => {
          expect(typeof requestId).toBe('string');
          expect(typeof durationMs).toBe('number');
          expect(typeof time).toBe('string');
          return rest;
        });
        expect(withoutIds[0]).toEqual(withoutIds[1]);
        expect(withoutIds[0]).toMatchObject({ method, status: 401, route: new URL(url).pathname });
        if (authorization) expect(lines.join('')).not.toContain(authorization.slice(7));
      }
    });
  }

  it('lets through a credential that needs a lookup, a preflight and the public documents', () => {
    const through = (url: string, init: { method?: string; headers?: Record<string, string> } = {}) => proxy(new NextRequest(url, init)).headers.get('x-middleware-next');
    expect(through(`${API}/apps`, { headers: { Authorization: `Bearer ${validKey}` } })).toBe('1');
    expect(through(`${API}/apps`, { headers: { Authorization: 'bearer   eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAA.BBBB.CCCC ' } })).toBe('1');
    expect(through(`${API}/apps`, { method: 'OPTIONS' })).toBe('1');
    expect(through(`${API}/openapi.json`)).toBe('1');
    expect(through(`${API}/collection.json`)).toBe('1');
  });
});

describe("the proxy's matcher", () => {
  const [matcher] = config.matcher;
  const [missing] = matcher!.missing;
  // How Next.js tests a `missing` header with a value (shared/lib/router/utils/prepare-destination.js, matchHas).
  const wellShaped = new RegExp(`^${missing!.value}$`);
  /** Whether Next.js would run the proxy for a request with this Authorization header. */
  const runsProxy = (authorization: string) => !wellShaped.test(authorization);

  const bearerWord = fc.constantFrom('Bearer', 'bearer', 'BEARER', 'bEaReR');
  const spaces = fc.integer({ min: 1, max: 3 }).map((n) => ' '.repeat(n));
  const trailing = fc.constantFrom('', ' ', '  ', '\t', '\r\n');
  const base62 = fc.string({ unit: fc.constantFrom(...BASE62_ALPHABET), minLength: 32, maxLength: 32 });
  const segment = fc.string({ unit: fc.constantFrom(...`${BASE62_ALPHABET}-_`), maxLength: 60 });
  const token = fc.oneof(
    base62.map(formatApiKey),
    fc.tuple(segment, segment, segment, segment, segment).map((parts) => parts.join('.')),
    base62.map((random) => `svc_live_${random}ZZZZZZ`),
    fc.string({ maxLength: 60 }),
    fc.string({ unit: 'binary', maxLength: 60 }),
  );
  const header = fc.oneof(
    fc.tuple(bearerWord, spaces, token, trailing).map((parts) => parts.join('')),
    fc.tuple(fc.constantFrom('Basic ', 'Token ', 'Bearer', 'Bearer:', ''), token).map((parts) => parts.join('')),
    fc.string({ maxLength: 80 }),
  );

  it('never runs the proxy for a credential that needs a lookup, and the proxy refuses all it is sent', () => {
    fc.assert(
      fc.property(header, (authorization) => {
        const kind = readBearer(authorization).kind;
        if (kind === 'apiKey' || kind === 'sessionToken') expect(runsProxy(authorization)).toBe(false);
        if (runsProxy(authorization)) expect(['missing', 'malformed']).toContain(kind);
      }),
      { numRuns: 5000 },
    );
  });

  it('runs the proxy for the usual mistakes', () => {
    expect(runsProxy('Basic dXNlcjpwYXNz')).toBe(true);
    expect(runsProxy('Bearer not-a-key')).toBe(true);
    expect(runsProxy(validKey)).toBe(true);
    expect(runsProxy(`Bearer ${validKey}`)).toBe(false);
    expect(matcher!.source).toBe('/api/public/v1/:path*');
  });
});
