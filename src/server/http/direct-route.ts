// Route handlers called by the app's HTTP server without Next.js's routing: the public API's, and the bare route
// `/api/ping` that the bench compares it with (served the same way, so that the comparison measures the API's own
// work).
//
// Why: for a route handler, Next.js's own work per request (routing, manifests, its request and response adapters,
// an AbortSignal tied to the response, which Node's Request keeps alive until a full garbage collection) cost about
// 470 µs of CPU and 220 KB of garbage, against 170-300 µs for everything the API itself does on a replayed read: two
// thirds of the request, and the garbage collections that set the API's p99. Called directly, a 1-credit read serves
// about three times the requests per second at a third of the p99 (`npm run bench`; README, "The app's server").
//
// How: each route module in DIRECT_ROUTES hands its handler over when Next.js loads it, which the app's server has
// it do as it starts (src/server/runtime/serve.ts). The HTTP front (./front.ts) then calls that very function, the
// one Next.js would call, so the public API runs as one copy of its modules in the process, shared with the
// dashboard's tRPC route: one database pool, one response cache, one rate limiter. Until a route module is loaded,
// under `next dev` (whose hot reloading replaces route modules) and with DIRECT_ROUTES=false, requests go through
// Next.js.
//
// The Request is built as Next.js builds a route's: the URL from the host name and port Next.js was started with, the
// headers as Node parsed them with Next.js's `X-Forwarded-*` additions (Next.js also strips its own internal headers,
// which nothing here reads), the body as a stream for methods that may have one. It carries no AbortSignal tied to the
// connection: nothing in the API reads one (a request whose client left runs to its end, as it did before, and its
// charge is kept: the answer was computed). The Response is written with its status, headers (every Set-Cookie) and,
// read whole, its body with a Content-Length.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { internalErrorProblem, problemAnswer, type PlainAnswer } from '@/server/errors/problem-response';
import { logError } from './log';

export type FetchHandler = (request: Request) => Promise<Response>;

/** The routes whose modules offer their handler: the public API's catch-all (every path under it) and `/api/ping`. */
export const DIRECT_ROUTES = ['/api/public/v1', '/api/ping'] as const;
export type DirectRoute = (typeof DIRECT_ROUTES)[number];

const HANDLERS_KEY = Symbol.for('aso-public-api.route-handlers');
type Holder = { [HANDLERS_KEY]?: Map<DirectRoute, FetchHandler> };

/** Kept on the global object, which the copy of this module Next.js bundles and the server's own copy share. */
function offered(): Map<DirectRoute, FetchHandler> {
  return ((globalThis as Holder)[HANDLERS_KEY] ??= new Map());
}

/** Called by a route module when it is loaded: the front may call `handler` for the route's requests from then on. */
export function offerRouteHandler(route: DirectRoute, handler: FetchHandler): void {
  offered().set(route, handler);
}

/** The route's handler, once its module is loaded. */
export function offeredRouteHandler(route: DirectRoute): FetchHandler | undefined {
  return offered().get(route);
}

/** Tests: back to the state before any route module is loaded. */
export function forgetRouteHandlers(): void {
  offered().clear();
}

/** What Next.js was started with. */
export interface NextAddress {
  hostname: string;
  port: number;
}

/**
 * A WHATWG Request for a Node request, as Next.js builds it for a route handler; `url` is absolute. Like Next.js, it
 * adds the `X-Forwarded-*` headers a proxy did not send: the client's address (the key's last-use address), host,
 * port and scheme.
 */
export function requestFrom(req: IncomingMessage, url: string, next: NextAddress): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.append(name, value);
  }
  const forwarded: [string, string | undefined][] = [
    ['x-forwarded-host', req.headers.host ?? next.hostname],
    ['x-forwarded-port', String(next.port)],
    ['x-forwarded-proto', overTls(req) ? 'https' : 'http'],
    ['x-forwarded-for', req.socket.remoteAddress],
  ];
  for (const [name, value] of forwarded) if (value !== undefined && !headers.has(name)) headers.set(name, value);
  const method = req.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? null : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
  return new Request(url, { method, headers, body, duplex: 'half' } as RequestInit);
}

/** Whether the request came over TLS to this server itself (not through a proxy that terminated it). */
export function overTls(req: IncomingMessage): boolean {
  return (req.socket as { encrypted?: boolean }).encrypted === true;
}

/**
 * Calls `handler` with the request and writes its answer to `res`. The handler answers its own errors; should it
 * throw all the same, the client gets a 500 problem (with `origin` in its type URI) and the error is logged.
 * `pathname`: the path of `url`, which the caller has at hand.
 */
export async function serveWith(
  handler: FetchHandler,
  req: IncomingMessage,
  res: ServerResponse,
  { url, pathname, origin, next }: { url: string; pathname: string; origin: string; next: NextAddress },
): Promise<void> {
  let response: Response;
  try {
    response = await handler(requestFrom(req, url, next));
  } catch (error) {
    const requestId = crypto.randomUUID();
    // The path alone is logged: a query may carry what a client should not have put there.
    logError('route handler threw', error, { requestId, path: pathname });
    sendAnswer(res, problemAnswer(internalErrorProblem(), { origin, instance: pathname, requestId, headers: { 'X-Request-Id': requestId } }));
    return;
  }
  const headers: OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  let body: Buffer | null = null;
  if (response.body !== null) {
    try {
      body = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      logError('route answer could not be read', error, { path: pathname });
      res.destroy();
      return;
    }
  }
  if (body !== null) headers['content-length'] = body.byteLength;
  if (leavesBodyUnread(req)) headers.connection = 'close';
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}

/** Writes an answer built as plain data (a problem), with its Content-Length (none for a 204, which has no body). */
export function sendAnswer(res: ServerResponse, answer: PlainAnswer): void {
  const length = answer.status === 204 ? {} : { 'Content-Length': Buffer.byteLength(answer.body) };
  const close = leavesBodyUnread(res.req) ? { Connection: 'close' } : {};
  res.writeHead(answer.status, { ...answer.headers, ...length, ...close });
  res.end(answer.status === 204 ? undefined : answer.body);
}

/**
 * Whether an answer leaves (some of) the request's body unread, as a refusal does: the connection then closes after
 * it, rather than reading and discarding whatever the client goes on sending.
 */
function leavesBodyUnread(req: IncomingMessage): boolean {
  return !req.complete && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0);
}
