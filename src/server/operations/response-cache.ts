// The public API's response cache. The answer of a GET endpoint declared `cache` (ProcedureMeta) is kept in memory,
// per app process, under a key made of the account, the versions of the data it is read from, the UTC day and the
// URL (and the plan, for usage); an answer from a live source (research) is also dropped when it stops being live.
// The versions are moved by the database itself on every write, whichever code writes (migrations
// response_cache_versions and usage_report_version), and are read by the credential's statement
// (src/server/db/data-versions.ts): a hit costs no round trip of its own and can never answer from older data than a
// miss would, in any process. A replayed answer
// is metered exactly like a computed one (rate limit, credits, ledger row): only the reads behind it are saved.
// Least recently used answers go first once RESPONSE_CACHE_MB (default 64; 0 turns the cache off) is reached.
import { LRUCache } from 'lru-cache';
import { appIdParam } from '@/server/api/schemas';
import type { ProcedureMeta, ResponseCacheScope } from '@/server/api/trpc';
import type { CredentialResult } from '@/server/auth/credentials';
import type { PlanTier } from '@/generated/prisma/enums';
import type { DataVersions } from '@/server/db/data-versions';
import { isoDay } from '@/server/core/dates';
import { epochMs } from '@/server/core/clock';
import { config } from '@/server/core/config';

/** A kept answer: its body as UTF-8 bytes, and the headers it is sent with beyond the metering ones (paging). */
export interface CachedAnswer {
  body: Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
}

let cache: LRUCache<string, CachedAnswer> | null | undefined;

/** The cache's size as RESPONSE_CACHE_MB sets it (default 64); 0 when it is off. */
export function responseCacheMegabytes(): number {
  return config().RESPONSE_CACHE_MB;
}

function answers(): LRUCache<string, CachedAnswer> | null {
  if (cache === undefined) {
    const maxSize = Math.floor(responseCacheMegabytes() * 1024 * 1024);
    cache =
      maxSize > 0
        ? new LRUCache<string, CachedAnswer>({
            maxSize,
            // One answer may take at most an eighth of the cache: a few huge answers must not evict everything else.
            maxEntrySize: Math.ceil(maxSize / 8),
            sizeCalculation: (answer, key) =>
              answer.body.byteLength +
              key.length * 2 +
              (answer.headers ? JSON.stringify(answer.headers).length * 2 : 0),
            // The wall clock, which a live answer's end is given in (and tests can move).
            perf: { now: epochMs },
            // Read at every check (a clock read costs nothing next to a request), not cached for a millisecond.
            ttlResolution: 0,
          })
        : null;
  }
  return cache;
}

/**
 * The key of an answer, or null when it must not be cached: the app asked about is not the account's (the request
 * will be answered 404), or the cache is off.
 */
function responseCacheKey(
  scope: ResponseCacheScope,
  request: {
    accountId: string;
    /** A credential whose answers differ from the account's others (a key restricted to some apps); null: none. */
    viewer: string | null;
    plan: PlanTier;
    creditLimit: number | null;
    trialEndsAt: Date | null;
    versions: DataVersions;
    now: Date;
    pathAndQuery: string;
  },
): string | null {
  if (!answers()) return null;
  const { versions } = request;
  if (scope === 'app' && versions.app === null) return null;
  // Only the versions the answer is read from: a charge does not drop the answers about apps, nor a write the usage.
  const read =
    scope === 'usage'
      ? [request.plan, request.creditLimit ?? 'unlimited', request.trialEndsAt?.getTime() ?? 'no-trial', versions.usage]
      : [versions.account, versions.store, scope === 'app' ? versions.app : '-'];
  // A URL has no space once parsed (it is percent-encoded), so the parts cannot run into each other; the URL is that
  // of one route, so keys of different scopes cannot meet.
  return [request.accountId, request.viewer ?? '*', ...read, isoDay(request.now), request.pathAndQuery].join(' ');
}

export function cachedAnswer(key: string): CachedAnswer | undefined {
  return answers()?.get(key);
}

const encoder = new TextEncoder();

/** Kept as UTF-8 bytes: a replay sends them as they are. `freshUntil`: when a live answer must no longer be replayed. */
export function rememberAnswer(
  key: string,
  body: string,
  options: { freshUntil?: Date; headers?: Record<string, string> } = {},
): void {
  const cache = answers();
  if (!cache) return;
  const answer: CachedAnswer = { body: encoder.encode(body), ...(options.headers && { headers: options.headers }) };
  if (options.freshUntil === undefined) {
    cache.set(key, answer);
    return;
  }
  const ttl = options.freshUntil.getTime() - Date.now();
  if (ttl > 0) cache.set(key, answer, { ttl });
}

/** Tests: forget every answer and read RESPONSE_CACHE_MB again. */
export function resetResponseCache(): void {
  cache = undefined;
}

/** The scope an operation's answers are cached under (its meta's `cache`), if any. */
function cacheScopeOf(meta: ProcedureMeta): ResponseCacheScope | undefined {
  return typeof meta.cache === 'object' ? meta.cache.scope : meta.cache;
}

/**
 * The app whose data version the credential's statement must read for a cached read about one app: `id` when the
 * operation's answers are cached per app and it is a well-formed app id (the statement casts it to uuid), else null.
 */
export function cachedReadAppId(meta: ProcedureMeta, id: unknown): string | null {
  return cacheScopeOf(meta) === 'app' ? (appIdParam.safeParse(id).data ?? null) : null;
}

/**
 * The key of an operation's answer for a credential (REST's and the MCP server's alike), or null when it is not
 * cached. `request` names the answer within the account: REST's path and query, or an MCP tool and its arguments.
 */
export function answerCacheKey(
  meta: ProcedureMeta,
  credential: CredentialResult & { status: 'valid' },
  now: Date,
  request: string,
): string | null {
  const { actor } = credential;
  const scope = cacheScopeOf(meta);
  if (scope === undefined) return null;
  return responseCacheKey(scope, {
    accountId: actor.accountId,
    // A key restricted to some apps is answered lists of those only: its answers are its own.
    viewer: actor.restrictions?.appIds ? (actor.keyId ?? null) : null,
    plan: actor.plan,
    creditLimit: actor.creditLimit,
    trialEndsAt: actor.trial?.endsAt ?? null,
    versions: credential.versions,
    now,
    pathAndQuery: request,
  });
}

/** Until when a live answer (research) may be replayed, from its output; undefined for an answer of stored data. */
export function freshUntilOf(meta: ProcedureMeta, output: unknown): Date | undefined {
  return typeof meta.cache === 'object' ? meta.cache.freshUntil(output as never) : undefined;
}
