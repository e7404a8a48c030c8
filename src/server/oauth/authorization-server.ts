// The app as an OAuth 2.1 authorization server for its own MCP server, so that an agent connects with the account
// owner's sign-in and consent instead of a pasted key. The protocol is oidc-provider's (OpenID-certified), never ours:
// authorization code with PKCE (S256 only), refresh tokens rotated on every use (a replayed one revokes its grant),
// dynamic client registration (RFC 7591) and Client ID Metadata Documents, resource indicators (RFC 8707), the issuer
// in the authorization response (RFC 9207) and its metadata (RFC 8414). Its state is in PostgreSQL (./oauth-adapter.ts).
//
// What is ours: the consent (./consent.ts: the dashboard's sign-in, then scope, apps and budget, as a key has), the
// connected app each grant becomes (a credential row, src/server/services/oauth/connected-apps.ts), and the access
// token's check on every MCP request, as a key's (src/server/auth/credentials.ts).
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { clientIpOf } from '@/server/core/client-ip';
import { config } from '@/server/core/config';
import { logError } from '@/server/core/log';
import { UNUSED_CLIENT_DAYS } from '@/server/db/oauth-records';
import { MCP_RESOURCE_METADATA_PATH, mcpResource } from '@/server/mcp/mcp-endpoint';
import { sharedRateLimit } from '@/server/services/limits/shared-rate-limit';
import { CONNECTION_SECONDS, revokeConnectedAppOfGrant } from '@/server/services/oauth/connected-apps';
import { checkDestinationUrl, resolveDestination } from '@/server/services/webhooks/destinations';
import { CONSENT_PATH, consentRequestOf, createConsentHandler, type ConsentRequest } from './consent';
import { OAuthAdapter } from './oauth-adapter';
import { OAUTH_SCOPES } from './scopes';
import { signingKeys } from './signing-keys';

/** The authorization server's endpoints, all under /oauth (the consent page too). */
const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
} as const;
const METADATA_PATHS = new Set(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']);
/** RFC 9728: the protected resource's metadata, at the well-known path and with the resource's path inserted. */
const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

const ACCESS_TOKEN_SECONDS = 3_600;
const REFRESH_TOKEN_SECONDS = 30 * 86_400;
/** Client registrations per client address and hour: enough for a person's tools, not for filling the table. */
export const REGISTRATIONS_PER_HOUR = 20;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'vbscript:', 'data:', 'blob:', 'file:', 'about:', 'http:', 'https:']);

/**
 * Why a redirect URI is refused, or null: HTTPS; or HTTP on a loopback address, for a native client (RFC 8252 §7.3);
 * or a native app's private-use scheme, reverse-domain (`com.example.app:/callback`, RFC 8252 §7.1). Never a script,
 * data or file URI. oidc-provider lets a web client register plain HTTP anywhere, which OAuth 2.1 does not.
 */
export function redirectUriRefusal(uri: unknown): string | null {
  if (typeof uri !== 'string' || !URL.canParse(uri)) return 'must be an absolute URI';
  const { protocol, hostname } = new URL(uri);
  if (protocol === 'https:') return null;
  if (protocol === 'http:')
    return LOOPBACK_HOSTS.has(hostname) ? null : 'must use https, or http on a loopback address (127.0.0.1 or [::1])';
  if (FORBIDDEN_SCHEMES.has(protocol)) return `must not use the ${protocol.slice(0, -1)} scheme`;
  return protocol.slice(0, -1).includes('.')
    ? null
    : 'must use https, a loopback http address, or a reverse-domain private-use scheme (com.example.app:/callback)';
}

/** A requested scope with what it implies: read-only with read-write, and both when it names neither. */
function withImpliedScopes(scope: string): string {
  const scopes = scope.split(' ').filter(Boolean);
  if (!scopes.includes('read-write') && !scopes.includes('read-only')) scopes.push(...OAUTH_SCOPES);
  else if (scopes.includes('read-write') && !scopes.includes('read-only')) scopes.push('read-only');
  return scopes.join(' ');
}

/** Whether a client ID metadata document may be fetched from `clientId`: HTTPS, resolving to public addresses only. */
export async function clientMetadataFetchAllowed(
  clientId: string,
  lookup?: Parameters<typeof resolveDestination>[1],
): Promise<boolean> {
  const check = checkDestinationUrl(clientId);
  return check.ok && check.url.protocol === 'https:' && (await resolveDestination(check.url, lookup)).ok;
}

/** How a client's metadata document is read: whether its address may be fetched, and the fetch itself. */
export interface ClientMetadataSource {
  allowFetch: (clientId: string) => Promise<boolean>;
  fetch: (url: string | URL | Request, options: RequestInit) => Promise<Response>;
}

/** The network, as oidc-provider fetches (its own special-use-address guard under ours). */
const NETWORK_CLIENT_METADATA: ClientMetadataSource = {
  allowFetch: (clientId) => clientMetadataFetchAllowed(clientId),
  fetch: (url, options) => globalThis.fetch(url, options),
};

export interface AuthorizationServer {
  /** Answers the request when it is the authorization server's; false otherwise. */
  serve(req: IncomingMessage, res: ServerResponse, path: string): boolean;
  /** What the consent page shows of a pending authorization; null once finished or expired. */
  consentRequest(uid: string): Promise<ConsentRequest | null>;
}

/** This process's authorization server, for the consent page (one per process, made by src/server/main.ts). */
let current: AuthorizationServer | undefined;

export function authorizationServer(): AuthorizationServer {
  if (!current) throw new Error('The authorization server is made at start by src/server/main.ts');
  return current;
}

/** Cookie keys derived from NEXTAUTH_SECRET: every web process signs and checks the interaction cookies alike. */
function cookieKeys(): string[] {
  const secret = config().NEXTAUTH_SECRET;
  if (!secret) throw new Error('NEXTAUTH_SECRET is not set: start the app with `npm start`, which provides one');
  return [createHash('sha256').update(`oauth cookies v1:${secret}`).digest('base64url')];
}

/**
 * The authorization server of this process. oidc-provider itself is made on the first OAuth request, once its signing
 * keys are read from the database, and made again on the next request if that failed: a web process starts, and
 * serves everything else, while the database is down.
 */
export function createAuthorizationServer({
  origin,
  clientMetadata = NETWORK_CLIENT_METADATA,
}: {
  origin: string;
  /** Where Client ID Metadata Documents are read: the network, from public addresses only (a stand-in in tests). */
  clientMetadata?: ClientMetadataSource;
}): AuthorizationServer {
  let made: Promise<Made> | undefined;
  const ready = () => {
    made ??= makeProvider(origin, clientMetadata).catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
  /** Runs an answer once the provider is made; a failure to make it is a 503 the client may retry. */
  const whenReady = (res: ServerResponse, answer: (made: Made) => unknown) => {
    ready().then(answer, (error: unknown) => {
      logError('the authorization server could not start', error);
      if (res.headersSent) return;
      const body = JSON.stringify({
        error: 'temporarily_unavailable',
        error_description: 'The sign-in service is unavailable for a moment; try again.',
      });
      res
        .writeHead(503, {
          'Content-Type': 'application/json',
          'Retry-After': '5',
          'Content-Length': Buffer.byteLength(body),
        })
        .end(body);
    });
  };
  current = {
    consentRequest: async (uid) => consentRequestOf((await ready()).provider, uid),
    serve(req, res, path) {
      if (path.startsWith(`${CONSENT_PATH}/`)) {
        if (req.method !== 'POST') return false;
        whenReady(res, ({ consent }) => consent(req, res, path.slice(CONSENT_PATH.length + 1)));
        return true;
      }
      if (path === PROTECTED_RESOURCE_METADATA_PATH || path === MCP_RESOURCE_METADATA_PATH) {
        const body = JSON.stringify(protectedResourceMetadata(origin));
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'Cache-Control': 'public, max-age=3600',
          'Access-Control-Allow-Origin': '*',
          'Content-Length': Buffer.byteLength(body),
        });
        res.end(body);
        return true;
      }
      if (path === OAUTH_ROUTES.registration && req.method === 'POST') {
        whenReady(res, ({ serveRegistration }) =>
          serveRegistration(req, res).catch((error: unknown) => {
            logError('the client registration failed', error);
            if (!res.headersSent) res.writeHead(500).end();
          }),
        );
        return true;
      }
      if (METADATA_PATHS.has(path) || path.startsWith('/oauth/')) {
        whenReady(res, ({ callback }) => callback(req, res));
        return true;
      }
      return false;
    },
  };
  return current;
}

interface Made {
  provider: Provider;
  callback: ReturnType<Provider['callback']>;
  consent: ReturnType<typeof createConsentHandler>;
  serveRegistration: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

async function makeProvider(origin: string, clientMetadata: ClientMetadataSource): Promise<Made> {
  // Loaded with the provider, on the first OAuth request: a third of a second of CPU that a process serving no OAuth
  // request (a test's server, a web process restarted) does not spend.
  const { default: Provider, errors } = await import('oidc-provider');
  const resource = mcpResource(origin);
  const configuration: Configuration = {
    adapter: OAuthAdapter,
    clients: [],
    // What oidc-provider fetches: Client ID Metadata Documents (this server reads no other client URL).
    fetch: (url, options) => clientMetadata.fetch(url, options as RequestInit),
    jwks: { keys: await signingKeys() },
    cookies: {
      keys: cookieKeys(),
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    routes: OAUTH_ROUTES,
    // OpenID's own scopes only: ours are the MCP server's resource scopes (resourceIndicators below), which a token
    // carries for that resource alone.
    scopes: ['openid', 'offline_access'],
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      // No OpenID sign-in to end: the dashboard's sign-out is the only one.
      rpInitiatedLogout: { enabled: false },
      // A client_id that is an HTTPS URL is fetched: never from a private, loopback or other special-purpose address
      // (the webhooks' rule), so that a client cannot make the server reach inside its own network.
      clientIdMetadataDocument: {
        enabled: true,
        // An experimental feature of oidc-provider: the draft it implements is acknowledged here, and package.json pins
        // oidc-provider's minor version (~), under which that draft cannot change.
        ack: 'draft-02',
        allowFetch: (_ctx, clientId) => clientMetadata.allowFetch(clientId),
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`Tokens are issued for ${resource} only.`);
          return {
            scope: OAUTH_SCOPES.join(' '),
            audience: resource,
            accessTokenTTL: ACCESS_TOKEN_SECONDS,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    // RFC 7591's software statement fields, kept with the client; their validator is the hook that runs for every
    // client however it is registered (dynamically, or from its metadata document), where the redirect URIs are checked.
    extraClientMetadata: {
      properties: ['software_id', 'software_version'],
      validator(_ctx, key, _value, metadata) {
        if (key !== 'software_id') return;
        // A client registers the scopes it will ask for (MCP clients take the MCP server's from its metadata); only
        // OpenID's are the server's own, which a client's `scope` restricts: ours are the resource's, kept out of it.
        if (typeof metadata.scope === 'string') {
          const own = metadata.scope.split(' ').filter((scope) => scope === 'openid' || scope === 'offline_access');
          metadata.scope = own.length ? own.join(' ') : undefined;
        }
        for (const uri of (metadata.redirect_uris as unknown[] | undefined) ?? []) {
          const refusal = redirectUriRefusal(uri);
          if (refusal) throw new errors.InvalidRedirectUri(`redirect_uris: ${String(uri)} ${refusal}.`);
        }
      },
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: ACCESS_TOKEN_SECONDS,
      AuthorizationCode: 60,
      RefreshToken: REFRESH_TOKEN_SECONDS,
      Interaction: 3_600,
      Session: 14 * 86_400,
      // A connection lasts a year from its consent (its connected app expires with it), however often it is refreshed.
      Grant: CONNECTION_SECONDS,
    },
    interactions: { url: (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}` },
    // Every authorization asks for consent, as the dashboard's signed-in user: a grant an earlier consent in this
    // browser made (perhaps by another user of it) is never reused silently; only the consent just given counts.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return typeof grantId === 'string' ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = errorPage(out);
    },
  };
  const provider = new Provider(origin, configuration);
  provider.use(async (ctx, next) => {
    // read-write includes read-only, and an app that names neither asks for what the owner will choose: the request
    // is completed so, and the owner's narrower choice is then the token's scope (./consent.ts).
    if (ctx.path === OAUTH_ROUTES.authorization && ctx.method === 'GET' && typeof ctx.query.client_id === 'string') {
      ctx.query = {
        ...ctx.query,
        scope: withImpliedScopes(typeof ctx.query.scope === 'string' ? ctx.query.scope : ''),
      };
    }
    await next();
    // The metadata lists the resource scopes too, for clients that read them there rather than from the MCP server's.
    if (ctx.oidc?.route === 'discovery' && ctx.body && typeof ctx.body === 'object') {
      const body = ctx.body as { scopes_supported?: string[] };
      body.scopes_supported = [...new Set([...(body.scopes_supported ?? []), ...OAUTH_SCOPES])];
    }
  });
  // Behind the app's own trusted-proxy handling (src/server/http/client-address.ts), which has settled the protocol.
  provider.proxy = true;
  provider.on('server_error', (_ctx: KoaContextWithOIDC, error: Error) =>
    logError('the authorization server failed', error),
  );
  // oidc-provider revokes a grant whole when a code is exchanged twice or a rotated refresh token comes back (a sign
  // that it was stolen), or when the client revokes its refresh token: its connected app ends with it.
  provider.on('grant.revoked', (ctx: KoaContextWithOIDC, grantId: string) => {
    const reason =
      ctx.oidc.route === 'revocation'
        ? 'the app revoked its own refresh token'
        : 'a used authorization code or refresh token was presented again';
    revokeConnectedAppOfGrant(grantId, reason).catch((error: unknown) =>
      logError('a revoked grant’s connected app could not be revoked', error, { grantId }),
    );
  });
  const registrations = sharedRateLimit('oauth-registration', REGISTRATIONS_PER_HOUR, 3_600);
  const callback = provider.callback();
  const consent = createConsentHandler(provider, origin);

  async function serveRegistration(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const decision = await registrations.consume(clientIpOf(req.headers['x-forwarded-for']) ?? 'unknown');
    if (!decision.allowed) {
      const body = JSON.stringify({
        error: 'invalid_request',
        error_description: `At most ${REGISTRATIONS_PER_HOUR} client registrations an hour from one address; retry in ${decision.retryAfterSeconds} s.`,
      });
      res.writeHead(429, {
        'Content-Type': 'application/json',
        'Retry-After': String(decision.retryAfterSeconds),
        'Content-Length': Buffer.byteLength(body),
      });
      res.end(body);
      return;
    }
    callback(req, res);
  }

  return { provider, callback, consent, serveRegistration };
}

/** RFC 9728: where an MCP client finds who issues tokens for /api/mcp, and which scopes it takes. */
function protectedResourceMetadata(origin: string) {
  return {
    resource: mcpResource(origin),
    authorization_servers: [origin],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'ASO analytics MCP server',
    resource_documentation: `${origin}/docs/mcp`,
  };
}

const escapeHtml = (text: unknown) => String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** An agent that registered long ago and was never connected has had its registration deleted (purgeUnusedOAuthClients). */
const UNKNOWN_CLIENT_ADVICE = `<p>A registration that no one connects within ${UNUSED_CLIENT_DAYS} days is deleted. Remove this server from the app and add it again: the app then registers anew.</p>`;

/** The page a browser gets when the authorization request itself is wrong (an unknown client, a redirect URI not registered). */
function errorPage(out: { error?: string; error_description?: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign-in request refused · ASO Analytics</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f8fafc;color:#0f172a}main{max-width:36rem;margin:10vh auto;padding:2rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem}code{background:#f1f5f9;padding:0 .25rem;border-radius:.25rem}a{color:#1d4ed8}</style></head>
<body><main><h1>This sign-in request was refused</h1><p>The app that sent you here made a request we cannot accept, so nothing was shared with it.</p>
<p><code>${escapeHtml(out.error ?? 'invalid_request')}</code>: ${escapeHtml(out.error_description ?? '')}</p>${out.error === 'invalid_client' ? UNKNOWN_CLIENT_ADVICE : ''}<p><a href="/">Back to ASO Analytics</a></p></main></body></html>`;
}
