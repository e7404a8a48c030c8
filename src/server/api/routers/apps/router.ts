import { router } from '@/server/api/trpc';
import {
  addStorefrontProcedure,
  removeStorefrontProcedure,
  createAppProcedure,
  removeAppProcedure,
  searchStoreProcedure,
  storefrontHealthProcedure,
  getAppProcedure,
  getAsoScoreProcedure,
  getCategoryRankProcedure,
  getKeywordSpyProcedure,
  getRatingHistoryProcedure,
  listAppsProcedure,
  listOpportunitiesProcedure,
} from './apps.procedures';

export const appsRouter = router({
  list: listAppsProcedure,
  create: createAppProcedure,
  remove: removeAppProcedure,
  addStorefront: addStorefrontProcedure,
  removeStorefront: removeStorefrontProcedure,
  searchStore: searchStoreProcedure,
  storefrontHealth: storefrontHealthProcedure,
  get: getAppProcedure,
  asoScore: getAsoScoreProcedure,
  opportunities: listOpportunitiesProcedure,
  categoryRank: getCategoryRankProcedure,
  ratingHistory: getRatingHistoryProcedure,
  keywordSpy: getKeywordSpyProcedure,
});
