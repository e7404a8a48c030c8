// /api/auth/*: next-auth's handler behind the one check it lacks. next-auth parses a POST body whose Content-Type
// mentions application/json with `request.json()`, and a body that is not JSON threw out of it as a 500 on every auth
// route. Such a body is refused here with a 400 problem; anything else is next-auth's to answer, inside the request's
// context (core/request-context.ts), which may add cookies to its answer.
import { randomUUID } from 'node:crypto';
import { problemResponse } from '@/server/errors/problem-response';
import { clientIp } from '@/server/core/client-ip';
import { publicOrigin } from '@/server/core/origin';
import { withRequest } from '@/server/core/request-context';

type RouteHandler<Context> = (request: Request, context: Context) => Promise<Response>;

export function withParsableBody<Context>(handler: RouteHandler<Context>): RouteHandler<Context> {
  return async (request, context) => {
    if (request.method === 'POST' && request.headers.get('content-type')?.includes('application/json')) {
      // The front has bounded the body (64 KiB); the copy leaves the original unread for next-auth.
      const text = await request.clone().text();
      if (!isJson(text)) {
        const requestId = randomUUID();
        return problemResponse(
          {
            appCode: 'VALIDATION_ERROR',
            message: 'The request body is not valid JSON.',
            extras: { errors: [{ in: 'body', pointer: '#', detail: 'Malformed JSON.' }] },
            headers: {},
          },
          {
            origin: publicOrigin(request),
            instance: new URL(request.url).pathname,
            requestId,
            headers: { 'X-Request-Id': requestId },
          },
        );
      }
    }
    // Sign-ins and sign-outs are in the account's security log with the client's address and user agent.
    const setCookies: string[] = [];
    const response = await withRequest(
      {
        requestId: null,
        clientAddress: clientIp(request.headers),
        userAgent: request.headers.get('user-agent'),
        setCookies,
      },
      () => handler(request, context),
    );
    if (!setCookies.length) return response;
    // A sign-in's known-browser cookie (auth-options.ts), beside next-auth's own, on a copy: an answer's headers may
    // be immutable.
    const headers = new Headers(response.headers);
    for (const cookie of setCookies) headers.append('Set-Cookie', cookie);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
