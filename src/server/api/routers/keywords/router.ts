import { router } from '@/server/api/trpc';
import { addKeywordsProcedure, keywordHistoryProcedure, keywordMetricsHistoryProcedure, listKeywordsProcedure, researchKeywordProcedure } from './keywords.procedures';

export const keywordsRouter = router({
  list: listKeywordsProcedure,
  add: addKeywordsProcedure,
  research: researchKeywordProcedure,
  history: keywordHistoryProcedure,
  metricsHistory: keywordMetricsHistoryProcedure,
});
