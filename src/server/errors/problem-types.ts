// Every problem type the API can answer with: HTTP status, slug (the last segment of the `type` URI), title,
// and the explanation served at /docs/problems/<slug>. One table, read by the REST pipeline, tRPC and the docs.
export interface ProblemType {
  status: number;
  slug: string;
  title: string;
  description: string;
  remedy: string;
}

export const PROBLEM_TYPES = {
  VALIDATION_ERROR: {
    status: 400,
    slug: 'validation-error',
    title: 'Your request is not valid',
    description:
      'A path parameter, query parameter or body member is missing, has the wrong type or is outside its accepted range, or the body is not well-formed JSON. The `errors` member lists each problem with where it is (`in`: path, query or body), its `name` or JSON `pointer`, and a `detail`.',
    remedy: 'Correct the listed values and send the request again. A validation failure costs no credits.',
  },
  UNAUTHORIZED: {
    status: 401,
    slug: 'unauthorized',
    title: 'Authentication required',
    description:
      'The request carried no `Authorization: Bearer …` header, or its credential is malformed, unknown, revoked or expired. API keys start with `svc_live_`; a dashboard session token is also accepted.',
    remedy: 'Send a valid key as `Authorization: Bearer svc_live_…`. Create or roll keys under Settings → API access.',
  },
  PLAN_REQUIRED: {
    status: 403,
    slug: 'plan-required',
    title: 'A paid plan is required',
    description:
      'API access is part of the paid plans (Solo, Pro, Business, Agency, Enterprise) and of their trial. The account that owns this credential is on the Free tier, or its trial has ended.',
    remedy:
      'Choose a plan under Settings → Plan & billing (or ask the operator, where billing is not self-serve); the change takes effect at once.',
  },
  INSUFFICIENT_SCOPE: {
    status: 403,
    slug: 'insufficient-scope',
    title: 'The credential lacks the required scope',
    description:
      'A read-only key called an endpoint that writes (adding apps, keywords or competitors): write endpoints need a read-write key. A key restricted to chosen apps cannot add an app either (it would be out of its reach). And no API key may call the settings endpoints (keys, webhook endpoints): they take a session token of the account, so that a leaked key never mints another. A session token acts with its member’s role in the account: an analyst’s, for example, reads the data but manages no keys or webhook endpoints, and the detail names the role.',
    remedy:
      'Use a read-write key for this call (one that reaches all apps to add an app), or create one under Settings → API access; call the settings endpoints with a session token of a member whose role allows it (an owner or an admin of the account changes roles).',
  },
  IP_NOT_ALLOWED: {
    status: 403,
    slug: 'ip-not-allowed',
    title: 'The key may not be used from this address',
    description:
      'The key is restricted to client addresses (IPv4 and IPv6 CIDR ranges), and this call came from outside them. The body names the address the call came from (`clientAddress`, as the service sees it behind its trusted proxies) and the key’s ranges (`allowedCidrs`). Nothing was charged.',
    remedy: 'Call from an address within the key’s ranges, or edit the key’s addresses under Settings → API access.',
  },
  LIMIT_REACHED: {
    status: 403,
    slug: 'limit-reached',
    title: 'A limit of the account is reached',
    description:
      'The account already has as many of something as it may have: active API keys, webhook endpoints, or a plan’s tracked apps, keywords or storefronts per app. The body names the cap (`cap`) and its value (`limit`).',
    remedy:
      'Remove one first (revoke a key, delete an endpoint, stop tracking an item), or move to a plan with a higher cap.',
  },
  NOT_FOUND: {
    status: 404,
    slug: 'not-found',
    title: 'Resource not found',
    description:
      'No resource exists at this address for your account. An app or keyword of another account is reported exactly like one that does not exist. Not-found responses cost no credits.',
    remedy: 'Check the path and the identifiers; list your apps with `GET /apps`.',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    slug: 'method-not-allowed',
    title: 'Method not allowed',
    description:
      'The path exists but does not accept this HTTP method. The `Allow` header lists the methods it accepts.',
    remedy: 'Use one of the methods in the `Allow` header.',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    slug: 'payload-too-large',
    title: 'Request body too large',
    description: 'Request bodies are limited to 64 KiB, on the public API and on every other path of the service.',
    remedy: 'Send a smaller body, for example by splitting a long list of terms over several requests.',
  },
  LENGTH_REQUIRED: {
    status: 411,
    slug: 'length-required',
    title: 'Content-Length required',
    // Never thrown in a procedure: the app's server answers it before any route (src/server/http/app-server.ts).
    description:
      'Outside the public API (the dashboard’s endpoints, sign-in, pages), a request with a body must declare its size in `Content-Length`; a body sent in chunks of unknown total length is refused before it is read. The public API itself accepts chunked bodies and counts them as it reads.',
    remedy:
      'Send the body with a `Content-Length` header (browsers and most HTTP clients do so for a body they hold whole).',
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    slug: 'request-header-fields-too-large',
    title: 'Request headers too large',
    // Never thrown in a procedure: the app's server answers it before any route (src/server/http/app-server.ts).
    description:
      'A request’s headers, its cookies included, are limited to 16 KiB in all, on every path of the service. A request whose headers are longer is refused before anything of it is read, and the connection is closed.',
    remedy:
      'Send fewer or shorter headers. A long `Cookie` header, gathered from other sites under the same domain, is the usual cause.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    slug: 'unsupported-media-type',
    title: 'Unsupported media type',
    description:
      'Request bodies must be JSON, sent with `Content-Type: application/json`, `text/json` or `application/*+json` (a `charset` parameter is allowed).',
    remedy: 'Set the Content-Type header to `application/json`.',
  },
  CREDITS_EXHAUSTED: {
    status: 402,
    slug: 'credits-exhausted',
    title: 'Monthly credit allowance exhausted',
    description:
      'The call costs more credits than remain in this month’s allowance. The body tells how many it needs (`creditsRequired`), how many remain (`creditsRemaining`) and when the allowance resets (`resetsAt`).',
    remedy: 'Wait for the reset, make cheaper calls, or upgrade the plan.',
  },
  KEY_BUDGET_EXHAUSTED: {
    status: 402,
    slug: 'key-budget-exhausted',
    title: 'The key’s monthly credit budget is spent',
    description:
      'The key has a monthly credit budget of its own, and this call costs more than what remains of it. The account’s other keys keep working on the account’s allowance. The body gives the key’s budget (`keyBudget`), what it spent this month (`keySpent`), what the call costs (`creditsRequired`) and when the budget resets (`resetsAt`, with the account’s allowance).',
    remedy: 'Wait for the reset, raise the key’s budget under Settings → API access, or use another key.',
  },
  RATE_LIMITED: {
    status: 429,
    slug: 'rate-limited',
    title: 'Too many requests',
    description:
      'Too many requests in the window: a key’s (or a signed-in user’s) requests per minute under its plan, or another documented rate such as sign-ups per client address or test deliveries per webhook endpoint.',
    remedy: 'Wait the number of seconds in the `Retry-After` header, then retry.',
  },
  DOWNLOAD_LINK_INVALID: {
    status: 403,
    slug: 'download-link-invalid',
    title: 'The download link is not valid',
    description:
      'An export file’s download link is signed and expires (its `expires` and `signature` query parameters): this one was altered, or its time has passed.',
    remedy: 'Read the export again (`GET /exports/{exportId}`): each read gives its files fresh links.',
  },
  CONFLICT: {
    status: 409,
    slug: 'conflict',
    title: 'The resource is not in a state that allows this',
    description:
      'The request is valid, but what it acts on does not allow it now: a reply draft that was already approved or sent, a review whose answer is being sent, an app whose store account is no longer connected. The `detail` says which, and what would allow it.',
    remedy: 'Read the resource again (its `state`), then act on what it is now. Nothing was changed or charged.',
  },
  IDEMPOTENCY_CONFLICT: {
    status: 422,
    slug: 'idempotency-conflict',
    title: 'Idempotency key reused with another request',
    description:
      'The `Idempotency-Key` was already used, within the last 24 hours, for a request with a different body or path.',
    remedy: 'Use a new idempotency key for a new request.',
  },
  INTERNAL_ERROR: {
    status: 500,
    slug: 'internal-error',
    title: 'Internal error',
    description:
      'Something failed on our side. Nothing was charged. The `requestId` identifies the request in our logs.',
    remedy: 'Retry later; if it persists, contact support with the `requestId`.',
  },
  STORE_UNAVAILABLE: {
    status: 503,
    slug: 'store-unavailable',
    title: 'The store cannot be read right now',
    description:
      'A live answer was asked of the App Store or Google Play (keyword research, adding an app), the store is failing or throttling us, and there is no earlier observation to answer with. Stored data is never affected: it is served with its age (`lastObservedAt`, `observedAt`). Nothing was charged.',
    remedy: 'Retry after the seconds in the `Retry-After` header.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    slug: 'service-unavailable',
    title: 'Service unavailable',
    description:
      'The service cannot answer right now, for example while its database is unreachable. Nothing was charged.',
    remedy: 'Retry with exponential backoff.',
  },
} as const satisfies Record<string, ProblemType>;

export type AppErrorCode = keyof typeof PROBLEM_TYPES;

export function problemTypeBySlug(slug: string): (ProblemType & { code: AppErrorCode }) | undefined {
  for (const [code, type] of Object.entries(PROBLEM_TYPES)) {
    if (type.slug === slug) return { ...type, code: code as AppErrorCode };
  }
  return undefined;
}
