-- A store app's rank for a term is a fact of the store's search, the same for every account that follows the app
-- (docs/architecture.md, "Store facts"). It was stored once per tracked app (keyword_ranks) and once per competitor of
-- each tracked app (competitor_ranks); it is stored once per store app now, in app_ranks, partitioned by month.

-- The version of what is stored of a store app: part of the response cache's key of every answer about an app that is
-- it or follows it (src/server/db/data-versions.ts). A fact written once for every follower moves one row, not one per
-- follower, and takes no lock on any account's app.
ALTER TABLE "store_apps" ADD COLUMN "data_version" BIGINT NOT NULL DEFAULT 0;

CREATE TABLE "app_ranks" (
    "store_app_id" INTEGER NOT NULL,
    "country" CHAR(2) NOT NULL,
    "term_key" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "term" TEXT NOT NULL,
    "rank" SMALLINT,
    "discovered" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "app_ranks_pkey" PRIMARY KEY ("store_app_id","country","term_key","date")
) PARTITION BY RANGE ("date");

CREATE INDEX "app_ranks_store_app_id_country_date_idx" ON "app_ranks"("store_app_id", "country", "date");

-- The monthly partitions (app_ranks_YYYY_MM) of the months from `first` to `last`, made where missing. The refresh
-- calls it before it writes, in a statement of its own (src/server/db/ingest-statements.ts, ensureRankPartitions):
-- making a partition locks the whole table, which no long transaction may hold. Two calls at once: the second waits
-- for the first's lock and finds the partition there.
CREATE FUNCTION "ensure_app_rank_partitions"("first" DATE, "last" DATE) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
  "month" DATE := date_trunc('month', "first")::date;
  "partition" TEXT;
BEGIN
  WHILE "month" <= "last" LOOP
    "partition" := 'app_ranks_' || to_char("month", 'YYYY_MM');
    IF to_regclass(format('%I', "partition")) IS NULL THEN
      PERFORM pg_advisory_xact_lock(hashtext('app_ranks partitions'));
      EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF "app_ranks" FOR VALUES FROM (%L) TO (%L)',
                     "partition", "month", ("month" + interval '1 month')::date);
    END IF;
    "month" := ("month" + interval '1 month')::date;
  END LOOP;
END
$$;

-- The months of the rows kept, and this month and the next.
SELECT "ensure_app_rank_partitions"(
  LEAST((SELECT min("date") FROM "keyword_ranks"), (SELECT min("date") FROM "competitor_ranks"), CURRENT_DATE),
  GREATEST((SELECT max("date") FROM "keyword_ranks"), (SELECT max("date") FROM "competitor_ranks"), (CURRENT_DATE + interval '1 month')::date));

-- Every kept rank, once per store app: where two tracked apps (or an app and another's competitor) observed the same
-- store app on the same day, the first follower's observation stands, as the refresh's first observation of a day does.
-- A rank of a term the app did not track was found by the provider's own scan: discovered, shown to every follower.
INSERT INTO "app_ranks" ("store_app_id", "country", "term_key", "date", "term", "rank", "discovered")
SELECT DISTINCT ON (t."store_app_id", r."country", r."term_key", r."date")
       t."store_app_id", r."country", r."term_key", r."date", r."term", r."rank",
       bool_or(r."rank" IS NOT NULL AND k."app_id" IS NULL) OVER (PARTITION BY t."store_app_id", r."country", r."term_key", r."date")
FROM "keyword_ranks" r
JOIN "tracked_apps" t ON t."id" = r."app_id"
LEFT JOIN "tracked_keywords" k ON k."app_id" = r."app_id" AND k."country" = r."country" AND k."term_key" = r."term_key"
ORDER BY t."store_app_id", r."country", r."term_key", r."date", t."created_at", t."id";

INSERT INTO "app_ranks" ("store_app_id", "country", "term_key", "date", "term", "rank")
SELECT DISTINCT ON (c."store_app_id", r."country", r."term_key", r."date")
       c."store_app_id", r."country", r."term_key", r."date", COALESCE(k."term", r."term_key"), r."rank"
FROM "competitor_ranks" r
JOIN "competitors" c ON c."id" = r."competitor_id"
LEFT JOIN "tracked_keywords" k ON k."app_id" = r."app_id" AND k."country" = r."country" AND k."term_key" = r."term_key"
ORDER BY c."store_app_id", r."country", r."term_key", r."date", c."created_at", c."id"
ON CONFLICT DO NOTHING;

DROP TABLE "keyword_ranks";
DROP TABLE "competitor_ranks";

CREATE FUNCTION "store_app_data_changed"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  -- In the order of their ids, so that two statements moving overlapping sets of store apps never wait on each other
  -- in a cycle.
  PERFORM 1 FROM "store_apps" WHERE "id" IN (SELECT "store_app_id" FROM changed) ORDER BY "id" FOR NO KEY UPDATE;
  UPDATE "store_apps" SET "data_version" = "data_version" + 1 WHERE "id" IN (SELECT "store_app_id" FROM changed);
  RETURN NULL;
END
$$;

CREATE TRIGGER "app_ranks_changed_insert" AFTER INSERT ON "app_ranks"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_app_data_changed"();
CREATE TRIGGER "app_ranks_changed_update" AFTER UPDATE ON "app_ranks"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_app_data_changed"();
CREATE TRIGGER "app_ranks_changed_delete" AFTER DELETE ON "app_ranks"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "store_app_data_changed"();
CREATE TRIGGER "app_ranks_changed_truncate" AFTER TRUNCATE ON "app_ranks"
  FOR EACH STATEMENT EXECUTE FUNCTION "store_data_changed"();
