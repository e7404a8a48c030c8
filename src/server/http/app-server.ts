// The app's HTTP server: Node's server with the public API mounted on it. A request to /api/public/v1 goes to the
// REST pipeline (src/server/rest/pipeline.ts), one to /api/mcp to the MCP server (src/server/mcp/mcp-endpoint.ts),
// one to /oauth/… or an OAuth metadata document to the authorization server (src/server/oauth/authorization-server.ts,
// the consent page aside), the API reference's script to ./api-reference-script.ts, any other to Next.js's request
// handler (the dashboard, its tRPC endpoint, sign-in, the docs, the consent page). Before either, every request gets
// what neither would give it:
//
// - who the client is: the forwarding headers are settled once, believed from trusted proxies only
//   (./client-address.ts), so that every later reader of the client's address gets the same, unforgeable answer;
// - a request target that is a path: an absolute-form target (`GET http://host/path`, RFC 9112 §3.2.2) is served as
//   its path, `OPTIONS *` is answered with the methods the server serves, anything else is a 400;
// - outside the public API, which reads and counts its own bodies: a method Next.js cannot hand a route (it would
//   answer TRACE with a 500, PROPFIND with an empty 400) is a 405, and a body is refused before a byte of it is read
//   when it declares more than 64 KiB (413) or no length at all (chunked: 411). Next.js reads a route's body whole
//   (the dashboard's tRPC endpoint, next-auth), and a page's for server actions, before any code of ours could count it.
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { logError } from '@/server/core/log';
import {
  MAX_BODY_BYTES,
  methodNotAllowedProblem,
  payloadTooLargeProblem,
  problemAnswer,
  type PlainAnswer,
  type Problem,
} from '@/server/errors/problem-response';
import { MCP_PATH, type McpHandler } from '@/server/mcp/mcp-endpoint';
import { answerAndLinger, drainUnreadBody } from '@/server/core/unread-body';
import type { RestHandler } from '@/server/rest/pipeline';
import { EXPORT_DOWNLOAD_PREFIX, serveExportDownload } from '@/server/rest/export-downloads';
import { PUBLIC_API_BASE_PATH } from '@/server/operations/routes';
import { API_REFERENCE_SCRIPT_PATH, serveApiReferenceScript } from './api-reference-script';
import { settleForwarding, type TrustedProxies } from './client-address';
import { METRICS_PATH, serveMetrics } from './metrics-endpoint';

/** Next.js's request handler (`app.getRequestHandler()`). */
export type NextHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface AppServerOptions {
  rest: RestHandler;
  mcp: McpHandler;
  /** The authorization server's endpoints: true when it answered the request. */
  oauth: (req: IncomingMessage, res: ServerResponse, path: string) => boolean;
  next: NextHandler;
  /** The proxies whose forwarding headers are believed (TRUSTED_PROXIES); none by default. */
  trustedProxies: TrustedProxies;
  /** The origin the public sees, in problem type URIs. */
  origin: string;
}

/**
 * How long an idle connection stays open: longer than the proxies and load balancers in front keep theirs (60 s for
 * AWS's load balancers and nginx), so that they close it, never we under a request they are sending; and far longer
 * than a client's pause between requests. With Node's 5 s, a client whose event loop lagged on a busy machine sent its
 * next request on a connection the server had just closed, and got "socket hang up".
 */
const KEEP_ALIVE_MS = 65_000;

/** The methods Next.js can hand a route handler, and so the methods the server serves outside the public API. */
export const SERVED_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH'];

/** The most a request's headers may take, its cookies included (problem `request-header-fields-too-large`). */
const MAX_HEADER_BYTES = 16 * 1024;

export function createAppServer({ rest, mcp, oauth, next, trustedProxies, origin }: AppServerOptions): Server {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    settleForwarding(req, trustedProxies, overTls(req));
    const method = req.method ?? 'GET';
    if (!req.url?.startsWith('/')) {
      const target = originForm(req.url ?? '');
      if (target === null)
        return sendAnswer(
          res,
          method === 'OPTIONS' && req.url === '*' ? serverOptions() : problem(badTarget(), req.url ?? '', origin),
        );
      req.url = target;
    }
    const path = pathOf(req.url);
    // An export's file, by its signed link: streamed, no credential (the link is the permission).
    if (path.startsWith(EXPORT_DOWNLOAD_PREFIX)) return void serveExportDownload(req, res, origin);
    if (path === PUBLIC_API_BASE_PATH || path.startsWith(`${PUBLIC_API_BASE_PATH}/`)) return void rest(req, res);
    if (path === MCP_PATH) return void mcp(req, res);
    if (path === METRICS_PATH && (method === 'GET' || method === 'HEAD') && serveMetrics(req, res)) return;
    if ((path.startsWith('/oauth/') || path.startsWith('/.well-known/')) && oauth(req, res, path)) return;
    if (path === API_REFERENCE_SCRIPT_PATH && (method === 'GET' || method === 'HEAD')) {
      return void serveApiReferenceScript(req, res).catch((error: unknown) => {
        logError('the API reference’s script could not be read', error, { path });
        answerFault(res);
      });
    }

    if (!SERVED_METHODS.includes(method))
      return sendAnswer(res, problem(methodNotAllowedProblem(method, SERVED_METHODS), path, origin));
    const refusal = bodyRefusal(req);
    if (refusal) return sendAnswer(res, problem(refusal, path, origin));
    next(req, res).catch((error: unknown) => {
      // As `next start` does: Next.js's handler answers its own errors, so this is a fault in Next.js itself.
      logError('Next.js failed to handle a request', error, { path });
      answerFault(res);
    });
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // A request Node's parser could not read. Node's own answer to headers too long is a bare 431 and a reset that the
  // client often sees instead of it: the problem goes instead, on a connection closed lingering (../core/unread-body.ts).
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || socket.writableEnded || error.code === 'ECONNRESET') return void socket.destroy();
    // A request too slow to arrive: Node's own answer, the request having shown nothing worth a problem.
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
      return void socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    answerAndLinger(socket, rawAnswer(problem(unreadableRequest(error), '/', origin)));
  });
  // Node would close a CONNECT's connection without a word unless it is listened for.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    socket.end(rawAnswer(problem(methodNotAllowedProblem('CONNECT', SERVED_METHODS), req.url ?? '', origin)));
  });
  return server;
}

function pathOf(url: string): string {
  const queryAt = url.indexOf('?');
  return queryAt === -1 ? url : url.slice(0, queryAt);
}

/** Whether the request came over TLS to this server itself (not through a proxy that terminated it). */
function overTls(req: IncomingMessage): boolean {
  return (req.socket as { encrypted?: boolean }).encrypted === true;
}

/** The origin-form (path and query) of an absolute-form request target; null for `*` or anything else that is not a path. */
function originForm(target: string): string | null {
  if (!/^https?:\/\//i.test(target) || !URL.canParse(target)) return null;
  const url = new URL(target);
  return `${url.pathname}${url.search}`;
}

/** `OPTIONS *`: what the server as a whole answers (RFC 9110 §9.3.7). */
function serverOptions(): PlainAnswer {
  return { status: 204, headers: { Allow: SERVED_METHODS.join(', ') }, body: '' };
}

/** What a request Node could not parse is answered: its headers too long, a request timing out, or bytes that are not HTTP. */
function unreadableRequest(error: NodeJS.ErrnoException): Problem {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return {
      appCode: 'HEADERS_TOO_LARGE',
      message: `The request’s headers exceed ${MAX_HEADER_BYTES} bytes (16 KiB) in all.`,
      extras: {},
      headers: {},
    };
  }
  return {
    appCode: 'VALIDATION_ERROR',
    message: 'The request could not be read as HTTP/1.1.',
    extras: {},
    headers: {},
  };
}

function badTarget(): Problem {
  return {
    appCode: 'VALIDATION_ERROR',
    message: 'The request target must be a path starting with "/" (or "*" for OPTIONS).',
    extras: {},
    headers: {},
  };
}

/** Why a body outside the public API is refused before it is read, or null. */
function bodyRefusal(req: IncomingMessage): Problem | null {
  const declared = req.headers['content-length'];
  if (declared !== undefined) return Number(declared) > MAX_BODY_BYTES ? payloadTooLargeProblem() : null;
  if (req.headers['transfer-encoding'] === undefined) return null;
  return {
    appCode: 'LENGTH_REQUIRED',
    message: `A request body must declare its length in Content-Length (at most ${MAX_BODY_BYTES} bytes); chunked bodies are accepted by the public API only.`,
    extras: {},
    headers: {},
  };
}

function problem(refusal: Problem, path: string, origin: string): PlainAnswer {
  const requestId = crypto.randomUUID();
  return problemAnswer(refusal, { origin, instance: path, requestId, headers: { 'X-Request-Id': requestId } });
}

/** An answer written on the bare socket, where there is no response to write it: status line, headers, its length, and the close. */
function rawAnswer(answer: PlainAnswer): string {
  const head = Object.entries({
    ...answer.headers,
    'Content-Length': Buffer.byteLength(answer.body),
    Connection: 'close',
  });
  const lines = head.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${lines}\r\n${answer.body}`;
}

/** A fault of the server's own, logged by the caller: a plain 500, or the connection closed once an answer has begun. */
function answerFault(res: ServerResponse): void {
  if (!res.headersSent)
    sendAnswer(res, { status: 500, headers: { 'Content-Type': 'text/plain' }, body: 'Internal Server Error' });
  else res.destroy();
}

/** Writes an answer with its Content-Length (none for a 204); a refusal that leaves a body unread reads the rest first (core/unread-body.ts). */
function sendAnswer(res: ServerResponse, answer: PlainAnswer): void {
  const length = answer.status === 204 ? {} : { 'Content-Length': Buffer.byteLength(answer.body) };
  const close = drainUnreadBody(res.req);
  res.writeHead(answer.status, { ...answer.headers, ...length, ...close });
  res.end(answer.status === 204 ? undefined : answer.body);
}
