// The procedures the dashboard calls, and only those: its pages read through `createDashboardCaller` (server
// components), its browser code calls /api/trpc. Built from what the dashboard needs, never from the whole app
// router: a procedure is here because a screen uses it. What the dashboard may do without spending credits is
// docs/api-decisions.md "What the dashboard may do for free": view every stored view of the account's own tracked
// apps (the same procedures as the API, so the numbers are the same), choose what it tracks, manage keys, webhook
// endpoints and the plan. What costs us a store request per call (live keyword research) and the API's own writes
// (adding competitors) stay API-only, metered, and not reachable with a session cookie.
import { accountRouter } from './routers/account/router';
import { apiKeysRouter } from './routers/api-keys/router';
import {
  addStorefrontProcedure,
  createAppProcedure,
  getAppProcedure,
  getAsoScoreProcedure,
  getCategoryRankProcedure,
  getKeywordSpyProcedure,
  getRatingHistoryProcedure,
  listAppsProcedure,
  listOpportunitiesProcedure,
  removeAppProcedure,
  searchStoreProcedure,
  storefrontHealthProcedure,
} from './routers/apps/apps.procedures';
import { billingRouter } from './routers/billing/router';
import { listCompetitorsProcedure, removeCompetitorProcedure } from './routers/competitors/competitors.procedures';
import { addKeywordsProcedure, keywordHistoryProcedure, listKeywordsProcedure, recentRanksProcedure, removeKeywordProcedure } from './routers/keywords/keywords.procedures';
import { getMetadataProcedure, metadataChangelogProcedure } from './routers/metadata/metadata.procedures';
import { listReviewsProcedure, reviewInsightsProcedure } from './routers/reviews/reviews.procedures';
import { getUsageProcedure, usageLedgerProcedure } from './routers/usage/usage.procedures';
import { securityLogRouter } from './routers/security-log/router';
import { webhooksRouter } from './routers/webhooks/router';
import { createCallerFactory, router } from './trpc';

export const dashboardRouter = router({
  // Sign-up form; the layout's account summary.
  account: accountRouter,
  // Settings → API access.
  apiKeys: apiKeysRouter,
  usage: router({ get: getUsageProcedure, ledger: usageLedgerProcedure }),
  // Settings → Webhooks.
  webhooks: webhooksRouter,
  // Settings → Security log.
  securityLog: securityLogRouter,
  // Settings → Plan & billing.
  billing: billingRouter,
  // Apps and the app page's views: the account's own stored data, as the API answers it, and what it tracks.
  apps: router({
    list: listAppsProcedure,
    get: getAppProcedure,
    asoScore: getAsoScoreProcedure,
    opportunities: listOpportunitiesProcedure,
    categoryRank: getCategoryRankProcedure,
    ratingHistory: getRatingHistoryProcedure,
    keywordSpy: getKeywordSpyProcedure,
    create: createAppProcedure,
    remove: removeAppProcedure,
    addStorefront: addStorefrontProcedure,
    searchStore: searchStoreProcedure,
    storefrontHealth: storefrontHealthProcedure,
  }),
  keywords: router({
    list: listKeywordsProcedure,
    history: keywordHistoryProcedure,
    recentRanks: recentRanksProcedure,
    add: addKeywordsProcedure,
    remove: removeKeywordProcedure,
  }),
  competitors: router({ list: listCompetitorsProcedure, remove: removeCompetitorProcedure }),
  metadata: router({ get: getMetadataProcedure, changelog: metadataChangelogProcedure }),
  reviews: router({ list: listReviewsProcedure, insights: reviewInsightsProcedure }),
});

export type DashboardRouter = typeof dashboardRouter;

export const createDashboardCaller = createCallerFactory(dashboardRouter);
