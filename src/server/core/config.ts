// Every environment variable the app reads, parsed once with zod, each with its default and meaning. Nothing else in
// the server reads process.env (config.test.ts fails when code does, or when README's "Configuration" table and this
// list differ). A value that does not parse stops the process at its first read, naming the variable.
import { z } from 'zod';

const flag = z.enum(['true', 'false'], 'Must be true or false.').transform((value) => value === 'true');
const integer = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^\d+$/, 'Must be a whole number.')
    .transform(Number)
    .pipe(z.number().min(min, `Must be at least ${min}.`).max(max, `Must be at most ${max}.`));
/** An amount that 0 turns off (megabytes, seconds). */
const amount = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'Must be a number, 0 or more.')
  .transform(Number);
const list = z.string().transform((value) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean),
);
const url = z.url('Must be an absolute URL.');

/** Each variable: its schema (of the raw string; absent and blank both mean unset), its default as documented, and its meaning. */
export const VARIABLES = {
  PORT: { schema: integer(0, 65535).default(3000), default: '`3000`', meaning: 'HTTP port of the app server' },
  DATABASE_URL: {
    schema: url.optional(),
    default: 'unset',
    meaning:
      'PostgreSQL to use. Unset: an embedded PostgreSQL under `DATA_DIR/pg` (loopback only). Several app processes may share one `DATABASE_URL`, directly or through a pooler (`DATABASE_POOL_MODE`); migrations are applied under an advisory lock.',
  },
  METRICS_TOKEN: {
    schema: z.string().min(16, 'Must be at least 16 characters.').optional(),
    default: 'unset',
    meaning: 'Bearer token a Prometheus scraper sends to `GET /metrics`. Unset: `/metrics` is not served (404)',
  },
  REDIS_URL: {
    schema: url.optional(),
    default: 'unset',
    meaning:
      'Redis for the shared request-rate limits (`redis://…`). Unset: they are kept in PostgreSQL. Either way, a store that is down or slow leaves each process counting alone',
  },
  DATABASE_POOL_MODE: {
    schema: z.enum(['session', 'transaction'], 'Must be session or transaction.').default('session'),
    default: '`session`',
    meaning:
      '`transaction` when `DATABASE_URL` points at a pooler in transaction mode (PgBouncer `pool_mode = transaction`, as managed poolers run): statements are then never prepared by name, which PgBouncer before 1.21 cannot route (docs/deploy.md, "Behind a connection pooler")',
  },
  DATABASE_POOL_SIZE: {
    schema: integer(1, 1000).default(10),
    default: '`10`',
    meaning: 'Connections per process in its database pool (and 2 more for the shared rate limits’ counts)',
  },
  DATA_DIR: {
    schema: z.string().default('.data'),
    default: '`.data`',
    meaning: 'Embedded database, generated session secret, generated demo password',
  },
  EMBEDDED_PG_PORT: {
    schema: integer(1, 65535).optional(),
    default: 'a free port',
    meaning: 'Port of the embedded PostgreSQL',
  },
  NEXTAUTH_SECRET: {
    schema: z.string().min(16, 'Must be at least 16 characters.').optional(),
    default: 'generated into `DATA_DIR/auth-secret`',
    meaning: 'Session signing key. Set the same value on every process when several hosts share one database.',
  },
  DATA_ENCRYPTION_KEY: {
    schema: z
      .string()
      .regex(
        /^[A-Za-z0-9_-]{43}$/,
        'Must be 32 random bytes in base64url (43 characters): `node -e "console.log(crypto.randomBytes(32).toString(\'base64url\'))"`.',
      )
      .optional(),
    default: 'generated into `DATA_DIR/data-encryption-key`',
    meaning:
      'Key that seals the webhook signing secrets in the database (AES-256-GCM); separate from `NEXTAUTH_SECRET`. Set the same value on every process; rotating it: docs/deploy.md, "Rotating the data-encryption key"',
  },
  DATA_ENCRYPTION_PREVIOUS_KEYS: {
    schema: list
      .pipe(z.array(z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Each must be 32 bytes in base64url (43 characters).')))
      .optional(),
    default: 'none',
    meaning:
      'Earlier values of `DATA_ENCRYPTION_KEY`, comma-separated: secrets sealed with them still open until `npm run admin -- secrets reseal` has sealed them anew',
  },
  NEXTAUTH_URL: {
    schema: url.optional(),
    default: '`http://localhost:$PORT`',
    meaning: 'Public origin of the dashboard (the launcher sets it for the app server)',
  },
  APP_ORIGIN: {
    schema: url.optional(),
    default: "`NEXTAUTH_URL`'s origin",
    meaning: 'Public origin of absolute URLs: problem `type` URIs, the OpenAPI server, the docs’ examples',
  },
  TRUSTED_PROXIES: {
    schema: list.optional(),
    default: 'none',
    meaning:
      'Proxies whose `X-Forwarded-*` headers are believed: addresses and CIDR ranges, comma-separated (docs/architecture.md, "The client address"); a bad entry stops the server at start',
  },
  SEED_DEMO: {
    schema: flag.optional(),
    default: '`true` on the embedded database, else `false`',
    meaning: 'Seed the demo accounts',
  },
  DEMO_PASSWORD: {
    schema: z.string().optional(),
    default: 'generated',
    meaning: 'Password of `demo@example.com` and `other@example.com`',
  },
  LOG_REQUESTS: {
    schema: flag.default(true),
    default: '`true`',
    meaning:
      'One JSON line per API request on stdout, in pino’s shape (request id, route, status, duration, account/key id, `cache: hit/miss` for cacheable reads; never a credential). A turn of the event loop’s lines go out in one write at its end: a process killed outright (SIGKILL, out of memory) loses that turn’s; any other exit writes them first',
  },
  RESPONSE_CACHE_MB: {
    schema: amount.default(64),
    default: '`64`',
    meaning:
      'Memory per app process for replayed API answers (docs/api-decisions.md, "Freshness and the response cache"); `0` turns the cache off',
  },
  RESEARCH_MAX_AGE_SECONDS: {
    schema: amount.default(300),
    default: '`300`',
    meaning:
      'How long the store’s answer for a researched term is shared by every caller; `0` asks the store at every call',
  },
  MCP_TASK_AFTER_MS: {
    schema: amount.default(2000),
    default: '`2000`',
    meaning:
      'How long an MCP tool call of a client that takes tasks (io.modelcontextprotocol/tasks) may run before it is answered as a task to poll instead; `0` makes every such call a task',
  },
  DATA_PROVIDER: {
    schema: z
      .enum(['demo', 'stores', 'appstore'], 'Must be demo or stores.')
      .optional()
      .transform((value) => (value === 'appstore' ? 'stores' : value)),
    default: '`demo` on the embedded database, else `stores`',
    meaning:
      '`demo` (deterministic generated data with history) or `stores` (what the App Store and Google Play show today; `appstore`, its former name, still selects it)',
  },
  ITUNES_ORIGIN: {
    schema: url.default('https://itunes.apple.com'),
    default: '`https://itunes.apple.com`',
    meaning: 'Where the `stores` provider asks Apple’s public endpoints (tests point it at recorded answers)',
  },
  APP_STORE_CONNECT_ORIGIN: {
    schema: url.default('https://api.appstoreconnect.apple.com'),
    default: '`https://api.appstoreconnect.apple.com`',
    meaning:
      'Where a connected App Store Connect account is asked (its reviews and responses; tests point it at a stand-in)',
  },
  GOOGLE_PLAY_DEVELOPER_API_ORIGIN: {
    schema: url.default('https://androidpublisher.googleapis.com'),
    default: '`https://androidpublisher.googleapis.com`',
    meaning:
      'Where a connected Google Play Console account is asked (its reviews and replies; the token is asked at its key’s `token_uri`)',
  },
  STORE_CALLS_PER_MINUTE_APP_STORE: {
    schema: integer(1, 6_000).default(20),
    default: '`20`',
    meaning:
      'Calls to Apple’s public endpoints per minute, shared by every process on the database (Apple allows about 20 per client address)',
  },
  STORE_CALLS_PER_MINUTE_GOOGLE_PLAY: {
    schema: integer(1, 6_000).default(60),
    default: '`60`',
    meaning: 'Calls to Google Play per minute, shared by every process on the database',
  },
  STORE_CONCURRENCY: {
    schema: integer(1, 32).default(2),
    default: '`2`',
    meaning: 'Calls in flight to one store at a time, per process',
  },
  STORE_TIMEOUT_SECONDS: {
    schema: integer(1, 120).default(10),
    default: '`10`',
    meaning: 'How long one call to a store may take before it counts as failed (and is retried)',
  },
  REFRESH_SPREAD_HOURS: {
    schema: amount.default(20),
    default: '`20`',
    meaning:
      'The daily refresh spreads the apps of each store over this many hours after `REFRESH_CRON` (`0`: all at once); a catch-up at start does not wait',
  },
  RANK_RETENTION_MONTHS: {
    schema: integer(13, 1_200).default(25),
    default: '`25`',
    meaning:
      'Months of ranks kept (app_ranks), this one included: older months are dropped whole, one partition each, by the daily store facts job',
  },
  SEARCH_ANSWER_RETENTION_MONTHS: {
    schema: integer(1, 1_200).default(13),
    default: '`13`',
    meaning:
      'Months of the stores’ search answers kept (search_answers), this one included: older months are dropped whole by the daily store facts job',
  },
  TRIAL_TIER: {
    schema: z
      .enum(
        ['off', 'solo', 'pro', 'business', 'agency', 'enterprise'],
        'Must be off or a paid tier (solo, pro, business, agency, enterprise).',
      )
      .default('solo'),
    default: '`solo`',
    meaning: 'The paid tier a new account (signed up from the dashboard) tries; `off`: new accounts start on Free',
  },
  TRIAL_DAYS: { schema: integer(1, 365).default(14), default: '`14`', meaning: 'How long a trial lasts' },
  TRIAL_CREDITS: {
    schema: integer(0).default(100),
    default: '`100`',
    meaning: 'The monthly credit allowance during a trial, in place of the tier’s',
  },
  SMTP_URL: {
    schema: z
      .string()
      .regex(
        /^smtps?:\/\/[^/]+/,
        'Must be an smtp:// or smtps:// URL, e.g. smtps://user:password@smtp.example.com:465.',
      )
      .optional(),
    default: 'unset',
    meaning:
      'Mail server for invitations (nodemailer), e.g. `smtps://user:password@smtp.example.com:465`. Unset: no mail is sent; the inviter copies the invitation link from the dashboard',
  },
  MAIL_FROM: {
    schema: z.string().min(3).optional(),
    default: '`ASO Analytics <no-reply@HOST>`, HOST the app origin’s',
    meaning: 'Sender of the mail the app sends',
  },
  STRIPE_SECRET_KEY: {
    schema: z
      .string()
      .regex(/^(sk|rk)_(test|live)_\w+$/, 'Must be a Stripe secret key (sk_test_…, sk_live_…, or a restricted rk_…).')
      .optional(),
    default: 'unset',
    meaning:
      'Stripe Billing (docs/billing.md). Unset: plans are managed by the operator (`npm run admin -- plan set`), and the plan page sends customers to `SALES_CONTACT`',
  },
  SALES_CONTACT: {
    schema: z
      .union([z.email(), z.url({ protocol: /^https$/ })], 'Must be an email address or an https:// URL.')
      .optional(),
    default: 'unset',
    meaning:
      'Without Stripe: where the plan page sends a customer who wants another plan, an email address (a prepared mail) or an https:// page. Unset: the page asks them to contact the team that runs the deployment',
  },
  STRIPE_WEBHOOK_SECRET: {
    schema: z.string().startsWith('whsec_', 'Must be a webhook signing secret (whsec_…).').optional(),
    default: 'unset',
    meaning: 'Signing secret of the Stripe webhook endpoint `/api/billing/stripe-webhook`',
  },
  STRIPE_PRICE_SOLO: {
    schema: z.string().startsWith('price_', 'Must be a Stripe price id (price_…).').optional(),
    default: 'unset',
    meaning: 'Monthly subscription price of Solo; a tier without a price is not offered for checkout',
  },
  STRIPE_PRICE_PRO: {
    schema: z.string().startsWith('price_', 'Must be a Stripe price id (price_…).').optional(),
    default: 'unset',
    meaning: 'The same, for Pro',
  },
  STRIPE_PRICE_BUSINESS: {
    schema: z.string().startsWith('price_', 'Must be a Stripe price id (price_…).').optional(),
    default: 'unset',
    meaning: 'The same, for Business',
  },
  STRIPE_PRICE_AGENCY: {
    schema: z.string().startsWith('price_', 'Must be a Stripe price id (price_…).').optional(),
    default: 'unset',
    meaning: 'The same, for Agency',
  },
  STRIPE_API_URL: {
    schema: url.optional(),
    default: 'Stripe’s',
    meaning:
      'Where the Stripe SDK sends its requests (its host, port and protocol): tests point it at a local stand-in',
  },
  REFRESH_CRON: {
    schema: z.string().default('15 0 * * *'),
    default: '`15 0 * * *`',
    meaning: 'When the daily refresh runs (UTC)',
  },
  JOB_POLL_SECONDS: {
    schema: amount.optional(),
    default: '`2` (refresh), `1` (webhook deliveries)',
    meaning: 'How often a worker polls the job queue for new jobs',
  },
  EXPORT_CLAIM_SECONDS: {
    schema: amount.optional(),
    default: '`60`',
    meaning:
      'How long an export’s claim lasts without being renewed (its worker renews it every twelfth of that): past it, the worker is taken for dead and another writes the export again from its first file',
  },
  EXPORT_STORAGE: {
    schema: z.enum(['postgres', 's3'], 'Must be postgres or s3.').default('postgres'),
    default: '`postgres`',
    meaning:
      'Where exports’ files are kept: `postgres`, in the app’s database (nothing else to run); `s3`, in the S3-compatible bucket `EXPORT_S3_BUCKET`',
  },
  EXPORT_S3_BUCKET: {
    schema: z.string().min(1).optional(),
    default: 'unset',
    meaning: 'With `EXPORT_STORAGE=s3`: the bucket exports’ files are written to',
  },
  EXPORT_S3_PREFIX: {
    schema: z.string().default('exports/'),
    default: '`exports/`',
    meaning: 'The start of every export file’s key in the bucket',
  },
  EXPORT_S3_REGION: {
    schema: z.string().min(1).default('us-east-1'),
    default: '`us-east-1`',
    meaning: 'The bucket’s region',
  },
  EXPORT_S3_ENDPOINT: {
    schema: url.optional(),
    default: 'AWS’s',
    meaning:
      'An S3-compatible service’s address (path-style requests), e.g. Cloudflare R2’s, MinIO’s or a local stand-in’s; unset: Amazon S3',
  },
  EXPORT_S3_ACCESS_KEY_ID: {
    schema: z.string().min(1).optional(),
    default: 'unset',
    meaning:
      'The bucket’s access key, with `EXPORT_S3_SECRET_ACCESS_KEY`; unset: the AWS SDK’s own chain (`AWS_ACCESS_KEY_ID`…, a profile, an instance’s role)',
  },
  EXPORT_S3_SECRET_ACCESS_KEY: {
    schema: z.string().min(1).optional(),
    default: 'unset',
    meaning: 'The secret of `EXPORT_S3_ACCESS_KEY_ID`',
  },
  SCHEDULER: {
    schema: flag.default(true),
    default: '`true`',
    meaning:
      '`false`: no background work in this process (no refresh schedule, backfills, webhook deliveries or trial ends; with the `demo` provider the refresh still runs at start): for web processes when `npm run worker` processes do the background work',
  },
  WEBHOOKS_ALLOW_HTTP_LOCALHOST: {
    schema: flag.default(false),
    default: '`false`',
    meaning: 'Development and tests only: allow `http://localhost` and loopback webhook destinations',
  },
  WEBHOOK_SLACK_HOSTS: {
    schema: list.default([]),
    default: 'none',
    meaning: 'Extra hosts (`host` or `host:port`) treated as Slack, e.g. a local test receiver',
  },
  WEBHOOK_DISCORD_HOSTS: {
    schema: list.default([]),
    default: 'none',
    meaning: 'Extra hosts (`host` or `host:port`) treated as Discord',
  },
} satisfies Record<string, { schema: z.ZodType; default: string; meaning: string }>;

export type VariableName = keyof typeof VARIABLES;
export type Config = { readonly [Name in VariableName]: z.output<(typeof VARIABLES)[Name]['schema']> };

let parsed: Config | undefined;

/** The configuration, parsed from the environment on first use. */
export function config(): Config {
  parsed ??= parseEnvironment(process.env);
  return parsed;
}

export function parseEnvironment(environment: Record<string, string | undefined>): Config {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, variable] of Object.entries(VARIABLES)) {
    const raw = environment[name]?.trim();
    const result = (variable.schema as z.ZodType).safeParse(raw ? raw : undefined);
    if (result.success) values[name] = result.data;
    else
      problems.push(`${name}=${JSON.stringify(raw)}: ${result.error.issues.map((issue) => issue.message).join(' ')}`);
  }
  if (problems.length) throw new Error(`Invalid configuration (README, "Configuration"):\n  ${problems.join('\n  ')}`);
  return values as Config;
}

/**
 * Sets variables for this process and the processes it starts (the launcher's database URL and generated secret;
 * what the `next` command sets before it loads Next.js), and reads the configuration again.
 */
export function exportToEnvironment(values: Partial<Record<VariableName | 'NODE_ENV' | 'NEXT_RUNTIME', string>>): void {
  Object.assign(process.env, values);
  parsed = undefined;
}

/** Tests: the environment changed; read it again on next use. */
export function resetConfig(): void {
  parsed = undefined;
}
