// Who may do what, decided in one place for every channel: the public REST API and the MCP server (both through the
// runner of a call's steps, src/server/operations/runner.ts), and the dashboard's tRPC procedures
// (src/server/api/trpc.ts). A call of an operation by an actor: the plan, the scope, the key's restrictions (apps,
// client addresses, monthly budget), the request rate, the credits (charged and refunded) and idempotency. What an
// operation needs is declared once, in its procedure's `.meta()` (`OperationAccess`); a channel only reads the
// credential, the operation and its input, then asks this module in CONTRACT's order:
//
//   admitClientAddress → authorize → idempotent(…) → admitRequest → metered(test trigger, reachApp, then the work)
//
// A test key (test mode, CONTRACT "Test mode") goes through the same steps on its sandbox's account; it may also ask
// for any error a client must handle (`readTestTrigger`, X-Test-Trigger), answered as the live error is.
//
// The dashboard uses the parts that apply to a signed-in user: `admitDashboardCall`, `settingsActor`, `dashboardServes`
// (which procedures its endpoint has at all), and `appsWithinReach` through the procedures themselves.
import type { Actor } from '@/server/auth/actor';
import { AppError, rateLimited } from '@/server/errors/app-error';
import { PLANS } from '@/server/services/accounts/plans';
import { addressAllowed, appAllowed } from '@/server/services/api-keys/restrictions';
import { APP_NOT_FOUND } from '@/server/services/apps/apps';
import { claimIdempotencyKey, settleIdempotencyKey } from '@/server/services/idempotency/idempotency-keys';
import { chargeCredits, creditsUsed, keyCreditsSpent, refundCharge } from '@/server/services/metering/credits';
import type { MeteringState } from '@/server/services/metering/headers';
import { consumeDashboardCall, consumeRequest } from '@/server/services/limits/request-rates';
import { storeUnavailable } from '@/server/services/ingest/providers';
import { roleAllows, roleRefusal, type Permission } from './roles';

/**
 * What a credential needs for an operation: 'read' (every key), 'write' (a read-write key), 'admin' (account settings:
 * keys and webhook endpoints; a session token of the account in v1, never an API key; a future `admin` scope of keys
 * would be the way a key gains it).
 */
type RequiredScope = 'read' | 'write' | 'admin';

/** What an operation declares of its access, in its procedure's meta (a type, not an interface: tRPC's meta is a record). */
export type OperationAccess = {
  scope?: RequiredScope;
  /** Credits a successful call costs (CONTRACT "Credits"); none: free. */
  credits?: number;
  /** The input member that holds the id of the app the operation is about: a key restricted to some apps must reach it. */
  appInput?: string;
  /** The operation adds an app to the account: a key restricted to some apps may not (the new app would be out of its reach). */
  addsApp?: boolean;
  /**
   * On the public API (REST and MCP) only, never with the dashboard's cookie: what costs a store request per call (live
   * keyword research, which the dashboard's Research page calls over REST, charged) and the views without a screen
   * (docs/api-decisions.md, "What the dashboard may do for free").
   */
  apiOnly?: boolean;
  /** What a member's role must allow (./roles.ts); none: the one the scope implies (permissionOf). */
  permission?: Permission;
};

/**
 * The permission an operation needs of a member: its own, or the one its scope implies (a read reads the data, a
 * write changes it). A settings operation (scope 'admin') always names its own.
 */
export function permissionOf(access: OperationAccess | undefined): Permission {
  if (access?.permission) return access.permission;
  return access?.scope === 'write' ? 'data.write' : 'data.read';
}

/**
 * A signed-in member's role against what the operation needs, on every channel: the dashboard, and a session token on
 * the public API. Keys and connected apps have no role: their scope and restrictions govern them.
 */
export function admitRole(actor: Actor, access: OperationAccess | undefined): void {
  const refusal = roleRefusalOf(actor, access);
  if (refusal) throw refusal;
}

function roleRefusalOf(actor: Actor, access: OperationAccess | undefined): AppError | null {
  if (!actor.role) return null;
  const permission = permissionOf(access);
  return roleAllows(actor.role, permission)
    ? null
    : new AppError('INSUFFICIENT_SCOPE', roleRefusal(actor.role, permission));
}

// ---- Before the operation is known or acted on --------------------------------------------------------------------

/** A key's client addresses, checked as soon as the credential is known: before anything is counted or charged. */
export function admitClientAddress(actor: Actor, address: string | null): void {
  const allowed = actor.restrictions?.allowedCidrs;
  if (!allowed || addressAllowed(allowed, address)) return;
  const from = address ?? 'an unknown address';
  throw new AppError(
    'IP_NOT_ALLOWED',
    `This key accepts calls from ${allowed.join(', ')} only; this call came from ${from}. Nothing was charged.`,
    {
      extras: { clientAddress: address ?? '', allowedCidrs: allowed },
    },
  );
}

/** The bearer challenge of a key whose scope is short of an operation's. */
const INSUFFICIENT_SCOPE_CHALLENGE = 'Bearer error="insufficient_scope", scope="write"';

/** Why an API key is refused by the settings operations. */
const KEYS_MANAGE_NOTHING =
  'API keys cannot manage keys or webhook endpoints: call this endpoint with a session token of the account (a leaked key must never mint a new one). A future `admin` scope of keys would be the way to allow it.';

/** Why an API key or an agent is refused the approval of a reply: a person approves what is sent to a store. */
const KEYS_APPROVE_NOTHING =
  'API keys and connected apps draft replies to reviews, never approve them: a member whose role allows it approves each one in the dashboard (Reviews), or with a session token, before it is sent to the store.';

/**
 * The plan, then the scope: a public API call needs a plan with API access; a settings operation a session of the
 * account (no key manages keys); a write a read-write key; adding an app a key that reaches every app.
 */
export function authorize(actor: Actor, access: OperationAccess): void {
  if (!PLANS[actor.plan].apiAccess)
    throw new AppError(
      'PLAN_REQUIRED',
      'API access needs a paid plan; this account is on the Free tier. Choose a plan under Settings → Plan & billing.',
    );
  const refusal = scopeRefusal(actor, access);
  if (refusal) throw refusal;
}

/** Whether the actor's scope lets it call the operation at all (a channel lists only those): `authorize`'s own rule. */
export function scopeAllows(actor: Actor, access: OperationAccess): boolean {
  return scopeRefusal(actor, access) === null;
}

function scopeRefusal(actor: Actor, access: OperationAccess): AppError | null {
  const role = roleRefusalOf(actor, access);
  if (role) return role;
  if (access.scope === 'admin' && actor.kind === 'apiKey') {
    const detail = access.permission === 'replies.approve' ? KEYS_APPROVE_NOTHING : KEYS_MANAGE_NOTHING;
    return new AppError('INSUFFICIENT_SCOPE', detail, {
      headers: { 'WWW-Authenticate': 'Bearer error="insufficient_scope", scope="admin"' },
    });
  }
  if (access.scope === 'write' && actor.scope === 'read-only') {
    return new AppError(
      'INSUFFICIENT_SCOPE',
      'This endpoint writes data and needs a read-write key; this key is read-only.',
      { headers: { 'WWW-Authenticate': INSUFFICIENT_SCOPE_CHALLENGE } },
    );
  }
  if (access.addsApp && actor.restrictions?.appIds) {
    return new AppError(
      'INSUFFICIENT_SCOPE',
      'This key is restricted to chosen apps and cannot add one; add apps with a key that reaches all apps, or from the dashboard.',
      {
        headers: { 'WWW-Authenticate': INSUFFICIENT_SCOPE_CHALLENGE },
      },
    );
  }
  return null;
}

// ---- Idempotency ---------------------------------------------------------------------------------------------------

/** An answer as the idempotency store keeps it. */
export interface StoredAnswer {
  status: number;
  body: string;
}

/**
 * A write sent with an Idempotency-Key: the answer kept for the same key and request is replayed; another request
 * under the same key is a conflict (409); otherwise `work` runs and its answer is kept, whatever happens, so that a
 * key is never left claimed. No key: `work` runs as it is.
 */
export async function idempotent<T>(
  actor: Actor,
  call: { key: string | null; requestHash: () => string; now: Date },
  work: () => Promise<T>,
  kept: (result: T | undefined) => StoredAnswer,
): Promise<{ replay: StoredAnswer } | { result: T }> {
  if (call.key === null) return { result: await work() };
  const claim = await claimIdempotencyKey(actor.accountId, call.key, call.requestHash(), call.now);
  if (claim.kind === 'replay') return { replay: { status: claim.status, body: claim.body } };
  let result: T | undefined;
  try {
    result = await work();
    return { result };
  } finally {
    const answer = kept(result);
    await settleIdempotencyKey(actor.accountId, call.key, answer.status, answer.body);
  }
}

// ---- Rate ------------------------------------------------------------------------------------------------------------

/** The public API's request rate: per key, or per user for a session token, at the plan's requests a minute. */
export async function admitRequest(actor: Actor): Promise<void> {
  const decision = await consumeRequest(actor.plan, actor.keyId ?? `user:${actor.userId}`);
  if (!decision.allowed)
    throw rateLimited(
      `Too many requests for this key; retry in ${decision.retryAfterSeconds} s.`,
      decision.retryAfterSeconds,
    );
}

/** The dashboard's calls: per signed-in user, or per client address before sign-in. */
export async function admitDashboardCall(actor: Actor | null, clientAddress: string | null): Promise<void> {
  const decision = await consumeDashboardCall(
    actor?.userId ? `user:${actor.userId}` : `address:${clientAddress ?? 'unknown'}`,
  );
  if (!decision.allowed)
    throw rateLimited(
      `Too many dashboard requests; retry in ${decision.retryAfterSeconds} s.`,
      decision.retryAfterSeconds,
    );
}

// ---- Apps within a key's reach -------------------------------------------------------------------------------------

/**
 * What the credential's statement found of the app a call names (src/server/db/credential-statements.ts reads the data
 * version of the app a cached read is about): whether the account tracks it.
 */
export interface AppLookup {
  id: string;
  tracked: boolean;
}

/** The lookup of `appId` in a credential's data versions (`versions.app` is null when the account has no such app). */
export function appLookupOf(appId: string | null, versions: { app: string | null }): AppLookup | undefined {
  return appId === null ? undefined : { id: appId, tracked: versions.app !== null };
}

/**
 * The app the input names is within the key's reach. One out of it is answered as an app of another account is
 * (404), where the operation would have answered it: after every check and, for a write, its charge and refund. An
 * app the credential's statement found the account does not track is answered so here too, as the operation's own
 * lookup would (every per-app operation starts with it, src/server/services/aso/app-context.ts), without running it.
 */
export function reachApp(actor: Actor, access: OperationAccess, input: unknown, lookup?: AppLookup): void {
  if (access.appInput === undefined) return;
  const id = (input as Record<string, unknown> | undefined)?.[access.appInput];
  if (lookup && !lookup.tracked && id === lookup.id) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
  const appIds = actor.restrictions?.appIds ?? null;
  if (appIds === null) return;
  if (typeof id !== 'string' || !appAllowed(appIds, id)) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
}

/** The apps of a list that the actor reaches: all of them, or a restricted key's own. */
export function appsWithinReach<T extends { id: string }>(actor: Actor, apps: T[]): T[] {
  const appIds = actor.restrictions?.appIds ?? null;
  return appIds === null ? apps : apps.filter((app) => appAllowed(appIds, app.id));
}

// ---- Credits ---------------------------------------------------------------------------------------------------------

export interface MeteredCall {
  actor: Actor;
  access: OperationAccess;
  /** The ledger's name of the operation: "GET /apps/{id}" on REST, "mcp apps_get" on the MCP server. */
  operation: string;
  /** The operation's input, as validated: the app it names is checked against the key's reach. */
  input: unknown;
  /** The account's credits, as read with the credential; updated with what this call charges. */
  metering: MeteringState;
  requestId: string;
  now: Date;
  /** A test key's X-Test-Trigger (`readTestTrigger`), acted on before anything is charged. */
  trigger?: TestTrigger | null;
  /** What the credential's statement found of the app the input names (`appLookupOf`), if it looked one up. */
  app?: AppLookup;
}

/**
 * The operation's declared cost, around `work`, after the app's reach. A read is charged once it has succeeded (one
 * statement; a failed read costs nothing). A write is charged before it runs, so that a success is never left
 * uncharged, and refunded if it then fails. Both refuse a call the allowance or the key's budget cannot pay, before
 * anything runs.
 */
export async function metered<T>(call: MeteredCall, work: () => Promise<T>): Promise<T> {
  const { actor, access, metering } = call;
  const cost = access.credits ?? 0;
  if (call.trigger) await pullTrigger(call.trigger, call, cost);
  if (cost === 0) {
    reachApp(actor, access, call.input, call.app);
    return work();
  }
  if (metering.limit !== null && metering.limit - metering.used < cost) throw creditsExhausted(metering, cost);
  const budget = actor.restrictions?.monthlyBudget ?? null;
  if (budget !== null && budget - (actor.keySpent ?? 0) < cost)
    throw keyBudgetExhausted(budget, actor.keySpent ?? 0, cost, metering);
  const charge = async () => {
    const outcome = await chargeCredits({
      accountId: actor.accountId,
      keyId: actor.keyId ?? null,
      keyBudget: budget,
      userId: actor.kind === 'session' ? (actor.userId ?? null) : null,
      endpoint: call.operation,
      cost,
      requestId: call.requestId,
      limit: metering.limit,
      now: call.now,
    });
    if (!outcome.charged && outcome.refused === 'key_budget')
      throw keyBudgetExhausted(budget!, await keyCreditsSpent(actor.keyId!, call.now), cost, metering);
    if (!outcome.charged) {
      metering.used = await creditsUsed(actor.accountId, call.now);
      throw creditsExhausted(metering, cost);
    }
    metering.used = outcome.used;
    metering.cost = cost;
  };
  if (access.scope !== 'write') {
    reachApp(actor, access, call.input, call.app);
    const result = await work();
    await charge();
    return result;
  }
  await charge();
  try {
    reachApp(actor, access, call.input, call.app);
    return await work();
  } catch (error) {
    await refundCharge(actor.accountId, call.requestId);
    metering.used -= cost;
    metering.cost = 0;
    throw error;
  }
}

function keyBudgetExhausted(budget: number, spent: number, cost: number, metering: MeteringState): AppError {
  const resetsAt = metering.period.end.toISOString();
  const left = Math.max(0, budget - spent);
  return new AppError(
    'KEY_BUDGET_EXHAUSTED',
    `This call costs ${cost} credits and this key has ${left} left of its monthly budget of ${budget}; the budget resets at ${resetsAt}. The account’s other keys are not affected.`,
    { extras: { keyBudget: budget, keySpent: spent, creditsRequired: cost, resetsAt } },
  );
}

function creditsExhausted(metering: MeteringState, cost: number): AppError {
  const remaining = metering.limit === null ? 0 : Math.max(0, metering.limit - metering.used);
  const resetsAt = metering.period.end.toISOString();
  return new AppError(
    'CREDITS_EXHAUSTED',
    `This call costs ${cost} credits and ${remaining} remain this month; the allowance resets at ${resetsAt}.`,
    {
      extras: { creditsRequired: cost, creditsRemaining: remaining, resetsAt },
    },
  );
}

// ---- Test mode: errors on demand -------------------------------------------------------------------------------------

/** The request header that asks a test key's call for an error (docs/test-mode.md). */
const TEST_TRIGGER_HEADER = 'X-Test-Trigger';
/** The header of every answer in test mode, and the request header that puts a session token's call in it. */
export const TEST_MODE_HEADER = 'X-Test-Mode';

const TEST_TRIGGERS = [
  'credits-exhausted',
  'key-budget-exhausted',
  'rate-limited',
  'store-unavailable',
  'validation-error',
  'not-found',
  'slow',
  // What a simulated store does with a reply draft's sending: chosen by the draft's call, answered as usual.
  'review-deleted',
  'reply-refused',
  'credential-revoked',
] as const;
export type TestTrigger =
  | { kind: Exclude<(typeof TEST_TRIGGERS)[number], 'slow'> }
  | { kind: 'slow'; milliseconds: number };

/** How long `slow` holds the answer, unless it says (`slow=<milliseconds>`, up to the most). */
const SLOW_TRIGGER_MS = { default: 5_000, most: 30_000 } as const;
/** The Retry-After of a triggered 429: short, so that a client's retry is quick to exercise. */
const TRIGGERED_RETRY_AFTER_SECONDS = 1;

/** Whether the actor is in test mode: a test key, or a session switched to its sandbox. */
export function inTestMode(actor: Actor): boolean {
  return actor.mode === 'test';
}

/**
 * A call's X-Test-Mode: `true` puts a session token's call on its sandbox (done as the credential is read); a test
 * key may send it too. Any other value, or `true` with a live key (whose mode is its own), is refused (400) rather than
 * answered in live mode, which would charge live credits to a client that believes it is testing.
 */
export function admitTestModeHeader(actor: Actor, value: string | null): void {
  // Empty is not sent (a client's template left blank, as the Postman collection's {{testMode}} in live mode).
  if (value === null || value === '' || (value === 'true' && inTestMode(actor))) return;
  const detail =
    value === 'true'
      ? `${TEST_MODE_HEADER}: true needs a test key (svc_test_…) or a session token; this key is a live key. Nothing was charged.`
      : `${TEST_MODE_HEADER} takes the value true only.`;
  throw new AppError('VALIDATION_ERROR', detail, { errors: [{ in: 'header', name: TEST_MODE_HEADER, detail }] });
}

/**
 * A call's X-Test-Trigger: none, or what it asks for. A live credential with one is refused (400): the trigger would
 * otherwise be ignored, and a client that believes it is testing would be charged live credits.
 */
export function readTestTrigger(actor: Actor, value: string | null): TestTrigger | null {
  if (value === null) return null;
  const refuse = (detail: string) =>
    new AppError('VALIDATION_ERROR', detail, { errors: [{ in: 'header', name: TEST_TRIGGER_HEADER, detail }] });
  if (!inTestMode(actor))
    throw refuse(
      `${TEST_TRIGGER_HEADER} works with a test key (svc_test_…) only; this call is in live mode. Nothing was charged.`,
    );
  const [kind, argument] = value.trim().split('=', 2) as [string, string | undefined];
  if (kind === 'slow') {
    const milliseconds = argument === undefined ? SLOW_TRIGGER_MS.default : Number(argument);
    if (!Number.isInteger(milliseconds) || milliseconds < 0 || milliseconds > SLOW_TRIGGER_MS.most)
      throw refuse(`slow=<milliseconds> takes a whole number from 0 to ${SLOW_TRIGGER_MS.most}.`);
    return { kind: 'slow', milliseconds };
  }
  if (argument !== undefined || !(TEST_TRIGGERS as readonly string[]).includes(kind))
    throw refuse(
      `Unknown trigger "${value.slice(0, 100)}"; one of ${TEST_TRIGGERS.join(', ')} (slow=<milliseconds> too).`,
    );
  return { kind: kind as Exclude<(typeof TEST_TRIGGERS)[number], 'slow'> };
}

/** The error a trigger asks for, as the live error is made (the credit headers as they would then read); or the wait. */
async function pullTrigger(trigger: TestTrigger, call: MeteredCall, cost: number): Promise<void> {
  const { metering, actor } = call;
  const because = `(asked for by ${TEST_TRIGGER_HEADER}: test mode)`;
  switch (trigger.kind) {
    case 'slow':
      await new Promise((resolve) => setTimeout(resolve, trigger.milliseconds));
      return;
    case 'credits-exhausted':
      if (metering.limit !== null) metering.used = Math.max(metering.used, metering.limit);
      throw creditsExhausted(metering, Math.max(cost, 1));
    case 'key-budget-exhausted': {
      // A key without a budget answers as one whose budget was this call's cost, spent: a budget is at least 1.
      const budget = actor.restrictions?.monthlyBudget ?? Math.max(cost, 1);
      throw keyBudgetExhausted(budget, budget, Math.max(cost, 1), metering);
    }
    case 'rate-limited':
      throw rateLimited(
        `Too many requests for this key; retry in ${TRIGGERED_RETRY_AFTER_SECONDS} s ${because}.`,
        TRIGGERED_RETRY_AFTER_SECONDS,
      );
    case 'store-unavailable':
      throw storeUnavailable('app_store', `the store did not answer ${because}.`);
    case 'validation-error': {
      const detail = `This value is not valid ${because}.`;
      throw new AppError('VALIDATION_ERROR', detail, { errors: [{ in: 'header', name: TEST_TRIGGER_HEADER, detail }] });
    }
    case 'not-found':
      throw new AppError('NOT_FOUND', `${APP_NOT_FOUND} ${because}`);
    case 'review-deleted':
    case 'reply-refused':
    case 'credential-revoked':
      // The sending's outcome: the draft's procedure keeps it for the simulated store (the call itself succeeds).
      return;
  }
}

// ---- The dashboard ---------------------------------------------------------------------------------------------------

/**
 * The actor of a settings operation (keys, webhook endpoints, the security log): a signed-in user of the account, with
 * the dashboard's cookie or a session token. Never an API key: a leaked key must not mint keys.
 */
export function settingsActor(actor: Actor | null): Actor & { userId: string } {
  if (actor?.kind === 'apiKey') throw new AppError('INSUFFICIENT_SCOPE', KEYS_MANAGE_NOTHING);
  if (actor?.kind !== 'session' || !actor.userId)
    throw new AppError('UNAUTHORIZED', 'Sign in, or call with a session token.');
  return actor as Actor & { userId: string };
}

/** Whether the dashboard serves the operation at all: an API-only one is not there (404, as an unknown procedure). */
export function dashboardServes(access: OperationAccess | undefined): boolean {
  return !access?.apiOnly;
}
