-- AlterTable
ALTER TABLE "tracked_apps" ADD COLUMN     "refreshed_through" DATE;

-- CreateTable
CREATE TABLE "keyword_ranks" (
    "app_id" UUID NOT NULL,
    "country" CHAR(2) NOT NULL,
    "term_key" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "term" TEXT NOT NULL,
    "rank" SMALLINT,

    CONSTRAINT "keyword_ranks_pkey" PRIMARY KEY ("app_id","country","term_key","date")
);

-- CreateTable
CREATE TABLE "keyword_metrics" (
    "country" CHAR(2) NOT NULL,
    "term_key" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "volume" INTEGER NOT NULL,
    "difficulty" SMALLINT NOT NULL,

    CONSTRAINT "keyword_metrics_pkey" PRIMARY KEY ("country","term_key","date")
);

-- CreateTable
CREATE TABLE "reviews" (
    "id" UUID NOT NULL,
    "app_id" UUID NOT NULL,
    "store_review_id" TEXT NOT NULL,
    "country" CHAR(2) NOT NULL,
    "rating" SMALLINT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "version" TEXT,
    "reviewed_at" TIMESTAMPTZ(3) NOT NULL,
    "sentiment" REAL NOT NULL,

    CONSTRAINT "reviews_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rating_snapshots" (
    "app_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "average" REAL NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "rating_snapshots_pkey" PRIMARY KEY ("app_id","date")
);

-- CreateTable
CREATE TABLE "category_ranks" (
    "app_id" UUID NOT NULL,
    "country" CHAR(2) NOT NULL,
    "date" DATE NOT NULL,
    "category" TEXT NOT NULL,
    "rank" SMALLINT,

    CONSTRAINT "category_ranks_pkey" PRIMARY KEY ("app_id","country","date")
);

-- CreateTable
CREATE TABLE "metadata_snapshots" (
    "id" UUID NOT NULL,
    "app_id" UUID NOT NULL,
    "country" CHAR(2) NOT NULL,
    "captured_at" TIMESTAMPTZ(3) NOT NULL,
    "title" TEXT NOT NULL,
    "subtitle" TEXT,
    "description" TEXT NOT NULL,
    "keyword_field" TEXT,
    "promotional_text" TEXT,
    "whats_new" TEXT,
    "screenshots_count" SMALLINT NOT NULL,
    "has_video" BOOLEAN NOT NULL,
    "price" TEXT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "version" TEXT NOT NULL,

    CONSTRAINT "metadata_snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "metadata_changes" (
    "id" UUID NOT NULL,
    "app_id" UUID NOT NULL,
    "country" CHAR(2) NOT NULL,
    "field" TEXT NOT NULL,
    "before" TEXT,
    "after" TEXT,
    "changed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "metadata_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "competitors" (
    "id" UUID NOT NULL,
    "app_id" UUID NOT NULL,
    "store_url" TEXT NOT NULL,
    "store" "Store" NOT NULL,
    "store_id" TEXT NOT NULL,
    "name" TEXT,
    "developer" TEXT,
    "category" TEXT,
    "icon_url" TEXT,
    "rating" REAL,
    "rating_count" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "competitors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "domain_events" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "app_id" UUID,
    "data" JSONB NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "domain_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "keyword_ranks_app_id_country_date_idx" ON "keyword_ranks"("app_id", "country", "date");

-- CreateIndex
CREATE INDEX "reviews_app_id_reviewed_at_idx" ON "reviews"("app_id", "reviewed_at");

-- CreateIndex
CREATE INDEX "reviews_app_id_rating_reviewed_at_idx" ON "reviews"("app_id", "rating", "reviewed_at");

-- CreateIndex
CREATE UNIQUE INDEX "reviews_app_id_store_review_id_key" ON "reviews"("app_id", "store_review_id");

-- CreateIndex
CREATE INDEX "metadata_snapshots_app_id_country_captured_at_idx" ON "metadata_snapshots"("app_id", "country", "captured_at");

-- CreateIndex
CREATE INDEX "metadata_changes_app_id_country_changed_at_idx" ON "metadata_changes"("app_id", "country", "changed_at");

-- CreateIndex
CREATE UNIQUE INDEX "competitors_app_id_store_store_id_key" ON "competitors"("app_id", "store", "store_id");

-- CreateIndex
CREATE INDEX "domain_events_account_id_occurred_at_idx" ON "domain_events"("account_id", "occurred_at");

-- CreateIndex
CREATE INDEX "domain_events_occurred_at_idx" ON "domain_events"("occurred_at");

-- AddForeignKey
ALTER TABLE "keyword_ranks" ADD CONSTRAINT "keyword_ranks_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "tracked_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "tracked_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rating_snapshots" ADD CONSTRAINT "rating_snapshots_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "tracked_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "category_ranks" ADD CONSTRAINT "category_ranks_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "tracked_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "metadata_snapshots" ADD CONSTRAINT "metadata_snapshots_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "tracked_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "metadata_changes" ADD CONSTRAINT "metadata_changes_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "tracked_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "competitors" ADD CONSTRAINT "competitors_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "tracked_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "domain_events" ADD CONSTRAINT "domain_events_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

