// The first step of the pipeline (CONTRACT order: credential first) for a credential that is refused on its shape
// alone: none, another scheme, rubbish, an API key with a wrong checksum. Such a request costs no database and no
// route: the proxy (src/proxy.ts) answers it before Next.js routes the request, and the route's handler gives the
// same answer (credentialRefusal) to the requests the proxy's matcher does not send it. Kept free of tRPC, zod and the
// database (the proxy is bundled on its own).
import { credentialChallenge, credentialProblemDetail, readBearer } from '@/server/auth/bearer';
import { problemResponse } from '@/server/errors/problem-response';
import { logRequest } from '@/server/http/log';
import { publicOrigin } from '@/server/http/origin';

/** The 401 problem answer when the request's credential can be refused without a lookup, else null (the proxy's). */
export function refuseUnreadableCredential(request: Request, startedAt = performance.now()): Response | null {
  const bearer = readBearer(request.headers.get('authorization'));
  return bearer.kind === 'missing' || bearer.kind === 'malformed' ? credentialRefusal(request, bearer.kind, startedAt) : null;
}

/** The 401 problem answer, with its log line, for a request whose Authorization header `readBearer` read as `kind`. */
export function credentialRefusal(request: Request, kind: 'missing' | 'malformed', startedAt: number): Response {
  const requestId = crypto.randomUUID();
  const { pathname } = new URL(request.url);
  const response = problemResponse(
    { appCode: 'UNAUTHORIZED', message: credentialProblemDetail(kind), extras: {}, headers: { 'WWW-Authenticate': credentialChallenge(kind) } },
    { origin: publicOrigin(request), instance: pathname, requestId, headers: { 'X-Request-Id': requestId } },
  );
  logRequest({
    requestId,
    method: request.method,
    route: pathname,
    status: 401,
    durationMs: Math.round((performance.now() - startedAt) * 10) / 10,
  });
  return response;
}
