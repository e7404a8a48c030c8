// The request a piece of work runs for, without passing it down every call: the REST pipeline and the dashboard's
// handler run each request inside withRequest, and what it causes deeper down (a domain event, a log line) reads its
// id here. Work outside a request (the daily refresh, a Stripe event, a job) has none.
import { AsyncLocalStorage } from 'node:async_hooks';

const requests = new AsyncLocalStorage<{ requestId: string }>();

export function withRequest<T>(requestId: string, work: () => T): T {
  return requests.run({ requestId }, work);
}

/** The id of the request this code runs for (its X-Request-Id), or null outside a request. */
export function currentRequestId(): string | null {
  return requests.getStore()?.requestId ?? null;
}
