-- A store app's chart place and rating on a day are the store's facts, the same for every account that follows the
-- app (docs/architecture.md, "Store facts"): stored once per store app now, not once per tracked app. A rating is the
-- store's as shown in one storefront (the primary one of the app whose refresh observed it), which the key now says.
CREATE TABLE "category_ranks_by_store_app" (
    "store_app_id" INTEGER NOT NULL,
    "country" CHAR(2) NOT NULL,
    "date" DATE NOT NULL,
    "category" TEXT NOT NULL,
    "rank" SMALLINT,

    CONSTRAINT "category_ranks_by_store_app_pkey" PRIMARY KEY ("store_app_id","country","date")
);

CREATE TABLE "rating_snapshots_by_store_app" (
    "store_app_id" INTEGER NOT NULL,
    "country" CHAR(2) NOT NULL,
    "date" DATE NOT NULL,
    "average" REAL NOT NULL,
    "count" INTEGER NOT NULL,
    "histogram" JSONB,

    CONSTRAINT "rating_snapshots_by_store_app_pkey" PRIMARY KEY ("store_app_id","country","date")
);

-- Where two tracked apps observed the same store app on the same day, the first follower's observation stands.
INSERT INTO "category_ranks_by_store_app" ("store_app_id", "country", "date", "category", "rank")
SELECT DISTINCT ON (t."store_app_id", c."country", c."date") t."store_app_id", c."country", c."date", c."category", c."rank"
FROM "category_ranks" c JOIN "tracked_apps" t ON t."id" = c."app_id"
ORDER BY t."store_app_id", c."country", c."date", t."created_at", t."id";

INSERT INTO "rating_snapshots_by_store_app" ("store_app_id", "country", "date", "average", "count", "histogram")
SELECT DISTINCT ON (t."store_app_id", t."primary_country", r."date") t."store_app_id", t."primary_country", r."date", r."average", r."count", r."histogram"
FROM "rating_snapshots" r JOIN "tracked_apps" t ON t."id" = r."app_id"
ORDER BY t."store_app_id", t."primary_country", r."date", t."created_at", t."id";

DROP TABLE "category_ranks";
DROP TABLE "rating_snapshots";
ALTER TABLE "category_ranks_by_store_app" RENAME TO "category_ranks";
ALTER TABLE "category_ranks" RENAME CONSTRAINT "category_ranks_by_store_app_pkey" TO "category_ranks_pkey";
ALTER TABLE "rating_snapshots_by_store_app" RENAME TO "rating_snapshots";
ALTER TABLE "rating_snapshots" RENAME CONSTRAINT "rating_snapshots_by_store_app_pkey" TO "rating_snapshots_pkey";

-- Their writes move the store app's version, as app_ranks' do (migration app_ranks).
DO $$
DECLARE
  fact_table TEXT;
BEGIN
  FOREACH fact_table IN ARRAY ARRAY['category_ranks', 'rating_snapshots'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_app_data_changed"()', fact_table || '_changed_insert', fact_table);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_app_data_changed"()', fact_table || '_changed_update', fact_table);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_app_data_changed"()', fact_table || '_changed_delete', fact_table);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION "store_data_changed"()', fact_table || '_changed_truncate', fact_table);
  END LOOP;
END
$$;
