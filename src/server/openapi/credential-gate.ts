// The first step of the pipeline (CONTRACT order: credential first) for a credential that is refused on its shape
// alone: none, another scheme, rubbish, an API key with a wrong checksum. Such a request costs no database and no
// route: the HTTP front (src/server/http/front.ts) answers it before Next.js routes the request, and the route's
// handler gives the same answer to the requests the front leaves to it (those with a method Next.js cannot hand a
// route, or a path Next.js first redirects). Kept free of tRPC, zod and the database, which the front does not load.
import { credentialChallenge, credentialProblemDetail } from '@/server/auth/bearer';
import { problemAnswer, type PlainAnswer } from '@/server/errors/problem-response';
import { logRequest } from '@/server/http/log';

/** What the answer names of the request: the method the client sent, the path (`instance`), the public origin. */
export interface RequestTarget {
  method: string;
  pathname: string;
  origin: string;
}

/** The 401 problem answer, with its log line, for a request whose Authorization header `readBearer` read as `kind`. */
export function credentialRefusal(target: RequestTarget, kind: 'missing' | 'malformed', startedAt: number): PlainAnswer {
  const requestId = crypto.randomUUID();
  const answer = problemAnswer(
    { appCode: 'UNAUTHORIZED', message: credentialProblemDetail(kind), extras: {}, headers: { 'WWW-Authenticate': credentialChallenge(kind) } },
    { origin: target.origin, instance: target.pathname, requestId, headers: { 'X-Request-Id': requestId } },
  );
  logRequest({
    requestId,
    method: target.method,
    route: target.pathname,
    status: 401,
    durationMs: Math.round((performance.now() - startedAt) * 10) / 10,
  });
  return answer;
}
