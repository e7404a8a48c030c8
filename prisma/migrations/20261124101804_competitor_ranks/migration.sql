-- CreateTable
CREATE TABLE "competitor_ranks" (
    "competitor_id" UUID NOT NULL,
    "app_id" UUID NOT NULL,
    "country" CHAR(2) NOT NULL,
    "term_key" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "rank" SMALLINT,

    CONSTRAINT "competitor_ranks_pkey" PRIMARY KEY ("competitor_id","country","term_key","date")
);

-- CreateIndex
CREATE INDEX "competitor_ranks_app_id_country_date_idx" ON "competitor_ranks"("app_id", "country", "date");

-- AddForeignKey
ALTER TABLE "competitor_ranks" ADD CONSTRAINT "competitor_ranks_competitor_id_fkey" FOREIGN KEY ("competitor_id") REFERENCES "competitors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "competitor_ranks" ADD CONSTRAINT "competitor_ranks_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "tracked_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The app's data version follows its competitors' ranks, as it follows its own (20261122023815_response_cache_versions).
CREATE TRIGGER "competitor_ranks_changed_insert" AFTER INSERT ON "competitor_ranks"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "app_data_changed"();
CREATE TRIGGER "competitor_ranks_changed_update" AFTER UPDATE ON "competitor_ranks"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "app_data_changed"();
CREATE TRIGGER "competitor_ranks_changed_delete" AFTER DELETE ON "competitor_ranks"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "app_data_changed"();
CREATE TRIGGER "competitor_ranks_changed_truncate" AFTER TRUNCATE ON "competitor_ranks"
  FOR EACH STATEMENT EXECUTE FUNCTION "store_data_changed"();
