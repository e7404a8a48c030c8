// The REST pipeline called in process with real Requests: the log line of each request, and no secret in it.
import { createServer } from 'node:http';
import { connect } from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { dispatchEvents } from '@/server/services/webhooks/delivery';
import { makeAccount, makeApp } from '../../../test/factories';
import { callPublicApi } from '../../../test/public-api';
import { captureLogs } from '../../../test/logs';
import { createRestPipeline } from './pipeline';

const origin = 'http://api.test';

afterEach(() => vi.restoreAllMocks());

describe('request logging', () => {
  it('writes one JSON line per request with request id, route, status and duration, never the credential', async () => {
    const owner = await makeAccount();
    const app = await makeApp(owner.accountId);
    const { key, secret } = await createApiKey(owner, { name: 'log test', scope: 'read-write' });
    const logLines = captureLogs();

    const ok = await callPublicApi(
      new Request(`${origin}/api/public/v1/apps/${app.id}`, { headers: { Authorization: `Bearer ${secret}` } }),
    );
    const refused = await callPublicApi(
      new Request(`${origin}/api/public/v1/apps/${app.id}/keywords`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${secret}x`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ terms: ['secret-looking term'] }),
      }),
    );
    const lines = logLines();
    vi.restoreAllMocks();

    expect(ok.status).toBe(200);
    expect(refused.status).toBe(401);
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map((line) => JSON.parse(line));
    // pino's shape: numeric level (30: info), time in epoch milliseconds, pid and hostname.
    expect(first).toMatchObject({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      hostname: expect.any(String),
      msg: 'request',
      requestId: ok.headers.get('x-request-id'),
      method: 'GET',
      route: '/apps/{id}',
      status: 200,
      accountId: owner.accountId,
      keyId: key.id,
      actor: 'apiKey',
    });
    expect(typeof first.durationMs).toBe('number');
    expect(second).toMatchObject({ requestId: refused.headers.get('x-request-id'), status: 401 });
    const all = lines.join('');
    expect(all).not.toContain(secret);
    expect(all).not.toContain(secret.slice(9, 30));
    expect(all).not.toContain('secret-looking term');
  });

  it('runs one request id through the answer, its log line, its charge in the ledger, the event it caused and that event’s webhook delivery', async () => {
    const owner = await makeAccount();
    const app = await makeApp(owner.accountId);
    const { secret } = await createApiKey(owner, { name: 'trace', scope: 'read-write' });
    const endpoint = await db.webhookEndpoint.create({
      data: {
        accountId: owner.accountId,
        url: 'https://hooks.example.test/aso',
        secret: 'whsec_trace',
        eventTypes: ['keyword.added'],
      },
    });
    const logLines = captureLogs();
    const response = await callPublicApi(
      new Request(`${origin}/api/public/v1/apps/${app.id}/keywords`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ terms: ['trace term'] }),
      }),
    );
    const lines = logLines();
    vi.restoreAllMocks();

    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    expect(lines.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ msg: 'request', requestId, status: 200 }),
    );
    expect(
      await db.creditLedger.findMany({
        where: { accountId: owner.accountId },
        select: { requestId: true, cost: true },
      }),
    ).toEqual([{ requestId, cost: 2 }]);
    // The key's creation above ran outside a request: its event has none.
    expect(
      await db.domainEvent.findMany({
        where: { accountId: owner.accountId },
        select: { type: true, requestId: true },
        orderBy: { occurredAt: 'asc' },
      }),
    ).toEqual([
      { type: 'api_key.created', requestId: null },
      { type: 'keyword.added', requestId },
    ]);
    // The fan-out takes the oldest events first, and other tests' events share the database.
    const delivery = await vi.waitFor(
      async () => {
        await dispatchEvents();
        return db.webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
      },
      { timeout: 30_000 },
    );
    expect(JSON.parse(delivery.body)).toMatchObject({ type: 'keyword.added', requestId, data: { term: 'trace term' } });
  });

  it('answers an unexpected failure with an opaque 500 problem and logs the cause on stderr', async () => {
    const owner = await makeAccount();
    const { secret } = await createApiKey(owner, { name: 'boom', scope: 'read-only' });
    // The apps statement fails; the credential lookup before it on the same pool works.
    const query = pg.Pool.prototype.query;
    vi.spyOn(pg.Pool.prototype, 'query').mockImplementation(function (this: pg.Pool, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
      if (text?.includes('FROM tracked_apps'))
        return Promise.reject(new Error('relation "tracked_apps" exploded near SELECT'));
      return (query as (...params: unknown[]) => unknown).apply(this, args);
    } as never);
    const errors: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      errors.push(String(chunk));
      return true;
    });
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);

    const response = await callPublicApi(
      new Request(`${origin}/api/public/v1/apps`, { headers: { Authorization: `Bearer ${secret}` } }),
    );
    vi.restoreAllMocks();

    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const body = await response.json();
    expect(body).toMatchObject({
      type: `${origin}/docs/problems/internal-error`,
      status: 500,
      requestId: response.headers.get('x-request-id'),
    });
    expect(JSON.stringify(body)).not.toMatch(/exploded|SELECT|tracked_apps/);
    expect(errors.join('')).toContain('exploded');
    expect(errors.join('')).toContain(body.requestId);
  });

  it('answers a body cut short by the client (connection closed) with a 400 problem, charges nothing, logs no error', async () => {
    const owner = await makeAccount();
    const app = await makeApp(owner.accountId);
    const { secret } = await createApiKey(owner, { name: 'cut short', scope: 'read-write' });
    const errors: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      errors.push(String(chunk));
      return true;
    });
    const logLines = captureLogs();
    // On a real socket: the client promises 1,000 bytes, sends a few, and leaves.
    const server = createServer(createRestPipeline({ origin }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = connect((server.address() as { port: number }).port, '127.0.0.1');
    const path = `/api/public/v1/apps/${app.id}/keywords`;
    socket.end(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${secret}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"terms": ["sle`,
    );
    await vi.waitFor(() => expect(logLines()).toHaveLength(1), { timeout: 60_000 });
    await new Promise<void>((resolve) => server.close(() => resolve()));
    vi.restoreAllMocks();

    expect(JSON.parse(logLines()[0]!)).toMatchObject({ route: '/apps/{id}/keywords', status: 400, credits: 0 });
    expect(await db.creditLedger.count({ where: { accountId: owner.accountId } })).toBe(0);
    expect(errors).toEqual([]);
  });

  it('treats query parameters named like Object.prototype members as plain parameters (found by the fuzzer: a 500)', async () => {
    const owner = await makeAccount();
    const { secret } = await createApiKey(owner, { name: 'proto', scope: 'read-only' });
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    for (const query of ['toString=', '__proto__=x', 'constructor=1&hasOwnProperty=2', 'valueOf=a&valueOf=b']) {
      const response = await callPublicApi(
        new Request(`${origin}/api/public/v1/apps?${query}`, { headers: { Authorization: `Bearer ${secret}` } }),
      );
      expect(response.status, query).toBeLessThan(500);
    }
    const reviews = await callPublicApi(
      new Request(`${origin}/api/public/v1/apps/00000000-0000-4000-8000-000000000000/reviews?__proto__=1&page=1`, {
        headers: { Authorization: `Bearer ${secret}` },
      }),
    );
    expect(reviews.status).toBe(404);
  });
});

// Issue 18 §8: HEAD on a GET endpoint answered 405; OPTIONS was Next.js's, ahead of the credential, with an `Allow`
// that named methods the path refuses.
describe('HEAD and OPTIONS', () => {
  const call = (method: string, path: string, secret?: string) =>
    callPublicApi(
      new Request(`${origin}/api/public/v1${path}`, {
        method,
        headers: secret ? { Authorization: `Bearer ${secret}` } : {},
      }),
    );

  it('HEAD is the GET, checked and charged as the GET, with the GET’s headers and no body', async () => {
    const owner = await makeAccount();
    const app = await makeApp(owner.accountId);
    const { secret } = await createApiKey(owner, { name: 'head', scope: 'read-only' });
    captureLogs();
    const head = await call('HEAD', `/apps/${app.id}`, secret);
    const get = await call('GET', `/apps/${app.id}`, secret);
    expect([head.status, head.headers.get('x-credits-cost'), head.headers.get('x-credits-used')]).toEqual([
      200,
      '1',
      '1',
    ]);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(await get.text())));
    expect((await call('HEAD', '/apps/00000000-0000-4000-8000-000000000000', secret)).status).toBe(404);
    expect((await call('HEAD', '/usage', secret)).headers.get('x-credits-cost')).toBe('0');
  });

  it('OPTIONS: credential, then the path, then 204 with the Allow a 405 names; free', async () => {
    const owner = await makeAccount();
    const app = await makeApp(owner.accountId);
    const { secret } = await createApiKey(owner, { name: 'options', scope: 'read-only' });
    captureLogs();
    expect((await call('OPTIONS', `/apps/${app.id}/keywords`)).status).toBe(401);
    expect((await call('OPTIONS', '/no-such-endpoint', secret)).status).toBe(404);
    for (const [path, allow] of [
      [`/apps/${app.id}/keywords`, 'GET, HEAD, POST, OPTIONS'],
      ['/apps', 'GET, HEAD, POST, OPTIONS'],
      ['/usage', 'GET, HEAD, OPTIONS'],
    ] as const) {
      const options = await call('OPTIONS', path, secret);
      expect([options.status, options.headers.get('allow'), options.headers.get('x-credits-cost')]).toEqual([
        204,
        allow,
        '0',
      ]);
      const refused = await call('PUT', path, secret);
      expect([refused.status, refused.headers.get('allow')]).toEqual([405, allow]);
    }
  });
});
