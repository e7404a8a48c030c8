import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mcpResource } from '@/server/mcp/mcp-endpoint';
import { purgeUnusedOAuthClients, UNUSED_CLIENT_DAYS } from '@/server/db/oauth-records';
import { OAuthAdapter } from './oauth-adapter';
import {
  clientMetadataFetchAllowed,
  createAuthorizationServer,
  redirectUriRefusal,
  REGISTRATIONS_PER_HOUR,
} from './authorization-server';

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const authorization = createAuthorizationServer({ origin });
  server.on('request', (req, res) => {
    // As the app's server settles it for every request (src/server/http/client-address.ts).
    req.headers['x-forwarded-for'] = String(req.headers['x-test-client'] ?? '127.0.0.1');
    req.headers['x-forwarded-proto'] = 'http';
    const path = (req.url ?? '/').split('?')[0]!;
    if (!authorization.serve(req, res, path)) res.writeHead(404).end();
  });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const register = (metadata: Record<string, unknown>, client = '198.51.100.1') =>
  fetch(`${origin}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Test-Client': client },
    body: JSON.stringify(metadata),
  });

describe('the authorization server', () => {
  it('publishes RFC 8414 metadata: code with PKCE S256 only, refresh tokens, registration, revocation, the issuer in the response', async () => {
    const metadata = await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      registration_endpoint: `${origin}/oauth/register`,
      revocation_endpoint: `${origin}/oauth/revoke`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      scopes_supported: expect.arrayContaining(['read-only', 'read-write']),
      // MCP 2026-07-28: Client ID Metadata Documents first, registration for older clients.
      client_id_metadata_document_supported: true,
    });
    expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(metadata.grant_types_supported).not.toContain('implicit');
    expect(metadata.grant_types_supported).not.toContain('password');
  });

  it('publishes RFC 9728 metadata for the MCP server, at the well-known path and with the resource path inserted', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/api/mcp']) {
      expect(await (await fetch(`${origin}${path}`)).json()).toEqual(
        expect.objectContaining({
          resource: mcpResource(origin),
          authorization_servers: [origin],
          scopes_supported: ['read-only', 'read-write'],
        }),
      );
    }
  });

  it('registers a public client with an HTTPS or loopback redirect, and refuses script, data and plain-HTTP redirects', async () => {
    const registered = await register({
      client_name: 'Agent',
      redirect_uris: ['https://agent.example/callback', 'http://127.0.0.1:33418/callback'],
      application_type: 'native',
    });
    expect(registered.status, await registered.clone().text()).toBe(201);
    expect(await registered.json()).toMatchObject({
      client_id: expect.any(String),
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    // The scopes an MCP client registers, as the SDK's client does from the protected resource's metadata.
    expect(
      (
        await register({
          client_name: 'Agent',
          redirect_uris: ['https://agent.example/callback'],
          scope: 'read-only read-write',
        })
      ).status,
    ).toBe(201);
    for (const uri of ['javascript:alert(1)', 'http://agent.example/callback', 'data:text/html,hi']) {
      const refused = await register({ client_name: 'Bad', redirect_uris: [uri] });
      expect(refused.status, uri).toBe(400);
      expect(await refused.json(), uri).toMatchObject({ error: 'invalid_redirect_uri' });
    }
  });

  it('forgets a registration no one connected, days after it was made', async () => {
    const registered = await register({
      client_name: 'Forgotten agent',
      redirect_uris: ['https://agent.example/callback'],
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const clients = new OAuthAdapter('Client');
    await purgeUnusedOAuthClients();
    const stored = await clients.find(clientId);
    expect(stored).toMatchObject({ client_id: clientId, client_id_issued_at: expect.any(Number) });
    // Made days ago, as stored: a purge dated in the future would take other files' clients, registered a moment ago.
    await clients.upsert(clientId, {
      ...stored,
      client_id_issued_at: (stored!.client_id_issued_at as number) - (UNUSED_CLIENT_DAYS + 1) * 86_400,
    });
    await purgeUnusedOAuthClients();
    expect(await clients.find(clientId)).toBeUndefined();
    // The agent's next sign-in request lands on a page that says why, and what to do.
    const query = {
      client_id: clientId,
      response_type: 'code',
      redirect_uri: 'https://agent.example/callback',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    };
    const page = await fetch(`${origin}/oauth/authorize?${new URLSearchParams(query)}`, { redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('the app then registers anew');
  });

  it('limits registrations per client address', async () => {
    const client = '198.51.100.77';
    const statuses = [];
    for (let index = 0; index <= REGISTRATIONS_PER_HOUR; index++)
      statuses.push((await register({ redirect_uris: ['https://agent.example/cb'] }, client)).status);
    expect(statuses.slice(0, REGISTRATIONS_PER_HOUR)).toEqual(Array(REGISTRATIONS_PER_HOUR).fill(201));
    const refused = await register({ redirect_uris: ['https://agent.example/cb'] }, client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await register({ redirect_uris: ['https://agent.example/cb'] }, '198.51.100.78')).status).toBe(201);
  });

  it('sends an authorization request to the consent page, and refuses one without PKCE or with plain PKCE', async () => {
    const { client_id } = await (await register({ redirect_uris: ['https://agent.example/cb'] })).json();
    const authorize = (extra: Record<string, string>) =>
      fetch(
        `${origin}/oauth/authorize?${new URLSearchParams({ client_id, response_type: 'code', redirect_uri: 'https://agent.example/cb', scope: 'read-only', state: 'xyz', ...extra })}`,
        { redirect: 'manual' },
      );
    const started = await authorize({
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: mcpResource(origin),
    });
    expect(started.status).toBe(303);
    expect(started.headers.get('location')).toMatch(/^\/oauth\/consent\/[\w-]+$/);
    for (const extra of [
      {},
      { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'plain' },
    ] as Record<string, string>[]) {
      const refused = await authorize(extra);
      expect(refused.status).toBe(303);
      const back = new URL(refused.headers.get('location')!);
      expect(back.origin + back.pathname).toBe('https://agent.example/cb');
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('state')).toBe('xyz');
      expect(back.searchParams.get('iss')).toBe(origin);
    }
    // Another resource than the MCP server.
    const elsewhere = await authorize({
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: `${origin}/api/public/v1`,
    });
    expect(new URL(elsewhere.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
  });

  it('shows an unregistered redirect URI a page, never a redirect to it', async () => {
    const { client_id } = await (await register({ redirect_uris: ['https://agent.example/cb'] })).json();
    const refused = await fetch(
      `${origin}/oauth/authorize?${new URLSearchParams({ client_id, response_type: 'code', redirect_uri: 'https://evil.example/cb', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' })}`,
      { redirect: 'manual' },
    );
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    expect(await refused.text()).toContain('redirect_uri');
  });
  it('never fetches a client ID metadata document from a loopback or private address', async () => {
    for (const clientId of [
      'https://127.0.0.1/client.json',
      'https://localhost/client.json',
      'https://10.1.2.3/client.json',
      'https://[::1]/client.json',
    ]) {
      const refused = await fetch(
        `${origin}/oauth/authorize?${new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: 'https://agent.example/cb', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' })}`,
        { redirect: 'manual' },
      );
      expect(refused.status, clientId).toBe(400);
      expect(await refused.text(), clientId).toContain('invalid_client');
    }
  });
});

describe('the authorization server of a process', () => {
  it('is made on the first OAuth request, not at start, and made again on the next request when that failed', async () => {
    const later = createServer();
    await new Promise<void>((resolve) => later.listen(0, '127.0.0.1', resolve));
    const laterOrigin = `http://127.0.0.1:${(later.address() as { port: number }).port}`;
    // Its signing keys cannot be opened: as when the database (or the data key) is not there yet.
    vi.stubEnv('DATA_ENCRYPTION_KEY', '');
    const authorization = createAuthorizationServer({ origin: laterOrigin });
    later.on('request', (req, res) => {
      req.headers['x-forwarded-for'] = '127.0.0.1';
      if (!authorization.serve(req, res, (req.url ?? '/').split('?')[0]!)) res.writeHead(404).end();
    });
    try {
      const unavailable = await fetch(`${laterOrigin}/.well-known/oauth-authorization-server`);
      expect(unavailable.status).toBe(503);
      expect(await unavailable.json()).toMatchObject({ error: 'temporarily_unavailable' });
      // The protected resource's metadata needs none of it.
      expect((await fetch(`${laterOrigin}/.well-known/oauth-protected-resource/api/mcp`)).status).toBe(200);
      vi.unstubAllEnvs();
      expect((await fetch(`${laterOrigin}/.well-known/oauth-authorization-server`)).status).toBe(200);
    } finally {
      vi.unstubAllEnvs();
      await new Promise<void>((resolve) => later.close(() => resolve()));
    }
  });
});

describe('client ID metadata documents', () => {
  it('are fetched over HTTPS from public addresses only', async () => {
    expect(await clientMetadataFetchAllowed('https://93.184.216.34/client.json')).toBe(true);
    for (const clientId of [
      'http://93.184.216.34/client.json',
      'https://127.0.0.1/client.json',
      'https://10.1.2.3/client.json',
      'https://[::1]/client.json',
      'https://169.254.169.254/latest',
    ]) {
      expect(await clientMetadataFetchAllowed(clientId), clientId).toBe(false);
    }
  });
});

describe('redirect URIs', () => {
  it.each([
    ['https://claude.ai/api/mcp/auth_callback', null],
    ['http://127.0.0.1:5173/callback', null],
    ['http://[::1]:5173/callback', null],
    ['http://localhost:6274/oauth/callback', null],
    ['com.example.agent:/callback', null],
    ['http://agent.example/callback', 'must use https, or http on a loopback address (127.0.0.1 or [::1])'],
    ['javascript:alert(document.cookie)', 'must not use the javascript scheme'],
    ['file:///etc/passwd', 'must not use the file scheme'],
    [
      'myapp:/callback',
      'must use https, a loopback http address, or a reverse-domain private-use scheme (com.example.app:/callback)',
    ],
    ['not a uri', 'must be an absolute URI'],
  ])('%s', (uri, refusal) => {
    expect(redirectUriRefusal(uri)).toBe(refusal);
  });
});

// Client ID Metadata Documents (MCP 2026-07-28's first way for a client to be known): the client's id is the HTTPS
// address of its metadata, read when it first asks. Here the client's host is a stand-in (the network is not reachable
// from the tests): it serves the document as a client's would, and the server's rules apply to what it serves.
describe('a client known by its metadata document', () => {
  const CLIENT_ID = 'https://client.example/oauth/mcp-client.json';
  const documents = new Map<string, unknown>([
    [
      CLIENT_ID,
      {
        client_id: CLIENT_ID,
        client_name: 'Example Agent',
        client_uri: 'https://client.example',
        logo_uri: 'https://client.example/logo.png',
        redirect_uris: ['https://client.example/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
    ],
    // A document that names another client than its address: refused.
    ['https://client.example/impostor.json', { client_id: 'https://other.example/client.json', redirect_uris: [] }],
  ]);
  const fetched: string[] = [];
  let cimdServer: Server;
  let cimdOrigin: string;
  let authorization: ReturnType<typeof createAuthorizationServer>;

  beforeAll(async () => {
    authorization = createAuthorizationServer({
      origin: 'http://127.0.0.1:1',
      clientMetadata: {
        allowFetch: async (clientId) => new URL(clientId).hostname === 'client.example',
        fetch: async (url) => {
          fetched.push(String(url));
          const document = documents.get(String(url));
          return document
            ? Response.json(document, { headers: { 'Cache-Control': 'max-age=300' } })
            : new Response('not found', { status: 404 });
        },
      },
    });
    cimdServer = createServer((req, res) => {
      req.headers['x-forwarded-for'] = '198.51.100.9';
      req.headers['x-forwarded-proto'] = 'http';
      if (!authorization.serve(req, res, (req.url ?? '/').split('?')[0]!)) res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => cimdServer.listen(0, '127.0.0.1', resolve));
    cimdOrigin = `http://127.0.0.1:${(cimdServer.address() as { port: number }).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => cimdServer.close(() => resolve())));

  const authorize = (clientId: string, redirectUri = 'https://client.example/callback') =>
    fetch(
      `${cimdOrigin}/oauth/authorize?${new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'read-only',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      })}`,
      { redirect: 'manual' },
    );

  it('advertises them, reads the document, and the consent names the client, its logo and where they come from', async () => {
    const metadata = await (await fetch(`${cimdOrigin}/.well-known/oauth-authorization-server`)).json();
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    const started = await authorize(CLIENT_ID);
    expect(started.status).toBe(303);
    const uid = started.headers.get('location')!.split('/').at(-1)!;
    expect(fetched).toContain(CLIENT_ID);
    expect(await authorization.consentRequest(uid)).toMatchObject({
      clientId: CLIENT_ID,
      clientName: 'Example Agent',
      logoUri: 'https://client.example/logo.png',
      metadataHost: 'client.example',
      redirectHost: 'client.example',
    });
  });

  it('refuses a redirect the document does not name, and a document that names another client', async () => {
    const elsewhere = await authorize(CLIENT_ID, 'https://evil.example/callback');
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain('redirect_uri');
    const impostor = await authorize('https://client.example/impostor.json');
    expect(impostor.status).toBe(400);
    expect(await impostor.text()).toMatch(/invalid_client|client_id/);
  });
});
