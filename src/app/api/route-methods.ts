// The exports of a route handler: the methods it serves, and for every other method Next.js can hand a route a 405
// problem with `Allow` (Next.js would answer an empty 405); OPTIONS answers 204 with the same `Allow`.
import { serverModules } from '@/app/server-modules';

type Handler<Context> = (request: Request, context: Context) => Promise<Response>;
type Served = 'GET' | 'POST';
type RouteExports<Context> = Record<'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', Handler<Context>>;

export function routeMethods<Context>(served: Partial<Record<Served, Handler<Context>>>): RouteExports<Context> {
  const allowed = [...(served.GET ? ['GET', 'HEAD'] : []), ...(served.POST ? ['POST'] : []), 'OPTIONS'];
  const refuse: Handler<Context> = async (request) => {
    const { methodNotAllowedProblem, pageOrigin, problemAnswer } = await serverModules();
    const requestId = crypto.randomUUID();
    const answer = problemAnswer(methodNotAllowedProblem(request.method, allowed), {
      origin: pageOrigin(),
      instance: new URL(request.url).pathname,
      requestId,
      headers: { 'X-Request-Id': requestId },
    });
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  };
  return {
    GET: served.GET ?? refuse,
    HEAD: served.GET ?? refuse,
    POST: served.POST ?? refuse,
    PUT: refuse,
    PATCH: refuse,
    DELETE: refuse,
    OPTIONS: async () => new Response(null, { status: 204, headers: { Allow: allowed.join(', ') } }),
  };
}
