// Issue 65: dated API versions. A call is shaped by the version its request names (Aso-Version), else its key's, else
// its account's; the answer says which. The first dated version (2026-11-29) tells "not a rank" and "not observed"
// apart where the original folded them into a value; the original keeps its meanings.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { LATEST_VERSION, ORIGINAL_VERSION } from '@/server/domain/api-versions';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { makeAsoApp } from '../../../test/aso-fixture';
import { postMcp } from '../../../test/mcp';
import { callPublicApi } from '../../../test/public-api';

const ORIGIN = 'http://api.test';

describe('dated API versions', () => {
  let fixture: Awaited<ReturnType<typeof makeAsoApp>>;
  let secret: string;
  const get = (path: string, headers: Record<string, string> = {}, key = secret) =>
    callPublicApi(
      new Request(`${ORIGIN}/api/public/v1${path}`, { headers: { Authorization: `Bearer ${key}`, ...headers } }),
    );

  beforeAll(async () => {
    fixture = await makeAsoApp({ storeId: '700000065', terms: ['meditation', 'sleep sounds', 'mindfulness'] });
    ({ secret } = await createApiKey(fixture.owner, { name: 'versions', scope: 'read-only' }));
  });

  it('pins an account to the newest version with its first key, and says which version shaped each answer', async () => {
    expect((await db.account.findUniqueOrThrow({ where: { id: fixture.owner.accountId } })).apiVersion).toBe(
      LATEST_VERSION,
    );
    const answer = await get(`/apps/${fixture.app.id}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('aso-version')).toBe(LATEST_VERSION);
    const asked = await get(`/apps/${fixture.app.id}`, { 'Aso-Version': ORIGINAL_VERSION });
    expect(asked.headers.get('aso-version')).toBe(ORIGINAL_VERSION);
  });

  it('refuses a version that is not one, naming those that are, and charges nothing', async () => {
    const before = await db.creditUsage.findMany({ where: { accountId: fixture.owner.accountId } });
    for (const sent of ['2026-13-01', 'latest', '2026-11-30']) {
      const answer = await get(`/apps/${fixture.app.id}/keywords`, { 'Aso-Version': sent });
      expect(answer.status, sent).toBe(400);
      const problem = await answer.json();
      expect(problem.code).toBe('validation-error');
      expect(problem.errors).toEqual([expect.objectContaining({ in: 'header', pointer: 'Aso-Version' })]);
      expect(problem.detail).toContain(`${ORIGINAL_VERSION}, ${LATEST_VERSION}`);
    }
    expect(await db.creditUsage.findMany({ where: { accountId: fixture.owner.accountId } })).toEqual(before);
  });

  it('answers rankDelta null when an end is not a rank, and 0 to the original version', async () => {
    // One end of the window not a rank: the keyword's rank row at the window's start is cleared.
    const app = await db.trackedApp.findUniqueOrThrow({ where: { id: fixture.app.id } });
    const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id, term: 'mindfulness' } });
    const start = new Date(app.refreshedThrough!.getTime() - 7 * 86_400_000);
    await db.appRank.updateMany({
      where: { storeAppId: app.storeAppId, country: 'US', termKey: keyword.termKey, date: start },
      data: { rank: null },
    });
    const newest = (await (await get(`/apps/${app.id}/keywords`)).json()) as {
      term: string;
      rankDelta: number | null;
    }[];
    expect(newest.find((item) => item.term === 'mindfulness')!.rankDelta).toBeNull();
    const original = (await (await get(`/apps/${app.id}/keywords`, { 'Aso-Version': ORIGINAL_VERSION })).json()) as {
      term: string;
      rankDelta: number | null;
    }[];
    expect(original.find((item) => item.term === 'mindfulness')!.rankDelta).toBe(0);
    // The same everywhere else: only the meaning that changed differs.
    expect(original.map(({ rankDelta: _, ...rest }) => rest)).toEqual(newest.map(({ rankDelta: _, ...rest }) => rest));
  });

  it('tells research’s “not in the results” from “not observed”, and folds them into null for the original', async () => {
    const research = (term: string, version?: string) =>
      get(
        `/apps/${fixture.app.id}/keywords/research?term=${encodeURIComponent(term)}`,
        version ? { 'Aso-Version': version } : {},
      ).then((answer) => answer.json() as Promise<Record<string, unknown>>);
    // A term no one tracks here: its search was never observed on the app's last day of data.
    const unobserved = `never observed ${randomUUID().slice(0, 8)}`;
    const newest = await research(unobserved);
    expect(newest.yourRankStatus).toBe('not_observed');
    expect('yourRank' in newest).toBe(false);
    const original = await research(unobserved, ORIGINAL_VERSION);
    expect(original).toMatchObject({ yourRank: null, yourRankStatus: 'not_observed' });
    // A tracked term the app was not in the results for that day: observed, and not ranked.
    const app = await db.trackedApp.findUniqueOrThrow({ where: { id: fixture.app.id } });
    const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id, term: 'sleep sounds' } });
    await db.appRank.updateMany({
      where: { storeAppId: app.storeAppId, country: 'US', termKey: keyword.termKey, date: app.refreshedThrough! },
      data: { rank: null },
    });
    for (const version of [LATEST_VERSION, ORIGINAL_VERSION])
      expect(await research('sleep sounds', version), version).toMatchObject({
        yourRank: null,
        yourRankStatus: 'unranked',
      });
  });

  it('tells an unranked day from a day not observed in the keyword history and the category chart', async () => {
    const app = await db.trackedApp.findUniqueOrThrow({ where: { id: fixture.app.id } });
    const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id, term: 'meditation' } });
    const day = (back: number) => new Date(app.refreshedThrough!.getTime() - back * 86_400_000);
    const term = { country: 'US', termKey: keyword.termKey };
    // Two days ago observed and not in the results; three days ago not observed at all.
    await db.appRank.updateMany({ where: { storeAppId: app.storeAppId, ...term, date: day(2) }, data: { rank: null } });
    await db.appRank.deleteMany({ where: { storeAppId: app.storeAppId, ...term, date: day(3) } });
    await db.searchAnswer.deleteMany({ where: { ...term, date: day(3) } });
    const history = (await (await get(`/apps/${app.id}/keywords/${keyword.id}/history?days=5`)).json()) as {
      points: { date: string; rank: number | null; status: string }[];
    };
    const on = (back: number) => history.points.find((point) => point.date === day(back).toISOString().slice(0, 10))!;
    expect(on(2)).toMatchObject({ rank: null, status: 'unranked' });
    expect(on(3)).toMatchObject({ rank: null, status: 'not_observed' });
    expect(on(1).status).toBe(on(1).rank === null ? 'unranked' : 'ranked');

    await db.categoryRank.updateMany({
      where: { storeAppId: app.storeAppId, country: 'US', date: day(2) },
      data: { rank: null },
    });
    await db.categoryRank.deleteMany({ where: { storeAppId: app.storeAppId, country: 'US', date: day(3) } });
    const chart = (await (await get(`/apps/${app.id}/category-rank?days=5`)).json()) as typeof history;
    const chartOn = (back: number) =>
      chart.points.find((point) => point.date === day(back).toISOString().slice(0, 10))!;
    expect(chartOn(2)).toMatchObject({ rank: null, status: 'unranked' });
    expect(chartOn(3)).toMatchObject({ rank: null, status: 'not_observed' });
  });

  it('says in every object data answer which storefront and day it reads, and what it cannot say', async () => {
    const app = await db.trackedApp.findUniqueOrThrow({ where: { id: fixture.app.id } });
    const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id } });
    const through = app.refreshedThrough!.toISOString().slice(0, 10);
    const answers: [string, string | null, RegExp][] = [
      [`/apps/${app.id}/aso-score`, 'US', /at most 200/],
      [`/apps/${app.id}/opportunities`, 'US', /estimates/],
      [`/apps/${app.id}/keyword-spy`, 'US', /at most 200/],
      [`/apps/${app.id}/category-rank`, 'US', /top 200 free apps/],
      [`/apps/${app.id}/rating-history`, 'US', /primary storefront/],
      [`/apps/${app.id}/keywords/${keyword.id}/history`, 'US', /at most 200/],
      [`/apps/${app.id}/keywords/${keyword.id}/metrics-history`, 'US', /estimates/],
      [`/apps/${app.id}/metadata`, 'US', /once a day/],
      [`/apps/${app.id}/metadata/changelog`, 'US', /once a day/],
      [`/apps/${app.id}/reviews/insights`, null, /most recent/],
      [`/apps/${app.id}/reviews`, null, /most recent/],
      [`/apps/${app.id}/keywords/research?term=meditation&country=US`, 'US', /at most 200/],
    ];
    for (const [path, storefront, limit] of answers) {
      const answer = await get(path);
      const body = (await answer.json()) as {
        freshness: { storefront: string | null; dataThrough: string; limits: string[] };
      };
      expect(body.freshness, path).toMatchObject({ storefront, dataThrough: through });
      expect(body.freshness.limits.join(' '), path).toMatch(limit);
      // The same, for the call, in its headers.
      expect(answer.headers.get('aso-data-through'), path).toBe(through);
      expect(answer.headers.get('aso-storefront'), path).toBe(storefront);
    }
  });

  it('says it of a JSON array answer in its headers, and beside the items in an MCP tool result', async () => {
    const app = await db.trackedApp.findUniqueOrThrow({ where: { id: fixture.app.id } });
    const through = app.refreshedThrough!.toISOString().slice(0, 10);
    for (const [path, storefront] of [
      [`/apps/${app.id}/keywords?country=US`, 'US'],
      [`/apps/${app.id}/competitors`, null],
      [`/apps/${app.id}`, null],
    ] as const) {
      const answer = await get(path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('aso-data-through'), path).toBe(through);
      expect(answer.headers.get('aso-storefront'), path).toBe(storefront);
    }
    // Replayed from the response cache: the same headers.
    const again = await get(`/apps/${app.id}/keywords?country=US`);
    expect(again.headers.get('aso-data-through')).toBe(through);
    for (const [name, storefront, limit] of [
      ['keywords_list', 'US', /at most 200/],
      ['competitors_list', null, /as it is added/],
    ] as const) {
      const answer = await postMcp(ORIGIN, `Bearer ${secret}`, {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name, arguments: { id: app.id } },
      });
      const structured = (answer.body!.result as { structuredContent: { freshness: Record<string, unknown> } })
        .structuredContent;
      expect(structured.freshness, name).toMatchObject({ storefront, dataThrough: through });
      expect((structured.freshness.limits as string[]).join(' '), name).toMatch(limit);
    }
  });

  it('shapes MCP tool results as REST answers, by the same version', async () => {
    const call = (version?: string) =>
      postMcp(
        ORIGIN,
        `Bearer ${secret}`,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'keywords_list', arguments: { id: fixture.app.id } },
        },
        version ? { 'Aso-Version': version } : {},
      );
    // A list's tool result holds it as `items` (structured content is an object).
    type Item = { term: string; rankDelta: number | null };
    const mindfulness = (answer: Awaited<ReturnType<typeof call>>) =>
      (answer.body!.result as { structuredContent: { items: Item[] } }).structuredContent.items.find(
        (item) => item.term === 'mindfulness',
      )!;
    const newest = await call();
    expect(newest.headers['aso-version']).toBe(LATEST_VERSION);
    expect(mindfulness(newest).rankDelta).toBeNull();
    const original = await call(ORIGINAL_VERSION);
    expect(original.headers['aso-version']).toBe(ORIGINAL_VERSION);
    expect(mindfulness(original).rankDelta).toBe(0);
  });

  it('shapes a key’s calls by its own version ahead of the account’s, and a request’s ahead of both', async () => {
    const { secret: older } = await createApiKey(fixture.owner, {
      name: 'pinned to the original',
      scope: 'read-only',
      apiVersion: ORIGINAL_VERSION,
    });
    expect((await get(`/apps/${fixture.app.id}`, {}, older)).headers.get('aso-version')).toBe(ORIGINAL_VERSION);
    expect(
      (await get(`/apps/${fixture.app.id}`, { 'Aso-Version': LATEST_VERSION }, older)).headers.get('aso-version'),
    ).toBe(LATEST_VERSION);
  });
});
