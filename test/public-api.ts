// The public API called in process, as a client would call it: a WHATWG Request goes into the REST pipeline's Node
// handler without a socket (light-my-request, Fastify's injector), and its answer comes back as a Response. The
// origin of the request's URL is the pipeline's public origin, so problem type URIs carry it.
import { Readable } from 'node:stream';
import { inject } from 'light-my-request';
import { createRestPipeline, type RestHandler } from '@/server/rest/pipeline';

const systemClock = () => new Date();
const pipelines = new Map<string, Map<() => Date, RestHandler>>();

function pipelineFor(origin: string, clock: () => Date): RestHandler {
  const byClock = pipelines.get(origin) ?? new Map<() => Date, RestHandler>();
  pipelines.set(origin, byClock);
  let pipeline = byClock.get(clock);
  if (!pipeline) byClock.set(clock, (pipeline = createRestPipeline({ origin, clock })));
  return pipeline;
}

export async function callPublicApi(request: Request, clock: () => Date = systemClock): Promise<Response> {
  const url = new URL(request.url);
  // A stream, so that a body the client cuts short reaches the pipeline as it would from a socket.
  const payload = request.body === null ? undefined : Readable.fromWeb(request.body as never);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  const answer = await inject(pipelineFor(url.origin, clock), {
    method: request.method as 'GET',
    url: `${url.pathname}${url.search}`,
    headers,
    payload,
  });
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    for (const each of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(each));
  }
  const empty = answer.statusCode === 204 || answer.statusCode === 304 || request.method === 'HEAD';
  return new Response(empty ? null : new Uint8Array(answer.rawPayload), {
    status: answer.statusCode,
    headers: responseHeaders,
  });
}
