import { apiProcedure } from '@/server/api/trpc';
import { addKeywords } from '@/server/services/apps/apps';
import { addKeywordsInput, addKeywordsOutput, toTrackedKeywordOutput } from './keywords.schema';

export const addKeywordsProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/apps/{id}/keywords',
      summary: 'Track keywords',
      description:
        'Adds terms to the app’s tracked keywords in one storefront. Idempotent: terms already tracked are listed under `alreadyTracked` and not duplicated. Needs a read-write key.',
      tags: ['Keywords'],
      protect: true,
      contentTypes: ['application/json'],
    },
    scope: 'write',
    credits: 2,
  })
  .input(addKeywordsInput)
  .output(addKeywordsOutput)
  .mutation(async ({ ctx, input }) => {
    const result = await addKeywords(ctx.actor.accountId, { appId: input.id, terms: input.terms, country: input.country });
    return { ...result, added: result.added.map(toTrackedKeywordOutput), alreadyTracked: result.alreadyTracked.map(toTrackedKeywordOutput) };
  });
