// The App Store's recorded answers: the JSON of Apple's public endpoints, one file per call under
// test/fixtures/app-store, named after the call (lookup-us-571800810.json, search-us-sleep-sounds.json,
// reviews-us-571800810.json, chart-us-6013.json). scripts/record-store-fixtures.ts records them (recordingFetch);
// the tests replay them (recordedFetch).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FetchJson } from '@/server/services/ingest/stores/app-store/app-store-provider';
import plan from '../fixtures/stores-plan.json';
import { fixtureSlug } from './fixture-names';

export const APP_STORE_FIXTURES = path.resolve(import.meta.dirname, '../fixtures/app-store');
export const APP_STORE_PLAN = plan.app_store;

/** The file of an endpoint's answer, from its URL (./itunes.ts builds them); null for a URL of no known endpoint. */
function appStoreFixtureName(url: string): string | null {
  const parsed = new URL(url);
  const country = parsed.searchParams.get('country') ?? parsed.pathname.split('/')[1];
  if (parsed.pathname === '/lookup') return `lookup-${country}-${parsed.searchParams.get('id')}.json`;
  if (parsed.pathname === '/search')
    return `search-${country}-${fixtureSlug(parsed.searchParams.get('term') ?? '')}.json`;
  const reviews = /\/rss\/customerreviews\/page=1\/id=(\d+)\//.exec(parsed.pathname);
  if (reviews) return `reviews-${country}-${reviews[1]}.json`;
  const chart = /\/rss\/topfreeapplications\/limit=\d+\/genre=(\d+)\//.exec(parsed.pathname);
  if (chart) return `chart-${country}-${chart[1]}.json`;
  return null;
}

export function loadAppStoreFixture(name: string): unknown {
  return JSON.parse(readFileSync(path.join(APP_STORE_FIXTURES, name), 'utf8'));
}

/** Apple's recorded answers; each requested URL is pushed to `requested`. An unknown one fails the test. */
export function recordedFetch(requested: string[] = []): FetchJson {
  return async (url) => {
    requested.push(url);
    const name = appStoreFixtureName(url);
    if (!name) throw new Error(`no recorded answer for ${url}`);
    try {
      return loadAppStoreFixture(name);
    } catch {
      throw new Error(
        `no recorded answer for ${url} (${name}): record the App Store again (README, "Recorded store answers")`,
      );
    }
  };
}

/** Records each answer of `inner` (Apple's endpoints themselves) into `folder`. */
export function recordingFetch(inner: FetchJson, folder = APP_STORE_FIXTURES): FetchJson {
  return async (url, options) => {
    const answer = await inner(url, options);
    const name = appStoreFixtureName(url);
    if (name) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, name), `${JSON.stringify(answer, null, 2)}\n`);
    }
    return answer;
  };
}
