// The procedures about competitors: the list, adding one (the API and the dashboard), and (dashboard only) removing one.
import { z } from 'zod';
import { appIdParam } from '@/server/api/schemas';
import { apiProcedure, dashboardProcedure } from '@/server/api/trpc';
import { removeCompetitor } from '@/server/services/apps/apps';
import { addCompetitor, listCompetitors } from '@/server/services/aso/competitors';
import {
  addCompetitorInput,
  addCompetitorOutput,
  listCompetitorsInput,
  listCompetitorsOutput,
  toCompetitorOutput,
} from './competitors.schema';

export const listCompetitorsProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps/{id}/competitors',
      summary: 'List competitors',
      description: 'Competitors tracked for the app, oldest first, with what we know of each.',
      tags: ['Competitors'],
      protect: true,
    },
    scope: 'read',
    appInput: 'id',
    credits: 1,
    problems: ['LIMIT_REACHED', 'STORE_UNAVAILABLE'],
    cache: 'app',
  })
  .input(listCompetitorsInput)
  .output(listCompetitorsOutput)
  .query(async ({ ctx, input }) => {
    const { items, freshness } = await listCompetitors(ctx.actor.accountId, {
      appId: input.id,
      country: input.country,
    });
    if (ctx.answerNotes) ctx.answerNotes.freshness = freshness;
    return items.map(toCompetitorOutput);
  });

export const addCompetitorProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/apps/{id}/competitors',
      summary: 'Track a competitor',
      description:
        'Adds a competitor by its App Store (https://apps.apple.com/<cc>/app/<name>/id<digits>) or Google Play (https://play.google.com/store/apps/details?id=<package>) address. Idempotent: an already tracked competitor is answered as it is, with `created: false`. Each app follows at most the plan’s `competitorsPerApp` (`x-plans`); one past it is 403 `limit-reached`. Needs a read-write key.',
      tags: ['Competitors'],
      protect: true,
      contentTypes: ['application/json'],
    },
    scope: 'write',
    appInput: 'id',
    credits: 2,
    asksStore: true,
    problems: ['LIMIT_REACHED', 'STORE_UNAVAILABLE'],
  })
  .input(addCompetitorInput)
  .output(addCompetitorOutput)
  .mutation(async ({ ctx, input }) => {
    const { competitor, created } = await addCompetitor(ctx.actor.accountId, {
      appId: input.id,
      storeUrl: input.storeUrl,
    });
    return { competitor: toCompetitorOutput(competitor), created };
  });

/** Dashboard only: stops following one competitor. */
export const removeCompetitorProcedure = dashboardProcedure
  .meta({ permission: 'data.write' })
  .input(z.object({ id: appIdParam, competitorId: z.uuid('Must be a UUID.') }))
  .output(z.object({ removed: z.literal(true), competitorId: z.uuid() }))
  .mutation(({ ctx, input }) =>
    removeCompetitor(ctx.actor.accountId, { appId: input.id, competitorId: input.competitorId }),
  );
