// The problem kinds of the published contract, as data a client generator can use: one schema per kind (the base
// Problem with `code` fixed to its slug and its own members), one shared response per kind (or per set of kinds that
// share a status on an operation), each with an example, and `x-problem-types` listing them all. Built from the one
// table of problem types (src/server/errors/problem-types.ts).
import { PROBLEM_CONTENT_TYPE } from '@/server/errors/problem-response';
import { PROBLEM_TYPES, type AppErrorCode } from '@/server/errors/problem-types';
import { pascalCase } from './document-names';

type Json = Record<string, unknown>;

/**
 * The kinds the public API's operations answer with. Not length-required, answered outside it only, nor
 * headers-too-large, answered by the server before any route of any path (src/server/http/app-server.ts).
 */
const API_PROBLEM_CODES = (Object.keys(PROBLEM_TYPES) as AppErrorCode[]).filter(
  (code) => code !== 'LENGTH_REQUIRED' && code !== 'HEADERS_TOO_LARGE',
);
/**
 * The kinds an operation declares, each with a schema of its own. A 405 answers a method that no operation declares,
 * so no operation can list it, and an export file's download link is answered outside the operations (its link is
 * its permission): both are in `code` and `x-problem-types`, with the base schema.
 */
const KIND_SCHEMA_CODES: AppErrorCode[] = API_PROBLEM_CODES.filter(
  (code) => code !== 'METHOD_NOT_ALLOWED' && code !== 'DOWNLOAD_LINK_INVALID',
);

const problemSchemaName = (code: AppErrorCode) => `${pascalCase(PROBLEM_TYPES[code].slug)}Problem`;
const responseName = (codes: AppErrorCode[]) => codes.map((code) => pascalCase(PROBLEM_TYPES[code].slug)).join('Or');

/** The members a kind adds to the base problem, with the values its example shows. */
const KIND_MEMBERS: Partial<Record<AppErrorCode, { properties: Json; example: Json }>> = {
  VALIDATION_ERROR: {
    properties: {
      errors: {
        type: 'array',
        minItems: 1,
        description: 'Each invalid field: where it is, its name or JSON pointer, and what is wrong with it.',
        items: {
          type: 'object',
          required: ['in', 'detail'],
          properties: {
            in: { type: 'string', enum: ['path', 'query', 'body', 'header'] },
            name: { type: 'string', description: 'The path, query or header parameter.' },
            pointer: {
              type: 'string',
              description: 'RFC 6901 JSON pointer (URI fragment form) into the body, e.g. `#/terms/0`.',
            },
            detail: { type: 'string' },
          },
        },
      },
    },
    example: { errors: [{ in: 'query', name: 'days', detail: 'Must be a whole number from 1 to 365.' }] },
  },
  CREDITS_EXHAUSTED: {
    properties: {
      creditsRequired: { type: 'integer', minimum: 0, description: 'What the call costs.' },
      creditsRemaining: { type: 'integer', minimum: 0, description: 'What remains this month.' },
      resetsAt: {
        type: 'string',
        format: 'date-time',
        description: 'When the allowance resets: the start of the next calendar month, UTC.',
      },
    },
    example: { creditsRequired: 8, creditsRemaining: 3, resetsAt: '2026-12-01T00:00:00.000Z' },
  },
  IP_NOT_ALLOWED: {
    properties: {
      clientAddress: {
        type: 'string',
        description: 'The address the call came from, as the service sees it (behind its trusted proxies).',
      },
      allowedCidrs: { type: 'array', items: { type: 'string' }, description: 'The key’s client address ranges.' },
    },
    example: { clientAddress: '203.0.113.7', allowedCidrs: ['198.51.100.0/24', '2001:db8::/32'] },
  },
  KEY_BUDGET_EXHAUSTED: {
    properties: {
      keyBudget: { type: 'integer', minimum: 1, description: 'The key’s monthly credit budget.' },
      keySpent: { type: 'integer', minimum: 0, description: 'What the key spent this month.' },
      creditsRequired: { type: 'integer', minimum: 0, description: 'What the call costs.' },
      resetsAt: {
        type: 'string',
        format: 'date-time',
        description: 'When the budget resets, with the account’s allowance: the start of the next calendar month, UTC.',
      },
    },
    example: { keyBudget: 500, keySpent: 498, creditsRequired: 8, resetsAt: '2026-12-01T00:00:00.000Z' },
  },
  LIMIT_REACHED: {
    properties: {
      cap: {
        type: 'string',
        enum: ['tracked-apps', 'tracked-keywords', 'storefronts', 'active-api-keys', 'webhook-endpoints'],
        description: 'The cap reached.',
      },
      limit: { type: 'integer', minimum: 0, description: 'The cap’s value.' },
    },
    example: { cap: 'tracked-keywords', limit: 1000 },
  },
};

/** What each kind's example says, worded as the API words it. */
const EXAMPLE_DETAILS: Record<AppErrorCode, string> = {
  VALIDATION_ERROR: 'Must be a whole number from 1 to 365.',
  UNAUTHORIZED: 'This API key has been revoked.',
  PLAN_REQUIRED:
    'API access needs a paid plan; this account is on the Free tier. Choose a plan under Settings → Plan & billing.',
  INSUFFICIENT_SCOPE: 'This endpoint writes data and needs a read-write key; this key is read-only.',
  IP_NOT_ALLOWED:
    'This key accepts calls from 198.51.100.0/24, 2001:db8::/32 only; this call came from 203.0.113.7. Nothing was charged.',
  KEY_BUDGET_EXHAUSTED:
    'This call costs 8 credits and this key has 2 left of its monthly budget of 500; the budget resets at 2026-12-01T00:00:00.000Z. The account’s other keys are not affected.',
  LIMIT_REACHED: 'The Pro plan tracks at most 1000 keywords; this request adds 3 and 1 more fit. Nothing was added.',
  NOT_FOUND: 'No app with this id is tracked by your account.',
  METHOD_NOT_ALLOWED: 'DELETE is not allowed here; use GET, HEAD or OPTIONS.',
  PAYLOAD_TOO_LARGE: 'The request body exceeds 65536 bytes (64 KiB).',
  LENGTH_REQUIRED: 'A request with a body must declare its size in Content-Length.',
  HEADERS_TOO_LARGE: 'The request’s headers exceed 16384 bytes (16 KiB) in all.',
  UNSUPPORTED_MEDIA_TYPE:
    'Content-Type "text/plain" is not accepted; send JSON as application/json, text/json or application/*+json.',
  CREDITS_EXHAUSTED:
    'This call costs 8 credits and 3 remain this month; the allowance resets at 2026-12-01T00:00:00.000Z.',
  RATE_LIMITED: 'Too many requests for this key; retry in 12 s.',
  CONFLICT: 'This draft was sent: only a drafted reply can be approved.',
  DOWNLOAD_LINK_INVALID:
    'This download link expired at 2026-07-01T10:30:00.000Z: GET /exports/{exportId} gives a fresh one.',
  IDEMPOTENCY_CONFLICT: 'This Idempotency-Key was already used for a different request in the last 24 hours.',
  INTERNAL_ERROR: 'An unexpected error occurred. Nothing was charged.',
  STORE_UNAVAILABLE:
    'Google Play cannot be read right now, and this term was never observed in the US storefront. Nothing was charged.',
  SERVICE_UNAVAILABLE: 'The service cannot reach its database right now. Nothing was charged; retry in 5 s.',
};

function baseProblemSchema(): Json {
  return {
    type: 'object',
    description:
      'RFC 9457 problem details. `code` names the kind; each kind’s schema (see `x-problem-types`) adds its own members.',
    required: ['type', 'code', 'title', 'status', 'detail', 'instance', 'requestId'],
    properties: {
      type: {
        type: 'string',
        format: 'uri',
        description:
          'Identifies the problem type; a page at this URI explains it. Deployment-specific: switch on `code`.',
      },
      code: {
        type: 'string',
        enum: API_PROBLEM_CODES.map((code) => PROBLEM_TYPES[code].slug),
        description: 'The problem type’s slug (the last segment of `type`): stable, to switch on.',
      },
      title: { type: 'string', description: 'Short summary of the problem type.' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string', description: 'What went wrong with this request.' },
      instance: { type: 'string', description: 'The request path.' },
      requestId: {
        type: 'string',
        format: 'uuid',
        description: 'The id of the request, also in `X-Request-Id`; quote it to support.',
      },
    },
    'x-problem-types': API_PROBLEM_CODES.map((code) => ({
      code: PROBLEM_TYPES[code].slug,
      status: PROBLEM_TYPES[code].status,
      title: PROBLEM_TYPES[code].title,
      schema: `#/components/schemas/${KIND_SCHEMA_CODES.includes(code) ? problemSchemaName(code) : 'Problem'}`,
      members: Object.keys(KIND_MEMBERS[code]?.properties ?? {}),
    })),
  };
}

function kindSchema(code: AppErrorCode): Json {
  const { slug, status, title } = PROBLEM_TYPES[code];
  const members = KIND_MEMBERS[code];
  return {
    description: `${title} (\`${slug}\`).`,
    allOf: [{ $ref: '#/components/schemas/Problem' }],
    properties: { code: { const: slug }, status: { const: status }, ...members?.properties },
    required: ['code', 'status', ...Object.keys(members?.properties ?? {})],
  };
}

function problemExample(code: AppErrorCode, origin: string): Json {
  const { slug, status, title } = PROBLEM_TYPES[code];
  return {
    type: `${origin}/docs/problems/${slug}`,
    code: slug,
    title,
    status,
    detail: EXAMPLE_DETAILS[code],
    instance: '/api/public/v1/apps/0d6c2f7a-4b1e-4e8a-9f3c-6a5b4c3d2e11/keywords',
    requestId: '6f1c2b7e-3d4a-4e5f-8a9b-0c1d2e3f4a5b',
    ...KIND_MEMBERS[code]?.example,
  };
}

/** Headers of a problem answer: a 401 comes before the account is known, so it has no credit headers. */
function problemHeaders(status: number, creditHeaders: string[]): string[] {
  if (status === 401) return ['X-Request-Id', 'WWW-Authenticate'];
  const extra = status === 429 || status === 503 ? ['Retry-After'] : status === 403 ? ['WWW-Authenticate'] : [];
  return [...creditHeaders, ...extra];
}

/** The components the problem kinds need: schemas and the shared responses, filled as operations ask for them. */
export class ProblemComponents {
  readonly schemas: Record<string, Json> = { Problem: baseProblemSchema() };
  readonly responses: Record<string, Json> = {};

  constructor(
    private readonly origin: string,
    private readonly creditHeaders: string[],
    private readonly headerRef: (name: string) => Json,
  ) {
    for (const code of KIND_SCHEMA_CODES) this.schemas[problemSchemaName(code)] = kindSchema(code);
  }

  /** The operation's problem responses by status, each a reference to a shared response. */
  responsesFor(codes: AppErrorCode[]): Record<string, Json> {
    const byStatus = new Map<number, AppErrorCode[]>();
    for (const code of codes)
      byStatus.set(PROBLEM_TYPES[code].status, [...(byStatus.get(PROBLEM_TYPES[code].status) ?? []), code]);
    const responses: Record<string, Json> = {};
    for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
      const name = responseName(group);
      this.responses[name] ??= this.sharedResponse(status, group);
      responses[String(status)] = { $ref: `#/components/responses/${name}` };
    }
    return responses;
  }

  private sharedResponse(status: number, codes: AppErrorCode[]): Json {
    const schemaRef = (code: AppErrorCode) => ({ $ref: `#/components/schemas/${problemSchemaName(code)}` });
    const schema =
      codes.length === 1
        ? schemaRef(codes[0]!)
        : {
            oneOf: codes.map(schemaRef),
            discriminator: {
              propertyName: 'code',
              mapping: Object.fromEntries(codes.map((code) => [PROBLEM_TYPES[code].slug, schemaRef(code).$ref])),
            },
          };
    return {
      description: codes
        .map(
          (code) =>
            `\`${PROBLEM_TYPES[code].slug}\` (${this.origin}/docs/problems/${PROBLEM_TYPES[code].slug}): ${PROBLEM_TYPES[code].title}.`,
        )
        .join(' '),
      headers: Object.fromEntries(
        problemHeaders(status, this.creditHeaders).map((name) => [name, this.headerRef(name)]),
      ),
      content: {
        [PROBLEM_CONTENT_TYPE]: {
          schema,
          examples: Object.fromEntries(
            codes.map((code) => [
              PROBLEM_TYPES[code].slug,
              { summary: PROBLEM_TYPES[code].title, value: problemExample(code, this.origin) },
            ]),
          ),
        },
      },
    };
  }
}
