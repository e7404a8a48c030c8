-- Each store has its own search: keyword metrics are kept per store. Those stored before were one per term, storefront
-- and day, whichever store's app observed them first: they stay the App Store's, and the days and terms a Google Play
-- app ranked for get a copy as Google Play's.
ALTER TABLE "keyword_metrics" ADD COLUMN "store" "Store" NOT NULL DEFAULT 'app_store';
ALTER TABLE "keyword_metrics" ALTER COLUMN "store" DROP DEFAULT;
ALTER TABLE "keyword_metrics" DROP CONSTRAINT "keyword_metrics_pkey",
ADD CONSTRAINT "keyword_metrics_pkey" PRIMARY KEY ("store", "country", "term_key", "date");

INSERT INTO "keyword_metrics" ("store", "country", "term_key", "date", "volume", "difficulty")
  SELECT 'google_play', m."country", m."term_key", m."date", m."volume", m."difficulty"
  FROM "keyword_metrics" m
  WHERE EXISTS (
    SELECT 1 FROM "keyword_ranks" r JOIN "tracked_apps" a ON a."id" = r."app_id"
    WHERE a."store" = 'google_play' AND r."country" = m."country" AND r."term_key" = m."term_key" AND r."date" = m."date"
  );

-- AlterTable
ALTER TABLE "rating_snapshots" ADD COLUMN "histogram" JSONB;
