// The public API's response cache. The answer of a GET endpoint declared `cache` (ProcedureMeta) is kept in memory,
// per app process, under a key made of the account, the versions of the data it is read from, the UTC day and the
// URL. The versions are bumped by the database's own triggers on every write, whichever code writes (migration
// response_cache_versions), and are read by the credential's statement (src/server/db/data-versions.ts): a hit costs
// no round trip of its own and can never answer from older data than a miss would, in any process. A replayed answer
// is metered exactly like a computed one (rate limit, credits, ledger row): only the reads behind it are saved.
// Least recently used answers go first once RESPONSE_CACHE_MB (default 64; 0 turns the cache off) is reached.
import { LRUCache } from 'lru-cache';
import type { DataVersions } from '@/server/db/data-versions';
import { isoDay } from '@/server/domain/dates';

const DEFAULT_RESPONSE_CACHE_MB = 64;

let cache: LRUCache<string, Uint8Array<ArrayBuffer>> | null | undefined;

/** The cache's size as RESPONSE_CACHE_MB sets it (default 64); 0 when it is off (0, negative or not a number). */
export function responseCacheMegabytes(): number {
  const setting = process.env.RESPONSE_CACHE_MB?.trim();
  const megabytes = setting ? Number(setting) : DEFAULT_RESPONSE_CACHE_MB;
  return Number.isFinite(megabytes) && megabytes > 0 ? megabytes : 0;
}

function answers(): LRUCache<string, Uint8Array<ArrayBuffer>> | null {
  if (cache === undefined) {
    const maxSize = Math.floor(responseCacheMegabytes() * 1024 * 1024);
    cache =
      maxSize > 0
        ? new LRUCache<string, Uint8Array<ArrayBuffer>>({
            maxSize,
            // One answer may take at most an eighth of the cache: a few huge answers must not evict everything else.
            maxEntrySize: Math.ceil(maxSize / 8),
            sizeCalculation: (body, key) => body.byteLength + key.length * 2,
          })
        : null;
  }
  return cache;
}

/**
 * The key of an answer, or null when it must not be cached: the app asked about is not the account's (the request
 * will be answered 404), or the cache is off.
 */
export function responseCacheKey(
  scope: 'app' | 'account',
  request: { accountId: string; versions: DataVersions; now: Date; pathAndQuery: string },
): string | null {
  if (!answers()) return null;
  const { versions } = request;
  if (scope === 'app' && versions.app === null) return null;
  // A URL has no space once parsed (it is percent-encoded), so the parts cannot run into each other.
  return [request.accountId, versions.account, versions.store, scope === 'app' ? versions.app : '-', isoDay(request.now), request.pathAndQuery].join(' ');
}

export function cachedAnswer(key: string): Uint8Array<ArrayBuffer> | undefined {
  return answers()?.get(key);
}

const encoder = new TextEncoder();

/** Kept as UTF-8 bytes: a replay sends them as they are. */
export function rememberAnswer(key: string, body: string): void {
  answers()?.set(key, encoder.encode(body));
}

/** Tests: forget every answer and read RESPONSE_CACHE_MB again. */
export function resetResponseCache(): void {
  cache = undefined;
}
