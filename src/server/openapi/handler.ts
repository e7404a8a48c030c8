// The REST facade at /api/public/v1: the same tRPC procedures as the dashboard, served by trpc-to-openapi.
// This wrapper runs the request pipeline's steps in CONTRACT order around the library's handler
// (credential → plan → scope → media type, size, JSON → validation → lookup), replays a cached answer where the data
// has not changed (./response-cache.ts), turns every failure into application/problem+json, and writes one log line
// per request. The library's handler is created once.
import { randomUUID } from 'node:crypto';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import type { TRPCError } from '@trpc/server';
import { appRouter } from '@/server/api/root';
import { appIdParam } from '@/server/api/schemas';
import { authorize, runMetered, type Context, type MeteredCall } from '@/server/api/trpc';
import type { Actor } from '@/server/auth/actor';
import { credentialChallenge, credentialProblemDetail, readBearer, type BearerReading } from '@/server/auth/bearer';
import { resolveCredential } from '@/server/auth/credentials';
import { logDatabaseUnavailable } from '@/server/db/errors';
import { AppError } from '@/server/errors/app-error';
import { toAppError } from '@/server/errors/problem';
import { methodNotAllowedProblem, problemResponse, responseOf } from '@/server/errors/problem-response';
import { PROBLEM_TYPES } from '@/server/errors/problem-types';
import { clientIp } from '@/server/http/client-ip';
import { publicOrigin } from '@/server/http/origin';
import { logError, logRequest } from '@/server/http/log';
import { sentMethod } from '@/server/http/sent-method';
import { PLANS } from '@/server/services/accounts/plans';
import { periodOf } from '@/server/services/metering/credits';
import { creditHeaders, type MeteringState } from '@/server/services/metering/headers';
import { credentialRefusal } from './credential-gate';
import { claimIdempotencyKey, requestHash, settleIdempotencyKey } from './idempotency';
import { readJsonBody } from './request-body';
import { parseQuery } from './request-query';
import { cachedAnswer, rememberAnswer, responseCacheKey } from './response-cache';
import { buildRoutes, matchRoute, type RestRoute } from './routes';

export const PUBLIC_API_BASE_PATH = '/api/public/v1';

const contexts = new WeakMap<object, Context>();
const procedureErrors = new WeakMap<object, TRPCError>();

type NodeHandler = ReturnType<typeof createOpenApiNodeHttpHandler>;
let runtime: { routes: RestRoute[]; handler: NodeHandler } | undefined;

function getRuntime() {
  runtime ??= {
    routes: buildRoutes(appRouter),
    handler: createOpenApiNodeHttpHandler({
      router: appRouter,
      createContext: ({ req }: { req: object }) => contexts.get(req)!,
      onError: ({ error, req }: { error: TRPCError; req: object }) => void procedureErrors.set(req, error),
    } as never),
  };
  return runtime;
}

interface RequestState {
  requestId: string;
  now: Date;
  route?: RestRoute;
  actor?: Actor;
  metering?: MeteringState;
  /** A cacheable GET: whether its answer was replayed from the response cache. */
  cache?: 'hit' | 'miss';
}

/** `clock` is injected by tests (month boundaries, the idempotency window); the route uses the real time. */
export async function handlePublicApiRequest(request: Request, clock: () => Date = () => new Date()): Promise<Response> {
  const startedAt = performance.now();
  const url = new URL(request.url);
  const method = sentMethod(request);
  // A credential refused on its shape alone: the same answer as the HTTP front's (./credential-gate.ts).
  const bearer = readBearer(request.headers.get('authorization'));
  if (bearer.kind === 'missing' || bearer.kind === 'malformed') {
    return responseOf(credentialRefusal({ method, pathname: url.pathname, origin: publicOrigin(request) }, bearer.kind, startedAt));
  }
  const state: RequestState = { requestId: randomUUID(), now: clock() };
  let response: Response;
  try {
    response = await dispatch(request, method, url, state, bearer);
  } catch (thrown) {
    const route = state.route;
    const { error, unexpected } = toAppError(thrown, (member) =>
      member && route?.pathParameters.includes(member) ? 'path' : route && route.method !== 'GET' ? 'body' : 'query',
    );
    if (unexpected && error.appCode === 'SERVICE_UNAVAILABLE') logDatabaseUnavailable(thrown, { requestId: state.requestId });
    else if (unexpected) logError('unhandled error in the public API', thrown, { requestId: state.requestId });
    response = problemResponse(error, { origin: publicOrigin(request), instance: url.pathname, requestId: state.requestId });
  }
  response.headers.set('X-Request-Id', state.requestId);
  if (state.metering) {
    for (const [name, value] of Object.entries(creditHeaders(state.metering, state.now))) response.headers.set(name, value);
  }
  logRequest({
    requestId: state.requestId,
    method,
    route: state.route?.template ?? url.pathname,
    status: response.status,
    durationMs: Math.round((performance.now() - startedAt) * 10) / 10,
    accountId: state.actor?.accountId,
    keyId: state.actor?.keyId,
    actor: state.actor?.kind,
    credits: state.metering?.cost,
    cache: state.cache,
  });
  return response;
}

/** `method` is the one the client sent (./sent-method.ts), which `request.method` is not for one Next.js cannot serve. */
async function dispatch(request: Request, method: string, url: URL, state: RequestState, bearer: BearerReading): Promise<Response> {
  const { routes, handler } = getRuntime();
  const now = state.now;
  const ip = clientIp(request.headers);
  const path = url.pathname.slice(PUBLIC_API_BASE_PATH.length) || '/';
  // The route is looked up first but only acted on after the credential (CONTRACT order): a cacheable endpoint about
  // one app has that app's data version read by the credential's own statement.
  const match = matchRoute(routes, method, path);
  const cacheScope = match.kind === 'found' && match.route.method === 'GET' ? match.route.meta.cache : undefined;
  // Only an id the route's own input accepts reaches the statement (which casts it to uuid); another answers 400.
  const appId = cacheScope === 'app' && match.kind === 'found' ? appIdParam.safeParse(match.params.id).data : undefined;

  // 1. Credential.
  const credential = await resolveCredential(bearer, { now, ip, appId: appId ?? null });
  if (credential.status !== 'valid') {
    throw new AppError('UNAUTHORIZED', credentialProblemDetail(credential.status), {
      headers: { 'WWW-Authenticate': credentialChallenge(credential.status) },
    });
  }
  const actor = credential.actor;
  state.actor = actor;
  // From here on every response carries the account's credit headers.
  state.metering = { limit: PLANS[actor.plan].monthlyCredits, used: credential.creditsUsed, cost: 0, period: periodOf(now) };

  if (match.kind === 'not-found') throw new AppError('NOT_FOUND', `There is no endpoint at ${method} ${url.pathname}.`);
  // OPTIONS, after the credential and the path as every request: which methods the path allows, as a 405 names them.
  if (method === 'OPTIONS' && match.kind === 'method-not-allowed') {
    return new Response(null, { status: 204, headers: { Allow: match.allowed.join(', ') } });
  }
  if (match.kind === 'method-not-allowed') {
    const problem = methodNotAllowedProblem(method, match.allowed);
    throw new AppError(problem.appCode, problem.message, { headers: problem.headers });
  }
  const route = match.route;
  state.route = route;

  // 2–3. Plan and scope.
  const denied = authorize(actor, route.meta, 'rest');
  if (denied) throw denied;

  // 4. Media type, size and JSON syntax of the body.
  let body: unknown;
  let idempotencyKey: string | null = null;
  if (route.method !== 'GET') {
    body = await readJsonBody(request);
    assertBodyIsObject(body, route);
    idempotencyKey = request.headers.get('idempotency-key');
    if (idempotencyKey !== null) {
      const claim = await claimIdempotencyKey(actor.accountId, idempotencyKey, requestHash(method, url.pathname, body), now);
      if (claim.kind === 'replay') {
        return new Response(claim.body, { status: claim.status, headers: { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true' } });
      }
    }
  }

  const call: MeteredCall = { actor, metering: state.metering, requestId: state.requestId, now, endpoint: `${route.method} ${route.template}` };
  const cacheKey = cacheScope
    ? responseCacheKey(cacheScope, { accountId: actor.accountId, plan: actor.plan, versions: credential.versions, now, pathAndQuery: `${path}${url.search}` })
    : null;
  if (cacheKey !== null) {
    const cached = cachedAnswer(cacheKey);
    state.cache = cached ? 'hit' : 'miss';
    if (cached) {
      // The same URL was answered 200 from the same data: its input was valid. Rate limit and credits as always.
      await runMetered(call, route.meta, async () => ({ ok: true }));
      return new Response(cached, { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
  }

  // 5 onwards: input validation, rate limit, credits and the procedure itself, in tRPC.
  const libraryRequest = requestForLibrary(request, route.method, `http://localhost${path}${url.search}`, body);
  const answer: NonNullable<Context['answer']> = {};
  contexts.set(libraryRequest, { ...call, transport: 'rest', clientIp: ip, answer });
  let result: { status: number; body: string } | undefined;
  try {
    result = await invoke(handler, libraryRequest);
  } finally {
    // Settled whatever happens, so that a key is never left claimed.
    if (idempotencyKey !== null) await settleIdempotencyKey(actor.accountId, idempotencyKey, result?.status ?? 500, result?.body ?? '');
  }
  if (result.status < 400) {
    if (cacheKey !== null && result.status === 200) rememberAnswer(cacheKey, result.body, answer.freshUntil);
    return new Response(result.body, { status: result.status, headers: { 'Content-Type': 'application/json' } });
  }
  throw procedureErrors.get(libraryRequest) ?? new AppError(codeForStatus(result.status), 'The request failed.');
}

function assertBodyIsObject(body: unknown, route: RestRoute): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('VALIDATION_ERROR', 'The request body must be a JSON object.', {
      errors: [{ in: 'body', pointer: '#', detail: 'Expected a JSON object.' }],
    });
  }
  // The library merges path parameters over body members; a body member of the same name is unknown, not ignored.
  const clashing = route.pathParameters.filter((name) => Object.hasOwn(body, name));
  if (clashing.length) {
    throw new AppError('VALIDATION_ERROR', `Unknown member "${clashing[0]}".`, {
      errors: clashing.map((name) => ({ in: 'body' as const, pointer: `#/${name}`, detail: `Unknown member "${name}".` })),
    });
  }
}

/**
 * The library reads method, url, headers, query, body and signal; it gets the route's method (a HEAD is its GET), the
 * checked, parsed body as JSON and the query as lists of values (its own parser drops empty values, which must be
 * refused, not defaulted).
 */
function requestForLibrary(request: Request, method: string, url: string, body: unknown): Request {
  const headers = new Headers(request.headers);
  headers.set('content-type', 'application/json');
  const query = parseQuery(new URL(url).search);
  return new Proxy(request, {
    get: (target, property) => {
      if (property === 'method') return method;
      if (property === 'url') return url;
      if (property === 'headers') return headers;
      if (property === 'body') return body;
      if (property === 'query') return query;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function invoke(handler: NodeHandler, request: Request): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let status = 200;
    const response = {
      setHeader: () => {},
      get statusCode() {
        return status;
      },
      set statusCode(code: number) {
        status = code;
      },
      end: (body: string) => resolve({ status, body }),
    };
    handler(request as never, response as never).catch(reject);
  });
}

function codeForStatus(status: number): keyof typeof PROBLEM_TYPES {
  const entry = Object.entries(PROBLEM_TYPES).find(([, type]) => type.status === status);
  return (entry?.[0] as keyof typeof PROBLEM_TYPES | undefined) ?? 'INTERNAL_ERROR';
}
