// The procedures about keywords: the tracked list, adding terms (and, dashboard only, removing one and the room the plan
// leaves), research, and per-keyword histories.
import { z } from 'zod';
import { appIdParam, keywordIdParam } from '@/server/api/schemas';
import { apiProcedure, dashboardProcedure } from '@/server/api/trpc';
import { addKeywords, keywordRoom, removeKeyword } from '@/server/services/apps/apps';
import { keywordHistory, keywordMetricsHistory, listKeywords, recentRanks } from '@/server/services/aso/keywords';
import { researchFreshness, researchFreshUntil, researchKeyword } from '@/server/services/aso/research';
import {
  addKeywordsInput,
  addKeywordsOutput,
  keywordHistoryInput,
  keywordHistoryOutput,
  listKeywordsInput,
  listKeywordsOutput,
  metricsHistoryInput,
  metricsHistoryOutput,
  recentRanksInput,
  recentRanksOutput,
  researchInput,
  researchOutput,
  toTrackedKeywordOutput,
} from './keywords.schema';

export const listKeywordsProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps/{id}/keywords',
      summary: 'List tracked keywords',
      description:
        'The tracked keywords of one storefront, as a JSON array, best rank first (unranked last). `rank` is null when the app is not in the top 200 for the term (the top 100 on Google Play); `rankDelta` compares with the start of `rankWindow`.',
      tags: ['Keywords'],
      protect: true,
    },
    scope: 'read',
    appInput: 'id',
    credits: 1,
    problems: ['LIMIT_REACHED', 'STORE_UNAVAILABLE'],
    cache: 'app',
    paging: { list: '' },
  })
  .input(listKeywordsInput)
  .output(listKeywordsOutput)
  .query(async ({ ctx, input }) => {
    const { items, freshness } = await listKeywords(ctx.actor.accountId, {
      appId: input.id,
      country: input.country,
      rankWindow: input.rankWindow,
    });
    if (ctx.answerNotes) ctx.answerNotes.freshness = freshness;
    return items;
  });

export const researchKeywordProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps/{id}/keywords/research',
      summary: 'Research a keyword (live)',
      description: `Live volume, difficulty and the top 10 apps for a term in a storefront (default US), and this app’s rank for it on its last day of data (\`freshness.dataThrough\`). ${researchFreshness()} Costs 8 credits per call.`,
      tags: ['Keywords'],
      protect: true,
    },
    scope: 'read',
    appInput: 'id',
    apiOnly: true,
    credits: 8,
    asksStore: true,
    problems: ['STORE_UNAVAILABLE'],
    // A live answer: replayed while its data is unchanged and, besides, only while it is live.
    cache: {
      scope: 'app',
      freshUntil: (output: { observedAt: string }) => researchFreshUntil(new Date(output.observedAt)),
    },
  })
  .input(researchInput)
  .output(researchOutput)
  .query(async ({ ctx, input }) => {
    const { observedAt, ...research } = await researchKeyword(ctx.actor.accountId, {
      appId: input.id,
      term: input.term,
      country: input.country,
    });
    return { ...research, observedAt: observedAt.toISOString() };
  });

export const keywordHistoryProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps/{id}/keywords/{keywordId}/history',
      summary: 'Daily rank history of a keyword',
      description:
        'One point a day over `days` days ending with the last day of data; `rank` null on days the app was not in the top 200 (the top 100 on Google Play). `competitors` holds the same series for each of the app’s competitors, so the app can be compared with them. A keyword of another app or account is 404.',
      tags: ['Keywords'],
      protect: true,
    },
    scope: 'read',
    appInput: 'id',
    credits: 1,
    cache: 'app',
  })
  .input(keywordHistoryInput)
  .output(keywordHistoryOutput)
  .query(({ ctx, input }) =>
    keywordHistory(ctx.actor.accountId, { appId: input.id, keywordId: input.keywordId, days: input.days }),
  );

export const keywordMetricsHistoryProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps/{id}/keywords/{keywordId}/metrics-history',
      summary: 'Volume and difficulty over time',
      description:
        'Daily search volume and difficulty of the keyword in its storefront over `days` days (default 180).',
      tags: ['Keywords'],
      protect: true,
    },
    scope: 'read',
    appInput: 'id',
    apiOnly: true,
    credits: 1,
    cache: 'app',
  })
  .input(metricsHistoryInput)
  .output(metricsHistoryOutput)
  .query(({ ctx, input }) =>
    keywordMetricsHistory(ctx.actor.accountId, { appId: input.id, keywordId: input.keywordId, days: input.days }),
  );

export const addKeywordsProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/apps/{id}/keywords',
      summary: 'Track keywords',
      description:
        'Adds terms to the app’s tracked keywords in one storefront. Idempotent: terms already tracked are listed under `alreadyTracked` and not duplicated. When the new terms would take the account past its plan’s cap on tracked keywords, the request is refused with 403 `limit-reached` and none is added. Needs a read-write key.',
      tags: ['Keywords'],
      protect: true,
      contentTypes: ['application/json'],
    },
    scope: 'write',
    appInput: 'id',
    credits: 2,
    problems: ['LIMIT_REACHED'],
  })
  .input(addKeywordsInput)
  .output(addKeywordsOutput)
  .mutation(async ({ ctx, input }) => {
    const result = await addKeywords(ctx.actor.accountId, {
      appId: input.id,
      terms: input.terms,
      country: input.country,
    });
    return {
      ...result,
      added: result.added.map(toTrackedKeywordOutput),
      alreadyTracked: result.alreadyTracked.map(toTrackedKeywordOutput),
    };
  });

/** Dashboard only: stops tracking one keyword. */
export const removeKeywordProcedure = dashboardProcedure
  .meta({ permission: 'data.write' })
  .input(z.object({ id: appIdParam, keywordId: keywordIdParam }))
  .output(z.object({ removed: z.literal(true), keywordId: z.uuid() }))
  .mutation(({ ctx, input }) => removeKeyword(ctx.actor.accountId, { appId: input.id, keywordId: input.keywordId }));

/** Dashboard only: the keyword table's 7-day sparklines, every tracked keyword of a storefront in one read. */
export const recentRanksProcedure = dashboardProcedure
  .meta({ permission: 'data.read' })
  .input(recentRanksInput)
  .output(recentRanksOutput)
  .query(({ ctx, input }) =>
    recentRanks(ctx.actor.accountId, { appId: input.id, country: input.country, days: input.days }),
  );

/** Dashboard only: how many keywords the account tracks and its plan allows, shown before terms are tracked. */
export const keywordRoomProcedure = dashboardProcedure
  .meta({ permission: 'data.read' })
  .input(z.object({}))
  .output(z.object({ plan: z.string(), cap: z.int().nullable(), tracked: z.int().nonnegative() }))
  .query(({ ctx }) => keywordRoom(ctx.actor.accountId));
