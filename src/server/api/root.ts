// Every procedure, by resource: one router per resource (src/server/api/routers/<resource>/router.ts). The public REST
// API serves those with an `openapi` route in their meta (src/server/operations/routes.ts); the dashboard calls them
// through its own endpoint (dashboard-router.ts), which reaches no API-only operation (the access policy's
// `dashboardServes`); the dashboard-only ones (`dashboardProcedure`) refuse every other channel.
import { accountRouter } from './routers/account/router';
import { apiKeysRouter } from './routers/api-keys/router';
import { appsRouter } from './routers/apps/router';
import { billingRouter } from './routers/billing/router';
import { competitorsRouter } from './routers/competitors/router';
import { exportsRouter } from './routers/exports/router';
import { connectedAppsRouter } from './routers/connected-apps/router';
import { keywordsRouter } from './routers/keywords/router';
import { membersRouter } from './routers/members/router';
import { metadataRouter } from './routers/metadata/router';
import { reviewsRouter } from './routers/reviews/router';
import { searchRouter } from './routers/search/router';
import { storeAccountsRouter } from './routers/store-accounts/router';
import { securityLogRouter } from './routers/security-log/router';
import { usageRouter } from './routers/usage/router';
import { webhooksRouter } from './routers/webhooks/router';
import { createCallerFactory, router } from './trpc';

export const appRouter = router({
  account: accountRouter,
  apiKeys: apiKeysRouter,
  connectedApps: connectedAppsRouter,
  members: membersRouter,
  apps: appsRouter,
  billing: billingRouter,
  keywords: keywordsRouter,
  reviews: reviewsRouter,
  metadata: metadataRouter,
  competitors: competitorsRouter,
  usage: usageRouter,
  search: searchRouter,
  exports: exportsRouter,
  webhooks: webhooksRouter,
  storeAccounts: storeAccountsRouter,
  securityLog: securityLogRouter,
});

export const createCaller = createCallerFactory(appRouter);
