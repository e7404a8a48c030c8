// Search and fetch over an account's own apps and tracked keywords, in the shapes ChatGPT's connectors and deep research
// call (`search`: ids, titles and addresses of what matches; `fetch`: one of them whole, as text), on REST and MCP
// alike. A key restricted to some apps finds and fetches those only (the caller passes the apps within its reach).
import { isoDay } from '@/server/core/dates';
import { pageOrigin } from '@/server/core/origin';
import { db } from '@/server/db';
import { AppError } from '@/server/errors/app-error';
import { getApp, listApps, type AppView } from '@/server/services/apps/apps';
import { keywordHistory, listKeywords } from '@/server/services/aso/keywords';

/** What search answers at most: the best matches, apps first. */
const SEARCH_RESULTS = 20;
/** Days of a keyword's ranks a fetched keyword tells. */
const FETCHED_DAYS = 30;

export interface SearchResult {
  id: string;
  title: string;
  url: string;
  text: string;
}

export interface FetchedDocument extends SearchResult {
  metadata: Record<string, string | number | null>;
}

const STORE_NAMES = { app_store: 'App Store', google_play: 'Google Play' } as const;
const NOT_FOUND = 'Nothing of your account has this id: search answers the ids there are (app:… or keyword:…).';

/** Each word of the query, lower case: a match has every one. */
function wordsOf(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

const appUrl = (appId: string) => `${pageOrigin()}/apps/${appId}`;
const keywordUrl = (appId: string, keywordId: string) => `${appUrl(appId)}?compare=${keywordId}`;

function appTitle(app: AppView): string {
  return `${app.name} (${STORE_NAMES[app.store]}, ${app.primaryCountry})`;
}

/**
 * The apps and tracked keywords of the account that match every word of the query: an app by its name, developer,
 * bundle id or store id; a keyword by its term. `reach` is the apps the caller may read (null: all of them).
 */
export async function searchAccount(
  accountId: string,
  input: { query: string; reach: (apps: AppView[]) => AppView[] },
): Promise<{ results: SearchResult[] }> {
  const words = wordsOf(input.query);
  const apps = input.reach(await listApps(accountId));
  const matchingApps = apps.filter((app) => {
    const text = `${app.name} ${app.developer} ${app.bundleId} ${app.storeId}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
  const keywords = await db.trackedKeyword.findMany({
    where: {
      appId: { in: apps.map((app) => app.id) },
      AND: words.map((word) => ({ term: { contains: word, mode: 'insensitive' as const } })),
    },
    orderBy: [{ term: 'asc' }, { country: 'asc' }, { id: 'asc' }],
    select: { id: true, term: true, country: true, appId: true },
    take: SEARCH_RESULTS,
  });
  const appOf = new Map(apps.map((app) => [app.id, app]));
  const results: SearchResult[] = [
    ...matchingApps.map((app) => ({
      id: `app:${app.id}`,
      title: appTitle(app),
      url: appUrl(app.id),
      text: `${app.developer} · ${app.category} · ${app.trackedKeywords} tracked keywords`,
    })),
    ...keywords.map((keyword) => {
      const app = appOf.get(keyword.appId)!;
      return {
        id: `keyword:${keyword.id}`,
        title: `“${keyword.term}” (${keyword.country}) for ${app.name}`,
        url: keywordUrl(app.id, keyword.id),
        text: `A keyword tracked for ${appTitle(app)} in the ${keyword.country} storefront.`,
      };
    }),
  ];
  return { results: results.slice(0, SEARCH_RESULTS) };
}

/** One app or keyword of the account, whole, as text: what `fetch` answers for an id `search` gave. */
export async function fetchAccountDocument(
  accountId: string,
  input: { id: string; reach: (apps: AppView[]) => AppView[] },
): Promise<FetchedDocument> {
  const [kind, id] = input.id.split(':') as ['app' | 'keyword', string];
  if (kind === 'app') {
    const app = await getApp(accountId, id);
    if (!input.reach([app]).length) throw new AppError('NOT_FOUND', NOT_FOUND);
    return appDocument(accountId, app);
  }
  const keyword = await db.trackedKeyword.findFirst({
    where: { id, app: { accountId } },
    select: { id: true, appId: true },
  });
  if (!keyword) throw new AppError('NOT_FOUND', NOT_FOUND);
  const app = await getApp(accountId, keyword.appId);
  if (!input.reach([app]).length) throw new AppError('NOT_FOUND', NOT_FOUND);
  return keywordDocument(accountId, app, keyword.id);
}

async function appDocument(accountId: string, app: AppView): Promise<FetchedDocument> {
  const { items } = await listKeywords(accountId, { appId: app.id, country: app.primaryCountry, rankWindow: '7d' });
  const ranked = items.filter((item) => item.rank !== null);
  const lines = [
    `${app.name}, by ${app.developer}, in ${app.category} on the ${STORE_NAMES[app.store]} (${app.storeUrl}).`,
    `Tracked in ${app.storefronts.join(', ')}; primary storefront ${app.primaryCountry}; data through ${app.refreshedThrough ? isoDay(app.refreshedThrough) : 'none yet'}.`,
    `${items.length} keywords tracked in ${app.primaryCountry}, ${ranked.length} ranked in the store’s results on the last day of data.`,
    ...items
      .slice(0, 20)
      .map(
        (item) =>
          `- “${item.term}”: ${item.rank === null ? item.rankStatus.replace('_', ' ') : `#${item.rank}`}${item.rankDelta ? ` (${item.rankDelta > 0 ? '+' : ''}${item.rankDelta} over 7 days)` : ''}${item.volume === null ? '' : `, volume ${item.volume}`}${item.difficulty === null ? '' : `, difficulty ${item.difficulty}`}`,
      ),
  ];
  return {
    id: `app:${app.id}`,
    title: appTitle(app),
    url: appUrl(app.id),
    text: lines.join('\n'),
    metadata: {
      appId: app.id,
      store: app.store,
      storeId: app.storeId,
      primaryCountry: app.primaryCountry,
      dataThrough: app.refreshedThrough && isoDay(app.refreshedThrough),
    },
  };
}

async function keywordDocument(accountId: string, app: AppView, keywordId: string): Promise<FetchedDocument> {
  const history = await keywordHistory(accountId, { appId: app.id, keywordId, days: FETCHED_DAYS });
  const ranked = history.points.filter((point) => point.rank !== null);
  const last = history.points.at(-1);
  const count = (status: string) => history.points.filter((point) => point.status === status).length;
  const lines = [
    `The keyword “${history.term}” in the ${history.country} storefront, tracked for ${appTitle(app)}.`,
    last
      ? `On ${last.date} (the last day of data): ${last.rank === null ? last.status.replace('_', ' ') : `rank #${last.rank}`}.`
      : 'No data yet.',
    ranked.length
      ? `Over the ${FETCHED_DAYS} days from ${history.from} to ${history.to}: best #${Math.min(...ranked.map((point) => point.rank!))}, ranked on ${ranked.length} days, not ranked on ${count('unranked')}, not observed on ${count('not_observed')}.`
      : `Over the ${FETCHED_DAYS} days from ${history.from} to ${history.to}: never ranked (not ranked on ${count('unranked')} days, not observed on ${count('not_observed')}).`,
    ...history.competitors.map((competitor) => {
      const point = competitor.points.at(-1);
      return `- Competitor ${competitor.name ?? competitor.storeId}: ${point?.rank ? `#${point.rank}` : (point?.status.replace('_', ' ') ?? 'no data')} on the last day.`;
    }),
    `Daily ranks: ${history.points.map((point) => `${point.date} ${point.rank ?? (point.status === 'unranked' ? '-' : '?')}`).join(', ')} (- not ranked, ? not observed).`,
  ];
  return {
    id: `keyword:${keywordId}`,
    title: `“${history.term}” (${history.country}) for ${app.name}`,
    url: keywordUrl(app.id, keywordId),
    text: lines.join('\n'),
    metadata: {
      appId: app.id,
      keywordId,
      country: history.country,
      dataThrough: history.freshness.dataThrough,
    },
  };
}
