// The public REST API at /api/public/v1: the REST channel. It translates an HTTP request into a call of an operation
// and the call's outcome into an HTTP answer; the call's steps run in src/server/operations/runner.ts, in the order
// every channel shares:
//
//   credential → address → mode → version → authorize → trigger → idempotency → validation → rate → metering →
//   cache → procedure → record
//
// What is REST's own: the credential from the Authorization header, the route from the method and path (404, 405 and
// OPTIONS), the body (media type, size, JSON) read once the caller may call the operation, the query, a list's paging
// headers, and every failure, thrown by any step, as one application/problem+json answer. The app's HTTP server
// (src/server/http/app-server.ts) hands this every request under /api/public/v1, Next.js none of them.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { VERSION_HEADER } from '@/server/domain/api-versions';
import { appRouter } from '@/server/api/root';
import { currentTime } from '@/server/core/clock';
import { answerableError } from '@/server/api/errors';
import type { DataFreshness } from '@/server/api/figures';
import { credentialRefused, readBearer, type BearerReading } from '@/server/auth/bearer';
import { clientIpOf } from '@/server/core/client-ip';
import { drainUnreadBody } from '@/server/core/unread-body';
import { withRequest } from '@/server/core/request-context';
import { AppError } from '@/server/errors/app-error';
import type { Locate } from '@/server/errors/validation';
import { methodNotAllowedProblem, problemAnswer, problemTemplate } from '@/server/errors/problem-response';
import { inTestMode, TEST_MODE_HEADER } from '@/server/services/access/access-policy';
import { creditHeaders } from '@/server/services/metering/headers';
import { requestHash } from '@/server/services/idempotency/idempotency-keys';
import { readJsonBody } from '@/server/core/request-body';
import { parseQuery } from '@/server/core/request-query';
import { pagedAnswer } from '@/server/operations/paging';
import { recordCall } from '@/server/operations/record';
import { cachedReadAppId } from '@/server/operations/response-cache';
import {
  buildOperations,
  matchRoute,
  PUBLIC_API_BASE_PATH,
  type Operation,
  type RouteMatch,
} from '@/server/operations/routes';
import { admitCaller, runOperation, type CallTrace, type Presenter } from '@/server/operations/runner';
import { collectionJson } from '@/server/contract/collection';
import { openApiDocumentJson } from '@/server/contract/document';
import { successStatus } from '@/server/api/trpc';

/** An answer as plain data, written once at the end. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
}

/**
 * The call's trace, and what REST adds: the path as sent, percent-encoded (the problem's `instance`), and the operation
 * its route names, once matched (for the log line, the metrics and the key's request log).
 */
type Trace = CallTrace & { path: string; operation?: Operation };

export interface RestPipelineOptions {
  /** The origin the public sees, in problem type URIs and the published documents. */
  origin: string;
  /** Tests move the clock (month boundaries, the idempotency window). */
  clock?: () => Date;
}

export type RestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function createRestPipeline({ origin, clock = currentTime }: RestPipelineOptions): RestHandler {
  const operations = buildOperations(appRouter);
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
      channel: 'rest',
      requestId: randomUUID(),
      now: clock(),
      method: req.method ?? 'GET',
      clientAddress: null,
      path: queryAt === -1 ? target : target.slice(0, queryAt),
    };
    const search = queryAt === -1 ? '' : target.slice(queryAt);
    // A credential refused on its shape alone (none, or not one of ours) is answered here, before any asynchronous
    // step: nothing deeper runs for it, so it needs neither the request's context nor a promise. The same answer as the
    // credential step gives it (headers, problem body, log line, metrics); a published document needs no credential.
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
        () =>
          document
            ? publishedDocument(document, trace, origin, new URLSearchParams(search))
            : respond(req, trace, search, bearer),
      );
    } catch (thrown) {
      answer = problemOf(thrown, trace, origin);
    }
    send(req, res, answer, trace, startedAt);
  };

  async function respond(req: IncomingMessage, trace: Trace, search: string, bearer: BearerReading): Promise<Answer> {
    const { method } = trace;
    const apiPath = trace.path.slice(PUBLIC_API_BASE_PATH.length) || '/';
    // The route is matched before the credential is read, not yet acted on: the credential's statement also reads the
    // data version of the app the path names, for the response cache.
    const match = matchRoute(operations, method, apiPath);
    const caller = await admitCaller(trace, {
      bearer,
      appId: cachedAppId(match),
      testModeHeader: header(req, 'x-test-mode'),
      versionHeader: header(req, 'aso-version'),
    });

    if (match.kind === 'not-found') throw new AppError('NOT_FOUND', `There is no endpoint at ${method} ${trace.path}.`);
    if (match.kind === 'method-not-allowed') {
      if (method === 'OPTIONS') return { status: 204, headers: { Allow: match.allowed.join(', ') }, body: null };
      const problem = methodNotAllowedProblem(method, match.allowed);
      throw new AppError(problem.appCode, problem.message, { headers: problem.headers });
    }
    const operation = (trace.operation = match.route);
    const locate: Locate = (member) =>
      member && operation.pathParameters.includes(member) ? 'path' : operation.method === 'GET' ? 'query' : 'body';
    const { answer } = await runOperation({
      trace,
      caller,
      operation,
      locate,
      triggerHeader: header(req, 'x-test-trigger'),
      ledgerEndpoint: `${operation.method} ${operation.template}`,
      cacheName: () => `${apiPath}${search}`,
      // The query, or the body (media type, size, JSON syntax), with the path's parameters over it.
      readInput: async () => {
        const body = operation.method === 'GET' ? undefined : await readBodyObject(req, operation);
        return {
          input: { ...(body ?? singleValues(parseQuery(search))), ...match.params },
          idempotencyKey: operation.method === 'POST' ? header(req, 'idempotency-key') : null,
          requestHash: () => requestHash(method, trace.path, body),
        };
      },
      presenter: presenter(() => new URL(`${trace.path}${search}`, origin)),
    });
    return answer;
  }
}

/** REST's answers: JSON, a list cut to its page with the headers that say where it goes on (from the request's URL). */
function presenter(url: () => URL): Presenter<Answer> {
  return {
    present(operation, output, page, about) {
      const paged = operation.meta.paging
        ? pagedAnswer(output, operation.meta.paging, page, url())
        : { output, headers: undefined };
      const text = JSON.stringify(paged.output);
      const headers = { ...paged.headers, ...freshnessHeaders(about.freshness) };
      return { answer: json(successStatus(operation.meta), text, headers), text, headers };
    },
    fromCache: (cached) => json(200, cached.body, cached.headers),
    toStored: (answer) => ({
      status: answer?.status ?? 500,
      body: typeof answer?.body === 'string' ? answer.body : '',
    }),
    fromStored: (stored) => ({
      status: stored.status,
      headers: { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true' },
      body: stored.body,
    }),
  };
}

/** A data answer's freshness, as headers: they concern the call, and a JSON array has no member for them. */
function freshnessHeaders(freshness: DataFreshness | null): Record<string, string> {
  const headers: Record<string, string> = {};
  if (freshness?.dataThrough) headers['Aso-Data-Through'] = freshness.dataThrough;
  if (freshness?.storefront) headers['Aso-Storefront'] = freshness.storefront;
  return headers;
}

/** The app of a cacheable endpoint about one app, when its id is one the route's input accepts (the statement casts it to uuid). */
function cachedAppId(match: RouteMatch): string | null {
  return match.kind === 'found' && match.route.method === 'GET'
    ? cachedReadAppId(match.route.meta, match.params.id)
    : null;
}

/** The body's JSON object; an endpoint whose members are all in its path or optional may get none (a revoke, a DELETE). */
async function readBodyObject(req: IncomingMessage, operation: Operation): Promise<Record<string, unknown>> {
  const sentNoBody =
    req.headers['transfer-encoding'] === undefined && !(Number(req.headers['content-length'] ?? 0) > 0);
  if (operation.bodyOptional && sentNoBody && req.headers['content-type'] === undefined) return {};
  const body = await readJsonBody(req, { emptyAs: operation.bodyOptional ? {} : undefined });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('VALIDATION_ERROR', 'The request body must be a JSON object.', {
      errors: [{ in: 'body', pointer: '#', detail: 'Expected a JSON object.' }],
    });
  }
  // Path parameters are merged over body members; a body member of the same name is unknown, not ignored.
  const clashing = operation.pathParameters.filter((name) => Object.hasOwn(body, name));
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

/** A query parameter sent once is a string, sent more than once a list, as trpc-to-openapi gives them. */
function singleValues(query: Record<string, string[]>): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = Object.create(null);
  for (const name in query) values[name] = query[name]!.length === 1 ? query[name]![0]! : query[name]!;
  return values;
}

function json(status: number, body: string | Uint8Array, headers?: Record<string, string>): Answer {
  return { status, headers: { 'Content-Type': 'application/json', ...headers }, body };
}

function problemOf(thrown: unknown, trace: Trace, origin: string): Answer {
  const error = answerableError(thrown, 'unhandled error in the public API', { requestId: trace.requestId });
  return problemAnswer(error, { origin, instance: trace.path, requestId: trace.requestId });
}

function send(req: IncomingMessage, res: ServerResponse, answer: Answer, trace: Trace, startedAt: number): void {
  const headers: Record<string, string | number> = { ...answer.headers, 'X-Request-Id': trace.requestId };
  const caller = trace.caller;
  if (caller) Object.assign(headers, creditHeaders(caller.metering, trace.now));
  if (caller && inTestMode(caller.actor)) headers[TEST_MODE_HEADER] = 'true';
  // The dated version the answer was shaped by (a refusal before the credential was read has none).
  if (caller) headers[VERSION_HEADER] = caller.version;
  if (answer.body !== null)
    headers['Content-Length'] =
      typeof answer.body === 'string' ? Buffer.byteLength(answer.body) : answer.body.byteLength;
  // A refusal before the body was read leaves it unread: the rest is read and thrown away, so that the answer arrives.
  Object.assign(headers, drainUnreadBody(req));
  res.writeHead(answer.status, headers);
  // Node sends no body for HEAD; the GET's headers (its Content-Length too) are the answer.
  res.end(answer.body ?? undefined);
  const { operation, method, path } = trace;
  const endpoint = operation
    ? `${operation.method} ${operation.template}`
    : `${method} ${path.slice(PUBLIC_API_BASE_PATH.length, PUBLIC_API_BASE_PATH.length + 300) || '/'}`;
  recordCall(
    trace,
    {
      // A path no route matched is one label value, not one per path a client made up.
      route: operation?.template ?? 'unmatched',
      loggedRoute: operation?.template ?? path,
      status: answer.status,
      keyCall: { method, endpoint },
    },
    (performance.now() - startedAt) / 1000,
  );
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

// ---- The published documents: no credential, no charge ---------------------------------------------------------

type PublishedDocument = (origin: string, query: URLSearchParams) => string | Promise<string>;

const DOCUMENTS: Record<string, PublishedDocument | undefined> = {
  [`${PUBLIC_API_BASE_PATH}/openapi.json`]: openApiDocumentJson,
  [`${PUBLIC_API_BASE_PATH}/collection.json`]: collectionJson,
};

/** GET or HEAD of the OpenAPI document or the request collection (DOCUMENTS); another method there is 405. */
async function publishedDocument(
  document: PublishedDocument,
  trace: Trace,
  origin: string,
  query: URLSearchParams,
): Promise<Answer> {
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
  return { status: 200, headers, body: await document(origin, query) };
}
