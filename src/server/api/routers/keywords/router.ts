import { router } from '@/server/api/trpc';
import {
  addKeywordsProcedure,
  keywordHistoryProcedure,
  keywordMetricsHistoryProcedure,
  keywordRoomProcedure,
  listKeywordsProcedure,
  recentRanksProcedure,
  removeKeywordProcedure,
  researchKeywordProcedure,
} from './keywords.procedures';

export const keywordsRouter = router({
  list: listKeywordsProcedure,
  add: addKeywordsProcedure,
  remove: removeKeywordProcedure,
  research: researchKeywordProcedure,
  history: keywordHistoryProcedure,
  metricsHistory: keywordMetricsHistoryProcedure,
  recentRanks: recentRanksProcedure,
  room: keywordRoomProcedure,
});
