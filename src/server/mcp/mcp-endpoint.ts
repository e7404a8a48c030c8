// The MCP server at /api/mcp: Streamable HTTP, stateless (any web process answers any request; nothing is kept between
// requests, so it holds behind a pooler and a load balancer), on the official SDK (@modelcontextprotocol/server): a
// plain tool call on one long-lived Server (./exchange-transport.ts), everything else on its per-request handler
// (createMcpHandler). Like REST (src/server/rest/pipeline.ts) it is a channel: it translates, and a tool call's steps
// run in src/server/operations/runner.ts, in the order every channel shares. What is the MCP server's own: the
// credential from the header, the body, the JSON-RPC exchange, the tool's arguments and its result (structured
// content, `_meta`), and a refusal as a tool error. The tools are the operations of the same table (./tools.ts).
//
// A request whose Origin is another site's is refused first (403), as MCP's transport requires of every server against
// DNS rebinding: clients that are not browsers send no Origin, and a page of another site has no business here. A
// server on this machine (a development one, the tests') also accepts pages of this machine.
//
// Every HTTP request needs a valid credential, `initialize` and `tools/list` included: without one the answer is 401
// with a `WWW-Authenticate` challenge, as on REST. A refusal of a tool call (scope, credits, rate, an app out of the
// key's reach, invalid arguments) is a tool error (`isError: true`) carrying the problem as REST would answer it.
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  classifyInboundRequest,
  createMcpHandler,
  isJsonContentType,
  localhostAllowedOrigins,
  MissingRequiredClientCapabilityError,
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
import { VERSION_HEADER } from '@/server/domain/api-versions';
import { appRouter } from '@/server/api/root';
import { answerableError } from '@/server/api/errors';
import { readBearer } from '@/server/auth/bearer';
import { canonicalJson } from '@/server/core/canonical-json';
import { clientIpOf } from '@/server/core/client-ip';
import { currentTime } from '@/server/core/clock';
import { logError } from '@/server/core/log';
import { readBodyText } from '@/server/core/request-body';
import { withRequest } from '@/server/core/request-context';
import { drainUnreadBody } from '@/server/core/unread-body';
import { problemAnswer, type PlainAnswer } from '@/server/errors/problem-response';
import { validationError } from '@/server/errors/validation';
import { admitRequest, inTestMode, scopeAllows, TEST_MODE_HEADER } from '@/server/services/access/access-policy';
import { fetchDoc, searchDocs } from '@/server/contract/docs-corpus';
import { AppError } from '@/server/errors/app-error';
import { fieldErrorsFromIssues } from '@/server/errors/validation';
import { config } from '@/server/core/config';
import { exportFileName, FORMAT_MEDIA_TYPES, type ExportFormat } from '@/server/services/exports/file-writers';
import {
  cancelTask,
  createTask,
  readTask,
  settleTask,
  type TaskOwner,
  type TaskView,
} from '@/server/services/tasks/mcp-tasks';
import { requestHash } from '@/server/services/idempotency/idempotency-keys';
import { mcpLedgerEndpoint } from '@/server/services/metering/credits';
import { creditStanding } from '@/server/services/metering/headers';
import { cutToPage, type PageRequest } from '@/server/operations/paging';
import { recordCall } from '@/server/operations/record';
import { cachedReadAppId, type CachedAnswer } from '@/server/operations/response-cache';
import { API_VERSION, PUBLIC_API_BASE_PATH, type Operation } from '@/server/operations/routes';
import {
  admitCaller,
  type AnswerAbout,
  runOperation,
  type CallInput,
  type Caller,
  type CallTrace,
  type Presenter,
} from '@/server/operations/runner';
import { eventStreamAnswer, ExchangeTransport } from './exchange-transport';
import { PROMPTS, promptMessages } from './prompts';
import { resultSummary } from './result-summary';
import { DOCS_TOOLS, isDocsTool, type DocsToolName } from './docs-tools';
import { createTaskResult, declaresTasks, detailedTask, TASKS_EXTENSION, taskParams } from './mcp-tasks';
import { buildTools, IDEMPOTENCY_ARGUMENT, type Tool } from './tools';
import { choiceOffers, READ_ONLY_HEADER, toolChoiceOf, TOOLSETS_HEADER, toolsetOf, type ToolChoice } from './toolsets';

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

/** One HTTP request's exchange, as the tool handlers see it: its call's trace, and what MCP adds. */
interface Exchange extends CallTrace {
  /** Set once the credential is valid, before any JSON-RPC message is handled. */
  caller?: Caller;
  /** The request's X-Test-Trigger, for a tool call of a test key (the access policy's readTestTrigger). */
  triggerHeader: string | null;
  /** The toolsets and mode the request chose (./toolsets.ts), read once its credential is admitted. */
  choice?: ToolChoice;
  /** The tool called, and its outcome's status (a problem's, or 200): for the log line. */
  tool?: string;
  status?: number;
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
  const presenters = new Map([...tools].map(([name, tool]) => [name, toolPresenter(tool)]));
  const handler = createMcpHandler(() => newServer(), {
    legacy: 'stateless',
    onerror: (error) => {
      // A protocol error is the client's (a revision the server does not speak, a header that contradicts the body):
      // answered to it as such, and no error of ours.
      if (!REJECTED_BY_SDK.test(error.message) && !(error instanceof ProtocolError))
        logError('the MCP handler failed', error);
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
      {
        capabilities: { tools: {}, prompts: {}, extensions: { [TASKS_EXTENSION]: {} } },
        instructions: INSTRUCTIONS,
      },
    );
    // A credential is offered the tools it may call: a read-only key no write tool, a key restricted to some apps no
    // tool that adds one. Calling another anyway gets the same refusal as on REST.
    server.setRequestHandler('tools/list', (_request, context) => {
      const exchange = exchangeOf(context);
      const choice = choiceOf(exchange);
      return {
        tools: [
          ...[...tools.values()].filter((tool) => offered(exchange, tool)).map((tool) => tool.definition),
          ...Object.values(DOCS_TOOLS)
            .filter((tool) => choiceOffers(choice, { name: tool.definition.name, readOnly: true }))
            .map((tool) => tool.definition),
        ],
      };
    });
    server.setRequestHandler('tools/call', (request, context) =>
      callTool(exchangeOf(context), request.params.name, request.params.arguments, envelopeOf(context)),
    );
    // The tasks extension: a task is the credential's that started it; a request that does not declare the extension
    // is refused as MCP asks (-32021), and a task id that is none of the credential's is unknown (-32602).
    server.setRequestHandler('tasks/get', { params: taskParams }, async (params, context) => {
      const exchange = exchangeOf(context);
      return detailedTask(await followed(exchange, await ownedTask(exchange, params.taskId, envelopeOf(context))));
    });
    server.setRequestHandler('tasks/cancel', { params: taskParams }, async (params, context) => {
      const exchange = exchangeOf(context);
      const task = await ownedTask(exchange, params.taskId, envelopeOf(context));
      // Cancelling an export's task cancels the export, as exports_cancel does.
      if (task.status === 'working' && task.follows)
        await runNamedTool(exchange, 'exports_cancel', { exportId: task.follows.exportId });
      await cancelTask(taskOwnerOf(exchange), params.taskId, clock());
      return {};
    });
    // The server never asks a task for input: what is sent is acknowledged and left, as the extension says.
    server.setRequestHandler('tasks/update', { params: taskParams }, async (params, context) => {
      await ownedTask(exchangeOf(context), params.taskId, envelopeOf(context));
      return {};
    });
    server.setRequestHandler('prompts/list', () => ({ prompts: PROMPTS.map((prompt) => prompt.definition) }));
    server.setRequestHandler('prompts/get', (request) => {
      const prompt = PROMPTS.find((each) => each.definition.name === request.params.name);
      if (!prompt)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `There is no prompt named "${request.params.name}".`);
      return promptMessages(prompt, request.params.arguments ?? {});
    });
    return server;
  }

  /** The request's task of its credential, after the extension's gate and the credential's request rate. */
  async function ownedTask(exchange: Exchange, taskId: string, envelope: unknown) {
    if (!declaresTasks(envelope))
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
        `Declare the ${TASKS_EXTENSION} extension in this request's capabilities to use tasks.`,
      );
    await admitRequest(callerOf(exchange).actor);
    const task = await readTask(taskOwnerOf(exchange), taskId, clock());
    if (!task)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `No task "${taskId.slice(0, 100)}" of this credential: it is unknown, another's, or expired.`,
      );
    return task;
  }

  /**
   * A task that follows an export, read as exports_get reads it (free): settled once the export ended, with that read
   * as its result (the files linked as resources), failed with the export's error, or cancelled.
   */
  async function followed(exchange: Exchange, task: TaskView): Promise<TaskView> {
    if (task.status !== 'working' || !task.follows) return task;
    const read = await runNamedTool(exchange, 'exports_get', { exportId: task.follows.exportId });
    const state = (read.structuredContent as { state?: string; error?: string | null } | undefined) ?? {};
    const owner = taskOwnerOf(exchange);
    if (read.isError)
      await settleTask(task.id, {
        status: 'failed',
        error: { code: ProtocolErrorCode.InternalError, message: resultTextOf(read) },
      });
    else if (state.state === 'completed') await settleTask(task.id, { status: 'completed', result: read });
    else if (state.state === 'failed')
      await settleTask(task.id, {
        status: 'failed',
        error: { code: ProtocolErrorCode.InternalError, message: state.error ?? 'The export failed.' },
      });
    else if (state.state === 'cancelled') await cancelTask(owner, task.id, clock());
    else return task;
    return (await readTask(owner, task.id, clock())) ?? task;
  }

  /**
   * A tool call. A client that takes tasks gets its answer as it comes if it comes within MCP_TASK_AFTER_MS, else a
   * task: the call goes on here, and its result (charged once, as it would have been answered) waits in the task. A
   * call whose work runs in the background (an export) is a task at once, which follows that work to its end.
   */
  async function callTool(
    exchange: Exchange,
    name: string,
    args: Record<string, unknown> | undefined,
    envelope?: unknown,
  ): Promise<CallToolResult> {
    if (!declaresTasks(envelope) || isDocsTool(name)) return runTool(exchange, name, args);
    // A tool that is none, or not offered, is the request's own refusal, never a task.
    const tool = offeredTool(exchange, name);
    if (tool.route.meta.accepted) {
      const started = await runNamedTool(exchange, name, args);
      const exportId = (started.structuredContent as { id?: unknown } | undefined)?.id;
      if (started.isError || typeof exportId !== 'string') return started;
      return createTaskResult(
        await createTask(taskOwnerOf(exchange), name, clock(), { exportId }),
      ) as unknown as CallToolResult;
    }
    const outcome = runTool(exchange, name, args).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    // With no time to answer in (0), every call is a task.
    const after = config().MCP_TASK_AFTER_MS;
    const settled = after > 0 ? await Promise.race([outcome, delay(after, null, { ref: false })]) : null;
    if (settled) {
      if ('error' in settled) throw settled.error;
      return settled.result;
    }
    const task = await createTask(taskOwnerOf(exchange), name, clock());
    outcome
      .then((settledLater) =>
        'result' in settledLater
          ? settleTask(task.id, { status: 'completed', result: settledLater.result })
          : settleTask(task.id, {
              status: 'failed',
              error:
                settledLater.error instanceof ProtocolError
                  ? { code: settledLater.error.code, message: settledLater.error.message }
                  : { code: ProtocolErrorCode.InternalError, message: 'The call failed; call the tool again.' },
            }),
      )
      .catch((error: unknown) => logError('an MCP task could not be settled', error, { taskId: task.id }));
    return createTaskResult(task) as unknown as CallToolResult;
  }

  async function runTool(
    exchange: Exchange,
    name: string,
    args: Record<string, unknown> | undefined,
  ): Promise<CallToolResult> {
    if (isDocsTool(name)) return callDocsTool(exchange, name, args);
    offeredTool(exchange, name);
    return runNamedTool(exchange, name, args);
  }

  /**
   * A tool by its name, whichever toolsets the request chose: a tool already found offered, or the read a task's poll
   * makes (exports_get) and the cancel a task's cancel makes (exports_cancel).
   */
  async function runNamedTool(
    exchange: Exchange,
    name: string,
    args: Record<string, unknown> | undefined,
  ): Promise<CallToolResult> {
    const tool = tools.get(name)!;
    exchange.tool = name;
    try {
      const { answer, replayed } = await runOperation({
        trace: exchange,
        caller: callerOf(exchange),
        operation: tool.route,
        triggerHeader: exchange.triggerHeader,
        ledgerEndpoint: mcpLedgerEndpoint(name),
        cacheName: (input) => `mcp:${name}?${canonicalJson(input)}`,
        readInput: () => toolInput(tool, name, args),
        presenter: presenters.get(name)!,
      });
      exchange.status = 200;
      return toolResult(
        exchange,
        answer,
        replayed,
        tool.definition as { name: string; title: string },
        resourceLinksOf(origin, tool.route, args ?? {}, answer.structured),
      );
    } catch (thrown) {
      return toolError(exchange, thrown);
    }
  }

  /**
   * The operation's tool the request may call. One that is none is a protocol error; a tool of a toolset not chosen,
   * or a write in read-only mode, was never offered: as unknown as a misspelt one. A write the credential may not make
   * stays the runner's refusal (insufficient-scope), as on REST.
   */
  function offeredTool(exchange: Exchange, name: string): Tool {
    const tool = tools.get(name);
    if (!tool)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `There is no tool named "${name}"; tools/list names them.`,
      );
    if (!choiceOffers(choiceOf(exchange), { name, readOnly: readsOnly(tool) }))
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The tool "${name}" is not offered: its toolset is ${toolsetOf(name)}, and this request chose ${describeChoice(choiceOf(exchange))} (X-MCP-Toolsets, X-MCP-Readonly, or ?toolsets= and ?readonly=).`,
      );
    return tool;
  }

  /** A free docs tool: the credential's request rate, its arguments, then the docs' corpus. Never charged. */
  async function callDocsTool(
    exchange: Exchange,
    name: DocsToolName,
    args: Record<string, unknown> | undefined,
  ): Promise<CallToolResult> {
    if (!choiceOffers(choiceOf(exchange), { name, readOnly: true }))
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The tool "${name}" is not offered: its toolset is docs, and this request chose ${describeChoice(choiceOf(exchange))}.`,
      );
    exchange.tool = name;
    try {
      await admitRequest(callerOf(exchange).actor);
      const parsed = DOCS_TOOLS[name].input.safeParse(args ?? {});
      if (!parsed.success) throw validationError(fieldErrorsFromIssues(parsed.error.issues));
      const structured =
        name === 'search_docs'
          ? searchDocs(origin, (parsed.data as { query: string }).query)
          : fetchDoc(origin, (parsed.data as { id: string }).id);
      if (!structured)
        throw new AppError('NOT_FOUND', 'No docs page has this id: search_docs answers the ids there are.');
      exchange.status = 200;
      return toolResult(
        exchange,
        { structured: structured as unknown as Record<string, unknown> },
        false,
        DOCS_TOOLS[name].definition as { name: string; title: string },
      );
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
    const exchange: Exchange = {
      channel: 'mcp',
      requestId: randomUUID(),
      now: clock(),
      method: req.method ?? 'GET',
      clientAddress: clientIpOf(req.headers['x-forwarded-for']),
      triggerHeader: header(req, 'x-test-trigger'),
    };
    const { requestId, method, clientAddress } = exchange;
    let answer: PlainAnswer;
    try {
      answer = await withRequest({ requestId, clientAddress, userAgent: header(req, 'user-agent') }, async () => {
        const originChecked = validateOriginHeader(header(req, 'origin'), allowedOriginHostnames);
        if (!originChecked.ok) return originRefused(originChecked.message);
        const bearer = readBearer(header(req, 'authorization'));
        // Read before the credential's statement, which reads the data version of the app a cached read names; a
        // credential refused on its shape alone is refused before the body is read.
        const body =
          method === 'POST' && bearer.kind !== 'missing' && bearer.kind !== 'malformed'
            ? await readBodyText(req)
            : undefined;
        // The body goes to the SDK parsed (its own reading of a body stream costs more than the call it carries); one
        // that is not JSON goes as it is, for the SDK's parse error.
        const parsedBody = body === undefined ? undefined : parseJson(body);
        const caller = await admitCaller(exchange, {
          bearer,
          appId: cachedAppId(parsedBody),
          testModeHeader: header(req, 'x-test-mode'),
          versionHeader: header(req, 'aso-version'),
          resource,
          resourceMetadata,
        });
        exchange.choice = toolChoiceOf(
          {
            toolsets: header(req, TOOLSETS_HEADER.toLowerCase()),
            readOnly: header(req, READ_ONLY_HEADER.toLowerCase()),
          },
          new URL(req.url ?? MCP_PATH, origin).searchParams,
        );
        // One JSON-RPC message per request, as MCP has had since 2025-06-18: each call then has its own log line, rate
        // count and credit headers' worth of _meta. A batch (2025-03-26) is refused whole, before anything runs.
        if (body?.trimStart().startsWith('[')) return batchRefused();
        const { actor } = caller;
        const authInfo: AuthInfo = {
          token: 'token' in bearer ? bearer.token : '',
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
    const testMode = exchange.caller && inTestMode(exchange.caller.actor) ? { [TEST_MODE_HEADER]: 'true' } : {};
    res.writeHead(answer.status, {
      ...answer.headers,
      'X-Request-Id': requestId,
      'Content-Length': Buffer.byteLength(answer.body),
      ...close,
      ...testMode,
      ...(exchange.caller && { [VERSION_HEADER]: exchange.caller.version }),
    });
    res.end(answer.body);
    const { tool } = exchange;
    recordCall(
      exchange,
      {
        route: tool ? `mcp:${tool}` : MCP_PATH,
        status: exchange.status ?? answer.status,
        httpStatus: answer.status,
        keyCall: tool ? { method: 'MCP', endpoint: mcpLedgerEndpoint(tool) } : undefined,
      },
      (performance.now() - startedAt) / 1000,
    );
  };
}

/** Whose the exchange's tasks are: its account, and its credential (a key's id, a connected app's too, or a user's). */
function taskOwnerOf(exchange: Exchange): TaskOwner {
  const { actor } = callerOf(exchange);
  return { accountId: actor.accountId, credential: actor.keyId ?? `user:${actor.userId}` };
}

/** Whether the request is offered the tool: in its choice of toolsets and mode, and callable with its credential. */
/** Whether a tool only reads, as its annotation says: what the read-only mode offers. */
function readsOnly(tool: Tool): boolean {
  return tool.definition.annotations?.readOnlyHint === true;
}

function offered(exchange: Exchange, tool: Tool): boolean {
  return (
    scopeAllows(callerOf(exchange).actor, tool.route.meta) &&
    choiceOffers(choiceOf(exchange), { name: tool.definition.name, readOnly: readsOnly(tool) })
  );
}

function choiceOf(exchange: Exchange): ToolChoice {
  if (!exchange.choice) throw new Error('an MCP message handled before its toolsets were read');
  return exchange.choice;
}

function describeChoice(choice: ToolChoice): string {
  return `${choice.toolsets.join(', ')}${choice.readOnly ? ', read-only' : ''}`;
}

/** A 2026-07-28 request's envelope (its protocol version, the client's capabilities), as the SDK lifted it. */
function envelopeOf(context: ServerContext): unknown {
  return (context as { mcpReq?: { envelope?: unknown } }).mcpReq?.envelope;
}

/** The request's exchange, which serveMcpRequest passes with the authInfo. */
function exchangeOf(context: ServerContext): Exchange {
  return context.http?.authInfo?.extra?.exchange as Exchange;
}

/** The exchange's caller: every JSON-RPC message is handled after the credential step admitted one. */
function callerOf(exchange: Exchange): Caller {
  if (!exchange.caller) throw new Error('an MCP message handled before its credential was admitted');
  return exchange.caller;
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

/**
 * The tool's arguments as its procedure takes them. A write's idempotency key is the channel's, not the procedure's: it
 * comes out of the arguments; a read has none (the argument is then unknown, and refused as such).
 */
function toolInput(tool: Tool, name: string, args: Record<string, unknown> | undefined): CallInput {
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
  return {
    input,
    idempotencyKey: writes ? ((idempotencyKey as string | undefined) ?? null) : null,
    requestHash: () => requestHash('MCP', `${MCP_PATH}/tools/${name}`, input),
  };
}

interface StructuredResult {
  structured: Record<string, unknown>;
  /** Where a paged list goes on. */
  paging?: { page: number; pageSize: number; total: number; nextPage: number | null };
}

/** A tool's results: structured content, kept as its JSON in the response cache and under an idempotency key. */
function toolPresenter(tool: Tool): Presenter<StructuredResult> {
  return {
    present(_operation: Operation, output, page, about) {
      const result = structuredResult(tool, output, page, about);
      return { answer: result, text: JSON.stringify(result) };
    },
    fromCache: replayedResult,
    toStored: (result) => ({ status: result ? 200 : 500, body: result ? JSON.stringify(result) : '' }),
    fromStored: (stored) => JSON.parse(stored.body) as StructuredResult,
  };
}

/**
 * The procedure's output as the tool's structured content: the REST answer, a JSON array as `items` (with its data's
 * freshness beside it, which REST says in headers), cut to the page.
 */
function structuredResult(tool: Tool, output: unknown, page: PageRequest | null, about: AnswerAbout): StructuredResult {
  const cut = tool.route.meta.paging ? cutToPage(output, tool.route.meta.paging, page) : { output, page: null };
  const at = cut.page;
  const paging = at ? { ...at, nextPage: at.page * at.pageSize < at.total ? at.page + 1 : null } : undefined;
  const listed = () => ({
    items: cut.output,
    ...(tool.listsFreshness && about.freshness && { freshness: about.freshness }),
  });
  return { structured: tool.wrapsList ? listed() : (cut.output as Record<string, unknown>), paging };
}

/**
 * A tool's result: its structured content, a text beside it (a short summary; for ChatGPT's `search` and `fetch`, the
 * JSON their connectors read; for `fetch_doc`, the page), links to the app and keywords it names, and `_meta`.
 */
function toolResult(
  exchange: Exchange,
  result: StructuredResult,
  replayed: boolean,
  tool: { name: string; title: string },
  links: ResourceLink[] = [],
): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: resultText(tool, result.structured) }, ...links];
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

function resultText(tool: { name: string; title: string }, structured: Record<string, unknown>): string {
  if (tool.name === 'search' || tool.name === 'fetch') return JSON.stringify(structured);
  if (tool.name === 'fetch_doc') return `${structured.text}\n\n(${structured.url})`;
  return resultSummary(tool.title, structured);
}

type ResourceLink = Extract<CallToolResult['content'][number], { type: 'resource_link' }>;

/** A result's first text: a refusal's words. */
const resultTextOf = (result: CallToolResult) =>
  result.content.find((item) => item.type === 'text')?.text ?? 'The call failed.';

/**
 * Links to the app a call names and to the first keywords its result lists, as their REST addresses; to an export and
 * its files, by their signed download links.
 */
function resourceLinksOf(
  origin: string,
  route: Operation,
  input: Record<string, unknown>,
  structured: Record<string, unknown>,
): ResourceLink[] {
  const appId = typeof input.id === 'string' && route.meta.appInput ? input.id : null;
  const links: ResourceLink[] = [];
  const base = `${origin}${PUBLIC_API_BASE_PATH}`;
  const named = (route.template === '/apps/{id}' || route.template === '/apps') && typeof structured.id === 'string';
  const app = named ? (structured.id as string) : appId;
  if (app)
    links.push({
      type: 'resource_link',
      uri: `${base}/apps/${app}`,
      name: typeof structured.name === 'string' ? structured.name : `App ${app}`,
      mimeType: 'application/json',
    });
  const items = Array.isArray(structured.items) ? (structured.items as Record<string, unknown>[]) : [];
  if (app)
    for (const item of items.filter((item) => typeof item.keywordId === 'string').slice(0, 5))
      links.push({
        type: 'resource_link',
        uri: `${base}/apps/${app}/keywords/${item.keywordId}/history`,
        name: `Rank history of “${item.term}”`,
        mimeType: 'application/json',
      });
  if (route.template.startsWith('/exports/') || (route.template === '/exports' && route.method === 'POST'))
    links.push(...exportLinksOf(base, structured));
  return links;
}

function exportLinksOf(base: string, structured: Record<string, unknown>): ResourceLink[] {
  if (typeof structured.id !== 'string') return [];
  const format = structured.format as ExportFormat;
  const files = Array.isArray(structured.files)
    ? (structured.files as { dataset: string; url: string; bytes: number; rows: number; expiresAt: string }[])
    : [];
  return [
    {
      type: 'resource_link',
      uri: `${base}/exports/${structured.id}`,
      name: `Export ${structured.id}`,
      mimeType: 'application/json',
    },
    ...files.map(
      (file): ResourceLink => ({
        type: 'resource_link',
        uri: file.url,
        name: exportFileName(file.dataset, format),
        mimeType: FORMAT_MEDIA_TYPES[format],
        size: file.bytes,
        description: `${file.rows} rows of ${file.dataset}; the link works until ${file.expiresAt}, with no credential.`,
      }),
    ),
  ];
}

/** What every tool result carries: the credits charged and left, and the request id to quote to support. */
function resultMeta(exchange: Exchange): Record<string, unknown> {
  const caller = callerOf(exchange);
  return {
    requestId: exchange.requestId,
    // false: the call was in test mode (a test key, its sandbox), as the X-Test-Mode header says.
    livemode: !inTestMode(caller.actor),
    credits: creditStanding(caller.metering),
  };
}

const textDecoder = new TextDecoder();

/** A replayed result, parsed once per entry of the response cache and kept beside it (the cache drops the two together). */
const replayedResults = new WeakMap<CachedAnswer, StructuredResult>();

function replayedResult(cached: CachedAnswer): StructuredResult {
  let result = replayedResults.get(cached);
  if (!result) {
    result = JSON.parse(textDecoder.decode(cached.body)) as StructuredResult;
    replayedResults.set(cached, result);
  }
  return result;
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
