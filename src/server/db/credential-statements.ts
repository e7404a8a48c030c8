// The credential statement: the one database read of every public API request. Whatever the credential (an API key
// by the SHA-256 of its secret, an OAuth access token by the SHA-256 of its value with its connected app, or a live
// session of a signed-in user), one statement returns it with its account's plan (and trial), this month's credit
// usage and the versions of the data the response cache keys on (./data-versions.ts). The account, usage and version
// part is written once, here, for all of them. Keys and tokens, the credentials of programs under load, are read
// together with those of the process's other requests waiting meanwhile (batchedCredentialReads).
import type { MemberRole, PlanTier } from '@/generated/prisma/enums';
import { groupCommit } from '@/server/core/group-commit';
import { timeAt } from '@/server/core/clock';
import { hotQuery } from './index';
import { dataVersionColumns, dataVersionsOf, type DataVersionColumns, type DataVersions } from './data-versions';

/** What every credential's row carries besides its own columns. Times are JSON's (ISO 8601 text): see credentialRow. */
interface AccountColumns extends DataVersionColumns {
  account_id: string;
  /** The enum's database value, which is the PlanTier's own. */
  plan: PlanTier;
  trial_ends_at: string | null;
  trial_credits: number | null;
  /** The live account a test sandbox belongs to; null for a live account. */
  live_account_id: string | null;
  used: number | null;
  api_version: string | null;
}

export interface CredentialAccount {
  accountId: string;
  plan: PlanTier;
  trialEndsAt: Date | null;
  trialCredits: number | null;
  /** The live account a test sandbox belongs to; null for a live account: the credential's mode, as stored. */
  liveAccountId: string | null;
  /** Credits used this period: 0 before the period's first charge. */
  creditsUsed: number;
  versions: DataVersions;
  /** The account's pinned dated API version (a sandbox's, else its live account's); null: never pinned. */
  apiVersion: string | null;
}

/**
 * `source`: the credential's tables, aliased `c` for the one that names the account (`c.account_id`), with its own
 * select-list items and WHERE clause. `period` and `app` are the expressions of the period's first day and of the
 * app's id: $2 and $3 in a statement of one credential, whose $1 and what follows $3 are the source's parameters;
 * columns of the requests' list in a statement of the credentials of several requests (batchedCredentialStatement).
 *
 * The row comes back as one json column: node-postgres builds a parser and a row template for every column of every
 * result, and for this statement's twenty-odd columns that cost more of the request than reading one JSON text
 * (docs/benchmarks.md, "Issue 42").
 */
function credentialStatement(
  source: { columns?: string; from: string; where: string },
  { period, app } = { period: '$2', app: '$3' },
): string {
  return `SELECT row_to_json(credential) AS credential FROM (
     SELECT ${source.columns ? `${source.columns}, ` : ''}c.account_id::text AS account_id, a.plan::text AS plan,
            a.trial_ends_at, a.trial_credits, a.live_account_id::text AS live_account_id, u.used,
            COALESCE(a.api_version, (SELECT l.api_version FROM accounts l WHERE l.id = a.live_account_id)) AS api_version,
            ${dataVersionColumns({ app, usage: 'u' })}
     FROM ${source.from}
     JOIN accounts a ON a.id = c.account_id
     LEFT JOIN credit_usage u ON u.account_id = c.account_id AND u.period_start = ${period}::date
     WHERE ${source.where}) credential`;
}

/** The credential statement's row, if any. */
async function credentialRow<Row>(statement: string, values: unknown[]): Promise<Row | undefined> {
  const [row] = await hotQuery<{ credential: Row }>(statement, values);
  return row?.credential;
}

/** A timestamptz as row_to_json writes it (ISO 8601 with its offset). */
function timeOf(value: string | null): Date | null {
  return value === null ? null : timeAt(value);
}

/** A credential row of api_keys (a key, or a connected app) with what it spent this period. */
const KEY_COLUMNS = `c.id::text AS id, c.scope::text AS scope, c.revoked_at, c.expires_at, c.last_used_at, c.last_used_ip,
            c.all_apps, c.app_ids::text[] AS app_ids, c.allowed_cidrs, c.monthly_budget, ku.used AS key_spent,
            c.api_version AS key_api_version`;
const keySpent = (period: string) =>
  `LEFT JOIN key_credit_usage ku ON ku.key_id = c.id AND ku.period_start = ${period}::date`;

/**
 * A credential statement for the requests waiting (batchedCredentialReads): their credentials' hashes (of type
 * `hashType`), periods and apps as three arrays, a row for each credential found, numbered as it was asked for. `source`
 * names the request's hash `r.hash`.
 */
function batchedCredentialStatement(
  hashType: string,
  source: { columns: string; from: (period: string) => string; where: string },
): string {
  return `SELECT r.n::int AS n, k.credential
  FROM unnest($1::${hashType}[], $2::date[], $3::uuid[]) WITH ORDINALITY AS r(hash, period_start, app_id, n)
  CROSS JOIN LATERAL (${credentialStatement(
    { columns: source.columns, from: source.from('r.period_start'), where: source.where },
    { period: 'r.period_start', app: 'r.app_id' },
  )}) k`;
}

const API_KEY_STATEMENT = batchedCredentialStatement('bytea', {
  columns: KEY_COLUMNS,
  from: (period) => `api_keys c ${keySpent(period)}`,
  where: 'c.secret_hash = r.hash',
});

/** An OAuth access token (by the SHA-256 of its value, src/server/db/oauth-records.ts) and its connected app. */
const OAUTH_TOKEN_STATEMENT = batchedCredentialStatement('text', {
  columns: `${KEY_COLUMNS}, t.expires_at AS token_expires_at, t.payload->>'aud' AS audience, t.payload->>'scope' AS token_scope`,
  from: (period) =>
    `oauth_records t JOIN api_keys c ON c.oauth_grant_id = t.grant_id AND c.kind = 'oauth_grant' ${keySpent(period)}`,
  where: `t.kind = 'AccessToken' AND t.id_hash = r.hash AND t.consumed_at IS NULL`,
});

/** A live session, with its user's membership of the account it acts for: none once they were removed or left. */
const SESSION_STATEMENT = credentialStatement({
  columns: 'c.user_id::text AS user_id, c.role::text AS role',
  from: 'sessions s JOIN memberships c ON c.user_id = s.user_id AND c.account_id = s.account_id',
  where: 's.id = $1::uuid AND s.user_id = $4::uuid AND s.ended_at IS NULL',
});

/** A live account's test sandbox, by the live account's id: a session switched to test mode (src/server/auth/test-mode.ts). */
const SANDBOX_STATEMENT = credentialStatement({
  from: 'accounts c0 CROSS JOIN LATERAL (SELECT c0.id AS account_id, c0.live_account_id) c',
  where: 'c.live_account_id = $1::uuid',
});

function accountOf(row: AccountColumns): CredentialAccount {
  return {
    accountId: row.account_id,
    plan: row.plan,
    trialEndsAt: timeOf(row.trial_ends_at),
    trialCredits: row.trial_credits,
    liveAccountId: row.live_account_id,
    creditsUsed: row.used ?? 0,
    versions: dataVersionsOf(row),
    apiVersion: row.api_version,
  };
}

export interface ApiKeyRow {
  id: string;
  /** The enum's database value. */
  scope: string;
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
  /** null: every app of the account. */
  appIds: string[] | null;
  /** Empty: any address. */
  allowedCidrs: string[];
  monthlyBudget: number | null;
  /** Credits the key spent this period. */
  spent: number;
  /** The key's own dated API version; null: its account's. */
  apiVersion: string | null;
}

type KeyColumns = AccountColumns & {
  id: string;
  scope: string;
  revoked_at: string | null;
  expires_at: string | null;
  last_used_at: string | null;
  last_used_ip: string | null;
  all_apps: boolean;
  app_ids: string[] | null;
  allowed_cidrs: string[] | null;
  monthly_budget: number | null;
  key_spent: number | null;
  key_api_version: string | null;
};

function keyOf(row: KeyColumns): ApiKeyRow {
  return {
    id: row.id,
    scope: row.scope,
    revokedAt: timeOf(row.revoked_at),
    expiresAt: timeOf(row.expires_at),
    lastUsedAt: timeOf(row.last_used_at),
    lastUsedIp: row.last_used_ip,
    appIds: row.all_apps ? null : (row.app_ids ?? []),
    allowedCidrs: row.allowed_cidrs ?? [],
    monthlyBudget: row.monthly_budget,
    spent: row.key_spent ?? 0,
    apiVersion: row.key_api_version,
  };
}

/** A credential asked for by its hash, with the period and app its request names. */
interface CredentialAsk {
  hash: Buffer | string;
  periodStart: string;
  appId: string | null;
}

/** At most this many credentials in one statement: its arrays stay small, and so does what one failed read sends back. */
const MAX_READ_AT_ONCE = 64;

/**
 * Reads credentials of one kind with `statement` (batchedCredentialStatement), by group commit
 * (src/server/core/group-commit.ts): with those of this process's other requests that arrive while a statement is on
 * its way. Each is still read from the database after its request arrived, so a revocation committed before holds.
 */
function batchedCredentialReads<Row>(statement: string): (ask: CredentialAsk) => Promise<Row | null> {
  return groupCommit(async (asks: CredentialAsk[]) => {
    const rows = await hotQuery<{ n: number; credential: Row }>(statement, [
      asks.map((ask) => ask.hash),
      asks.map((ask) => ask.periodStart),
      asks.map((ask) => ask.appId),
    ]);
    const found = new Map(rows.map((row) => [row.n, row.credential]));
    return asks.map((_, index) => found.get(index + 1) ?? null);
  }, MAX_READ_AT_ONCE);
}

const readApiKeyRow = batchedCredentialReads<KeyColumns>(API_KEY_STATEMENT);

/** The key whose secret hashes to `secretHash`, whatever its status, with its account; null when there is none. */
export async function readApiKeyCredential(
  secretHash: Uint8Array,
  ask: { periodStart: string; appId: string | null },
): Promise<{ key: ApiKeyRow; account: CredentialAccount } | null> {
  const row = await readApiKeyRow({ hash: Buffer.from(secretHash), ...ask });
  return row ? { key: keyOf(row), account: accountOf(row) } : null;
}

export interface OAuthTokenRow {
  expiresAt: Date | null;
  /** The resource the token was issued for. */
  audience: string | null;
  /** The scopes granted to the token, space-separated. */
  scope: string | null;
}

type TokenColumns = KeyColumns & {
  token_expires_at: string | null;
  audience: string | null;
  token_scope: string | null;
};

const readOAuthTokenRow = batchedCredentialReads<TokenColumns>(OAUTH_TOKEN_STATEMENT);

/**
 * The access token whose value hashes to `tokenHash` (unused, whatever its expiry) with its connected app (whatever
 * its status) and that app's account; null when there is none, as after its grant was revoked.
 */
export async function readOAuthTokenCredential(
  tokenHash: string,
  ask: { periodStart: string; appId: string | null },
): Promise<{ token: OAuthTokenRow; key: ApiKeyRow; account: CredentialAccount } | null> {
  const row = await readOAuthTokenRow({ hash: tokenHash, ...ask });
  return row
    ? {
        token: { expiresAt: timeOf(row.token_expires_at), audience: row.audience, scope: row.token_scope },
        key: keyOf(row),
        account: accountOf(row),
      }
    : null;
}

/**
 * The user of a live (not ended) session, with the account it acts for and their role there; null when the session is
 * not live or not theirs, or the user is no longer a member of that account.
 */
export async function readSessionCredential(
  session: { sessionId: string; userId: string },
  { periodStart, appId }: { periodStart: string; appId: string | null },
): Promise<{ userId: string; role: MemberRole; account: CredentialAccount } | null> {
  const row = await credentialRow<AccountColumns & { user_id: string; role: MemberRole }>(SESSION_STATEMENT, [
    session.sessionId,
    periodStart,
    appId,
    session.userId,
  ]);
  return row ? { userId: row.user_id, role: row.role, account: accountOf(row) } : null;
}

/** The sandbox of a live account, with its plan, this period's usage and its data versions; null when it has none yet. */
export async function readSandboxCredential(
  liveAccountId: string,
  { periodStart, appId }: { periodStart: string; appId: string | null },
): Promise<CredentialAccount | null> {
  const row = await credentialRow<AccountColumns>(SANDBOX_STATEMENT, [liveAccountId, periodStart, appId]);
  return row ? accountOf(row) : null;
}
