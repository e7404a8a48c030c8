-- AlterTable
ALTER TABLE "store_accounts" ADD COLUMN     "reviews_requested_at" TIMESTAMPTZ(3),
ADD COLUMN     "simulated" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "store_account_reviews" ADD COLUMN     "sentiment" DOUBLE PRECISION NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "reply_drafts" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "review_id" UUID NOT NULL,
    "action" TEXT NOT NULL,
    "body" TEXT,
    "state" TEXT NOT NULL,
    "drafted_by" TEXT NOT NULL,
    "approved_by_user_id" UUID,
    "approved_by" TEXT,
    "approved_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "sending_since" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3),
    "problem" TEXT,
    "problem_kind" TEXT,
    "simulated_outcome" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reply_drafts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "reply_drafts_account_id_created_at_idx" ON "reply_drafts"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "reply_drafts_review_id_idx" ON "reply_drafts"("review_id");

-- CreateIndex
CREATE INDEX "reply_drafts_state_next_attempt_at_idx" ON "reply_drafts"("state", "next_attempt_at");

-- AddForeignKey
ALTER TABLE "reply_drafts" ADD CONSTRAINT "reply_drafts_review_id_fkey" FOREIGN KEY ("review_id") REFERENCES "store_account_reviews"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- At most one live draft a review: the service supersedes a drafted one and refuses a new one while one is approved
-- or being sent; this holds it under concurrent drafts too.
CREATE UNIQUE INDEX "reply_drafts_one_live_per_review" ON "reply_drafts"("review_id") WHERE "state" IN ('drafted', 'approved', 'sending');

-- A store account's reviews and their reply drafts are what GET /apps/{id}/reviews?source=store_account answers: their
-- changes move the app's data version, as the public reviews' do (20261122023815_response_cache_versions), so that
-- the response cache never answers a list older than them.
CREATE FUNCTION "store_account_review_changed"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "tracked_apps" SET "data_version" = "data_version" + 1 WHERE "id" IN (SELECT "tracked_app_id" FROM changed);
  RETURN NULL;
END
$$;

CREATE FUNCTION "reply_draft_changed"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "tracked_apps" SET "data_version" = "data_version" + 1
  WHERE "id" IN (SELECT "tracked_app_id" FROM "store_account_reviews" WHERE "id" IN (SELECT "review_id" FROM changed));
  RETURN NULL;
END
$$;

CREATE TRIGGER "store_account_reviews_changed_insert" AFTER INSERT ON "store_account_reviews"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_account_review_changed"();
CREATE TRIGGER "store_account_reviews_changed_update" AFTER UPDATE ON "store_account_reviews"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_account_review_changed"();
CREATE TRIGGER "store_account_reviews_changed_delete" AFTER DELETE ON "store_account_reviews"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_account_review_changed"();
CREATE TRIGGER "reply_drafts_changed_insert" AFTER INSERT ON "reply_drafts"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "reply_draft_changed"();
CREATE TRIGGER "reply_drafts_changed_update" AFTER UPDATE ON "reply_drafts"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "reply_draft_changed"();
