// The procedures about tracked apps: the list, one app, and the read endpoints about one app (score, opportunities,
// chart and rating series, keyword spy).
import { apiProcedure, dashboardProcedure } from '@/server/api/trpc';
import { addApp, getApp, listApps, removeApp, searchStore } from '@/server/services/apps/apps';
import { addStorefront, removeStorefront, storefrontHealth } from '@/server/services/apps/storefronts';
import { appsWithinReach, inTestMode } from '@/server/services/access/access-policy';
import { asoScore } from '@/server/services/aso/aso-score';
import { categoryRankHistory, RATING_HISTORY_DAYS, ratingHistory } from '@/server/services/aso/charts';
import { keywordSpy } from '@/server/services/aso/keywords';
import { keywordOpportunities } from '@/server/services/aso/opportunities';
import {
  addStorefrontInput,
  removeStorefrontInput,
  removeStorefrontOutput,
  createAppInput,
  createAppOutput,
  removeAppInput,
  removeAppOutput,
  searchStoreInput,
  searchStoreOutput,
} from './apps.schema';
import {
  appOutput,
  asoScoreInput,
  asoScoreOutput,
  categoryRankInput,
  categoryRankOutput,
  getAppInput,
  keywordSpyInput,
  keywordSpyOutput,
  listAppsInput,
  listAppsOutput,
  opportunitiesInput,
  opportunitiesOutput,
  ratingHistoryInput,
  ratingHistoryOutput,
  storefrontHealthInput,
  storefrontHealthOutput,
  toAppOutput,
} from './apps.schema';

export const listAppsProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps',
      summary: 'List tracked apps',
      description:
        'Every app your account tracks, oldest first, as a JSON array; for a key restricted to chosen apps, those apps only.',
      tags: ['Apps'],
      protect: true,
    },
    scope: 'read',
    credits: 1,
    cache: 'account',
    paging: { list: '' },
  })
  .input(listAppsInput)
  .output(listAppsOutput)
  .query(async ({ ctx }) => {
    // A key restricted to some apps lists those only.
    return appsWithinReach(ctx.actor, await listApps(ctx.actor.accountId)).map(toAppOutput);
  });

export const getAppProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps/{id}',
      summary: 'Get a tracked app',
      description: 'One tracked app. An app of another account is answered 404, like an unknown id.',
      tags: ['Apps'],
      protect: true,
    },
    scope: 'read',
    appInput: 'id',
    credits: 1,
    cache: 'app',
  })
  .input(getAppInput)
  .output(appOutput)
  .query(async ({ ctx, input }) => {
    const app = toAppOutput(await getApp(ctx.actor.accountId, input.id));
    // Its data in every storefront is through `dataThrough`, which the answer's headers say too.
    if (ctx.answerNotes) ctx.answerNotes.freshness = { storefront: null, dataThrough: app.dataThrough, limits: [] };
    return app;
  });

export const createAppProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/apps',
      summary: 'Track an app',
      description:
        'Starts tracking an app from its App Store or Google Play page. Idempotent by store and store id: an app the account already tracks is answered as it is, with `created: false` (and charged like any success). A URL of another shape is a 400; an app the store does not know, a 404; past the plan’s cap on tracked apps, a 403 `limit-reached` naming the cap, and nothing is stored. Its history then loads in the background: `backfill` shows the progress, and the per-app reads answer empty series until it completes. Backfills are served across accounts in turn (an account’s second waits for every other account’s first), so another customer adding many apps does not hold yours back. Needs a read-write key.',
      tags: ['Apps'],
      protect: true,
      contentTypes: ['application/json'],
    },
    scope: 'write',
    addsApp: true,
    credits: 2,
    asksStore: true,
    problems: ['LIMIT_REACHED', 'STORE_UNAVAILABLE'],
  })
  .input(createAppInput)
  .output(createAppOutput)
  .mutation(async ({ ctx, input }) => {
    const { app, created } = await addApp(ctx.actor, { storeUrl: input.storeUrl, country: input.country });
    return { ...toAppOutput(app), created };
  });

/** Dashboard only: stops tracking an app and everything recorded about it. */
export const removeAppProcedure = dashboardProcedure
  .meta({ permission: 'data.write' })
  .input(removeAppInput)
  .output(removeAppOutput)
  .mutation(({ ctx, input }) => removeApp(ctx.actor.accountId, input.id));

/** Dashboard only: tracks the app in one more storefront. */
export const addStorefrontProcedure = dashboardProcedure
  .meta({ permission: 'data.write' })
  .input(addStorefrontInput)
  .output(appOutput)
  .mutation(async ({ ctx, input }) => {
    await addStorefront(ctx.actor.accountId, { appId: input.id, country: input.country });
    return toAppOutput(await getApp(ctx.actor.accountId, input.id));
  });

/** Dashboard only: stops tracking the app in a storefront other than its primary one, and its keywords there. */
export const removeStorefrontProcedure = dashboardProcedure
  .meta({ permission: 'data.write' })
  .input(removeStorefrontInput)
  .output(removeStorefrontOutput)
  .mutation(({ ctx, input }) => removeStorefront(ctx.actor.accountId, { appId: input.id, country: input.country }));

/** Dashboard only: each storefront's provider health (when the store last answered, its last failure), for the app page. */
export const storefrontHealthProcedure = dashboardProcedure
  .meta({ permission: 'data.read' })
  .input(storefrontHealthInput)
  .output(storefrontHealthOutput)
  .query(async ({ ctx, input }) =>
    (await storefrontHealth(ctx.actor.accountId, input.id)).map((row) => ({
      country: row.country,
      lastObservedAt: row.lastObservedAt?.toISOString() ?? null,
      lastError: row.lastError,
      lastErrorAt: row.lastErrorAt?.toISOString() ?? null,
    })),
  );

/** Dashboard only: the store's apps by name, for Add app. */
export const searchStoreProcedure = dashboardProcedure
  .meta({ permission: 'data.write' })
  .input(searchStoreInput)
  .output(searchStoreOutput)
  .query(({ ctx, input }) => searchStore(input, !inTestMode(ctx.actor)));

export const getAsoScoreProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps/{id}/aso-score',
      summary: 'ASO score',
      description:
        'A 0–100 score from four pillars with their inputs: metadata 30 % (share of each field’s character limit used), keywords 30 % (volume-weighted visibility of the tracked keywords, share in the top 10, keywords in title or subtitle), ratings & reviews 25 % (average, count, negative share of the last 30 days) and creatives & conversion 15 % (screenshots, preview video, days since the last release). Recommendations are ordered by impact.',
      tags: ['Apps'],
      protect: true,
    },
    scope: 'read',
    appInput: 'id',
    credits: 1,
    problems: ['LIMIT_REACHED', 'STORE_UNAVAILABLE'],
    cache: 'app',
  })
  .input(asoScoreInput)
  .output(asoScoreOutput)
  .query(({ ctx, input }) => asoScore(ctx.actor.accountId, { appId: input.id, country: input.country }));

export const listOpportunitiesProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps/{id}/opportunities',
      summary: 'Keyword opportunities',
      description:
        'Terms of the storefront ranked by score = 100 × demand × ease × headroom: demand = log10(volume + 1) / log10(largest volume + 1), ease = 1 − difficulty / 100, headroom by current rank (unranked 1.0, 51+ 0.9, 11–50 0.75, 4–10 0.4, 1–3 0.05). Candidates are the terms the app ranks for or tracks. Each item says why.',
      tags: ['Keywords'],
      protect: true,
    },
    scope: 'read',
    appInput: 'id',
    credits: 2,
    problems: ['LIMIT_REACHED', 'STORE_UNAVAILABLE'],
    cache: 'app',
  })
  .input(opportunitiesInput)
  .output(opportunitiesOutput)
  .query(({ ctx, input }) =>
    keywordOpportunities(ctx.actor.accountId, { appId: input.id, country: input.country, limit: input.limit }),
  );

export const getCategoryRankProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps/{id}/category-rank',
      summary: 'Category rank history',
      description:
        'Daily position in the top-free chart of the app’s category, one point a day (null when outside the top 200).',
      tags: ['Apps'],
      protect: true,
    },
    scope: 'read',
    appInput: 'id',
    credits: 1,
    problems: ['LIMIT_REACHED', 'STORE_UNAVAILABLE'],
    cache: 'app',
  })
  .input(categoryRankInput)
  .output(categoryRankOutput)
  .query(({ ctx, input }) =>
    categoryRankHistory(ctx.actor.accountId, { appId: input.id, country: input.country, days: input.days }),
  );

export const getRatingHistoryProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps/{id}/rating-history',
      summary: 'Rating history',
      description: `Daily average rating and total rating count, over the last ${RATING_HISTORY_DAYS} days of data.`,
      tags: ['Reviews'],
      protect: true,
    },
    scope: 'read',
    appInput: 'id',
    credits: 1,
    cache: 'app',
  })
  .input(ratingHistoryInput)
  .output(ratingHistoryOutput)
  .query(({ ctx, input }) => ratingHistory(ctx.actor.accountId, { appId: input.id }));

export const getKeywordSpyProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps/{id}/keyword-spy',
      summary: 'Every keyword the app ranks for',
      description:
        'All terms the app ranks for (top 200; top 100 on Google Play) in the storefront on the last day of data, best rank first, with volume, difficulty and whether you track them.',
      tags: ['Keywords'],
      protect: true,
    },
    scope: 'read',
    appInput: 'id',
    credits: 1,
    problems: ['LIMIT_REACHED', 'STORE_UNAVAILABLE'],
    cache: 'app',
    paging: { list: 'keywords' },
  })
  .input(keywordSpyInput)
  .output(keywordSpyOutput)
  .query(({ ctx, input }) => keywordSpy(ctx.actor.accountId, { appId: input.id, country: input.country }));
