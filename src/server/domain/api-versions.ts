// The public API's dated versions (docs/api-decisions.md, "Dated API versions"). `v1` in the path names the API; a date
// names the meanings its answers have. A call is shaped by the version its request names (`Aso-Version`), else its
// key's, else its account's: every account that existed before dated versions was pinned to the original by their
// migration; a newer one is pinned to the newest as its first key is created, and reads the newest until then. A new
// version is added at the end of API_VERSIONS with what it changes; the procedures answer in the newest shape, and each
// older version's shape is derived from it (src/server/api/version-shapes.ts), as Stripe's are.

import { AppError } from '@/server/errors/app-error';

export const API_VERSIONS = ['2026-11-21', '2026-11-29'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** What v1 answered before dated versions: the version of every account and endpoint that existed then. */
export const ORIGINAL_VERSION: ApiVersion = API_VERSIONS[0];
export const LATEST_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1]!;

/** The request header that names a version, and the answer's header that says which shaped it. */
export const VERSION_HEADER = 'Aso-Version';

export function isApiVersion(value: unknown): value is ApiVersion {
  return typeof value === 'string' && (API_VERSIONS as readonly string[]).includes(value);
}

/**
 * The version a request asks for (the `Aso-Version` header, the document's `version` query parameter): none (null or
 * undefined), null; one that is not a version answered, refused with 400, naming those that are.
 */
export function askedVersion(
  asked: string | null | undefined,
  where: { in: 'header' | 'query'; name: string },
): ApiVersion | null {
  if (asked === null || asked === undefined) return null;
  if (isApiVersion(asked)) return asked;
  const detail = `${where.name} must be one of the API's dated versions (${API_VERSIONS.join(', ')}); it was "${asked.slice(0, 40)}".`;
  throw new AppError('VALIDATION_ERROR', detail, { errors: [{ in: where.in, pointer: where.name, detail }] });
}

/**
 * A version as stored (an account's, a key's, an endpoint's): null is an account not pinned yet, which was created
 * after dated versions (the migration pinned every older one), so the newest; a retired one, the oldest still answered
 * (docs/api-decisions.md, "Dated API versions").
 */
export function storedVersion(value: string | null | undefined): ApiVersion {
  if (value === null || value === undefined) return LATEST_VERSION;
  return isApiVersion(value) ? value : ORIGINAL_VERSION;
}

/** Each version's changes, in the words of the changelog (/docs/changelog); the first is the original's. */
export const VERSION_CHANGES: Record<ApiVersion, { summary: string; changes: string[] }> = {
  '2026-11-21': {
    summary: 'The original meanings of v1, for every account and key that never chose a version.',
    changes: [],
  },
  '2026-11-29': {
    summary: 'What was not observed is no longer told as a value.',
    changes: [
      '`GET /apps/{id}/keywords`: `rankDelta` is null when either end of the window is not a rank (the app was not in the store’s results, or not observed); it was 0, which read as no movement.',
      '`GET /apps/{id}/keywords/research`: `yourRank` is null only when the app was observed outside the store’s results on its last day of data; when that day was not observed for the term, `yourRank` is left out. It was null in both cases. `yourRankStatus` (every version) says which.',
    ],
  },
};
