import { accountRouter } from './routers/account/router';
import { apiKeysRouter } from './routers/api-keys/router';
import { appsRouter } from './routers/apps/router';
import { billingRouter } from './routers/billing/router';
import { competitorsRouter } from './routers/competitors/router';
import { keywordsRouter } from './routers/keywords/router';
import { metadataRouter } from './routers/metadata/router';
import { reviewsRouter } from './routers/reviews/router';
import { usageRouter } from './routers/usage/router';
import { webhooksRouter } from './routers/webhooks/router';
import { createCallerFactory, router } from './trpc';

export const appRouter = router({
  account: accountRouter,
  apiKeys: apiKeysRouter,
  apps: appsRouter,
  billing: billingRouter,
  keywords: keywordsRouter,
  reviews: reviewsRouter,
  metadata: metadataRouter,
  competitors: competitorsRouter,
  usage: usageRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
