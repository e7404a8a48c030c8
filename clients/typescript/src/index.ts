// The typed client of the ASO Analytics Public Data API v1: openapi-fetch over the types openapi-typescript generates
// from the API's OpenAPI document (./schema.ts, ./operations.ts), with what every caller would otherwise write again:
// - each answer's credit headers as numbers (`credits`, Infinity when unlimited) and its request id;
// - problems typed as the API's problem kinds, told apart by `code`;
// - retries of 429 and 503 (after their `Retry-After`) and of network errors, for GETs, PATCHes and DELETEs, and for
//   POSTs, which get an `Idempotency-Key` of their own when they carry none, so that a retried POST is answered once;
// - `paginate`, an async iterator over every item of a paged list;
// - `Aso-Version`: the dated version its types were generated for, so that answers keep to them whatever the key's.
import createFetchClient, { type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import { API_VERSION, PAGED_LISTS, type ProblemSchemaName } from './operations';
import type { components, paths } from './schema';

export type { components, paths };
export { API_VERSION };

/** A problem the API answered with; `code` tells the kinds apart (`credits-exhausted` has `resetsAt`…). */
export type Problem = components['schemas'][ProblemSchemaName];

/** The credit headers of an answer, as numbers. `limit` and `remaining` are Infinity on an unlimited plan. */
export interface Credits {
  limit: number;
  remaining: number;
  used: number;
  /** What this call charged: 0 on any failure. */
  cost: number;
  /** When the month's allowance resets. */
  resetsAt: Date;
}

/** What every answer carries besides its body: null credits before the account is known (a 401). */
export interface Metered {
  credits: Credits | null;
  requestId: string | null;
}

export interface RetryOptions {
  /** Retries after the first attempt; default 3. */
  retries?: number;
  /** A `Retry-After` longer than this is not waited for (the answer is returned); default 60 seconds. */
  maxWaitSeconds?: number;
  /** How to wait; tests may pass their own. */
  sleep?: (milliseconds: number) => Promise<void>;
}

export interface AsoClientOptions {
  /**
   * An API key (`svc_live_…`, or `svc_test_…` for the account's test sandbox), or a session token of the account:
   * the settings endpoints (`/keys`, `/webhook-endpoints`) take a session token only.
   */
  apiKey: string;
  /** Where the API is, e.g. `https://aso.example.com/api/public/v1`. */
  baseUrl: string;
  fetch?: (request: Request) => Promise<Response>;
  retry?: RetryOptions;
}

type InitParam<Init> =
  RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];
// openapi-fetch's own constraint on an operation.
type Method = 'get' | 'post' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = paths[P][M] extends infer O extends Record<
  string | number,
  any
>
  ? O
  : never;
type Call<M extends Method> = <P extends PathsWithMethod<paths, M>, I extends MaybeOptionalInit<paths[P], M>>(
  url: P,
  ...init: InitParam<I>
) => Promise<FetchResponse<Operation<P, M>, I, `${string}/${string}`> & Metered>;

type PagedPath = keyof typeof PAGED_LISTS;
type ListAnswer<P extends PagedPath> = paths[P]['get']['responses'][200]['content']['application/json'];
type ListOf<P extends PagedPath> = (typeof PAGED_LISTS)[P] extends ''
  ? ListAnswer<P>
  : ListAnswer<P>[(typeof PAGED_LISTS)[P] & keyof ListAnswer<P>];
/** An item of a paged list. */
export type ItemOf<P extends PagedPath> = ListOf<P> extends readonly (infer T)[] ? T : never;

/** The API answered a page with a problem: `problem` says which. */
export class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(`${problem.code}: ${problem.detail}`);
  }
}

const PAGE_SIZE = 100;
const sleepFor = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

function numberOf(value: string | null): number | undefined {
  if (value === null) return undefined;
  return value === 'unlimited' ? Number.POSITIVE_INFINITY : Number(value);
}

export function creditsOf(response: Response): Credits | null {
  const [limit, remaining, used, cost] = [
    'X-Credits-Limit',
    'X-Credits-Remaining',
    'X-Credits-Used',
    'X-Credits-Cost',
  ].map((name) => numberOf(response.headers.get(name)));
  const resetsAt = response.headers.get('X-Credits-Reset');
  if (limit === undefined || remaining === undefined || used === undefined || cost === undefined || resetsAt === null)
    return null;
  return { limit, remaining, used, cost, resetsAt: new Date(resetsAt) };
}

/** Seconds to wait before retry `attempt` (from 0) when the answer names none: 0.5, 1, 2… with jitter. */
function backoffSeconds(attempt: number): number {
  return 0.5 * 2 ** attempt * (0.5 + Math.random() / 2);
}

/** A fetch that retries what is safe to retry, and gives each POST an Idempotency-Key so that it is. */
export function retryingFetch(
  fetchOnce: (request: Request) => Promise<Response>,
  options: RetryOptions = {},
): (request: Request) => Promise<Response> {
  const { retries = 3, maxWaitSeconds = 60, sleep = sleepFor } = options;
  return async (request) => {
    if (request.method === 'POST' && !request.headers.has('Idempotency-Key'))
      request.headers.set('Idempotency-Key', crypto.randomUUID());
    // A PATCH sets what it sends and a DELETE removes once: sent twice, they leave what one would.
    const retriable =
      ['GET', 'HEAD', 'PATCH', 'DELETE'].includes(request.method) || request.headers.has('Idempotency-Key');
    for (let attempt = 0; ; attempt++) {
      const last = !retriable || attempt >= retries;
      let response: Response;
      try {
        response = await fetchOnce(request.clone());
      } catch (error) {
        // fetch rejects with a TypeError when no answer came (refused, reset, DNS); an abort is the caller's.
        if (last || !(error instanceof TypeError)) throw error;
        await sleep(backoffSeconds(attempt) * 1000);
        continue;
      }
      if (last || (response.status !== 429 && response.status !== 503)) return response;
      const retryAfter = Number(response.headers.get('Retry-After'));
      const wait = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : backoffSeconds(attempt);
      if (wait > maxWaitSeconds) return response;
      await response.body?.cancel();
      await sleep(wait * 1000);
    }
  };
}

export function createAsoClient(options: AsoClientOptions) {
  const client = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}`, 'Aso-Version': API_VERSION },
    fetch: retryingFetch(options.fetch ?? ((request) => fetch(request)), options.retry),
  });
  const metered = <T extends { response: Response }>(result: T): T & Metered => ({
    ...result,
    credits: creditsOf(result.response),
    requestId: result.response.headers.get('X-Request-Id'),
  });

  // openapi-fetch's methods, typed per path by Call; their generics cannot be followed through a wrapper.
  const GET = (async (url: never, ...init: never[]) =>
    metered(await client.GET(url, ...init))) as unknown as Call<'get'>;
  const POST = (async (url: never, ...init: never[]) =>
    metered(await client.POST(url, ...init))) as unknown as Call<'post'>;
  const PATCH = (async (url: never, ...init: never[]) =>
    metered(await client.PATCH(url, ...init))) as unknown as Call<'patch'>;
  const DELETE = (async (url: never, ...init: never[]) =>
    metered(await client.DELETE(url, ...init))) as unknown as Call<'delete'>;

  /**
   * Every item of a paged list, page after page (100 a page) while the answer's `Link` has a `next`. A problem on any
   * page is thrown as a ProblemError.
   */
  async function* paginate<P extends PagedPath>(
    url: P,
    ...init: InitParam<MaybeOptionalInit<paths[P], 'get'>>
  ): AsyncGenerator<ItemOf<P>> {
    const base = (init[0] ?? {}) as { params?: { path?: Record<string, string>; query?: Record<string, unknown> } };
    for (let page = 1; ; page++) {
      const params = { ...base.params, query: { ...base.params?.query, page, pageSize: PAGE_SIZE } };
      const result = (await GET(url as never, { ...base, params } as never)) as {
        data?: unknown;
        error?: Problem;
        response: Response;
      };
      if (result.error) throw new ProblemError(result.error);
      const list = PAGED_LISTS[url] === '' ? result.data : (result.data as Record<string, unknown>)[PAGED_LISTS[url]];
      yield* list as ItemOf<P>[];
      if (!/rel="next"/.test(result.response.headers.get('Link') ?? '')) return;
    }
  }

  return { GET, POST, PATCH, DELETE, paginate };
}

export type AsoClient = ReturnType<typeof createAsoClient>;
