// /api/trpc: the dashboard's tRPC endpoint, a channel like REST and MCP: it translates a request into the runner's
// steps (src/server/operations/runner.ts: `admitSession` once, `runDashboardCall` for each call of a batch) and their
// refusals into tRPC's answer. It serves the dashboard's own procedures (api/dashboard-router.ts), never the whole app
// router.
import { randomUUID } from 'node:crypto';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { dashboardRouter } from '@/server/api/dashboard-router';
import { appErrorOf, dashboardErrorOf } from '@/server/api/errors';
import type { Context } from '@/server/api/trpc';
import { isCrossSiteWrite } from '@/server/auth/cross-site';
import { clientIp } from '@/server/core/client-ip';
import { logError } from '@/server/core/log';
import { withRequest } from '@/server/core/request-context';
import { isDatabaseUnavailable, logDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '@/server/db/errors';
import { AppError } from '@/server/errors/app-error';
import { recordCall } from '@/server/operations/record';
import { admitSession, runDashboardCall, type CallTrace } from '@/server/operations/runner';

/** The most procedure calls one request to /api/trpc may carry. */
const MAX_BATCH_SIZE = 10;

export async function handleDashboardTrpcRequest(request: Request): Promise<Response> {
  const startedAt = performance.now();
  const trace: CallTrace = {
    channel: 'dashboard',
    requestId: randomUUID(),
    now: new Date(),
    method: request.method,
    clientAddress: clientIp(request.headers),
  };
  const context = {
    requestId: trace.requestId,
    clientAddress: trace.clientAddress,
    userAgent: request.headers.get('user-agent'),
  };
  const response = await withRequest(context, () => answer(request, trace));
  response.headers.set('X-Request-Id', trace.requestId);
  recordCall(
    trace,
    { route: new URL(request.url).pathname, status: response.status },
    (performance.now() - startedAt) / 1000,
  );
  return response;
}

async function answer(request: Request, trace: CallTrace): Promise<Response> {
  let actor;
  try {
    actor = await admitSession(trace, {
      cookie: request.headers.get('cookie'),
      crossSiteWrite: isCrossSiteWrite(request),
    });
  } catch (error) {
    if (error instanceof AppError) return refusal(error);
    throw error;
  }
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: dashboardRouter,
    // The dashboard's client sends one call per request; a batch may carry a few, never hundreds.
    maxBatchSize: MAX_BATCH_SIZE,
    createContext: (): Context => ({
      actor,
      transport: 'dashboard',
      requestId: trace.requestId,
      clientIp: trace.clientAddress,
      now: trace.now,
      steps: (call) => runDashboardCall(trace, call),
    }),
    onError: ({ error, path }) => {
      // An AppError is an answer (tRPC carries it as an internal error's cause), not a fault.
      if (error.code !== 'INTERNAL_SERVER_ERROR' || appErrorOf(error)) return;
      if (isDatabaseUnavailable(error)) logDatabaseUnavailable(error, { requestId: trace.requestId, path });
      else logError('unhandled error in a dashboard call', error, { requestId: trace.requestId, path });
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
  });
}

/** A refusal before any procedure, in the shape of tRPC's answer to a failed call. */
function refusal(error: AppError): Response {
  const shape = dashboardErrorOf(error);
  return Response.json({ error: shape }, { status: shape.data.httpStatus });
}
