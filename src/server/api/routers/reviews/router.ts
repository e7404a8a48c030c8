import { router } from '@/server/api/trpc';
import {
  approveReplyDraftProcedure,
  discardReplyDraftProcedure,
  draftReplyProcedure,
  getReplyDraftProcedure,
  listReplyDraftsProcedure,
  listReviewsProcedure,
  reviewInsightsProcedure,
} from './reviews.procedures';

export const reviewsRouter = router({
  list: listReviewsProcedure,
  insights: reviewInsightsProcedure,
  draftReply: draftReplyProcedure,
  replyDrafts: listReplyDraftsProcedure,
  replyDraft: getReplyDraftProcedure,
  discardReplyDraft: discardReplyDraftProcedure,
  approveReplyDraft: approveReplyDraftProcedure,
});
