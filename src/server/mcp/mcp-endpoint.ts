// The MCP server at /api/mcp: Streamable HTTP, stateless (any web process answers any request; nothing is kept between
// requests, so it holds behind a pooler and a load balancer), on the official SDK (@modelcontextprotocol/server): a
// plain tool call on one long-lived Server (./exchange-transport.ts), everything else on its per-request handler
// (createMcpHandler). Like the REST pipeline (src/server/rest/pipeline.ts) this file
// is transport only: the credential from the header, the body, the JSON-RPC exchange, the log line. Who may call
// which tool, and what it costs, is the access policy's (src/server/services/access/access-policy.ts), asked in the
// same order as REST asks it; the tools are generated from the same procedures (./tools.ts).
//
// A request whose Origin is another site's is refused first (403), as MCP's transport requires of every server against
// DNS rebinding: clients that are not browsers send no Origin, and a page of another site has no business here. A
// server on this machine (a development one, the tests') also accepts pages of this machine.
//
// Every HTTP request needs a valid credential, `initialize` and `tools/list` included: without one the answer is 401
// with a `WWW-Authenticate` challenge, as on REST. A refusal of a tool call (scope, credits, rate, an app out of the
// key's reach, invalid arguments) is a tool error (`isError: true`) carrying the problem as REST would answer it.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  classifyInboundRequest,
  createMcpHandler,
  isJsonContentType,
  localhostAllowedOrigins,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo,
  type CallToolResult,
  type JSONRPCRequest,
  type ServerContext,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import { appRouter } from '@/server/api/root';
import { answerableError } from '@/server/api/errors';
import type { Context } from '@/server/api/trpc';
import type { Actor } from '@/server/auth/actor';
import { credentialRefused, readBearer } from '@/server/auth/bearer';
import { resolveCredential, type CredentialResult } from '@/server/auth/credentials';
import { canonicalJson } from '@/server/core/canonical-json';
import { clientIpOf } from '@/server/core/client-ip';
import { currentTime } from '@/server/core/clock';
import { logError, logRequest } from '@/server/core/log';
import { setRequestActor, withRequest } from '@/server/core/request-context';
import { atTurnEnd } from '@/server/core/turn-end';
import { problemAnswer, type PlainAnswer } from '@/server/errors/problem-response';
import { fieldErrorsFromIssues, unrepresentableTextIssues, validationError } from '@/server/errors/validation';
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
  scopeAllows,
  TEST_MODE_HEADER,
  type AppLookup,
} from '@/server/services/access/access-policy';
import { recordKeyCall } from '@/server/services/api-keys/key-calls';
import { requestHash } from '@/server/services/idempotency/idempotency-keys';
import { mcpLedgerEndpoint, periodOf } from '@/server/services/metering/credits';
import type { MeteringState } from '@/server/services/metering/headers';
import { apiRequestDuration, apiRequests, creditsCharged, responseCacheLookups } from '@/server/core/metrics';
import { API_VERSION } from '@/server/rest/document';
import { cutToPage, pageRequestOf, type PageRequest } from '@/server/rest/paging';
import { drainUnreadBody } from '@/server/core/unread-body';
import { readBodyText } from '@/server/rest/request-body';
import {
  answerCacheKey,
  cachedAnswer,
  cachedReadAppId,
  freshUntilOf,
  rememberAnswer,
  type CachedAnswer,
} from '@/server/rest/response-cache';
import { callRouteProcedure } from '@/server/rest/routes';
import { eventStreamAnswer, ExchangeTransport } from './exchange-transport';
import { PROMPTS, promptMessages } from './prompts';
import { buildTools, IDEMPOTENCY_ARGUMENT, type Tool } from './tools';

export const MCP_PATH = '/api/mcp';
/** RFC 9728: the MCP server's protected resource metadata, which names the authorization server (src/server/oauth/). */
export const MCP_RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${MCP_PATH}`;

/** The resource OAuth access tokens are issued for: the MCP server's URL. A token presented anywhere else is refused. */
export function mcpResource(origin: string): string {
  return `${origin}${MCP_PATH}`;
}

export interface McpEndpointOptions {
  /** The origin the public sees, in problem type URIs. */
  origin: string;
  clock?: () => Date;
  /**
   * The path of a plain tool call: `exchange` (the default: one long-lived Server, ./exchange-transport.ts) or `sdk`,
   * the SDK's stateless leg every other request takes. The second is the reference the first is held to, byte for byte
   * (mcp-endpoint.integration.test.ts).
   */
  toolCallPath?: 'exchange' | 'sdk';
}

/** One HTTP request's exchange, as the tool handlers see it. */
interface Exchange {
  requestId: string;
  now: Date;
  actor: Actor;
  /** The credential's statement: the period's credits used and the data versions, for the response cache. */
  credential: CredentialResult & { status: 'valid' };
  clientAddress: string | null;
  metering: MeteringState;
  /** The request's X-Test-Trigger, for a tool call of a test key (the access policy's readTestTrigger). */
  triggerHeader: string | null;
  /** What the credential's statement found of the app the tool call names, if it looked one up. */
  app?: AppLookup;
  /** The tool called, its outcome's status (a problem's, or 200) and what it charged: for the log line. */
  tool?: string;
  status?: number;
  /** Whether a cached read's result was replayed. */
  cache?: 'hit' | 'miss';
}

const INSTRUCTIONS = `The ASO analytics service's public data API as tools: tracked apps, keyword ranks and metrics, reviews, listing metadata, competitors and credit usage. Each tool states its credit cost; refusals and failures are free. A paged list says in its result how to get the next page. Ids come from apps_list (apps) and keywords_list (keywords).`;

/**
 * How the SDK reports a request it refused as malformed (it answers the client a 4xx with the reason): the client's
 * mistake, in the request log with its status, and no error of ours.
 */
const REJECTED_BY_SDK = /^Rejected inbound request \(/;

export type McpHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function createMcpEndpoint({
  origin,
  clock = currentTime,
  toolCallPath = 'exchange',
}: McpEndpointOptions): McpHandler {
  const resource = mcpResource(origin);
  const ownHostname = new URL(origin).hostname;
  const allowedOriginHostnames = localhostAllowedOrigins().includes(ownHostname)
    ? localhostAllowedOrigins()
    : [ownHostname];
  const resourceMetadata = `${origin}${MCP_RESOURCE_METADATA_PATH}`;
  const tools = buildTools(appRouter);
  const handler = createMcpHandler(() => newServer(), {
    legacy: 'stateless',
    onerror: (error) => {
      if (!REJECTED_BY_SDK.test(error.message)) logError('the MCP handler failed', error);
    },
  });
  // A plain tool call of a 2025-era client (./exchange-transport.ts): one Server for the process's lifetime, which
  // never sees an initialize, so it answers as the SDK's stateless leg's fresh Server does.
  const toolCalls = new ExchangeTransport();
  const toolCallServer = newServer();
  toolCallServer.onerror = (error) => logError('the MCP tool call server failed', error);
  void toolCallServer.connect(toolCalls);

  /** A Server with the endpoint's handlers; each request's exchange comes with its authInfo. */
  function newServer(): Server {
    const server = new Server(
      { name: 'aso-public-api', title: 'ASO analytics', version: API_VERSION },
      { capabilities: { tools: {}, prompts: {} }, instructions: INSTRUCTIONS },
    );
    // A credential is offered the tools it may call: a read-only key no write tool, a key restricted to some apps no
    // tool that adds one. Calling another anyway gets the same refusal as on REST.
    server.setRequestHandler('tools/list', (_request, context) => {
      const { actor } = exchangeOf(context);
      return {
        tools: [...tools.values()].filter((tool) => scopeAllows(actor, tool.route.meta)).map((tool) => tool.definition),
      };
    });
    server.setRequestHandler('tools/call', (request, context) =>
      callTool(exchangeOf(context), request.params.name, request.params.arguments),
    );
    server.setRequestHandler('prompts/list', () => ({ prompts: PROMPTS.map((prompt) => prompt.definition) }));
    server.setRequestHandler('prompts/get', (request) => {
      const prompt = PROMPTS.find((each) => each.definition.name === request.params.name);
      if (!prompt)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `There is no prompt named "${request.params.name}".`);
      return promptMessages(prompt, request.params.arguments ?? {});
    });
    return server;
  }

  async function callTool(
    exchange: Exchange,
    name: string,
    args: Record<string, unknown> | undefined,
  ): Promise<CallToolResult> {
    const tool = tools.get(name);
    if (!tool)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `There is no tool named "${name}"; tools/list names them.`,
      );
    exchange.tool = name;
    const { actor, metering, requestId, now } = exchange;
    try {
      authorize(actor, tool.route.meta);
      const trigger = readTestTrigger(actor, exchange.triggerHeader);
      // A write's idempotency key is the channel's, not the procedure's; a read has none (the argument is then unknown).
      const writes = tool.route.meta.scope === 'write';
      const { [IDEMPOTENCY_ARGUMENT]: idempotencyKey, ...rest } = args ?? {};
      const input = writes ? rest : { ...args };
      if (writes && idempotencyKey !== undefined && typeof idempotencyKey !== 'string') {
        throw validationError([
          {
            in: 'body',
            pointer: `#/${IDEMPOTENCY_ARGUMENT}`,
            detail: 'The idempotency key is a string of 1 to 255 visible ASCII characters.',
          },
        ]);
      }
      const key = writes ? ((idempotencyKey as string | undefined) ?? null) : null;
      const outcome = await idempotent(
        actor,
        { key, requestHash: () => requestHash('MCP', `${MCP_PATH}/tools/${name}`, input), now },
        async () => {
          const valid = validArguments(tool, input);
          await admitRequest(actor);
          const call = {
            actor,
            access: tool.route.meta,
            operation: mcpLedgerEndpoint(name),
            input: valid.input,
            metering,
            requestId,
            now,
            trigger,
            app: exchange.app,
          };
          return metered(call, async () => {
            // A read's result computed from the same data is replayed (and charged as a computed one), as on REST.
            const cacheKey = answerCacheKey(
              tool.route.meta,
              exchange.credential,
              now,
              `mcp:${name}?${canonicalJson(valid.input)}`,
            );
            const cached = cacheKey === null ? undefined : cachedAnswer(cacheKey);
            if (cacheKey !== null) exchange.cache = cached ? 'hit' : 'miss';
            if (cached) return replayedResult(cached);
            const context: Context = {
              actor,
              transport: 'mcp',
              requestId,
              clientIp: exchange.clientAddress,
              now,
              creditsUsed: exchange.credential.creditsUsed,
            };
            const output = await callRouteProcedure(tool.route, context, valid.input);
            const result = structuredResult(tool, output, valid.page);
            if (cacheKey !== null)
              rememberAnswer(cacheKey, JSON.stringify(result), { freshUntil: freshUntilOf(tool.route.meta, output) });
            return result;
          });
        },
        (result) => ({ status: result ? 200 : 500, body: result ? JSON.stringify(result) : '' }),
      );
      const result = 'replay' in outcome ? (JSON.parse(outcome.replay.body) as StructuredResult) : outcome.result;
      exchange.status = 200;
      return toolResult(exchange, result, 'replay' in outcome);
    } catch (thrown) {
      return toolError(exchange, thrown);
    }
  }

  function toolError(exchange: Exchange, thrown: unknown): CallToolResult {
    const error = answerableError(thrown, 'unhandled error in an MCP tool call', {
      requestId: exchange.requestId,
      tool: exchange.tool,
    });
    const answer = problemAnswer(error, { origin, instance: MCP_PATH, requestId: exchange.requestId });
    exchange.status = answer.status;
    const problem = JSON.parse(answer.body) as Record<string, unknown>;
    // What a REST client reads from the headers, an agent reads from the problem itself.
    const retryAfter = error.headers?.['Retry-After'];
    if (retryAfter !== undefined) problem.retryAfter = Number(retryAfter);
    return {
      isError: true,
      content: [{ type: 'text', text: JSON.stringify(problem) }],
      _meta: { ...resultMeta(exchange), problem },
    };
  }

  /** The app a tools/call of a read cached per app names, when its id is one the tool accepts: its data version is read with the credential. */
  function cachedAppId(message: unknown): string | null {
    const params = (message as { method?: unknown; params?: { name?: unknown; arguments?: { id?: unknown } } } | null)
      ?.params;
    if ((message as { method?: unknown } | null)?.method !== 'tools/call' || typeof params?.name !== 'string')
      return null;
    const tool = tools.get(params.name);
    return tool ? cachedReadAppId(tool.route.meta, params.arguments?.id) : null;
  }

  return async function serveMcpRequest(req, res) {
    const startedAt = performance.now();
    const requestId = randomUUID();
    const method = req.method ?? 'GET';
    const now = clock();
    const clientAddress = clientIpOf(req.headers['x-forwarded-for']);
    let exchange: Exchange | undefined;
    let answer: PlainAnswer;
    try {
      answer = await withRequest({ requestId, clientAddress, userAgent: header(req, 'user-agent') }, async () => {
        const originChecked = validateOriginHeader(header(req, 'origin'), allowedOriginHostnames);
        if (!originChecked.ok) return originRefused(originChecked.message);
        const bearer = readBearer(header(req, 'authorization'));
        if (bearer.kind === 'missing' || bearer.kind === 'malformed')
          throw credentialRefused(bearer.kind, resourceMetadata);
        // Read before the credential's statement, which reads the data version of the app a cached read names.
        const body = method === 'POST' ? await readBodyText(req) : undefined;
        // The body goes to the SDK parsed (its own reading of a body stream costs more than the call it carries); one
        // that is not JSON goes as it is, for the SDK's parse error.
        const parsedBody = body === undefined ? undefined : parseJson(body);
        const testMode = header(req, 'x-test-mode');
        const appId = cachedAppId(parsedBody);
        const credential = await resolveCredential(bearer, {
          now,
          ip: clientAddress,
          appId,
          resource,
          testMode: testMode === 'true',
        });
        if (credential.status !== 'valid') throw credentialRefused(credential.status, resourceMetadata);
        const { actor } = credential;
        setRequestActor(
          actor.kind === 'apiKey'
            ? { kind: 'apiKey', keyId: actor.keyId! }
            : { kind: 'user', userId: actor.userId!, via: 'api' },
        );
        admitClientAddress(actor, clientAddress);
        admitTestModeHeader(actor, testMode);
        exchange = {
          requestId,
          now,
          actor,
          credential,
          clientAddress,
          metering: { limit: actor.creditLimit, used: credential.creditsUsed, cost: 0, period: periodOf(now) },
          triggerHeader: header(req, 'x-test-trigger'),
          app: appLookupOf(appId, credential.versions),
        };
        // One JSON-RPC message per request, as MCP has had since 2025-06-18: each call then has its own log line, rate
        // count and credit headers' worth of _meta. A batch (2025-03-26) is refused whole, before anything runs.
        if (body?.trimStart().startsWith('[')) return batchRefused();
        const authInfo: AuthInfo = {
          token: bearer.token,
          clientId: actor.keyId ?? actor.userId ?? '',
          scopes: [actor.scope],
          extra: { exchange },
        };
        const toolCall = toolCallPath === 'exchange' ? plainToolCall(req, parsedBody) : null;
        if (toolCall) return eventStreamAnswer(await toolCalls.exchange(toolCall, authInfo));
        const request = new Request(new URL(req.url ?? MCP_PATH, origin), {
          method,
          headers: webHeaders(req),
          body: parsedBody === undefined ? body : undefined,
        });
        const response = await handler.fetch(
          request,
          parsedBody === undefined ? { authInfo } : { authInfo, parsedBody },
        );
        return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
      });
    } catch (thrown) {
      answer = problemAnswer(answerableError(thrown, 'unhandled error in the MCP endpoint', { requestId }), {
        origin,
        instance: MCP_PATH,
        requestId,
      });
    }
    // A refusal before the body was read leaves it unread: the rest is read and thrown away, so that the answer arrives.
    const close = drainUnreadBody(req);
    const testMode = exchange && inTestMode(exchange.actor) ? { [TEST_MODE_HEADER]: 'true' } : {};
    res.writeHead(answer.status, {
      ...answer.headers,
      'X-Request-Id': requestId,
      'Content-Length': Buffer.byteLength(answer.body),
      ...close,
      ...testMode,
    });
    res.end(answer.body);
    const seconds = (performance.now() - startedAt) / 1000;
    atTurnEnd(() => record(method, answer.status, exchange, requestId, seconds));
  };
}

/** The request's exchange, which serveMcpRequest passes with the authInfo. */
function exchangeOf(context: ServerContext): Exchange {
  return context.http?.authInfo?.extra?.exchange as Exchange;
}

/**
 * The message of a request the SDK's stateless leg would hand, unchanged, to a fresh Server as a tool call: a POST of
 * JSON, accepting the event stream, with a protocol version it serves, and a JSON-RPC request of `tools/call` that the
 * SDK's own classifier (which checks it is a JSON-RPC request) finds 2025-era. Anything else (initialize, a list, a
 * modern request, a malformed one) goes to the SDK.
 */
function plainToolCall(req: IncomingMessage, body: unknown): JSONRPCRequest | null {
  if (req.method !== 'POST' || (body as { method?: unknown } | null)?.method !== 'tools/call') return null;
  const accept = req.headers.accept;
  if (
    !accept?.includes('application/json') ||
    !accept.includes('text/event-stream') ||
    !isJsonContentType(req.headers['content-type'] ?? null)
  )
    return null;
  const protocolVersionHeader = header(req, 'mcp-protocol-version') ?? undefined;
  if (protocolVersionHeader !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersionHeader)) return null;
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader,
    mcpMethodHeader: header(req, 'mcp-method') ?? undefined,
    mcpNameHeader: header(req, 'mcp-name') ?? undefined,
    body,
  });
  return route.kind === 'legacy' && route.reason === 'no-claim' ? (body as JSONRPCRequest) : null;
}

/** What the SDK's own transport answers a request from another site's page (its originValidationResponse). */
function originRefused(message: string): PlainAnswer {
  const error = { jsonrpc: '2.0', id: null, error: { code: -32000, message } };
  return { status: 403, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(error) };
}

function batchRefused(): PlainAnswer {
  const error = {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: ProtocolErrorCode.InvalidRequest,
      message: 'JSON-RPC batches are not supported: send one message per request.',
    },
  };
  return { status: 400, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(error) };
}

/** The tool's arguments as its procedure takes them, checked as REST checks a query or body; and the page asked for. */
function validArguments(
  tool: Tool,
  input: Record<string, unknown>,
): { input: Record<string, unknown>; page: PageRequest | null } {
  const unrepresentable = unrepresentableTextIssues(input);
  if (unrepresentable.length) throw validationError(fieldErrorsFromIssues(unrepresentable));
  const parsed = tool.route.input.safeParse(input);
  const errors = parsed.success ? [] : fieldErrorsFromIssues(parsed.error.issues);
  const paging = tool.pagedList ? pageRequestOf(input) : { page: null, errors: [] };
  if (errors.length || paging.errors.length)
    throw validationError([
      ...errors,
      ...paging.errors.map((error) => ({ ...error, in: 'body' as const, pointer: `#/${error.name}` })),
    ]);
  return { input, page: paging.page };
}

interface StructuredResult {
  structured: Record<string, unknown>;
  /** Where a paged list goes on. */
  paging?: { page: number; pageSize: number; total: number; nextPage: number | null };
}

/** The procedure's output as the tool's structured content: the REST answer, a JSON array as `items`, cut to the page. */
function structuredResult(tool: Tool, output: unknown, page: PageRequest | null): StructuredResult {
  const cut = tool.route.meta.paging ? cutToPage(output, tool.route.meta.paging, page) : { output, page: null };
  const at = cut.page;
  const paging = at ? { ...at, nextPage: at.page * at.pageSize < at.total ? at.page + 1 : null } : undefined;
  return { structured: tool.wrapsList ? { items: cut.output } : (cut.output as Record<string, unknown>), paging };
}

function toolResult(exchange: Exchange, result: StructuredResult, replayed: boolean): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: contentText(result.structured) }];
  if (result.paging?.nextPage) {
    const { page, pageSize, total, nextPage } = result.paging;
    content.push({
      type: 'text',
      text: `Page ${page} of ${Math.ceil(total / pageSize)} (${total} in all): call again with page=${nextPage} and pageSize=${pageSize} for the next.`,
    });
  }
  return {
    content,
    structuredContent: result.structured,
    _meta: {
      ...resultMeta(exchange),
      ...(result.paging ? { paging: result.paging } : {}),
      ...(replayed ? { idempotentReplayed: true } : {}),
    },
  };
}

/** What every tool result carries: the credits charged and left, and the request id to quote to support. */
function resultMeta(exchange: Exchange): Record<string, unknown> {
  const { metering } = exchange;
  return {
    requestId: exchange.requestId,
    // false: the call was in test mode (a test key, its sandbox), as the X-Test-Mode header says.
    livemode: !inTestMode(exchange.actor),
    credits: {
      charged: metering.cost,
      used: metering.used,
      limit: metering.limit,
      remaining: metering.limit === null ? null : Math.max(0, metering.limit - metering.used),
      resetsAt: metering.period.end.toISOString(),
    },
  };
}

/**
 * The log line, the metrics and a key's request log: one entry per HTTP request, naming the channel and the tool; once
 * the turn's answers are out (core/turn-end.ts).
 */
function record(
  method: string,
  httpStatus: number,
  exchange: Exchange | undefined,
  requestId: string,
  seconds: number,
): void {
  const route = exchange?.tool ? `mcp:${exchange.tool}` : MCP_PATH;
  const status = exchange?.status ?? httpStatus;
  const labels = { method, route, status: String(status) };
  apiRequests.inc(labels);
  apiRequestDuration.observe(labels, seconds);
  const actor = exchange?.actor;
  if (exchange?.metering.cost && actor) creditsCharged.inc({ plan: actor.plan }, exchange.metering.cost);
  if (exchange?.cache) responseCacheLookups.inc({ result: exchange.cache });
  if (actor?.keyId && exchange?.tool) {
    recordKeyCall({
      keyId: actor.keyId,
      at: exchange.now,
      method: 'MCP',
      endpoint: mcpLedgerEndpoint(exchange.tool),
      status,
      credits: exchange.metering.cost,
      clientAddress: exchange.clientAddress,
      requestId,
    });
  }
  logRequest({
    requestId,
    channel: 'mcp',
    method,
    route,
    status,
    httpStatus,
    durationMs: Math.round(seconds * 10_000) / 10,
    accountId: actor?.accountId,
    keyId: actor?.keyId,
    actor: actor?.kind,
    credits: exchange?.metering.cost,
    cache: exchange?.cache,
  });
}

const textDecoder = new TextDecoder();

/**
 * A replayed result, parsed once per entry of the response cache and kept beside it (the cache drops the two together),
 * with its structured content's text. Its objects are then in the answers of every call that replays it, which only
 * serialise them.
 */
const replayedResults = new WeakMap<CachedAnswer, StructuredResult>();
const replayedTexts = new WeakMap<object, string>();

function replayedResult(cached: CachedAnswer): StructuredResult {
  let result = replayedResults.get(cached);
  if (!result) {
    result = JSON.parse(textDecoder.decode(cached.body)) as StructuredResult;
    replayedResults.set(cached, result);
    // The structured content comes through a cast: only an object can key the weak map.
    if (typeof result.structured === 'object' && result.structured !== null)
      replayedTexts.set(result.structured, JSON.stringify(result.structured));
  }
  return result;
}

/** The structured content as the text content gives it: a replayed one's kept text, else written now. */
function contentText(structured: Record<string, unknown>): string {
  return replayedTexts.get(structured) ?? JSON.stringify(structured);
}

/** The body's JSON value, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'authorization' || name === 'cookie') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}
