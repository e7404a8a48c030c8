// The procedures the dashboard calls, and only those: its pages read through `createDashboardCaller` (server
// components), its browser code calls /api/trpc. Built from what the dashboard needs, never from the whole app
// router: a procedure is here because a screen uses it. What the dashboard may do without spending credits is
// README "What the dashboard may do for free": view the account's own stored data, choose what it tracks (add and
// remove apps, storefronts and keywords, remove competitors), manage keys, webhook endpoints and the plan. Everything else (research, opportunities, keyword spy, category and rating history, metadata, the
// writes of the public API) is API-only, metered, and not reachable with a session cookie.
import { accountRouter } from './routers/account/router';
import { apiKeysRouter } from './routers/api-keys/router';
import {
  addStorefrontProcedure,
  createAppProcedure,
  getAppProcedure,
  getAsoScoreProcedure,
  listAppsProcedure,
  removeAppProcedure,
  searchStoreProcedure,
} from './routers/apps/apps.procedures';
import { billingRouter } from './routers/billing/router';
import { listCompetitorsProcedure, removeCompetitorProcedure } from './routers/competitors/competitors.procedures';
import { addKeywordsProcedure, keywordHistoryProcedure, listKeywordsProcedure, removeKeywordProcedure } from './routers/keywords/keywords.procedures';
import { listReviewsProcedure } from './routers/reviews/reviews.procedures';
import { getUsageProcedure } from './routers/usage/usage.procedures';
import { webhooksRouter } from './routers/webhooks/router';
import { createCallerFactory, router } from './trpc';

export const dashboardRouter = router({
  // Sign-up form; the layout's account summary.
  account: accountRouter,
  // Settings → API access.
  apiKeys: apiKeysRouter,
  usage: router({ get: getUsageProcedure }),
  // Settings → Webhooks.
  webhooks: webhooksRouter,
  // Settings → Plan & billing.
  billing: billingRouter,
  // Apps and the app page: the account's own stored data, as the page shows it, and what it tracks.
  apps: router({
    list: listAppsProcedure,
    get: getAppProcedure,
    asoScore: getAsoScoreProcedure,
    create: createAppProcedure,
    remove: removeAppProcedure,
    addStorefront: addStorefrontProcedure,
    searchStore: searchStoreProcedure,
  }),
  keywords: router({ list: listKeywordsProcedure, history: keywordHistoryProcedure, add: addKeywordsProcedure, remove: removeKeywordProcedure }),
  competitors: router({ list: listCompetitorsProcedure, remove: removeCompetitorProcedure }),
  reviews: router({ list: listReviewsProcedure }),
});

export type DashboardRouter = typeof dashboardRouter;

export const createDashboardCaller = createCallerFactory(dashboardRouter);
