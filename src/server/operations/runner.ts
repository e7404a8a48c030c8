// A call's steps, in one order for every channel:
//
//   credential → address → mode → version → authorize → trigger → idempotency → validation → rate → metering →
//   cache → procedure → record
//
// `admitCaller` takes the first four, once per HTTP request (an MCP request may list the tools and call none);
// `runOperation` the next eight, once per call of an operation; `recordCall` (./record.ts) the last, once the answer is
// out. The dashboard's calls (a session cookie, no credits) take the same steps less those `SKIPPED_STEPS` names:
// `admitSession` once per request, `runDashboardCall` once per call of a batch. The channels (src/server/rest/,
// src/server/mcp/, src/server/dashboard/) only translate: their request into what these take, the procedure's output
// into their answer (a Presenter), and what these throw into their refusal. What each step decides is the access
// policy's (src/server/services/access/access-policy.ts), from what the procedure's meta declares.
import type { Context, ProcedureMeta } from '@/server/api/trpc';
import type { DataFreshness } from '@/server/api/figures';
import type { Actor } from '@/server/auth/actor';
import { credentialRefused, type BearerReading } from '@/server/auth/bearer';
import { resolveCredential, type CredentialResult } from '@/server/auth/credentials';
import { cookieReaderOf } from '@/server/auth/cookies';
import { actorFromSessionCookie } from '@/server/auth/dashboard';
import { AppError } from '@/server/errors/app-error';
import { setRequestActor } from '@/server/core/request-context';
import {
  fieldErrorsFromIssues,
  unrepresentableTextIssues,
  validationError,
  type Locate,
} from '@/server/errors/validation';
import {
  admitClientAddress,
  admitDashboardCall,
  admitRequest,
  admitRole,
  admitTestModeHeader,
  appLookupOf,
  authorize,
  idempotent,
  metered,
  readTestTrigger,
  type AppLookup,
  type StoredAnswer,
} from '@/server/services/access/access-policy';
import { periodOf } from '@/server/services/metering/credits';
import { shapeForVersion } from '@/server/api/version-shapes';
import { askedVersion, VERSION_HEADER, type ApiVersion } from '@/server/domain/api-versions';
import type { MeteringState } from '@/server/services/metering/headers';
import { pageRequestOf, type PageRequest } from './paging';
import { answerCacheKey, cachedAnswer, freshUntilOf, rememberAnswer, type CachedAnswer } from './response-cache';
import { callProcedure, type Operation } from './routes';

/** A call's steps, in the order they run. */
type Step =
  | 'credential'
  | 'address'
  | 'mode'
  | 'version'
  | 'authorize'
  | 'trigger'
  | 'idempotency'
  | 'validation'
  | 'rate'
  | 'metering'
  | 'cache'
  | 'procedure'
  | 'record';

/**
 * The steps each channel's calls skip. The dashboard's caller is a signed-in member of the account, by the session
 * cookie: no key's client addresses to check, no dated version (its pages read the newest shapes), no test trigger (a
 * test key's), nothing charged (docs/api-decisions.md, "What the dashboard may do for free"), so no retried write to
 * replay and no answer to replay either: a page reads what is stored now. Its authorize step is the member's role alone (the dashboard serves every plan), its rate the
 * dashboard's per-user limit.
 */
export const SKIPPED_STEPS = {
  rest: [],
  mcp: [],
  dashboard: ['address', 'version', 'trigger', 'idempotency', 'metering', 'cache'],
} as const satisfies Record<CallTrace['channel'], readonly Step[]>;

/** A credential the credential step accepted, with what its statement read. */
type ValidCredential = CredentialResult & { status: 'valid' };

/** Who calls, once the credential step has accepted them. */
export interface Caller {
  actor: Actor;
  credential: ValidCredential;
  /** The account's credits, as read with the credential, then as the call's charge leaves them. */
  metering: MeteringState;
  /** What the credential's statement found of the app a cacheable read names, if it looked one up. */
  app: AppLookup | undefined;
  /** The dated API version the answers are shaped by: the request's `Aso-Version`, else the credential's. */
  version: ApiVersion;
}

/**
 * What one HTTP request learned on its way: filled by the steps as they pass, read by the channel for its answer's
 * headers and by `recordCall` for the log line. Never handed to a procedure.
 */
export interface CallTrace {
  channel: 'rest' | 'mcp' | 'dashboard';
  requestId: string;
  now: Date;
  /** The HTTP method. */
  method: string;
  /** The trusted client address (X-Forwarded-For's first). */
  clientAddress: string | null;
  /** Who calls, once the credential step has accepted them. */
  actor?: Actor;
  /** A Bearer credential's caller (REST, MCP): what its statement read, and the credits. */
  caller?: Caller;
  /** Whether the response cache replayed the answer. */
  cache?: 'hit' | 'miss';
  /**
   * A dashboard page's calls (its server components', src/server/dashboard/page-caller.ts) are one request of its
   * user's: the rate counts the first and lets the others of the same page through. /api/trpc counts each call.
   */
  pageRequest?: { counted: boolean };
}

export interface CallerRequest {
  bearer: BearerReading;
  /** The app a cacheable read names: the credential's statement reads its data version too. */
  appId: string | null;
  /** The X-Test-Mode header as sent. */
  testModeHeader: string | null;
  /** The Aso-Version header as sent. */
  versionHeader: string | null;
  /** The resource an OAuth access token must be issued for (the MCP server's URL); REST accepts none. */
  resource?: string;
  /** Where a refused credential's challenge points (RFC 9728 metadata, the MCP server's). */
  resourceMetadata?: string;
}

/** Credential, address, mode. The caller is on the trace from the moment the credential is valid. */
export async function admitCaller(trace: CallTrace, request: CallerRequest): Promise<Caller> {
  const { bearer, resourceMetadata } = request;
  if (bearer.kind === 'missing' || bearer.kind === 'malformed') throw credentialRefused(bearer.kind, resourceMetadata);
  const credential = await resolveCredential(bearer, {
    now: trace.now,
    ip: trace.clientAddress,
    appId: request.appId,
    resource: request.resource,
    testMode: request.testModeHeader === 'true',
  });
  if (credential.status !== 'valid') throw credentialRefused(credential.status, resourceMetadata);
  const { actor } = credential;
  setRequestActor(
    actor.kind === 'apiKey'
      ? { kind: 'apiKey', keyId: actor.keyId! }
      : { kind: 'user', userId: actor.userId!, via: 'api' },
  );
  // From here on every answer says where the account's credits stand.
  trace.actor = actor;
  const caller: Caller = (trace.caller = {
    actor,
    credential,
    metering: { limit: actor.creditLimit, used: credential.creditsUsed, cost: 0, period: periodOf(trace.now) },
    app: appLookupOf(request.appId, credential.versions),
    version: actor.apiVersion,
  });
  admitClientAddress(actor, trace.clientAddress);
  admitTestModeHeader(actor, request.testModeHeader);
  // A header sent empty names no version.
  const header = request.versionHeader?.trim() || null;
  caller.version = askedVersion(header, { in: 'header', name: VERSION_HEADER }) ?? actor.apiVersion;
  return caller;
}

/** The input of a call, as its channel received it. */
export interface CallInput {
  /** The input as the procedure takes it (REST: the query or the body, with the path's parameters over it). */
  input: Record<string, unknown>;
  /** A write's idempotency key (REST's Idempotency-Key header, MCP's argument), or null. */
  idempotencyKey: string | null;
  /** The request an idempotency key was first sent with must be the one it is sent with again. */
  requestHash: () => string;
}

/** What an answer says of itself beside its output, for the channel to put where its clients read it. */
export interface AnswerAbout {
  /** A data answer's: in its body when it is an object, noted by its procedure when it is a JSON array. */
  freshness: DataFreshness | null;
}

/** How a channel answers: the procedure's output, a replay from the response cache, or one of an idempotency key. */
export interface Presenter<Answer> {
  /** The output (a list cut to the page asked for), and its text and headers for the response cache. */
  present(
    operation: Operation,
    output: unknown,
    page: PageRequest | null,
    about: AnswerAbout,
  ): { answer: Answer; text: string; headers?: Record<string, string> };
  fromCache(cached: CachedAnswer): Answer;
  /** What an idempotency key keeps; `undefined` when the call failed. */
  toStored(answer: Answer | undefined): StoredAnswer;
  fromStored(stored: StoredAnswer): Answer;
}

export interface Call<Answer> {
  trace: CallTrace;
  caller: Caller;
  operation: Operation;
  /** Read once the caller may call the operation: a refusal on the plan or scope comes before one on the body. */
  readInput: () => Promise<CallInput> | CallInput;
  /** Where each member of the input was sent, for validation errors (REST's path, query or body); body by default. */
  locate?: Locate;
  /** The X-Test-Trigger header as sent. */
  triggerHeader: string | null;
  /** The call in the ledger and the key's request log: "GET /apps/{id}" on REST, "mcp apps_get" on the MCP server. */
  ledgerEndpoint: string;
  /** The answer's name in the response cache: what the call asks, as the channel spells it. */
  cacheName: (input: Record<string, unknown>) => string;
  presenter: Presenter<Answer>;
}

/** Authorize → trigger → idempotency → validation → rate → metering → cache → procedure. */
export async function runOperation<Answer>(call: Call<Answer>): Promise<{ answer: Answer; replayed: boolean }> {
  const { trace, caller, operation, presenter } = call;
  const { actor, credential, metering } = caller;
  authorize(actor, operation.meta);
  const trigger = readTestTrigger(actor, call.triggerHeader);
  const sent = await call.readInput();
  const outcome = await idempotent(
    actor,
    { key: sent.idempotencyKey, requestHash: sent.requestHash, now: trace.now },
    async () => {
      const valid = validInput(operation, sent.input, call.locate);
      await admitRequest(actor);
      const charged = {
        actor,
        access: operation.meta,
        operation: call.ledgerEndpoint,
        input: valid.input,
        metering,
        requestId: trace.requestId,
        now: trace.now,
        trigger,
        app: caller.app,
      };
      return metered(charged, async () => {
        // An answer computed from the same data is replayed, and charged as a computed one.
        // The version is part of what is asked: its answer is shaped by it.
        const cacheKey = answerCacheKey(
          operation.meta,
          credential,
          trace.now,
          `${caller.version} ${call.cacheName(valid.input)}`,
        );
        const cached = cacheKey === null ? undefined : cachedAnswer(cacheKey);
        if (cacheKey !== null) trace.cache = cached ? 'hit' : 'miss';
        if (cached) return presenter.fromCache(cached);
        const context: Context = {
          actor,
          transport: trace.channel,
          requestId: trace.requestId,
          clientIp: trace.clientAddress,
          now: trace.now,
          creditsUsed: credential.creditsUsed,
          steps: 'taken',
          answerNotes: {},
          testTrigger: trigger?.kind,
        };
        const output = shapeForVersion(
          operation.procedurePath,
          await callProcedure(operation, context, valid.input),
          caller.version,
        );
        const presented = presenter.present(operation, output, valid.page, {
          freshness: context.answerNotes?.freshness ?? freshnessIn(output),
        });
        if (cacheKey !== null)
          rememberAnswer(cacheKey, presented.text, {
            freshUntil: freshUntilOf(operation.meta, output),
            headers: presented.headers,
          });
        return presented.answer;
      });
    },
    presenter.toStored,
  );
  return 'replay' in outcome
    ? { answer: presenter.fromStored(outcome.replay), replayed: true }
    : { answer: outcome.result, replayed: false };
}

/** The freshness an object answer carries in its body, if it is a data answer. */
function freshnessIn(output: unknown): DataFreshness | null {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return null;
  return (output as { freshness?: DataFreshness }).freshness ?? null;
}

/** Text a database cannot store (NUL, an unpaired surrogate), anywhere in the input, is refused with its place. */
function refuseUnstorableText(input: unknown, locate?: Locate): void {
  const unrepresentable = unrepresentableTextIssues(input);
  if (unrepresentable.length) throw validationError(fieldErrorsFromIssues(unrepresentable, locate));
}

/**
 * The input must be text a database can store, then pass the procedure's own schema; a list the channel pages also
 * has its paging members checked, before anything is charged. A failure names each member and where it was sent.
 */
function validInput(
  operation: Operation,
  input: Record<string, unknown>,
  locate?: Locate,
): { input: Record<string, unknown>; page: PageRequest | null } {
  refuseUnstorableText(input, locate);
  const parsed = operation.input.safeParse(input);
  const errors = parsed.success ? [] : fieldErrorsFromIssues(parsed.error.issues, locate);
  const paging = operation.pagedList ? pageRequestOf(input, locate) : { page: null, errors: [] };
  if (errors.length || paging.errors.length) throw validationError([...errors, ...paging.errors]);
  // The procedure parses the same input again: a schema's transforms need not accept their own output.
  return { input, page: paging.page };
}

// ---- The dashboard --------------------------------------------------------------------------------------------------

/** What the dashboard's credential step reads of a request. */
export interface SessionRequest {
  /** The Cookie header as sent. */
  cookie: string | null;
  /** Whether a browser says the request is a write sent from another site (auth/cross-site.ts). */
  crossSiteWrite: boolean;
  /** 'switch': the dashboard's test-mode switch applies; 'live': the live account whatever it says (OAuth consent). */
  mode?: 'switch' | 'live';
}

/**
 * Credential and mode for the dashboard: the session cookie's user, on the sandbox when the test-mode switch is on.
 * No one signed in is a caller too (sign-up, an invitation's page); the procedure's kind refuses what needs someone. A
 * write another site sent is refused before the cookie is read: a browser adds the cookie to it without its user.
 */
export async function admitSession(trace: CallTrace, request: SessionRequest): Promise<Actor | null> {
  if (request.crossSiteWrite)
    throw new AppError('INSUFFICIENT_SCOPE', 'Cross-site requests to the dashboard API are refused.');
  const actor = await actorFromSessionCookie(cookieReaderOf(request.cookie), { mode: request.mode });
  if (actor) {
    trace.actor = actor;
    if (actor.userId) setRequestActor({ kind: 'user', userId: actor.userId, via: 'dashboard' });
  }
  return actor;
}

/**
 * A dashboard call's steps before its procedure, for each call of a batch: authorize (the member's role), validation
 * (text a database can store; tRPC parses the procedure's schema next), rate (the user's, or the address's before
 * sign-in). The procedure is tRPC's own call, next.
 */
export async function runDashboardCall(
  trace: CallTrace,
  call: { access: ProcedureMeta | undefined; input: unknown },
): Promise<void> {
  if (trace.actor) admitRole(trace.actor, call.access);
  refuseUnstorableText(call.input);
  if (trace.pageRequest?.counted) return;
  await admitDashboardCall(trace.actor ?? null, trace.clientAddress);
  if (trace.pageRequest) trace.pageRequest.counted = true;
}
