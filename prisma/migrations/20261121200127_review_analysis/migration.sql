-- AlterTable
ALTER TABLE "reviews" ADD COLUMN     "bug_report" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "feature_requests" TEXT[],
ADD COLUMN     "topics" TEXT[];

