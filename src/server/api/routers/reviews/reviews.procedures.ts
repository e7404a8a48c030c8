// The procedures about reviews: the list and the insights.
import { apiProcedure } from '@/server/api/trpc';
import { INSIGHTS_DAYS, listReviews, reviewInsights } from '@/server/services/aso/reviews';
import { insightsInput, insightsOutput, listReviewsInput, listReviewsOutput } from './reviews.schema';

export const listReviewsProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps/{id}/reviews',
      summary: 'List reviews',
      description: 'Reviews of every storefront, paginated, optionally of one star rating and one sentiment label.',
      tags: ['Reviews'],
      protect: true,
    },
    scope: 'read',
    appInput: 'id',
    credits: 1,
    cache: 'app',
    paging: { list: 'items', pagedBy: 'procedure' },
  })
  .input(listReviewsInput)
  .output(listReviewsOutput)
  .query(async ({ ctx, input }) => {
    const page = await listReviews(ctx.actor.accountId, {
      appId: input.id,
      page: input.page,
      pageSize: input.pageSize,
      rating: input.rating,
      sentiment: input.sentiment,
      sort: input.sort,
    });
    return { ...page, items: page.items.map((item) => ({ ...item, reviewedAt: item.reviewedAt.toISOString() })) };
  });

export const reviewInsightsProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps/{id}/reviews/insights',
      summary: 'Review insights',
      description: `Over the reviews of the last ${INSIGHTS_DAYS} days of data: sentiment distribution (wink-nlp lexicon), top topics, bug reports and feature requests, each with counts and up to three example review ids (newest first).`,
      tags: ['Reviews'],
      protect: true,
    },
    scope: 'read',
    appInput: 'id',
    credits: 1,
    cache: 'app',
  })
  .input(insightsInput)
  .output(insightsOutput)
  .query(({ ctx, input }) => reviewInsights(ctx.actor.accountId, { appId: input.id }));
