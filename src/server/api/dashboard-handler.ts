// /api/trpc: the dashboard's tRPC endpoint, authenticated by the session cookie.
import { randomUUID } from 'node:crypto';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { actorFromSessionCookie } from '@/server/auth/dashboard';
import { clientIp } from '@/server/http/client-ip';
import { logError, logRequest } from '@/server/http/log';
import { appRouter } from './root';

function cookieReader(header: string | null): (name: string) => string | undefined {
  const cookies = new Map<string, string>();
  for (const part of header?.split(';') ?? []) {
    const index = part.indexOf('=');
    if (index > 0) cookies.set(part.slice(0, index).trim(), decodeURIComponent(part.slice(index + 1).trim()));
  }
  return (name) => cookies.get(name);
}

export async function handleDashboardTrpcRequest(request: Request): Promise<Response> {
  const startedAt = performance.now();
  const requestId = randomUUID();
  let accountId: string | undefined;
  const response = await fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    createContext: async () => {
      const actor = await actorFromSessionCookie(cookieReader(request.headers.get('cookie')));
      accountId = actor?.accountId;
      return { actor, transport: 'dashboard' as const, requestId, clientIp: clientIp(request.headers), now: new Date() };
    },
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') logError('unhandled error in a dashboard call', error, { requestId, path });
    },
  });
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
