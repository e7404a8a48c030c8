-- A store app's listing in a storefront, and the changes between its versions, are the store's facts, the same for
-- every account that follows the app (docs/architecture.md, "Store facts"): stored once per store app now.
ALTER TABLE "metadata_snapshots" ADD COLUMN "store_app_id" INTEGER;
ALTER TABLE "metadata_changes" ADD COLUMN "store_app_id" INTEGER;

UPDATE "metadata_snapshots" m SET "store_app_id" = t."store_app_id" FROM "tracked_apps" t WHERE t."id" = m."app_id";
UPDATE "metadata_changes" m SET "store_app_id" = t."store_app_id" FROM "tracked_apps" t WHERE t."id" = m."app_id";

-- Where two tracked apps recorded the same store app's listing (or change) on the same day, the first follower's stands.
DELETE FROM "metadata_snapshots" m USING (
  SELECT s."id", row_number() OVER (PARTITION BY t."store_app_id", s."country", s."captured_at" ORDER BY t."created_at", t."id") AS "place"
  FROM "metadata_snapshots" s JOIN "tracked_apps" t ON t."id" = s."app_id"
) d
WHERE d."id" = m."id" AND d."place" > 1;

DELETE FROM "metadata_changes" m USING (
  SELECT c."id", row_number() OVER (PARTITION BY t."store_app_id", c."country", c."changed_at", c."field" ORDER BY t."created_at", t."id") AS "place"
  FROM "metadata_changes" c JOIN "tracked_apps" t ON t."id" = c."app_id"
) d
WHERE d."id" = m."id" AND d."place" > 1;

-- Their writes move the store app's version, no longer the tracked app's (migration app_ranks).
DROP TRIGGER "metadata_snapshots_changed_insert" ON "metadata_snapshots";
DROP TRIGGER "metadata_snapshots_changed_update" ON "metadata_snapshots";
DROP TRIGGER "metadata_snapshots_changed_delete" ON "metadata_snapshots";
DROP TRIGGER "metadata_changes_changed_insert" ON "metadata_changes";
DROP TRIGGER "metadata_changes_changed_update" ON "metadata_changes";
DROP TRIGGER "metadata_changes_changed_delete" ON "metadata_changes";

ALTER TABLE "metadata_snapshots" DROP CONSTRAINT "metadata_snapshots_app_id_fkey";
ALTER TABLE "metadata_changes" DROP CONSTRAINT "metadata_changes_app_id_fkey";
DROP INDEX "metadata_snapshots_app_id_country_captured_at_idx";
DROP INDEX "metadata_changes_app_id_country_changed_at_idx";
ALTER TABLE "metadata_snapshots" DROP COLUMN "app_id", ALTER COLUMN "store_app_id" SET NOT NULL;
ALTER TABLE "metadata_changes" DROP COLUMN "app_id", ALTER COLUMN "store_app_id" SET NOT NULL;

CREATE INDEX "metadata_snapshots_store_app_id_country_captured_at_idx" ON "metadata_snapshots"("store_app_id", "country", "captured_at");
CREATE INDEX "metadata_changes_store_app_id_country_changed_at_idx" ON "metadata_changes"("store_app_id", "country", "changed_at");

DO $$
DECLARE
  fact_table TEXT;
BEGIN
  FOREACH fact_table IN ARRAY ARRAY['metadata_snapshots', 'metadata_changes'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_app_data_changed"()', fact_table || '_changed_insert', fact_table);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_app_data_changed"()', fact_table || '_changed_update', fact_table);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_app_data_changed"()', fact_table || '_changed_delete', fact_table);
  END LOOP;
END
$$;
