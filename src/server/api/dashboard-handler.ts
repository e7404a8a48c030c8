// /api/trpc: the dashboard's tRPC endpoint, authenticated by the session cookie. It serves the dashboard's own
// procedures (./dashboard-router.ts), never the whole app router.
import { randomUUID } from 'node:crypto';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { cookieReaderOf } from '@/server/auth/cookies';
import { actorFromSessionCookie } from '@/server/auth/dashboard';
import { isDatabaseUnavailable, logDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '@/server/db/errors';
import { clientIp } from '@/server/core/client-ip';
import { logError, logRequest } from '@/server/core/log';
import { configuredOrigin } from '@/server/core/origin';
import { setRequestActor, withRequest } from '@/server/core/request-context';
import { dashboardRouter } from './dashboard-router';
import { appErrorOf } from './errors';
import { config } from '@/server/core/config';

/** The most procedure calls one request to /api/trpc may carry. */
const MAX_BATCH_SIZE = 10;

/**
 * Cross-site request forgery: a mutation (POST) is refused when the browser says it comes from another site
 * (Sec-Fetch-Site), or when its Origin is not this app's. Browsers send one or both on every POST; a client without
 * either is not a browser, so it cannot be made to carry someone's session cookie. (The session cookie's
 * SameSite=Lax already keeps it off cross-site POSTs; this does not rely on that alone.)
 */
export function isCrossSiteMutation(request: Request): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  const site = request.headers.get('sec-fetch-site');
  if (site !== null) return site !== 'same-origin';
  const origin = request.headers.get('origin');
  if (origin === null) return false;
  const nextAuthUrl = config().NEXTAUTH_URL;
  const own = [new URL(request.url).origin, configuredOrigin(), nextAuthUrl && new URL(nextAuthUrl).origin];
  return !own.includes(origin);
}

export async function handleDashboardTrpcRequest(request: Request): Promise<Response> {
  const startedAt = performance.now();
  const requestId = randomUUID();
  let accountId: string | undefined;
  if (isCrossSiteMutation(request)) {
    logRequest({
      requestId,
      method: request.method,
      route: new URL(request.url).pathname,
      status: 403,
      durationMs: 0,
      refused: 'cross-site',
    });
    return Response.json(
      {
        error: {
          message: 'Cross-site requests to the dashboard API are refused.',
          code: -32003,
          data: { code: 'FORBIDDEN', httpStatus: 403 },
        },
      },
      { status: 403, headers: { 'X-Request-Id': requestId } },
    );
  }
  const context = { requestId, clientAddress: clientIp(request.headers), userAgent: request.headers.get('user-agent') };
  const response = await withRequest(context, () =>
    fetchRequestHandler({
      endpoint: '/api/trpc',
      req: request,
      router: dashboardRouter,
      // The dashboard's client sends one call per request; a batch may carry a few, never hundreds.
      maxBatchSize: MAX_BATCH_SIZE,
      createContext: async () => {
        const actor = await actorFromSessionCookie(cookieReaderOf(request.headers.get('cookie')));
        accountId = actor?.accountId;
        if (actor?.userId) setRequestActor({ kind: 'user', userId: actor.userId, via: 'dashboard' });
        return {
          actor,
          transport: 'dashboard' as const,
          requestId,
          clientIp: clientIp(request.headers),
          now: new Date(),
        };
      },
      onError: ({ error, path }) => {
        // An AppError is an answer (tRPC carries it as an internal error's cause), not a fault.
        if (error.code !== 'INTERNAL_SERVER_ERROR' || appErrorOf(error)) return;
        if (isDatabaseUnavailable(error)) logDatabaseUnavailable(error, { requestId, path });
        else logError('unhandled error in a dashboard call', error, { requestId, path });
      },
      // A database outage is a retryable 503, as on the public API, not a 500. A refusal's own headers (a 429's
      // Retry-After) are sent with it.
      responseMeta: ({ errors }) => {
        if (
          errors.some(
            (error) => error.code === 'INTERNAL_SERVER_ERROR' && !appErrorOf(error) && isDatabaseUnavailable(error),
          )
        ) {
          return { status: 503, headers: new Headers({ 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) }) };
        }
        const headers = new Headers();
        for (const error of errors)
          for (const [name, value] of Object.entries(appErrorOf(error)?.headers ?? {})) headers.set(name, value);
        return { headers };
      },
    }),
  );
  response.headers.set('X-Request-Id', requestId);
  logRequest({
    requestId,
    method: request.method,
    route: new URL(request.url).pathname,
    status: response.status,
    durationMs: Math.round((performance.now() - startedAt) * 10) / 10,
    accountId,
    actor: accountId ? 'session' : undefined,
  });
  return response;
}
