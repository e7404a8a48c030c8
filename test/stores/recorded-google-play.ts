// Google Play's recorded answers: what google-play-scraper's methods returned, one JSON file per call, under
// test/fixtures/google-play/<day>/<method>/<country>-<lang>/<key>.json. A failed call is recorded as
// {"error": {"message", "status"}} and replays as the library's error. scripts/record-store-fixtures.ts records a day
// (recordingPlayClient); the tests replay one (recordedPlayClient).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GooglePlayClient, PlayLocale } from '@/server/services/ingest/stores/google-play/google-play-client';
import { PLAY_SEARCH_DEPTH } from '@/server/services/ingest/stores/google-play/google-play-provider';
import plan from '../fixtures/stores-plan.json';
import { fixtureSlug } from './fixture-names';

export const GOOGLE_PLAY_FIXTURES = path.resolve(import.meta.dirname, '../fixtures/google-play');
export const GOOGLE_PLAY_PLAN = plan.google_play;

/** The recorded days, oldest first. */
export function recordedPlayDays(): string[] {
  return readdirSync(GOOGLE_PLAY_FIXTURES)
    .filter((name) => /^\d{4}-\d{2}-\d{2}$/.test(name))
    .sort();
}

export function playFixturePath(
  day: string,
  method: keyof GooglePlayClient,
  locale: PlayLocale,
  key: string,
  root = GOOGLE_PLAY_FIXTURES,
): string {
  const folder = method === 'topFree' ? 'top-free' : method;
  return path.join(root, day, folder, `${locale.country}-${locale.lang}`, `${fixtureSlug(key)}.json`);
}

type Recorded = { error: { message: string; status: number | null } } | unknown;

function readRecorded(file: string): unknown {
  let recorded: Recorded;
  try {
    recorded = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new Error(
      `no recorded answer at ${path.relative(process.cwd(), file)}: record the day again (README, "Recorded store answers")`,
    );
  }
  if (recorded && typeof recorded === 'object' && 'error' in recorded) {
    const { message, status } = (recorded as { error: { message: string; status: number | null } }).error;
    // As google-play-scraper throws: an Error with the HTTP status as `status`.
    throw Object.assign(new Error(message), { status: status ?? undefined });
  }
  return recorded;
}

/** The library's answers of one recorded day, with the calls made (for tests that count them). */
export function recordedPlayClient(day: string): GooglePlayClient & { calls: string[] } {
  const calls: string[] = [];
  const replay = (method: keyof GooglePlayClient, locale: PlayLocale, key: string) => {
    calls.push(`${method} ${locale.country}-${locale.lang} ${key}`);
    return Promise.resolve().then(() => readRecorded(playFixturePath(day, method, locale, key)));
  };
  return {
    calls,
    app: (appId, locale) => replay('app', locale, appId),
    // Recorded with the provider's deepest ask; a shorter one is its beginning, as the store answers it.
    search: async (term, num, locale) => ((await replay('search', locale, term)) as unknown[]).slice(0, num),
    reviews: async (appId, num, locale) => {
      const answer = (await replay('reviews', locale, appId)) as { data: unknown[] };
      return { ...answer, data: answer.data.slice(0, num) };
    },
    topFree: async (category, num, locale) => ((await replay('topFree', locale, category)) as unknown[]).slice(0, num),
    suggest: (prefix, locale) => replay('suggest', locale, prefix),
  };
}

/** Records every call of `inner` (the library itself) into `day` under `root`: answers as returned, failures as their message and status. */
export function recordingPlayClient(
  inner: GooglePlayClient,
  day: string,
  root = GOOGLE_PLAY_FIXTURES,
): GooglePlayClient {
  const record = async (
    method: keyof GooglePlayClient,
    locale: PlayLocale,
    key: string,
    call: () => Promise<unknown>,
  ) => {
    const file = playFixturePath(day, method, locale, key, root);
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      const answer = await call();
      writeFileSync(file, `${JSON.stringify(answer, null, 2)}\n`);
      return answer;
    } catch (error) {
      const status = (error as { status?: number }).status ?? null;
      writeFileSync(file, `${JSON.stringify({ error: { message: (error as Error).message, status } }, null, 2)}\n`);
      throw error;
    }
  };
  return {
    app: (appId, locale) => record('app', locale, appId, () => inner.app(appId, locale)),
    // Recorded as deep as the provider ever asks, whatever this call's depth: replays slice it.
    search: async (term, num, locale) =>
      (
        (await record('search', locale, term, () =>
          inner.search(term, Math.max(num, PLAY_SEARCH_DEPTH), locale),
        )) as unknown[]
      ).slice(0, num),
    reviews: (appId, num, locale) => record('reviews', locale, appId, () => inner.reviews(appId, num, locale)),
    topFree: (category, num, locale) => record('topFree', locale, category, () => inner.topFree(category, num, locale)),
    suggest: (prefix, locale) => record('suggest', locale, prefix, () => inner.suggest(prefix, locale)),
  };
}

/** Google Play down: every call fails as the library reports a 503, or hangs past the gate's timeout. */
export function failingPlayClient(failure: { status: number } | 'hang'): GooglePlayClient {
  const fail = () =>
    failure === 'hang'
      ? new Promise<never>(() => {})
      : Promise.reject(
          Object.assign(
            new Error(`Error requesting Google Play:Response code ${failure.status} (Service Unavailable)`),
            { status: failure.status },
          ),
        );
  return { app: fail, search: fail, reviews: fail, topFree: fail, suggest: fail };
}
