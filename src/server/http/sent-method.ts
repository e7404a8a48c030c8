// Next.js hands a route handler only the methods it knows (GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH). It answers
// any other method with an empty 400, and TRACE or TRACK with a 500, because the WHATWG Request it builds refuses
// them. So the HTTP front (./front.ts) passes a public API request sent with such a method on as a GET, with the method
// the client sent in a header sealed with a secret of this process. The route then answers it as it answers any method
// an endpoint does not accept: credential first, then 404 or 405 with `Allow`. A client cannot forge the header: one
// without the seal is ignored, and the worst a forged one could do is turn the client's own GET into a 405.
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** The methods Next.js can hand a route handler; the front answers or seals any other. */
export const NEXT_SERVABLE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH']);

export const SENT_METHOD_HEADER = 'x-front-sent-method';

const SEAL_KEY = Symbol.for('aso-public-api.sent-method-seal');

/**
 * One secret per process, kept on the global object: the front's copy of this module and the one Next.js bundles
 * into the route are separate modules in the same process. A process without the front makes one that nothing sends.
 */
function seal(): Buffer {
  const holder = globalThis as { [SEAL_KEY]?: Buffer };
  return (holder[SEAL_KEY] ??= Buffer.from(randomBytes(18).toString('base64url')));
}

/** The header's value for a request the client sent with `method`. */
export function sealedMethod(method: string): string {
  return `${seal().toString()} ${method}`;
}

/** The method the client sent: the sealed header's when the front set it, else the request's own. */
export function sentMethod(request: Request): string {
  const header = request.headers.get(SENT_METHOD_HEADER);
  if (header === null) return request.method;
  const secret = seal();
  const offered = Buffer.from(header.slice(0, secret.length));
  const sealed = offered.length === secret.length && timingSafeEqual(offered, secret) && header[secret.length] === ' ';
  const method = header.slice(secret.length + 1);
  return sealed && /^[A-Z][A-Z-]*$/.test(method) ? method : request.method;
}
