// The HTTP front, on a real Node server: it answers a credential refused on its shape exactly as the route does,
// calls the public API route's handler directly once the route has offered it, seals the methods Next.js cannot serve
// for that route, answers 405 for the other route handlers, and leaves everything else to Next.js untouched. Whatever
// it leaves is answered 299 here, as if by Next.js.
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
import { parseTrustedProxies } from './client-address';
import { DIRECT_ROUTES, forgetRouteHandlers, offerRouteHandler, offeredRouteHandler } from './direct-route';
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
/** The same front behind a proxy on loopback: TRUSTED_PROXIES=127.0.0.1,::1. */
let proxied: Server;
let proxiedPort: number;
const reached: Reached[] = [];

async function serveFront(trustedProxies: string): Promise<[Server, number]> {
  const frontServer = createServer();
  await new Promise<void>((resolve) => frontServer.listen(0, '127.0.0.1', resolve));
  const frontPort = (frontServer.address() as { port: number }).port;
  const front = createFront({ hostname: 'localhost', port: frontPort, direct: true, trustedProxies: parseTrustedProxies(trustedProxies) });
  frontServer.on('request', (req, res) => {
    if (front(req, res)) return;
    reached.push({ method: req.method!, url: req.url!, headers: req.headers });
    res.writeHead(299);
    res.end();
  });
  frontServer.on('connect', front.refuseTunnel);
  return [frontServer, frontPort];
}

beforeAll(async () => {
  [server, port] = await serveFront('');
  [proxied, proxiedPort] = await serveFront('127.0.0.1,::1');
});
afterAll(() => Promise.all([server, proxied].map((each) => new Promise<void>((resolve) => each.close(() => resolve())))));
afterEach(() => {
  vi.restoreAllMocks();
  reached.length = 0;
});

const send = (method: string, target: string, headers: Record<string, string | string[]> = {}, body?: string): Promise<Answer> =>
  sendRaw('127.0.0.1', port, method, target, headers, body);

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

  it('names the same origin as the route in its type URI: APP_ORIGIN when set, the request\'s own when unset or blank', async () => {
    const typeOf = (answer: Answer) => (JSON.parse(answer.body) as { type: string }).type;
    const saved = process.env.APP_ORIGIN;
    try {
      for (const [setting, origin] of [[undefined, `http://localhost:${port}`], ['  ', `http://localhost:${port}`], ['https://api.example.com', 'https://api.example.com']] as const) {
        if (setting === undefined) delete process.env.APP_ORIGIN;
        else process.env.APP_ORIGIN = setting;
        captureLogs();
        const front = await send('GET', `${API}/apps`);
        const route = await fromRoute('GET', `${API}/apps`, {});
        vi.restoreAllMocks();
        expect([typeOf(front), typeOf(route)], `APP_ORIGIN=${setting}`).toEqual([`${origin}/docs/problems/unauthorized`, `${origin}/docs/problems/unauthorized`]);
      }
    } finally {
      if (saved === undefined) delete process.env.APP_ORIGIN;
      else process.env.APP_ORIGIN = saved;
    }
  });

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

  it('names the https origin behind a trusted TLS-terminating proxy, as the route does; a client’s own claim is ignored', async () => {
    const headers = { 'X-Forwarded-Proto': 'https' };
    captureLogs();
    const behindProxy = comparable(await sendRaw('127.0.0.1', proxiedPort, 'GET', `${API}/apps`, headers));
    expect((behindProxy.body as Record<string, unknown>).type).toBe(`https://localhost:${proxiedPort}/docs/problems/unauthorized`);
    const claimed = comparable(await send('GET', `${API}/apps`, headers));
    expect((claimed.body as Record<string, unknown>).type).toBe(`http://localhost:${port}/docs/problems/unauthorized`);
  });
});

describe('left to Next.js untouched', () => {
  it('a credential that needs a lookup, a preflight, the public documents, pages and unknown paths', async () => {
    const cases: [string, string, Record<string, string>?][] = [
      ['GET', `${API}/apps`, { Authorization: `Bearer ${validKey}` }],
      ['POST', `${API}/apps/${APP}/keywords`, { Authorization: `bearer   ${sessionToken} ` }],
      ['OPTIONS', `${API}/apps`, { Authorization: `Bearer ${validKey}` }],
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
    for (const target of [`${API}/apps/`, `${API}//apps`, `${API}/{x}`, `${API}/`]) {
      expect((await send('GET', target)).status, target).toBe(299);
    }
    expect(reached).toHaveLength(4);
  });
});

// Issue 18 §8: `/api/public/v1/%2e%2e/x` was resolved to `/api/public/x` and answered with Next.js's HTML 404;
// `OPTIONS *` and absolute-form targets answered 500.
describe('request targets', () => {
  it('a public API path with a dot segment: answered as sent, 401 before 404, problem+json', async () => {
    captureLogs();
    for (const target of [`${API}/%2e%2e/x`, `${API}/./apps`, `${API}/x/../apps`, `${API}/apps/%2E`, `${API}/apps/.%2e`]) {
      const anonymous = await send('GET', target);
      expect([anonymous.status, anonymous.headers['content-type']], target).toEqual([401, 'application/problem+json']);
      expect(JSON.parse(anonymous.body).instance).toBe(target);
      const keyed = await send('TRACE', target, { Authorization: `Bearer ${validKey}` });
      expect([keyed.status, keyed.headers['content-type']], target).toEqual([404, 'application/problem+json']);
      expect(JSON.parse(keyed.body)).toMatchObject({ instance: target, detail: `There is no endpoint at TRACE ${target}.` });
    }
    expect(reached).toEqual([]);
  });

  it('OPTIONS *: 204 with the methods the server serves; another method with *: 400', async () => {
    const options = await send('OPTIONS', '*');
    expect([options.status, options.headers.allow, options.body]).toEqual([204, 'GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH', '']);
    expect(options.headers['content-length']).toBeUndefined();
    const get = await send('GET', '*');
    expect([get.status, get.headers['content-type']]).toEqual([400, 'application/problem+json']);
    expect(reached).toEqual([]);
  });

  it('an absolute-form target is served as its path', async () => {
    expect((await send('GET', 'http://example.com/sign-in?x=1')).status).toBe(299);
    expect(reached.at(-1)).toMatchObject({ method: 'GET', url: '/sign-in?x=1' });
    captureLogs();
    const api = await send('GET', 'http://example.com/api/public/v1/apps');
    expect([api.status, JSON.parse(api.body).instance]).toEqual([401, '/api/public/v1/apps']);
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
        expect(answer.headers.allow).toBe([...route.methods, 'OPTIONS'].join(', '));
        expect(JSON.parse(answer.body)).toMatchObject({ status: 405, instance: target, requestId: answer.headers['x-request-id'] });
      }
      // OPTIONS names the same methods as the 405.
      const options = await send('OPTIONS', target);
      expect([options.status, options.headers.allow], target).toEqual([204, [...route.methods, 'OPTIONS'].join(', ')]);
      for (const method of route.methods) expect((await send(method, target)).status).toBe(299);
    }
    expect(reached.length).toBeGreaterThan(0);
  });

  it('ROUTE_HANDLERS is every route file outside the public API catch-all, with the methods it exports and whether it offers its handler', async () => {
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
    forgetRouteHandlers();
    try {
      for (const dir of files.filter((dir) => dir !== path.join('api', 'public', 'v1', '[[...path]]'))) {
        const routeModule = (await import(path.join(appDir, dir, 'route.ts'))) as Record<string, unknown>;
        const exported = Object.keys(routeModule).filter((name) => NEXT_SERVABLE_METHODS.has(name));
        const methods = [...exported, ...(exported.includes('GET') ? ['HEAD'] : [])];
        const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
        const { path: routePath, ...rest } = asPath(dir);
        // A module that offers its GET to the front on loading (a fresh import: the file is loaded once in this test).
        const direct = DIRECT_ROUTES.find((route) => route === routePath && offeredRouteHandler(route) === routeModule.GET);
        declared.push({ path: routePath, ...rest, methods: methods.sort((a, b) => order.indexOf(a) - order.indexOf(b)), ...(direct ? { direct } : {}) });
      }
    } finally {
      forgetRouteHandlers();
    }
    const sortByPath = <T extends { path: string }>(list: readonly T[]) => [...list].sort((a, b) => a.path.localeCompare(b.path));
    expect(sortByPath(ROUTE_HANDLERS)).toEqual(sortByPath(declared));
    expect(ROUTE_HANDLERS.some((route) => route.direct)).toBe(true);
  });
});

describe("once the route module has offered its handler (production)", () => {
  const seen: { request: Request; body: string }[] = [];
  /** Records what it is called with and answers 201 with the body it read. */
  const recorder = async (request: Request) => {
    const body = await request.text();
    seen.push({ request, body });
    return new Response(JSON.stringify({ read: body }), { status: 201, headers: { 'Content-Type': 'application/json', 'X-Extra': 'yes' } });
  };
  afterEach(() => {
    forgetRouteHandlers();
    seen.length = 0;
  });

  it('calls it instead of Next.js, with the Request Next.js would build, and writes its answer', async () => {
    offerRouteHandler(API, recorder);
    const target = `${API}/apps/${APP}/keywords?x=1&x=%20`;
    const body = JSON.stringify({ terms: ['sleep', 'é'] });
    const answer = await send('POST', target, { Authorization: `Bearer ${validKey}`, 'Content-Type': 'application/json', 'X-Many': ['a', 'b'] }, body);

    expect(reached).toEqual([]);
    expect(answer.status).toBe(201);
    expect(answer.headers['x-extra']).toBe('yes');
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
    expect(JSON.parse(answer.body)).toEqual({ read: body });
    const { request } = seen[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`http://localhost:${port}${target}`);
    expect(request.headers.get('authorization')).toBe(`Bearer ${validKey}`);
    expect(request.headers.get('x-many')).toBe('a, b');
    // As Next.js adds them for a route when no proxy sent them.
    expect(request.headers.get('x-forwarded-for')).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    expect(request.headers.get('x-forwarded-host')).toBe(`127.0.0.1:${port}`);
    expect(request.headers.get('x-forwarded-port')).toBe(String(port));
    expect(request.headers.get('x-forwarded-proto')).toBe('http');
  });

  it('keeps the X-Forwarded-* headers a trusted proxy sent, X-Forwarded-For as the client it names', async () => {
    offerRouteHandler(API, recorder);
    const sent = { 'X-Forwarded-For': '203.0.113.9', 'X-Forwarded-Host': 'api.example.com', 'X-Forwarded-Port': '443' };
    await sendRaw('127.0.0.1', proxiedPort, 'GET', `${API}/usage`, { Authorization: `Bearer ${validKey}`, ...sent });
    const { headers } = seen[0]!.request;
    expect([headers.get('x-forwarded-for'), headers.get('x-forwarded-host'), headers.get('x-forwarded-port')]).toEqual(Object.values(sent));
  });

  it('names the https origin behind a trusted TLS-terminating proxy, as Next.js does', async () => {
    offerRouteHandler(API, recorder);
    await sendRaw('127.0.0.1', proxiedPort, 'GET', `${API}/usage`, { Authorization: `Bearer ${validKey}`, 'X-Forwarded-Proto': 'https' });
    expect(seen[0]!.request.url).toBe(`https://localhost:${proxiedPort}${API}/usage`);
    expect(seen[0]!.body).toBe('');
  });

  it('HEAD: the headers and length of the answer, without its body', async () => {
    offerRouteHandler(API, async () => new Response('{"a":1}', { headers: { 'Content-Type': 'application/json' } }));
    const answer = await send('HEAD', `${API}/apps`, { Authorization: `Bearer ${validKey}` });
    expect([answer.status, answer.headers['content-length'], answer.body]).toEqual([200, '7', '']);
  });

  it('every Set-Cookie, and no body or length for an answer without one', async () => {
    const headers = new Headers();
    headers.append('Set-Cookie', 'a=1');
    headers.append('Set-Cookie', 'b=2');
    offerRouteHandler(API, async () => new Response(null, { status: 204, headers }));
    const answer = await send('DELETE', `${API}/webhooks/${APP}`, { Authorization: `Bearer ${validKey}` });
    expect(answer.status).toBe(204);
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(answer.headers['content-length']).toBeUndefined();
  });

  it('a method Next.js cannot serve: the handler gets a GET with the sent method sealed', async () => {
    offerRouteHandler(API, recorder);
    await send('TRACE', `${API}/apps`, { Authorization: `Bearer ${validKey}` });
    expect(seen[0]!.request.method).toBe('GET');
    expect(sentMethod(seen[0]!.request)).toBe('TRACE');
  });

  it('a handler that throws: 500 problem+json, the cause logged and not shown', async () => {
    offerRouteHandler(API, async () => {
      throw new Error('boom at the handler');
    });
    const errors: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => errors.push(String(chunk)) > 0);
    const answer = await send('GET', `${API}/apps`, { Authorization: `Bearer ${validKey}` });
    expect(answer.status).toBe(500);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(answer.body)).toEqual({
      type: `http://localhost:${port}/docs/problems/internal-error`,
      title: expect.any(String),
      status: 500,
      detail: 'An unexpected error occurred. Nothing was charged.',
      instance: `${API}/apps`,
      requestId: answer.headers['x-request-id'],
    });
    expect(answer.body).not.toContain('boom');
    expect(errors).toHaveLength(1);
    expect(JSON.parse(errors[0]!)).toMatchObject({ level: 'error', error: 'Error: boom at the handler', requestId: answer.headers['x-request-id'] });
  });

  it('an answer whose body fails half-way: the connection is closed, not a truncated 200', async () => {
    const failing = new ReadableStream({
      start: (controller) => {
        controller.enqueue(new TextEncoder().encode('{"a":'));
        controller.error(new Error('stream broke'));
      },
    });
    offerRouteHandler(API, async () => new Response(failing, { headers: { 'Content-Type': 'application/json' } }));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await expect(send('GET', `${API}/apps`, { Authorization: `Bearer ${validKey}` })).rejects.toThrow();
  });

  it('still leaves to Next.js: a path it redirects, the documents; a refused credential is still answered here', async () => {
    offerRouteHandler(API, recorder);
    for (const [method, target] of [['GET', `${API}/apps/`], ['GET', `${API}//apps`], ['GET', `${API}/openapi.json`]] as const) {
      expect((await send(method, target, { Authorization: `Bearer ${validKey}` })).status, `${method} ${target}`).toBe(299);
    }
    captureLogs();
    expect((await send('GET', `${API}/apps`)).status).toBe(401);
    expect(seen).toEqual([]);
    // OPTIONS is the route's to answer, credential first like any method (it is not hot: no shortcut here).
    expect((await send('OPTIONS', `${API}/apps`, { Authorization: `Bearer ${validKey}` })).status).toBe(201);
    expect((await send('OPTIONS', `${API}/apps`)).status).toBe(201);
    expect(seen.map(({ request }) => request.method)).toEqual(['OPTIONS', 'OPTIONS']);
  });

  it('a front made for development never calls it (hot reloading replaces the route module)', async () => {
    offerRouteHandler(API, recorder);
    const devServer = createServer();
    await new Promise<void>((resolve) => devServer.listen(0, '127.0.0.1', resolve));
    const devPort = (devServer.address() as { port: number }).port;
    const front = createFront({ hostname: 'localhost', port: devPort, direct: false, trustedProxies: parseTrustedProxies('') });
    devServer.on('request', (req, res) => {
      if (front(req, res)) return;
      res.writeHead(299);
      res.end();
    });
    try {
      expect((await sendRaw('127.0.0.1', devPort, 'GET', `${API}/apps`, { Authorization: `Bearer ${validKey}` })).status).toBe(299);
      expect(seen).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => devServer.close(() => resolve()));
    }
  });

  it("the bare route /api/ping once offered: GET and HEAD called directly, other methods still 405, /api/health still Next.js's", async () => {
    offerRouteHandler('/api/ping', recorder);
    const answer = await send('GET', '/api/ping?body=x');
    expect([answer.status, JSON.parse(answer.body)]).toEqual([201, { read: '' }]);
    expect(seen[0]!.request.url).toBe(`http://localhost:${port}/api/ping?body=x`);
    const head = await send('HEAD', '/api/ping');
    expect([head.status, head.headers['content-length'], head.body]).toEqual([201, answer.headers['content-length'], '']);
    expect((await send('POST', '/api/ping')).status).toBe(405);
    expect(seen).toHaveLength(2);
    // Offering one route hands over that route alone.
    expect((await send('GET', `${API}/apps`, { Authorization: `Bearer ${validKey}` })).status).toBe(299);
    expect((await send('GET', '/api/health')).status).toBe(299);
    expect(reached.map((request) => request.url)).toEqual([`${API}/apps`, '/api/health']);
  });

  it('the real handler through the front answers as it answers Next.js: an unknown key, an unknown path', async () => {
    offerRouteHandler(API, handlePublicApiRequest);
    for (const target of [`${API}/apps/${APP}`, `${API}/no-such-endpoint`]) {
      const headers = { Authorization: `Bearer ${validKey}` };
      const lines = captureLogs();
      const front = await send('GET', target, headers);
      const route = await fromRoute('GET', target, headers);
      vi.restoreAllMocks();
      expect(reached).toEqual([]);
      expect(front.status).toBe(401);
      expect(comparable(front)).toEqual(comparable(route));
      const [fromFront, fromTheRoute] = logged(lines);
      expect(fromFront).toEqual(fromTheRoute);
    }
  });
});

// Issue 18 §4: /api/trpc and /api/auth/* read whole bodies of any size, even unauthenticated.
describe('bodies outside the public API', () => {
  const targets = ['/api/trpc/apiKeys.create', '/api/auth/callback/credentials', '/api/health', '/sign-in', '/'];

  it('a declared length over 64 KiB: 413 problem+json and the connection closed, before anything is read', async () => {
    for (const target of targets) {
      const answer = await send('POST', target, { 'Content-Type': 'application/json', 'Content-Length': String(50 * 1024 * 1024) });
      expect(answer.status, target).toBe(413);
      expect(answer.headers['content-type']).toBe('application/problem+json');
      expect(answer.headers.connection).toBe('close');
      expect(JSON.parse(answer.body)).toMatchObject({ status: 413, instance: target.split('?')[0] });
    }
    expect(reached).toEqual([]);
  });

  it('a body of unknown length (chunked): 411 problem+json, Content-Length required', async () => {
    for (const target of targets) {
      const answer = await send('POST', target, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, '{}');
      expect(answer.status, target).toBe(411);
      expect(answer.headers['content-type']).toBe('application/problem+json');
      expect(answer.headers.connection).toBe('close');
    }
    expect(reached).toEqual([]);
  });

  it('a body within the limit goes on; the public API reads its own bodies (credential first, then its 413)', async () => {
    const body = 'x'.repeat(64 * 1024);
    expect((await send('POST', '/api/trpc/apiKeys.create', { 'Content-Type': 'application/json' }, body)).status).toBe(299);
    const chunked = await send('POST', `${API}/apps/${APP}/keywords`, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, '{}');
    expect(chunked.status).toBe(401);
    const large = await send('POST', `${API}/apps/${APP}/keywords`, { 'Content-Type': 'application/json', 'Content-Length': String(1 << 20) });
    expect(large.status).toBe(401);
    // A refusal that leaves a body unread closes the connection instead of reading the rest; one without keeps it.
    expect(large.headers.connection).toBe('close');
    expect((await send('GET', `${API}/apps`)).headers.connection).toBe('keep-alive');
  });
});

// Issue 18 §5: the sign-in limit per address and a key's "last used IP" took the first X-Forwarded-For entry, so any
// client chose its own address.
describe('the client address', () => {
  const forwardedFor = async (target: number, headers: Record<string, string>) => {
    await sendRaw('127.0.0.1', target, 'GET', '/api/auth/session', headers);
    return reached.at(-1)!.headers;
  };

  it('is the socket’s peer, whatever the request claims, when no proxy is trusted', async () => {
    const seen = await forwardedFor(port, { 'X-Forwarded-For': '203.0.113.9', 'X-Real-IP': '198.51.100.7', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' });
    expect(seen['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen['x-real-ip']).toBeUndefined();
    expect(seen['x-forwarded-host']).toBeUndefined();
    expect(seen['x-forwarded-proto']).toBe('http');
  });

  it('is the first untrusted hop from the right behind trusted proxies', async () => {
    expect((await forwardedFor(proxiedPort, { 'X-Forwarded-For': '198.51.100.1, 203.0.113.9' }))['x-forwarded-for']).toBe('203.0.113.9');
    // A hop naming a trusted address gives way to the one before it; a client's forged first entry stays unread.
    expect((await forwardedFor(proxiedPort, { 'X-Forwarded-For': '198.51.100.1, 203.0.113.9, 127.0.0.1' }))['x-forwarded-for']).toBe('203.0.113.9');
    // A proxy that names no usable address: the proxy itself.
    expect((await forwardedFor(proxiedPort, { 'X-Forwarded-For': 'unknown' }))['x-forwarded-for']).toBe('127.0.0.1');
    expect((await forwardedFor(proxiedPort, {}))['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('TRUSTED_PROXIES takes addresses and CIDR ranges, IPv4 and IPv6, and refuses anything else', () => {
    const trusted = parseTrustedProxies('10.0.0.0/8, 192.0.2.7 ,2001:db8::/32');
    expect(['10.1.2.3', '192.0.2.7', '2001:db8::1', '::ffff:10.9.9.9'].map((address) => trusted.includes(address))).toEqual([true, true, true, true]);
    expect(['11.0.0.1', '192.0.2.8', '2001:db9::1', 'not an address'].map((address) => trusted.includes(address))).toEqual([false, false, false, false]);
    expect(() => parseTrustedProxies('10.0.0.0/8,proxy.internal')).toThrow(/TRUSTED_PROXIES: "proxy.internal"/);
  });
});
