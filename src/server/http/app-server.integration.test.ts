// The app's HTTP server, on a real Node server with the real REST pipeline: every request under /api/public/v1 is the
// pipeline's (any method, any credential, the published documents), never Next.js's; the rest goes to Next.js once
// the request target, the method, the body's length and the client's address are settled. Whatever it leaves to
// Next.js is answered 299 here, as if by Next.js.
import { METHODS, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DRAIN_MAX_BYTES } from '@/server/core/unread-body';
import { createMcpEndpoint } from '@/server/mcp/mcp-endpoint';
import { createRestPipeline } from '@/server/rest/pipeline';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { generateApiKey } from '@/server/services/api-keys/key-format';
import { makeAccount } from '../../../test/factories';
import { connectRaw, sendRaw, type RawAnswer } from '../../../test/http';
import { captureLogs } from '../../../test/logs';
import { createAppServer, SERVED_METHODS } from './app-server';
import { parseTrustedProxies } from './client-address';

const API = '/api/public/v1';
const ORIGIN = 'https://api.example.com';
const APP = '00000000-0000-4000-8000-000000000000';

interface Reached {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

let server: Server;
let port: number;
/** The same server behind a proxy on loopback: TRUSTED_PROXIES=127.0.0.1,::1. */
let proxied: Server;
let proxiedPort: number;
const reached: Reached[] = [];
let key: string;

async function listen(trustedProxies: string): Promise<[Server, number]> {
  const appServer = createAppServer({
    rest: createRestPipeline({ origin: ORIGIN }),
    mcp: createMcpEndpoint({ origin: ORIGIN }),
    oauth: () => false,
    next: async (req, res) => {
      reached.push({ method: req.method!, url: req.url!, headers: req.headers });
      res.writeHead(299);
      res.end();
    },
    trustedProxies: parseTrustedProxies(trustedProxies),
    origin: ORIGIN,
  });
  await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
  return [appServer, (appServer.address() as { port: number }).port];
}

beforeAll(async () => {
  [server, port] = await listen('');
  [proxied, proxiedPort] = await listen('127.0.0.1,::1');
  const owner = await makeAccount('pro');
  key = (await createApiKey(owner, { name: 'app server', scope: 'read-write' })).secret;
});
afterAll(() =>
  Promise.all([server, proxied].map((each) => new Promise<void>((resolve) => each.close(() => resolve())))),
);
afterEach(() => {
  vi.restoreAllMocks();
  reached.length = 0;
});

const send = (
  method: string,
  target: string,
  headers: Record<string, string | string[]> = {},
  body?: string,
): Promise<RawAnswer> => sendRaw('127.0.0.1', port, method, target, headers, body);

const problemOf = (answer: RawAnswer) => JSON.parse(answer.body) as Record<string, unknown>;

describe('the public API is mounted on the server', () => {
  it('every method, credential and path under it is answered by the REST pipeline, never by Next.js', async () => {
    captureLogs();
    const cases: [string, string, Record<string, string>, number][] = [
      ['GET', `${API}/apps`, {}, 401],
      ['GET', API, {}, 401],
      ['POST', `${API}/apps/${APP}/keywords`, { Authorization: 'Basic dXNlcjpwYXNz' }, 401],
      ['GET', `${API}/apps`, { Authorization: `Bearer ${generateApiKey().secret}` }, 401],
      ['GET', `${API}/apps`, { Authorization: `Bearer ${key}` }, 200],
      ['OPTIONS', `${API}/apps`, { Authorization: `Bearer ${key}` }, 204],
      ['GET', `${API}/no-such-endpoint`, { Authorization: `Bearer ${key}` }, 404],
      ['PUT', `${API}/apps`, { Authorization: `Bearer ${key}` }, 405],
    ];
    for (const [method, target, headers, status] of cases) {
      const answer = await send(method, target, headers);
      expect(answer.status, `${method} ${target}`).toBe(status);
      expect(answer.headers['x-request-id']).toBeDefined();
    }
    expect(reached).toEqual([]);
  });

  it('a method no route handler could be given (TRACE, PROPFIND, …): credential first, then 404 or 405 with Allow', async () => {
    captureLogs();
    const unserved = METHODS.filter((method) => !SERVED_METHODS.includes(method) && method !== 'CONNECT');
    expect(unserved).toContain('TRACE');
    for (const method of unserved) {
      expect((await send(method, `${API}/apps`)).status, method).toBe(401);
      const keyed = await send(method, `${API}/apps`, { Authorization: `Bearer ${key}` });
      expect([keyed.status, keyed.headers.allow], method).toEqual([405, 'GET, HEAD, POST, OPTIONS']);
      expect(problemOf(keyed)).toMatchObject({
        status: 405,
        detail: `${method} is not allowed here; use GET, HEAD, POST or OPTIONS.`,
      });
    }
    expect(reached).toEqual([]);
  });

  it('a path with a dot segment is answered as sent, 401 before 404, never resolved to another path', async () => {
    captureLogs();
    for (const target of [
      `${API}/%2e%2e/x`,
      `${API}/./apps`,
      `${API}/x/../apps`,
      `${API}/apps/%2E`,
      `${API}/apps/.%2e`,
    ]) {
      const anonymous = await send('GET', target);
      expect([anonymous.status, anonymous.headers['content-type'], problemOf(anonymous).instance], target).toEqual([
        401,
        'application/problem+json',
        target,
      ]);
      const keyed = await send('GET', target, { Authorization: `Bearer ${key}` });
      if (target.startsWith(`${API}/apps/`)) {
        // The segment is the {id} of GET /apps/{id}, as sent: not a UUID.
        expect(keyed.status, target).toBe(400);
        expect(problemOf(keyed)).toMatchObject({ instance: target, errors: [{ in: 'path', name: 'id' }] });
      } else {
        expect(keyed.status, target).toBe(404);
        expect(problemOf(keyed)).toMatchObject({ instance: target, detail: `There is no endpoint at GET ${target}.` });
      }
    }
    expect(reached).toEqual([]);
  });

  it('the published documents need no credential; another method there is 405', async () => {
    captureLogs();
    for (const document of ['openapi.json', 'collection.json']) {
      const answer = await send('GET', `${API}/${document}`);
      expect([answer.status, answer.headers['content-type']], document).toEqual([200, 'application/json']);
      expect(answer.body).toContain(ORIGIN);
      const head = await send('HEAD', `${API}/${document}`);
      expect([head.status, head.headers['content-length'], head.body]).toEqual([
        200,
        String(Buffer.byteLength(answer.body)),
        '',
      ]);
      const post = await send('POST', `${API}/${document}`, { 'Content-Type': 'application/json' }, '{}');
      expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD, OPTIONS']);
    }
    expect(reached).toEqual([]);
  });

  it('names the configured origin in a problem’s type URI, whatever Host or X-Forwarded-Host the client sends', async () => {
    captureLogs();
    const answer = await send('GET', `${API}/apps`, { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example' });
    expect(problemOf(answer).type).toBe(`${ORIGIN}/docs/problems/unauthorized`);
  });
});

describe('request targets', () => {
  it('OPTIONS *: 204 with the methods the server serves; another method with *: 400', async () => {
    const options = await send('OPTIONS', '*');
    expect([options.status, options.headers.allow, options.body]).toEqual([
      204,
      'GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH',
      '',
    ]);
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
    expect([api.status, problemOf(api).instance]).toEqual([401, '/api/public/v1/apps']);
  });
});

describe('outside the public API', () => {
  it('a method Next.js cannot hand a route: 405 problem+json with the methods the server serves', async () => {
    for (const target of ['/api/health', '/api/trpc/apps.list', '/sign-in', '/no-such-page']) {
      const answer = await send('PROPFIND', target);
      expect([answer.status, answer.headers['content-type'], answer.headers.allow], target).toEqual([
        405,
        'application/problem+json',
        SERVED_METHODS.join(', '),
      ]);
    }
    expect(reached).toEqual([]);
  });

  it('CONNECT: 405 problem+json, then the connection closes', async () => {
    const raw = await connectRaw('127.0.0.1', port);
    expect(raw).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(raw).toContain('Content-Type: application/problem+json');
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 405 });
  });

  // Issue 18 §4: /api/trpc and /api/auth/* read whole bodies of any size, even unauthenticated.
  const targets = ['/api/trpc/apiKeys.create', '/api/auth/callback/credentials', '/api/health', '/sign-in', '/'];

  it('a declared length over 64 KiB: 413 problem+json before anything is read; the connection closed when the body is too long to read away', async () => {
    for (const target of targets) {
      const answer = await send('POST', target, {
        'Content-Type': 'application/json',
        'Content-Length': String(DRAIN_MAX_BYTES + 1),
      });
      expect([answer.status, answer.headers['content-type'], answer.headers.connection], target).toEqual([
        413,
        'application/problem+json',
        'close',
      ]);
      expect(problemOf(answer)).toMatchObject({ status: 413, instance: target });
    }
    expect(reached).toEqual([]);
  });

  it('a body of unknown length (chunked): 411 problem+json, Content-Length required', async () => {
    for (const target of targets) {
      const answer = await send(
        'POST',
        target,
        { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
        '{}',
      );
      // The body is read away (src/server/core/unread-body.ts): the connection can go on.
      expect([answer.status, answer.headers['content-type'], answer.headers.connection], target).toEqual([
        411,
        'application/problem+json',
        'keep-alive',
      ]);
    }
    expect(reached).toEqual([]);
  });

  it('a body within the limit goes on; the public API reads its own bodies (credential first, then its 413)', async () => {
    captureLogs();
    expect(
      (await send('POST', '/api/trpc/apiKeys.create', { 'Content-Type': 'application/json' }, 'x'.repeat(64 * 1024)))
        .status,
    ).toBe(299);
    const chunked = await send(
      'POST',
      `${API}/apps/${APP}/keywords`,
      { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      '{}',
    );
    expect(chunked.status).toBe(401);
    const large = await send(
      'POST',
      `${API}/apps/${APP}/keywords`,
      { 'Content-Type': 'application/json', 'Content-Length': String(1 << 20) },
      'x'.repeat(1 << 20),
    );
    expect(large.status).toBe(401);
    // A refusal that leaves a body unread reads the rest away and keeps the connection, unless the body is declared
    // longer than it would read.
    expect(large.headers.connection).toBe('keep-alive');
    const huge = await send('POST', `${API}/apps/${APP}/keywords`, {
      'Content-Type': 'application/json',
      'Content-Length': String(DRAIN_MAX_BYTES + 1),
    });
    expect([huge.status, huge.headers.connection]).toEqual([401, 'close']);
    const keyedLarge = await send(
      'POST',
      `${API}/apps/${APP}/keywords`,
      { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Content-Length': String(1 << 20) },
      'x'.repeat(1 << 20),
    );
    expect([keyedLarge.status, keyedLarge.headers.connection]).toEqual([413, 'keep-alive']);
  });
});

describe('a request too large, sent whole while its refusal goes (issue 63)', () => {
  /**
   * A request as a client makes it, its body written while the answer may already be coming: the answer and every
   * error the client saw (a reset or a broken pipe before or after the answer is an error).
   */
  function request(
    method: string,
    target: string,
    headers: Record<string, string>,
    body?: Buffer,
  ): Promise<{ status: number | null; body: string; errors: string[] }> {
    return new Promise((resolve) => {
      const errors: string[] = [];
      let answer: { status: number; body: string } | null = null;
      const req = httpRequest({ host: '127.0.0.1', port, method, path: target, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => (answer = { status: res.statusCode!, body: text }));
      });
      req.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
      // Once the request is done, body sent and answer read, or failed: an error at any point is in `errors`.
      req.on('close', () => resolve({ status: answer?.status ?? null, body: answer?.body ?? '', errors }));
      req.end(body);
    });
  }

  /** `megabytes` of body, declared. */
  function upload(target: string, megabytes: number, headers: Record<string, string> = {}) {
    const body = Buffer.alloc(megabytes * 1024 * 1024, 0x20);
    return request(
      'POST',
      target,
      { 'Content-Type': 'application/json', 'Content-Length': String(body.length), ...headers },
      body,
    );
  }

  it.each([100, 1000])(
    'a %i KB header: the client reads a 431 problem, never a reset, on any path',
    async (kilobytes) => {
      for (const target of ['/api/auth/callback/credentials', `${API}/apps`, '/api/mcp', '/']) {
        const answer = await request('GET', target, { 'X-Padding': 'a'.repeat(kilobytes * 1024) });
        expect([answer.status, answer.errors], target).toEqual([431, []]);
        expect(JSON.parse(answer.body)).toMatchObject({
          status: 431,
          type: `${ORIGIN}/docs/problems/request-header-fields-too-large`,
        });
      }
    },
  );

  it.each([2, 20, 50])(
    '%i MB: the client reads its 413 (or the 401 that comes first), never a reset',
    async (megabytes) => {
      captureLogs();
      for (const [target, headers, status] of [
        ['/api/auth/callback/credentials', {}, 413],
        [`${API}/apps/${APP}/keywords`, { Authorization: `Bearer ${key}` }, 413],
        [`${API}/apps/${APP}/keywords`, {}, 401],
        ['/api/mcp', {}, 401],
      ] as const) {
        const answer = await upload(target, megabytes, headers);
        expect([answer.status, answer.errors], `${target} with ${megabytes} MB`).toEqual([status, []]);
        expect(JSON.parse(answer.body), target).toMatchObject({ status });
      }
    },
  );
});

describe('connections', () => {
  it('an idle connection stays open 65 s, longer than the proxies in front keep theirs: a request after a pause goes on it', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.setEncoding('utf8');
    let received = '';
    let closed = false;
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('close', () => (closed = true));
    const answer = async () => {
      await vi.waitFor(() => expect(received).toMatch(/\r\n\r\n/), { timeout: 30_000 });
      const head = received;
      received = '';
      return head;
    };
    socket.write('GET /pricing HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(await answer()).toMatch(/^HTTP\/1\.1 299[\s\S]*\r\nKeep-Alive: timeout=65\r\n/i);
    // Past Node's default of 5 s.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(closed).toBe(false);
    socket.write('GET /pricing HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(await answer()).toMatch(/^HTTP\/1\.1 299/);
    expect(reached).toHaveLength(2);
    socket.destroy();
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
    const seen = await forwardedFor(port, {
      'X-Forwarded-For': '203.0.113.9',
      'X-Real-IP': '198.51.100.7',
      'X-Forwarded-Host': 'evil.example',
      'X-Forwarded-Proto': 'https',
    });
    expect(seen['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen['x-real-ip']).toBeUndefined();
    expect(seen['x-forwarded-host']).toBeUndefined();
    expect(seen['x-forwarded-proto']).toBe('http');
  });

  it('is the first untrusted hop from the right behind trusted proxies', async () => {
    expect(
      (await forwardedFor(proxiedPort, { 'X-Forwarded-For': '198.51.100.1, 203.0.113.9' }))['x-forwarded-for'],
    ).toBe('203.0.113.9');
    // A hop naming a trusted address gives way to the one before it; a client's forged first entry stays unread.
    expect(
      (await forwardedFor(proxiedPort, { 'X-Forwarded-For': '198.51.100.1, 203.0.113.9, 127.0.0.1' }))[
        'x-forwarded-for'
      ],
    ).toBe('203.0.113.9');
    // A proxy that names no usable address: the proxy itself.
    expect((await forwardedFor(proxiedPort, { 'X-Forwarded-For': 'unknown' }))['x-forwarded-for']).toBe('127.0.0.1');
    expect((await forwardedFor(proxiedPort, {}))['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('TRUSTED_PROXIES takes addresses and CIDR ranges, IPv4 and IPv6, and refuses anything else', () => {
    const trusted = parseTrustedProxies('10.0.0.0/8, 192.0.2.7 ,2001:db8::/32');
    expect(
      ['10.1.2.3', '192.0.2.7', '2001:db8::1', '::ffff:10.9.9.9'].map((address) => trusted.includes(address)),
    ).toEqual([true, true, true, true]);
    expect(
      ['11.0.0.1', '192.0.2.8', '2001:db9::1', 'not an address'].map((address) => trusted.includes(address)),
    ).toEqual([false, false, false, false]);
    expect(() => parseTrustedProxies('10.0.0.0/8,proxy.internal')).toThrow(/TRUSTED_PROXIES: "proxy.internal"/);
  });
});
