// The public REST API at /api/public/v1: a request's steps, in CONTRACT order, top to bottom (`respond`).
//
//  1. credential   2. route   3. plan   4. scope   5. body   6. input, with the procedure's own schema
//  7. rate limit and credits   8. the procedure, through a tRPC caller   9. cache   10. headers and the log line
//
// The routes are the tRPC procedures as trpc-to-openapi exposes them (./routes.ts). This file is transport only: the
// credential from the header, the route, the body, the query, the cache and the headers. Who may call what (steps 3,
// 4 and 7: plan, scope, the key's restrictions, the rate, the credits, idempotency) is the access policy's
// (src/server/services/access/access-policy.ts), from what the procedure's `.meta()` declares; the MCP server asks it
// the same questions. Every failure, thrown by any step, becomes one application/problem+json answer. The app's HTTP
// server (src/server/http/app-server.ts) hands this every request under /api/public/v1, Next.js none of them.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { appRouter } from '@/server/api/root';
import { currentTime } from '@/server/core/clock';
import { answerableError } from '@/server/api/errors';
import type { Context } from '@/server/api/trpc';
import type { Actor } from '@/server/auth/actor';
import { credentialRefused, readBearer, type BearerReading } from '@/server/auth/bearer';
import { resolveCredential } from '@/server/auth/credentials';
import { clientIpOf } from '@/server/core/client-ip';
import { logRequest } from '@/server/core/log';
import { atTurnEnd } from '@/server/core/turn-end';
import { drainUnreadBody } from '@/server/core/unread-body';
import { setRequestActor, withRequest } from '@/server/core/request-context';
import { AppError } from '@/server/errors/app-error';
import {
  validationError,
  fieldErrorsFromIssues,
  unrepresentableTextIssues,
  type Locate,
} from '@/server/errors/validation';
import { methodNotAllowedProblem, problemAnswer, problemTemplate } from '@/server/errors/problem-response';
import {
  admitClientAddress,
  admitRequest,
  admitTestModeHeader,
  appLookupOf,
  authorize,
  idempotent,
  inTestMode,
  metered,
  readTestTrigger,
  TEST_MODE_HEADER,
} from '@/server/services/access/access-policy';
import { periodOf } from '@/server/services/metering/credits';
import { creditHeaders, type MeteringState } from '@/server/services/metering/headers';
import { recordKeyCall } from '@/server/services/api-keys/key-calls';
import { collectionJson } from './collection';
import { openApiDocumentJson } from './document';
import { requestHash } from '@/server/services/idempotency/idempotency-keys';
import { readJsonBody } from './request-body';
import { parseQuery } from './request-query';
import { answerCacheKey, cachedAnswer, cachedReadAppId, freshUntilOf, rememberAnswer } from './response-cache';
import { pagedAnswer, pageRequestOf, type PageRequest } from './paging';
import { apiRequestDuration, apiRequests, creditsCharged, responseCacheLookups } from '@/server/core/metrics';
import {
  buildRoutes,
  callRouteProcedure,
  matchRoute,
  PUBLIC_API_BASE_PATH,
  type RestRoute,
  type RouteMatch,
} from './routes';

/** An answer as plain data, written once at the end (10). */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
}

/** What one request learned on its way, for its headers and its log line (10). Never handed to a procedure. */
interface Trace {
  requestId: string;
  now: Date;
  method: string;
  /** As sent, percent-encoded: the problem's `instance`. */
  path: string;
  route?: RestRoute;
  actor?: Actor;
  /** The trusted client address (X-Forwarded-For's first), once past a refusal on the credential's shape. */
  clientAddress?: string | null;
  metering?: MeteringState;
  cache?: 'hit' | 'miss';
}

export interface RestPipelineOptions {
  /** The origin the public sees, in problem type URIs and the published documents. */
  origin: string;
  /** Tests move the clock (month boundaries, the idempotency window). */
  clock?: () => Date;
}

export type RestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function createRestPipeline({ origin, clock = currentTime }: RestPipelineOptions): RestHandler {
  const routes = buildRoutes(appRouter);
  // The answers of a credential refused on its shape: the commonest refusal, so built once.
  const refusedOnShape = {
    missing: problemTemplate(credentialRefused('missing'), origin),
    malformed: problemTemplate(credentialRefused('malformed'), origin),
  };

  return async function serveRestRequest(req, res) {
    const startedAt = performance.now();
    const target = req.url ?? '/';
    const queryAt = target.indexOf('?');
    const trace: Trace = {
      requestId: randomUUID(),
      now: clock(),
      method: req.method ?? 'GET',
      path: queryAt === -1 ? target : target.slice(0, queryAt),
    };
    const search = queryAt === -1 ? '' : target.slice(queryAt);
    // A credential refused on its shape alone (none, or not one of ours) is answered here, before any asynchronous
    // step: nothing deeper runs for it, so it needs neither the request's context nor a promise. The same answer as
    // step 1 of respond gives it (headers, problem body, log line, metrics); a published document needs no credential.
    const bearer = readBearer(header(req, 'authorization'));
    const document = DOCUMENTS[trace.path];
    if ((bearer.kind === 'missing' || bearer.kind === 'malformed') && !document) {
      return send(req, res, refusedOnShape[bearer.kind](trace.path, trace.requestId), trace, startedAt);
    }
    let answer: Answer;
    try {
      // What the request causes deeper down (a domain event, a log line) carries its id (core/request-context.ts).
      trace.clientAddress = clientIpOf(req.headers['x-forwarded-for']);
      answer = await withRequest(
        { requestId: trace.requestId, clientAddress: trace.clientAddress, userAgent: header(req, 'user-agent') },
        () => (document ? publishedDocument(document, trace, origin) : respond(req, trace, search, bearer)),
      );
    } catch (thrown) {
      answer = problemOf(thrown, trace, origin);
    }
    send(req, res, answer, trace, startedAt);
  };

  async function respond(req: IncomingMessage, trace: Trace, search: string, bearer: BearerReading): Promise<Answer> {
    const { method, now } = trace;
    const apiPath = trace.path.slice(PUBLIC_API_BASE_PATH.length) || '/';

    // 1. Credential. One refused on its shape alone was answered before this (serveRestRequest); the check stays for
    //    the types. The route is matched first, not yet acted on: the credential's statement also reads the data
    //    version of the app the path names, for the cache (9).
    if (bearer.kind === 'missing' || bearer.kind === 'malformed') throw credentialRefused(bearer.kind);
    const match = matchRoute(routes, method, apiPath);
    const ip = trace.clientAddress ?? null;
    const testMode = header(req, 'x-test-mode');
    const appId = cachedAppId(match);
    const credential = await resolveCredential(bearer, { now, ip, appId, testMode: testMode === 'true' });
    if (credential.status !== 'valid') throw credentialRefused(credential.status);
    const actor = (trace.actor = credential.actor);
    setRequestActor(
      actor.kind === 'apiKey'
        ? { kind: 'apiKey', keyId: actor.keyId! }
        : { kind: 'user', userId: actor.userId!, via: 'api' },
    );
    // From here on every answer carries the account's credit headers.
    const metering: MeteringState = (trace.metering = {
      limit: actor.creditLimit,
      used: credential.creditsUsed,
      cost: 0,
      period: periodOf(now),
    });
    // The key's client addresses, before anything is counted or charged; a mode the credential cannot act in.
    admitClientAddress(actor, ip);
    admitTestModeHeader(actor, testMode);

    // 2. Route: 404, 405 with Allow, or OPTIONS answered with the same Allow.
    if (match.kind === 'not-found') throw new AppError('NOT_FOUND', `There is no endpoint at ${method} ${trace.path}.`);
    if (match.kind === 'method-not-allowed') {
      if (method === 'OPTIONS') return { status: 204, headers: { Allow: match.allowed.join(', ') }, body: null };
      const problem = methodNotAllowedProblem(method, match.allowed);
      throw new AppError(problem.appCode, problem.message, { headers: problem.headers });
    }
    const route = (trace.route = match.route);

    // 3 and 4. Plan and scope; then a test key's trigger, read (and refused on a live credential) before anything else.
    authorize(actor, route.meta);
    const trigger = readTestTrigger(actor, header(req, 'x-test-trigger'));

    // 5. Body: media type, size, JSON syntax; then a POST's Idempotency-Key already answered is replayed.
    const body = route.method === 'GET' ? undefined : await readBodyObject(req, route);
    const idempotency = {
      key: route.method === 'POST' ? header(req, 'idempotency-key') : null,
      requestHash: () => requestHash(method, trace.path, body),
      now,
    };
    const outcome = await idempotent(
      actor,
      idempotency,
      async () => {
        // 6. Input, validated with the procedure's own schema.
        const input = validInput(route, match.params, search, body);
        // 7. Rate limit, then credits around 8 and 9 (an app out of a restricted key's reach is refused in between).
        await admitRequest(actor);
        const call = {
          actor,
          access: route.meta,
          operation: `${route.method} ${route.template}`,
          input: input.procedureInput,
          metering,
          requestId: trace.requestId,
          now,
          trigger,
          app: appLookupOf(appId, credential.versions),
        };
        return metered(call, async () => {
          // 9. Cache: an answer computed from the same data is replayed (and charged as a computed one).
          const cacheKey = answerCacheKey(route.meta, credential, now, `${apiPath}${search}`);
          const cached = cacheKey === null ? undefined : cachedAnswer(cacheKey);
          if (cacheKey !== null) trace.cache = cached ? 'hit' : 'miss';
          if (cached) return json(200, cached.body, cached.headers);

          // 8. The procedure, through a tRPC caller; a list cut to the page asked for.
          const context: Context = {
            actor,
            transport: 'rest',
            requestId: trace.requestId,
            clientIp: ip,
            now,
            creditsUsed: credential.creditsUsed,
          };
          const output = await callRouteProcedure(route, context, input.procedureInput);
          const paged = route.meta.paging
            ? pagedAnswer(output, route.meta.paging, input.page, new URL(`${trace.path}${search}`, origin))
            : { output, headers: undefined };
          const text = JSON.stringify(paged.output);
          if (cacheKey !== null)
            rememberAnswer(cacheKey, text, { freshUntil: freshUntilOf(route.meta, output), headers: paged.headers });
          return json(200, text, paged.headers);
        });
      },
      (answer) => ({ status: answer?.status ?? 500, body: typeof answer?.body === 'string' ? answer.body : '' }),
    );
    if ('replay' in outcome)
      return {
        status: outcome.replay.status,
        headers: { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true' },
        body: outcome.replay.body,
      };
    return outcome.result;
  }
}

// ---- 1. Credential ----------------------------------------------------------------------------------------------

/** The app of a cacheable endpoint about one app, when its id is one the route's input accepts (the statement casts it to uuid). */
function cachedAppId(match: RouteMatch): string | null {
  return match.kind === 'found' && match.route.method === 'GET'
    ? cachedReadAppId(match.route.meta, match.params.id)
    : null;
}

// ---- 5. Body ----------------------------------------------------------------------------------------------------

/** The body's JSON object; an endpoint whose members are all in its path or optional may get none (a revoke, a DELETE). */
async function readBodyObject(req: IncomingMessage, route: RestRoute): Promise<Record<string, unknown>> {
  const sentNoBody =
    req.headers['transfer-encoding'] === undefined && !(Number(req.headers['content-length'] ?? 0) > 0);
  if (route.bodyOptional && sentNoBody && req.headers['content-type'] === undefined) return {};
  const body = await readJsonBody(req, { emptyAs: route.bodyOptional ? {} : undefined });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('VALIDATION_ERROR', 'The request body must be a JSON object.', {
      errors: [{ in: 'body', pointer: '#', detail: 'Expected a JSON object.' }],
    });
  }
  // Path parameters are merged over body members; a body member of the same name is unknown, not ignored.
  const clashing = route.pathParameters.filter((name) => Object.hasOwn(body, name));
  if (clashing.length) {
    throw new AppError('VALIDATION_ERROR', `Unknown member "${clashing[0]}".`, {
      errors: clashing.map((name) => ({
        in: 'body' as const,
        pointer: `#/${name}`,
        detail: `Unknown member "${name}".`,
      })),
    });
  }
  return body as Record<string, unknown>;
}

// ---- 6. Input ---------------------------------------------------------------------------------------------------

/**
 * The procedure's input as trpc-to-openapi builds it: the query (a parameter sent once is a string, sent more than
 * once a list) or the body, with the path parameters over it. It must be text a database can store, then pass the
 * procedure's own schema; a failure names each member and where it was sent (path, query or body). A list the
 * pipeline pages also has its paging parameters checked here, before anything is charged.
 */
function validInput(
  route: RestRoute,
  pathParams: Record<string, string>,
  search: string,
  body: Record<string, unknown> | undefined,
): { procedureInput: unknown; page: PageRequest | null } {
  const input: Record<string, unknown> = { ...(body ?? singleValues(parseQuery(search))), ...pathParams };
  const locate: Locate = (member) =>
    member && route.pathParameters.includes(member) ? 'path' : route.method === 'GET' ? 'query' : 'body';
  const unrepresentable = unrepresentableTextIssues(input);
  if (unrepresentable.length) throw validationError(fieldErrorsFromIssues(unrepresentable, locate));
  const parsed = route.input.safeParse(input);
  const errors = parsed.success ? [] : fieldErrorsFromIssues(parsed.error.issues, locate);
  const paging =
    route.meta.paging && route.meta.paging.pagedBy !== 'procedure' ? pageRequestOf(input) : { page: null, errors: [] };
  if (errors.length || paging.errors.length) throw validationError([...errors, ...paging.errors]);
  // The caller parses the same input again: a schema's transforms need not accept their own output.
  return { procedureInput: input, page: paging.page };
}

function singleValues(query: Record<string, string[]>): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = Object.create(null);
  for (const name in query) values[name] = query[name]!.length === 1 ? query[name]![0]! : query[name]!;
  return values;
}

// ---- 9. Cache ---------------------------------------------------------------------------------------------------

// ---- 10. Headers and the log line -------------------------------------------------------------------------------

function json(status: number, body: string | Uint8Array, headers?: Record<string, string>): Answer {
  return { status, headers: { 'Content-Type': 'application/json', ...headers }, body };
}

function problemOf(thrown: unknown, trace: Trace, origin: string): Answer {
  const error = answerableError(thrown, 'unhandled error in the public API', { requestId: trace.requestId });
  return problemAnswer(error, { origin, instance: trace.path, requestId: trace.requestId });
}

function send(req: IncomingMessage, res: ServerResponse, answer: Answer, trace: Trace, startedAt: number): void {
  const headers: Record<string, string | number> = { ...answer.headers, 'X-Request-Id': trace.requestId };
  if (trace.metering) Object.assign(headers, creditHeaders(trace.metering, trace.now));
  if (trace.actor && inTestMode(trace.actor)) headers[TEST_MODE_HEADER] = 'true';
  if (answer.body !== null)
    headers['Content-Length'] =
      typeof answer.body === 'string' ? Buffer.byteLength(answer.body) : answer.body.byteLength;
  // A refusal before the body was read leaves it unread: the rest is read and thrown away, so that the answer arrives.
  Object.assign(headers, drainUnreadBody(req));
  res.writeHead(answer.status, headers);
  // Node sends no body for HEAD; the GET's headers (its Content-Length too) are the answer.
  res.end(answer.body ?? undefined);
  const seconds = (performance.now() - startedAt) / 1000;
  atTurnEnd(() => record(answer.status, trace, seconds));
}

/** The answer's metrics, the key's request log and the log line, once the turn's answers are out (core/turn-end.ts). */
function record(status: number, trace: Trace, seconds: number): void {
  // A path no route matched is one label value, not one per path a client made up.
  const labels = { method: trace.method, route: trace.route?.template ?? 'unmatched', status: String(status) };
  apiRequests.inc(labels);
  apiRequestDuration.observe(labels, seconds);
  if (trace.metering?.cost && trace.actor) creditsCharged.inc({ plan: trace.actor.plan }, trace.metering.cost);
  if (trace.cache) responseCacheLookups.inc({ result: trace.cache });
  // A call of a valid key goes to the key's request log, failures too (services/api-keys/key-calls.ts).
  if (trace.actor?.keyId) {
    recordKeyCall({
      keyId: trace.actor.keyId,
      at: trace.now,
      method: trace.method,
      endpoint: trace.route
        ? `${trace.route.method} ${trace.route.template}`
        : `${trace.method} ${trace.path.slice(PUBLIC_API_BASE_PATH.length, PUBLIC_API_BASE_PATH.length + 300) || '/'}`,
      status,
      credits: trace.metering?.cost ?? 0,
      clientAddress: trace.clientAddress ?? null,
      requestId: trace.requestId,
    });
  }
  logRequest({
    requestId: trace.requestId,
    channel: 'rest',
    method: trace.method,
    route: trace.route?.template ?? trace.path,
    status,
    durationMs: Math.round(seconds * 10_000) / 10,
    accountId: trace.actor?.accountId,
    keyId: trace.actor?.keyId,
    actor: trace.actor?.kind,
    credits: trace.metering?.cost,
    cache: trace.cache,
  });
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

// ---- The published documents: no credential, no charge ---------------------------------------------------------

type PublishedDocument = (origin: string) => string | Promise<string>;

const DOCUMENTS: Record<string, PublishedDocument | undefined> = {
  [`${PUBLIC_API_BASE_PATH}/openapi.json`]: openApiDocumentJson,
  [`${PUBLIC_API_BASE_PATH}/collection.json`]: collectionJson,
};

/** GET or HEAD of the OpenAPI document or the request collection (DOCUMENTS); another method there is 405. */
async function publishedDocument(document: PublishedDocument, trace: Trace, origin: string): Promise<Answer> {
  const allowed = ['GET', 'HEAD', 'OPTIONS'];
  if (trace.method === 'OPTIONS') return { status: 204, headers: { Allow: allowed.join(', ') }, body: null };
  if (trace.method !== 'GET' && trace.method !== 'HEAD') {
    const problem = methodNotAllowedProblem(trace.method, allowed);
    throw new AppError(problem.appCode, problem.message, { headers: problem.headers });
  }
  const headers = {
    'Content-Type': 'application/json',
    'Cache-Control': 'public, max-age=300',
    'Access-Control-Allow-Origin': '*',
  };
  return { status: 200, headers, body: await document(origin) };
}
