// The request a piece of work runs for, without passing it down every call: the REST pipeline, the dashboard's
// handler and the sign-in routes run each request inside withRequest, and what it causes deeper down (a domain event,
// a security log entry, a log line) reads its id, its client and who is acting here. The operator CLI runs its
// commands as the operator, with no request id. Work outside both (the daily refresh, a Stripe event, a job) has none.
import { AsyncLocalStorage } from 'node:async_hooks';

/** Who acts: a signed-in user (the dashboard, or a session token on the public API), an API key, or the operator. */
export type RequestActor =
  | { kind: 'user'; userId: string; via: 'dashboard' | 'api' }
  | { kind: 'apiKey'; keyId: string }
  | { kind: 'operator' };

export interface RequestContext {
  /** The X-Request-Id of the answer; null for the operator CLI. */
  requestId: string | null;
  clientAddress: string | null;
  userAgent: string | null;
  /** Set once the credential is known. */
  actor: RequestActor | null;
  /**
   * `Set-Cookie` values for the answer, from code deeper down whose library writes the answer itself (next-auth's
   * sign-in): the handler that runs the request adds them.
   */
  setCookies: string[];
}

const requests = new AsyncLocalStorage<RequestContext>();

export function withRequest<T>(context: Partial<RequestContext> & Pick<RequestContext, 'requestId'>, work: () => T): T {
  return requests.run({ clientAddress: null, userAgent: null, actor: null, setCookies: [], ...context }, work);
}

/** The request this code runs for, or null outside one. */
export function currentRequest(): RequestContext | null {
  return requests.getStore() ?? null;
}

/** The id of the request this code runs for (its X-Request-Id), or null outside a request. */
export function currentRequestId(): string | null {
  return requests.getStore()?.requestId ?? null;
}

/** Who acts in the request this code runs for, once its credential is known (no-op outside a request). */
export function setRequestActor(actor: RequestActor): void {
  const context = requests.getStore();
  if (context) context.actor = actor;
}

/** Adds a `Set-Cookie` value to the answer of the request this code runs for (no-op outside a request). */
export function addResponseCookie(setCookie: string): void {
  requests.getStore()?.setCookies.push(setCookie);
}
