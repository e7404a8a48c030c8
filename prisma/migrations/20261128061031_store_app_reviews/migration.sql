-- A store app's reviews are the store's facts, the same for every account that follows the app (docs/architecture.md,
-- "Store facts"): stored once per store app now, with the day of the observation that first stored each (each
-- follower's review.created events are those first stored on the days that are news to it).
ALTER TABLE "reviews" ADD COLUMN "store_app_id" INTEGER, ADD COLUMN "observed_on" DATE;

-- A kept review counts as observed on its own day: the days before the migration are no follower's news any more.
UPDATE "reviews" r SET "store_app_id" = t."store_app_id", "observed_on" = (r."reviewed_at" AT TIME ZONE 'UTC')::date
FROM "tracked_apps" t WHERE t."id" = r."app_id";

-- Where two tracked apps stored the same store review, the first follower's row (and so its id) stands.
DELETE FROM "reviews" r USING (
  SELECT v."id", row_number() OVER (PARTITION BY t."store_app_id", v."store_review_id" ORDER BY t."created_at", t."id") AS "place"
  FROM "reviews" v JOIN "tracked_apps" t ON t."id" = v."app_id"
) d
WHERE d."id" = r."id" AND d."place" > 1;

-- Its writes move the store app's version, no longer the tracked app's (migration app_ranks).
DROP TRIGGER "reviews_changed_insert" ON "reviews";
DROP TRIGGER "reviews_changed_update" ON "reviews";
DROP TRIGGER "reviews_changed_delete" ON "reviews";

ALTER TABLE "reviews" DROP CONSTRAINT "reviews_app_id_fkey";
DROP INDEX "reviews_app_id_reviewed_at_idx";
DROP INDEX "reviews_app_id_rating_reviewed_at_idx";
DROP INDEX "reviews_app_id_store_review_id_key";
ALTER TABLE "reviews" DROP COLUMN "app_id", ALTER COLUMN "store_app_id" SET NOT NULL, ALTER COLUMN "observed_on" SET NOT NULL;

CREATE UNIQUE INDEX "reviews_store_app_id_store_review_id_key" ON "reviews"("store_app_id", "store_review_id");
CREATE INDEX "reviews_store_app_id_reviewed_at_idx" ON "reviews"("store_app_id", "reviewed_at");
CREATE INDEX "reviews_store_app_id_rating_reviewed_at_idx" ON "reviews"("store_app_id", "rating", "reviewed_at");
CREATE INDEX "reviews_store_app_id_observed_on_idx" ON "reviews"("store_app_id", "observed_on");

CREATE TRIGGER "reviews_changed_insert" AFTER INSERT ON "reviews"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_app_data_changed"();
CREATE TRIGGER "reviews_changed_update" AFTER UPDATE ON "reviews"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_app_data_changed"();
CREATE TRIGGER "reviews_changed_delete" AFTER DELETE ON "reviews"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_app_data_changed"();
