import { router } from '@/server/api/trpc';
import { listReviewsProcedure, reviewInsightsProcedure } from './reviews.procedures';

export const reviewsRouter = router({ list: listReviewsProcedure, insights: reviewInsightsProcedure });
