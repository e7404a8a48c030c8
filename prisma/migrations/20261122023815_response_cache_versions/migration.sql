-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "data_version" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "tracked_apps" ADD COLUMN     "data_version" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "store_data_version" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "store_data_version_pkey" PRIMARY KEY ("id")
);


-- Versions of the data the public API answers from, kept by the database itself (whichever code writes, cascades
-- included), so that the API's response cache (src/server/openapi/response-cache.ts) can key an answer by the
-- versions read with the credential and never serve one older than the data:
-- - tracked_apps.data_version: bumped once per statement that inserts, updates or deletes rows of one of the app's
--   tables (statement triggers with transition tables: a backfill of 365,000 ranks is one bump).
-- - accounts.data_version: bumped when one of the account's tracked apps is added, removed or changed other than by
--   the bump above (its name, keyword count, last day of data…). GET /apps answers from it.
-- - store_data_version: data shared by every account (keyword_metrics), and any truncation of these tables.
-- Locks: a write takes the app's row first, then the account's row (as the keyword count's triggers already did), so
-- writes to different apps of one account only meet on the account's row, and only for tracked_apps changes.
INSERT INTO "store_data_version" ("id", "version") VALUES (1, 0);

CREATE FUNCTION "app_data_changed"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "tracked_apps" SET "data_version" = "data_version" + 1 WHERE "id" IN (SELECT "app_id" FROM changed);
  RETURN NULL;
END
$$;

CREATE FUNCTION "tracked_app_changed"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "accounts" SET "data_version" = "data_version" + 1
  WHERE "id" = (CASE WHEN TG_OP = 'DELETE' THEN OLD."account_id" ELSE NEW."account_id" END);
  RETURN NULL;
END
$$;

CREATE FUNCTION "store_data_changed"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  -- A statement that wrote no row (metrics already known: skipDuplicates) changes nothing. (Nested: a TRUNCATE
  -- trigger has no transition table to look at.)
  IF TG_OP <> 'TRUNCATE' THEN
    IF NOT EXISTS (SELECT 1 FROM changed) THEN
      RETURN NULL;
    END IF;
  END IF;
  UPDATE "store_data_version" SET "version" = "version" + 1;
  RETURN NULL;
END
$$;

DO $$
DECLARE
  app_table TEXT;
BEGIN
  FOREACH app_table IN ARRAY ARRAY['tracked_keywords', 'keyword_ranks', 'reviews', 'rating_snapshots', 'category_ranks',
                                   'metadata_snapshots', 'metadata_changes', 'competitors'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "app_data_changed"()', app_table || '_changed_insert', app_table);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "app_data_changed"()', app_table || '_changed_update', app_table);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "app_data_changed"()', app_table || '_changed_delete', app_table);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION "store_data_changed"()', app_table || '_changed_truncate', app_table);
  END LOOP;
END
$$;

CREATE TRIGGER "tracked_apps_changed_insert_delete" AFTER INSERT OR DELETE ON "tracked_apps"
  FOR EACH ROW EXECUTE FUNCTION "tracked_app_changed"();
-- Not when only data_version moved: a keyword or a review of one app does not change the account's list of apps.
CREATE TRIGGER "tracked_apps_changed_update" AFTER UPDATE ON "tracked_apps"
  FOR EACH ROW WHEN (OLD."data_version" = NEW."data_version") EXECUTE FUNCTION "tracked_app_changed"();
CREATE TRIGGER "tracked_apps_changed_truncate" AFTER TRUNCATE ON "tracked_apps"
  FOR EACH STATEMENT EXECUTE FUNCTION "store_data_changed"();

CREATE TRIGGER "keyword_metrics_changed_insert" AFTER INSERT ON "keyword_metrics"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_data_changed"();
CREATE TRIGGER "keyword_metrics_changed_update" AFTER UPDATE ON "keyword_metrics"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_data_changed"();
CREATE TRIGGER "keyword_metrics_changed_delete" AFTER DELETE ON "keyword_metrics"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_data_changed"();
CREATE TRIGGER "keyword_metrics_changed_truncate" AFTER TRUNCATE ON "keyword_metrics"
  FOR EACH STATEMENT EXECUTE FUNCTION "store_data_changed"();
