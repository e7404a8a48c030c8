// What the app's HTTP server (src/server/runtime/serve.ts) does with a request before Next.js sees it:
//
// 0. Who the client is: the forwarding headers are settled once, believed from trusted proxies only
//    (./client-address.ts), so that every later reader of the client's address gets the same, unforgeable answer.
// 1. A public API request (but OPTIONS, which is not hot) whose credential is refused on its shape alone (none,
//    another scheme, rubbish, an API key with a wrong checksum) is answered here, with the route's own 401, headers
//    and log line (the shared credential gate). The CONTRACT wants a rejected credential close to free. A credential
//    that needs a lookup pays one regular expression and one CRC32.
// 2. Any other public API request, and a request to `/api/ping` (the bench's bare route), is handed to the route's own
//    handler directly, without Next.js's routing (./direct-route.ts says why and how), once the route module has
//    offered it, unless the server runs in development or with DIRECT_ROUTES=false.
// 3. A method a route does not accept. Next.js answers TRACE with a 500 and PROPFIND with an empty 400 from every
//    route handler (./sent-method.ts), and a method a route does not export with an empty 405. On the public API the
//    request goes on to the route, with a method Next.js cannot serve sealed, so that the route answers it in CONTRACT
//    order (credential, then 404, or 405 with `Allow`; OPTIONS gets 204 with the same `Allow`). Every other route
//    handler is answered here: 405 as problem+json with `Allow`, and OPTIONS with 204 and the same `Allow`. Pages are
//    left to Next.js, which answers such methods 405 itself, and so are unknown paths (404).
// 4. A request body outside the public API: a declared length over 64 KiB is refused with 413, a body of undeclared
//    length (chunked) with 411, before a byte of it is read (the connection then closes rather than drains it:
//    sendAnswer). Next.js reads a route's body whole (the dashboard's tRPC endpoint, next-auth), and a page's for
//    server actions, before any code of ours could count it. The public API reads its own bodies, counting, in
//    CONTRACT order.
// 5. Request targets that are not a path: an absolute-form target (`GET http://host/path`) is served as its path;
//    `OPTIONS *` is answered 204 with the methods the server serves; anything else is a 400. Next.js answered both
//    forms with a 500. A public API path with a dot segment (`/api/public/v1/%2e%2e/x`), which every URL parser would
//    resolve to another path, is answered here as sent: 401 for a credential refused on its shape, else 404.
//
// Anything else, and a path Next.js would first redirect (a trailing slash, `//`), goes to Next.js untouched.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { readBearer } from '@/server/auth/bearer';
import {
  MAX_BODY_BYTES,
  methodNotAllowedProblem,
  payloadTooLargeProblem,
  problemAnswer,
  type PlainAnswer,
  type Problem,
} from '@/server/errors/problem-response';
import { credentialRefusal } from '@/server/openapi/credential-gate';
import { settleForwarding, type TrustedProxies } from './client-address';
import { offeredRouteHandler, overTls, sendAnswer, serveWith, type DirectRoute } from './direct-route';
import { configuredOrigin } from './origin';
import { NEXT_SERVABLE_METHODS, SENT_METHOD_HEADER, sealedMethod } from './sent-method';

const PUBLIC_API: DirectRoute = '/api/public/v1';

/**
 * The route handlers besides the public API's catch-all, with the methods each accepts (Next.js adds HEAD to a GET
 * and answers OPTIONS itself). front.test.ts holds this list to the route files and their exports.
 */
export const ROUTE_HANDLERS: readonly { path: string; prefix?: true; methods: readonly string[]; direct?: DirectRoute }[] = [
  { path: '/api/health', methods: ['GET', 'HEAD'] },
  { path: '/api/ping', methods: ['GET', 'HEAD'], direct: '/api/ping' },
  { path: `${PUBLIC_API}/openapi.json`, methods: ['GET', 'HEAD'] },
  { path: `${PUBLIC_API}/collection.json`, methods: ['GET', 'HEAD'] },
  { path: '/api/trpc/', prefix: true, methods: ['GET', 'HEAD', 'POST'] },
  { path: '/api/auth/', prefix: true, methods: ['GET', 'HEAD', 'POST'] },
];

function routeHandlerAt(path: string) {
  return ROUTE_HANDLERS.find((route) => (route.prefix ? path.startsWith(route.path) : path === route.path));
}

export interface FrontOptions {
  /** What Next.js was started with: a route's `request.url` is `http(s)://<hostname>:<port><path>`. */
  hostname: string;
  port: number;
  /** Call the handlers of DIRECT_ROUTES directly once they are offered (production); false leaves them to Next.js. */
  direct: boolean;
  /** The proxies whose forwarding headers are believed (TRUSTED_PROXIES); none by default. */
  trustedProxies: TrustedProxies;
}

/** Answers the request and returns true, or returns false to leave it to Next.js. */
export type Front = ((req: IncomingMessage, res: ServerResponse) => boolean) & {
  /** A CONNECT request asks for a tunnel, which Node hands over as a bare socket; this answers it 405 and closes it. */
  refuseTunnel(req: IncomingMessage, socket: Duplex): void;
};

export function createFront({ hostname, port, direct, trustedProxies }: FrontOptions): Front {
  const host = hostname.includes(':') ? `[${hostname}]` : hostname;
  /** The origin of the URL Next.js gives a route: `http(s)://<hostname>:<port>`. */
  const routeOrigin = (req: IncomingMessage) => {
    const https = overTls(req) || forwardedHttps(req.headers['x-forwarded-proto']);
    return `${https ? 'https' : 'http'}://${host}:${port}`;
  };
  /** As publicOrigin (./origin.ts) computes it from that URL. */
  const originOf = (req: IncomingMessage) => configuredOrigin() ?? routeOrigin(req);
  /** Hands the request to the route's handler and returns true, or returns false when it is Next.js's to route. */
  const callRoute = (req: IncomingMessage, res: ServerResponse, path: string, route: DirectRoute, asIs = routedAsIs(path)): boolean => {
    const handler = direct ? offeredRouteHandler(route) : undefined;
    if (!handler || !asIs) return false;
    void serveWith(handler, req, res, { url: routeOrigin(req) + req.url, pathname: path, origin: originOf(req), next: { hostname, port } });
    return true;
  };

  const front = (req: IncomingMessage, res: ServerResponse): boolean => {
    settleForwarding(req, trustedProxies, overTls(req));
    const method = req.method ?? 'GET';
    if (!req.url?.startsWith('/')) {
      const target = originForm(req.url ?? '');
      if (target === null) {
        sendAnswer(res, method === 'OPTIONS' && req.url === '*' ? serverOptions() : problem(badTarget(), req.url ?? '', originOf(req)));
        return true;
      }
      req.url = target;
    }
    const url = req.url;
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const publicApi = path === PUBLIC_API || path.startsWith(`${PUBLIC_API}/`);
    if (!publicApi) {
      const refusal = bodyRefusal(req);
      if (refusal) {
        sendAnswer(res, problem(refusal, path, originOf(req)));
        return true;
      }
    }
    if (!url.startsWith('/api/')) return false;

    const routeHandler = routeHandlerAt(path);
    if (routeHandler) {
      const allowed = [...routeHandler.methods, 'OPTIONS'];
      if (method === 'OPTIONS') sendAnswer(res, { status: 204, headers: { Allow: allowed.join(', ') }, body: '' });
      else if (routeHandler.methods.includes(method)) return routeHandler.direct ? callRoute(req, res, path, routeHandler.direct) : false;
      else sendAnswer(res, methodNotAllowed(method, path, allowed, originOf(req)));
      return true;
    }
    if (!publicApi) return false;
    // Credential first (CONTRACT order), for every method. OPTIONS, which is not hot, is left to the route, which
    // answers it in the same order: the app's server sends one as it starts, to have Next.js load the route's module.
    const startedAt = performance.now();
    const bearer = readBearer(req.headers.authorization ?? null);
    const asIs = routedAsIs(path);
    // A path with a dot segment is never routed as it is; most paths are, and need no second look.
    const dotted = !asIs && hasDotSegment(path);
    if ((bearer.kind === 'missing' || bearer.kind === 'malformed') && (dotted || (asIs && method !== 'OPTIONS'))) {
      sendAnswer(res, credentialRefusal({ method, pathname: path, origin: originOf(req) }, bearer.kind, startedAt));
      return true;
    }
    if (dotted) {
      sendAnswer(res, problem(noEndpointAt(method, path), path, originOf(req)));
      return true;
    }
    if (!NEXT_SERVABLE_METHODS.has(method)) {
      req.headers[SENT_METHOD_HEADER] = sealedMethod(method);
      req.method = 'GET';
    }
    return callRoute(req, res, path, PUBLIC_API, asIs);
  };
  const refuseTunnel = (req: IncomingMessage, socket: Duplex) => {
    const answer = methodNotAllowed('CONNECT', req.url ?? '', ['GET', 'HEAD', 'POST'], originOf(req));
    const head = Object.entries({ ...answer.headers, 'Content-Length': Buffer.byteLength(answer.body), Connection: 'close' });
    socket.end(`HTTP/1.1 405 Method Not Allowed\r\n${head.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${answer.body}`);
  };
  return Object.assign(front, { refuseTunnel });
}

/**
 * The origin-form (path and query) of an absolute-form request target (`GET http://host/path`), which a server must
 * accept (RFC 9112 §3.2.2); null for the asterisk form or anything else that is not a path.
 */
function originForm(target: string): string | null {
  if (!/^https?:\/\//i.test(target) || !URL.canParse(target)) return null;
  const url = new URL(target);
  return `${url.pathname}${url.search}`;
}

/** `OPTIONS *`: what the server as a whole answers (RFC 9110 §9.3.7). */
function serverOptions(): PlainAnswer {
  return { status: 204, headers: { Allow: [...NEXT_SERVABLE_METHODS].join(', ') }, body: '' };
}

function badTarget(): Problem {
  return { appCode: 'VALIDATION_ERROR', message: 'The request target must be a path starting with "/" (or "*" for OPTIONS).', extras: {}, headers: {} };
}

/**
 * Whether the path has a `.` or `..` segment, plain or percent-encoded. Every URL parser resolves those, so the
 * route would be handed another path than the one sent (`/api/public/v1/%2e%2e/x` is `/api/public/x`, outside the
 * API): no endpoint has one, and the front answers such a path 404 as sent, after the credential's shape.
 */
function hasDotSegment(path: string): boolean {
  return path.split('/').some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
}

function noEndpointAt(method: string, path: string): Problem {
  return { appCode: 'NOT_FOUND', message: `There is no endpoint at ${method} ${path}.`, extras: {}, headers: {} };
}

/** Whether Next.js routes this path as it is, so that the route would name it as `instance`, rather than redirect it. */
function routedAsIs(path: string): boolean {
  if (path.endsWith('/') || path.includes('//') || path.includes('\\')) return false;
  return URL.canParse(path, 'http://front.invalid') && new URL(path, 'http://front.invalid').pathname === path;
}

function forwardedHttps(value: string | string[] | undefined): boolean {
  return (Array.isArray(value) ? value.join(',') : (value ?? '')).includes('https');
}

function methodNotAllowed(method: string, path: string, allowed: readonly string[], origin: string): PlainAnswer {
  return problem(methodNotAllowedProblem(method, allowed), path, origin);
}

function problem(refusal: Problem, path: string, origin: string): PlainAnswer {
  const requestId = crypto.randomUUID();
  return problemAnswer(refusal, { origin, instance: path, requestId, headers: { 'X-Request-Id': requestId } });
}

/** Why a body outside the public API is refused before it is read (4. above), or null. */
function bodyRefusal(req: IncomingMessage): Problem | null {
  const declared = req.headers['content-length'];
  if (declared !== undefined) return Number(declared) > MAX_BODY_BYTES ? payloadTooLargeProblem() : null;
  if (req.headers['transfer-encoding'] === undefined) return null;
  return {
    appCode: 'LENGTH_REQUIRED',
    message: `A request body must declare its length in Content-Length (at most ${MAX_BODY_BYTES} bytes); chunked bodies are accepted by the public API only.`,
    extras: {},
    headers: {},
  };
}
