// Every method Node's HTTP parser accepts, on every kind of path, over real HTTP to the app's server: never a 5xx,
// and on an API path every error is problem+json. The public API answers every method itself (TRACE, PROPFIND, …)
// in CONTRACT order, and a 401 refused on the credential's shape names the same origin as one refused after a lookup.
import { METHODS } from 'node:http';
import { expect, test } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { connectRaw, sendRaw } from '../../test/http';
import { API, createKey, DEMO, DEMO_APP_ID, signIn } from '../helpers';

const { hostname, port } = new URL(baseURL);
const send = (method: string, path: string, headers: Record<string, string> = {}) =>
  sendRaw(hostname, port, method, path, headers);

let key: string;
test.beforeAll(async () => {
  key = await createKey(await signIn(DEMO.email, DEMO.password), 'read-write', 'e2e methods');
});

test('no method on any path answers 5xx; every error on an API path is problem+json', async () => {
  const paths = [
    `${API}/apps`,
    `${API}/apps/${DEMO_APP_ID}/keywords`,
    `${API}/no-such-endpoint`,
    `${API}/openapi.json`,
    '/api/health',
    '/api/trpc/apps.list',
    '/api/auth/session',
    '/sign-in',
    '/no-such-page',
  ];
  const credentials: Record<string, string>[] = [
    {},
    { Authorization: `Bearer ${key}` },
    { Authorization: 'Bearer not-a-key' },
  ];
  const methods = METHODS.filter((method) => method !== 'CONNECT');
  expect(methods).toEqual(expect.arrayContaining(['TRACE', 'PROPFIND', 'MKCOL', 'SEARCH', 'PURGE']));
  // Every answer that breaks a rule, asserted once at the end: all of them in one failure, and no step per request.
  const broken: string[] = [];
  for (const path of paths) {
    for (const method of methods) {
      for (const headers of credentials) {
        const answer = await send(method, path, headers);
        const what = `${method} ${path} ${headers.Authorization ?? 'no credential'}: ${answer.status} ${answer.body.slice(0, 200)}`;
        if (answer.status >= 500) broken.push(`${what} (a 5xx)`);
        const problemExpected =
          path.startsWith('/api/') &&
          answer.status >= 400 &&
          !path.startsWith('/api/trpc/') &&
          !path.startsWith('/api/auth/');
        // The dashboard's tRPC and next-auth answer their own errors in their own JSON; a method they do not accept
        // is a 405 problem (the server's, or the route's own exports: src/app/api/route-methods.ts).
        const methodRefused = answer.status === 405 && path.startsWith('/api/');
        if ((problemExpected || methodRefused) && answer.headers['content-type'] !== 'application/problem+json')
          broken.push(`${what} (not problem+json)`);
        if (answer.status === 405 && !answer.headers.allow) broken.push(`${what} (a 405 without Allow)`);
      }
    }
  }
  expect(broken).toEqual([]);
});

test('TRACE and PROPFIND on the public API: credential first, then 404 or 405 with Allow, free of charge', async () => {
  const noCredential = await send('TRACE', `${API}/apps`);
  expect(noCredential.status).toBe(401);
  expect(noCredential.headers['www-authenticate']).toBe('Bearer realm="public-api"');

  const neverIssued = await send('PROPFIND', `${API}/apps`, {
    Authorization: 'Bearer svc_live_AbCdEfGhIjKlMnOpQrStUvWxYz0123451HTd0k',
  });
  expect(neverIssued.status).toBe(401);
  expect(neverIssued.headers['www-authenticate']).toBe('Bearer realm="public-api", error="invalid_token"');

  const onApps = await send('TRACE', `${API}/apps`, { Authorization: `Bearer ${key}` });
  expect(onApps.status).toBe(405);
  expect(onApps.headers['content-type']).toBe('application/problem+json');
  expect(onApps.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
  expect(onApps.headers['x-credits-cost']).toBe('0');
  expect(JSON.parse(onApps.body)).toMatchObject({
    status: 405,
    detail: 'TRACE is not allowed here; use GET, HEAD, POST or OPTIONS.',
    instance: `${API}/apps`,
  });

  const onKeywords = await send('PROPFIND', `${API}/apps/${DEMO_APP_ID}/keywords`, { Authorization: `Bearer ${key}` });
  expect(onKeywords.status).toBe(405);
  expect(onKeywords.headers.allow).toBe('GET, HEAD, POST, OPTIONS');

  const nowhere = await send('TRACE', `${API}/no-such-endpoint`, { Authorization: `Bearer ${key}` });
  expect(nowhere.status).toBe(404);
  expect(JSON.parse(nowhere.body)).toMatchObject({ detail: `There is no endpoint at TRACE ${API}/no-such-endpoint.` });
});

test('CONNECT is refused with 405, not a dropped connection', async () => {
  const raw = await connectRaw(hostname, port);
  expect(raw).toMatch(/^HTTP\/1\.1 405 /);
  expect(raw).toContain('application/problem+json');
});

test('a 401 refused on the credential’s shape names the same origin as one refused after a lookup, behind HTTPS too', async () => {
  const wrongChecksum = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
  const neverIssued = 'svc_live_AbCdEfGhIjKlMnOpQrStUvWxYz0123451HTd0k';
  const behind: Record<string, string>[] = [{}, { 'X-Forwarded-Proto': 'https' }];
  for (const extra of behind) {
    // The first is refused on its shape, the second only after a lookup.
    const fromFront = await send('GET', `${API}/apps`, { ...extra, Authorization: `Bearer ${wrongChecksum}` });
    const fromRoute = await send('GET', `${API}/apps`, { ...extra, Authorization: `Bearer ${neverIssued}` });
    expect([fromFront.status, fromRoute.status]).toEqual([401, 401]);
    const front = JSON.parse(fromFront.body) as Record<string, unknown>;
    const route = JSON.parse(fromRoute.body) as Record<string, unknown>;
    expect(front.type).toBe(route.type);
    expect(front.instance).toBe(route.instance);
    expect(fromFront.headers['www-authenticate']).toBe(fromRoute.headers['www-authenticate']);
  }
});

test("the public API is served by the app's server without Next.js; other routes go through Next.js", async () => {
  // Next.js marks the answers it routes with `Vary: rsc, …` and streams them; the REST pipeline sends a length.
  const viaNext = (answer: { headers: Record<string, string | string[] | undefined> }) =>
    String(answer.headers.vary ?? '').includes('rsc');
  for (const [path, headers] of [
    [`${API}/openapi.json`, {}],
    [`${API}/apps`, { Authorization: `Bearer ${key}` }],
    [`${API}/apps`, {}],
  ] as const) {
    const answer = await send('GET', path, headers);
    expect(viaNext(answer), path).toBe(false);
    expect(answer.headers['content-length'], path).toBe(String(Buffer.byteLength(answer.body)));
  }
  expect(viaNext(await send('GET', '/api/health'))).toBe(true);
});

// Issue 18 §8: each of these answered 500 (or Next.js's HTML 404) before.
test('odd requests: malformed JSON on every auth route, OPTIONS *, an absolute-form target, a dot segment in an API path', async () => {
  const sendBody = (path: string, body: string) =>
    sendRaw(hostname, port, 'POST', path, { 'Content-Type': 'application/json' }, body);
  for (const action of [
    'csrf',
    'session',
    'providers',
    'signin',
    'signout',
    'callback/credentials',
    'signin/credentials',
    'error',
    '_log',
    'no-such-action',
  ]) {
    for (const body of ['{"a":', 'x', '\u0000']) {
      const answer = await sendBody(`/api/auth/${action}`, body);
      expect([answer.status, answer.headers['content-type']], `${action} ${JSON.stringify(body)}`).toEqual([
        400,
        'application/problem+json',
      ]);
    }
  }
  // Credentials next-auth reads as JSON, with text PostgreSQL cannot store: refused as a failed sign-in, not a 500.
  const { csrfToken } = JSON.parse((await send('GET', '/api/auth/csrf')).body) as { csrfToken: string };
  const nul = await sendBody(
    '/api/auth/callback/credentials',
    JSON.stringify({ csrfToken, email: 'demo\u0000@example.com', password: 'x\u0000', json: 'true' }),
  );
  expect(nul.status).toBeLessThan(500);

  const options = await send('OPTIONS', '*');
  expect([options.status, options.headers.allow]).toEqual([204, 'GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH']);
  expect((await send('GET', `http://evil.example/api/health`)).status).toBe(200);

  const dotted = await send('GET', `${API}/%2e%2e/x`);
  expect([dotted.status, dotted.headers['content-type']]).toEqual([401, 'application/problem+json']);
  const dottedWithKey = await send('GET', `${API}/%2e%2e/x`, { Authorization: `Bearer ${key}` });
  expect([dottedWithKey.status, dottedWithKey.headers['content-type']]).toEqual([404, 'application/problem+json']);
  expect(JSON.parse(dottedWithKey.body).instance).toBe(`${API}/%2e%2e/x`);
});

test('HEAD on a GET endpoint is the GET without a body, charged as the GET; OPTIONS names what a 405 names', async () => {
  const head = await send('HEAD', `${API}/apps/${DEMO_APP_ID}`, { Authorization: `Bearer ${key}` });
  const get = await send('GET', `${API}/apps/${DEMO_APP_ID}`, { Authorization: `Bearer ${key}` });
  expect([head.status, head.body, head.headers['x-credits-cost']]).toEqual([200, '', '1']);
  expect(head.headers['content-length']).toBe(get.headers['content-length']);
  const options = await send('OPTIONS', `${API}/apps/${DEMO_APP_ID}/keywords`, { Authorization: `Bearer ${key}` });
  const refused = await send('DELETE', `${API}/apps/${DEMO_APP_ID}/keywords`, { Authorization: `Bearer ${key}` });
  expect([options.status, refused.status]).toEqual([204, 405]);
  expect(options.headers.allow).toBe(refused.headers.allow);
  expect((await send('OPTIONS', `${API}/apps`)).status).toBe(401);
});
