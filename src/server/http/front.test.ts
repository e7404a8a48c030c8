// The HTTP front, on a real Node server: it answers a credential refused on its shape exactly as the route does,
// seals the methods Next.js cannot serve for the public API route, answers 405 for the other route handlers, and
// leaves everything else to Next.js untouched. Whatever it leaves is answered 299 here, as if by Next.js.
import { readdirSync } from 'node:fs';
import { createServer, METHODS, type IncomingHttpHeaders, type Server } from 'node:http';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readBearer } from '@/server/auth/bearer';
import { handlePublicApiRequest } from '@/server/openapi/handler';
import { generateApiKey } from '@/server/services/api-keys/key-format';
import { connectRaw, sendRaw, type RawAnswer } from '../../../test/http';
import { captureLogs } from '../../../test/logs';
import { createFront, ROUTE_HANDLERS } from './front';
import { NEXT_SERVABLE_METHODS, SENT_METHOD_HEADER, sentMethod } from './sent-method';

const API = '/api/public/v1';
const APP = '00000000-0000-4000-8000-000000000000';
const validKey = generateApiKey().secret;
const badChecksum = validKey.slice(0, -1) + (validKey.endsWith('0') ? '1' : '0');
const sessionToken = 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAA.BBBB.CCCC';

interface Reached {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}
type Answer = RawAnswer;

let server: Server;
let port: number;
const reached: Reached[] = [];

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  const front = createFront({ hostname: 'localhost', port });
  server.on('request', (req, res) => {
    if (front(req, res)) return;
    reached.push({ method: req.method!, url: req.url!, headers: req.headers });
    res.writeHead(299);
    res.end();
  });
  server.on('connect', front.refuseTunnel);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  vi.restoreAllMocks();
  reached.length = 0;
});

const send = (method: string, target: string, headers: Record<string, string> = {}): Promise<Answer> => sendRaw('127.0.0.1', port, method, target, headers);

/** What the route answers the same request with, called in process with the URL Next.js would give it. */
async function fromRoute(method: string, target: string, headers: Record<string, string>): Promise<Answer> {
  const response = await handlePublicApiRequest(new Request(`http://localhost:${port}${target}`, { method, headers }));
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

/** Status, the problem's headers and body, without the request id (which differs by design). */
function comparable(answer: Answer) {
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(body.requestId).toBe(answer.headers['x-request-id']);
  return {
    status: answer.status,
    contentType: answer.headers['content-type'],
    challenge: answer.headers['www-authenticate'],
    body: { ...body, requestId: undefined },
  };
}

/** Log lines without what differs by design (request id, duration, time). */
function logged(lines: string[]) {
  return lines.map((line) => {
    const { requestId, durationMs, time, ...rest } = JSON.parse(line) as Record<string, unknown>;
    expect([typeof requestId, typeof durationMs, typeof time]).toEqual(['string', 'number', 'string']);
    return rest;
  });
}

describe('a credential refused on its shape', () => {
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
    ['PUT', `${API}/apps`],
    ['GET', `${API}/no-such-endpoint`],
    ['GET', API],
  ];

  for (const [name, authorization] of refusedHeaders) {
    it(`${name}: the route's own 401, headers and log line, without reaching Next.js`, async () => {
      for (const [method, target] of requests) {
        const headers: Record<string, string> = authorization === null ? {} : { Authorization: authorization };
        const lines = captureLogs();
        const front = await send(method, target, headers);
        const route = await fromRoute(method, target, headers);
        vi.restoreAllMocks();

        expect(reached).toEqual([]);
        expect(front.status).toBe(401);
        expect(comparable(front)).toEqual(comparable(route));
        const [fromFront, fromTheRoute] = logged(lines);
        expect(lines).toHaveLength(2);
        expect(fromFront).toEqual(fromTheRoute);
        expect(fromFront).toMatchObject({ method, status: 401, route: target.split('?')[0] });
        if (authorization) expect(lines.join('')).not.toContain(authorization.slice(7));
      }
    });
  }

  it('any header at all: refused as the route refuses it, or left to Next.js', async () => {
    const headerText = fc.string({ unit: fc.constantFrom(...' \tBbEeAaRr.-_svc_live_0123456789ABCDEFXYZxyz!"#'), maxLength: 70 });
    const header = fc.oneof(headerText, headerText.map((text) => `Bearer ${text}`), fc.constantFrom(`Bearer ${validKey}`, `bearer  ${sessionToken} `));
    await fc.assert(
      fc.asyncProperty(header, async (authorization) => {
        reached.length = 0;
        captureLogs();
        const front = await send('GET', `${API}/apps`, { Authorization: authorization });
        // HTTP drops the whitespace around a header's value, for Node's server and for a Request alike.
        const kind = readBearer(authorization.replace(/^[ \t]+|[ \t]+$/g, '')).kind;
        if (kind === 'missing' || kind === 'malformed') {
          expect(comparable(front)).toEqual(comparable(await fromRoute('GET', `${API}/apps`, { Authorization: authorization })));
          expect(reached).toEqual([]);
        } else {
          expect(front.status).toBe(299);
          expect(reached).toHaveLength(1);
        }
        vi.restoreAllMocks();
      }),
      { numRuns: 300 },
    );
  });

  it('HEAD: the 401 without a body', async () => {
    captureLogs();
    const front = await send('HEAD', `${API}/apps`);
    expect(front.status).toBe(401);
    expect(front.headers['www-authenticate']).toBe('Bearer realm="public-api"');
    expect(front.body).toBe('');
  });

  it('names the https origin behind a TLS-terminating proxy, as the route does', async () => {
    const headers = { 'X-Forwarded-Proto': 'https' };
    captureLogs();
    const front = comparable(await send('GET', `${API}/apps`, headers));
    expect((front.body as Record<string, unknown>).type).toBe(`https://localhost:${port}/docs/problems/unauthorized`);
  });
});

describe('left to Next.js untouched', () => {
  it('a credential that needs a lookup, a preflight, the public documents, pages and unknown paths', async () => {
    const cases: [string, string, Record<string, string>?][] = [
      ['GET', `${API}/apps`, { Authorization: `Bearer ${validKey}` }],
      ['POST', `${API}/apps/${APP}/keywords`, { Authorization: `bearer   ${sessionToken} ` }],
      ['OPTIONS', `${API}/apps`],
      ['GET', `${API}/openapi.json`],
      ['HEAD', `${API}/collection.json`],
      ['GET', '/api/health'],
      ['POST', '/api/trpc/apps.list'],
      ['GET', '/api/auth/session'],
      ['GET', '/sign-in'],
      ['TRACE', '/sign-in'],
      ['PROPFIND', '/docs'],
      ['TRACE', '/api/no-such-route'],
    ];
    for (const [method, target, headers] of cases) {
      const answer = await send(method, target, headers);
      expect(answer.status, `${method} ${target}`).toBe(299);
      expect(reached.at(-1)).toMatchObject({ method, url: target });
      expect(reached.at(-1)!.headers[SENT_METHOD_HEADER]).toBeUndefined();
    }
  });

  it('a path Next.js redirects first, so that the route answers at the path it names', async () => {
    for (const target of [`${API}/apps/`, `${API}//apps`, `${API}/./apps`, `${API}/x/../apps`, `${API}/%2e%2e/apps`, `${API}/{x}`, `${API}/`]) {
      expect((await send('GET', target)).status, target).toBe(299);
    }
    expect(reached).toHaveLength(7);
  });
});

describe('methods Next.js cannot serve', () => {
  const unservable = METHODS.filter((method) => !NEXT_SERVABLE_METHODS.has(method) && method !== 'CONNECT');

  it('are passed to the public API route as a GET, the sent method sealed', async () => {
    expect(unservable).toContain('TRACE');
    for (const method of unservable) {
      const target = `${API}/apps?x=1`;
      // A header of the same name sent by the client is replaced.
      expect((await send(method, target, { Authorization: `Bearer ${validKey}`, [SENT_METHOD_HEADER]: 'forged POST' })).status).toBe(299);
      const passed = reached.at(-1)!;
      expect(passed).toMatchObject({ method: 'GET', url: target });
      const seen = new Request(`http://localhost${target}`, { headers: { [SENT_METHOD_HEADER]: String(passed.headers[SENT_METHOD_HEADER]) } });
      expect(sentMethod(seen)).toBe(method);
    }
  });

  it('a forged seal is ignored: the route sees the method Next.js gives it', async () => {
    expect((await send('GET', `${API}/apps`, { Authorization: `Bearer ${validKey}`, [SENT_METHOD_HEADER]: 'TRACE' })).status).toBe(299);
    const passed = String(reached.at(-1)!.headers[SENT_METHOD_HEADER]);
    expect(passed).toBe('TRACE');
    const forged = (value: string) => sentMethod(new Request('http://localhost/', { headers: { [SENT_METHOD_HEADER]: value } }));
    expect(forged(passed)).toBe('GET');
    expect(forged(`${'x'.repeat(24)} TRACE`)).toBe('GET');
    expect(forged(' TRACE')).toBe('GET');
  });

  it('CONNECT: 405 problem+json, then the connection closes', async () => {
    const raw = await connectRaw('127.0.0.1', port);
    expect(raw).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(raw).toContain('Content-Type: application/problem+json');
    expect(raw).toContain('Allow: GET, HEAD, POST');
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 405, detail: 'CONNECT is not allowed here; use GET, HEAD or POST.' });
  });
});

describe('the other route handlers', () => {
  it('answer a method they do not accept with 405 problem+json and Allow', async () => {
    for (const route of ROUTE_HANDLERS) {
      const target = route.prefix ? `${route.path}example` : route.path;
      for (const method of ['PUT', 'DELETE', 'PATCH', 'POST', 'TRACE', 'PROPFIND', 'MKCOL'].filter((m) => !route.methods.includes(m))) {
        const answer = await send(method, target, { Authorization: `Bearer ${validKey}` });
        expect(answer.status, `${method} ${target}`).toBe(405);
        expect(answer.headers['content-type']).toBe('application/problem+json');
        expect(answer.headers.allow).toBe(route.methods.join(', '));
        expect(JSON.parse(answer.body)).toMatchObject({ status: 405, instance: target, requestId: answer.headers['x-request-id'] });
      }
      for (const method of [...route.methods, 'OPTIONS']) expect((await send(method, target)).status).toBe(299);
    }
    expect(reached.length).toBeGreaterThan(0);
  });

  it('ROUTE_HANDLERS is every route file outside the public API catch-all, with the methods it exports', async () => {
    const appDir = path.resolve('src/app');
    const files = readdirSync(path.join(appDir, 'api'), { recursive: true, encoding: 'utf8' })
      .filter((file) => path.basename(file) === 'route.ts')
      .map((file) => path.join('api', path.dirname(file)));
    const asPath = (dir: string) => {
      const segments = dir.split(path.sep);
      const dynamic = segments.findIndex((segment) => segment.startsWith('['));
      return dynamic === -1 ? { path: `/${segments.join('/')}` } : { path: `/${segments.slice(0, dynamic).join('/')}/`, prefix: true as const };
    };
    const declared = [];
    for (const dir of files.filter((dir) => dir !== path.join('api', 'public', 'v1', '[[...path]]'))) {
      const exported = Object.keys(await import(path.join(appDir, dir, 'route.ts'))).filter((name) => NEXT_SERVABLE_METHODS.has(name));
      const methods = [...exported, ...(exported.includes('GET') ? ['HEAD'] : [])];
      const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
      declared.push({ ...asPath(dir), methods: methods.sort((a, b) => order.indexOf(a) - order.indexOf(b)) });
    }
    const sortByPath = <T extends { path: string }>(list: readonly T[]) => [...list].sort((a, b) => a.path.localeCompare(b.path));
    expect(sortByPath(ROUTE_HANDLERS)).toEqual(sortByPath(declared));
  });
});
