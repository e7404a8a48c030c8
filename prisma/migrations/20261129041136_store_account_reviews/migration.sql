-- CreateTable
CREATE TABLE "store_account_reviews" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "tracked_app_id" UUID NOT NULL,
    "store_review_id" TEXT NOT NULL,
    "rating" INTEGER NOT NULL,
    "title" TEXT,
    "body" TEXT,
    "author" TEXT,
    "territory" TEXT,
    "app_version" TEXT,
    "written_at" TIMESTAMPTZ(3) NOT NULL,
    "response_body" TEXT,
    "response_id" TEXT,
    "response_state" TEXT,
    "response_updated_at" TIMESTAMPTZ(3),
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "store_account_reviews_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "store_account_reviews_account_id_idx" ON "store_account_reviews"("account_id");

-- CreateIndex
CREATE INDEX "store_account_reviews_tracked_app_id_written_at_idx" ON "store_account_reviews"("tracked_app_id", "written_at");

-- CreateIndex
CREATE UNIQUE INDEX "store_account_reviews_tracked_app_id_store_review_id_key" ON "store_account_reviews"("tracked_app_id", "store_review_id");

-- AddForeignKey
ALTER TABLE "store_account_reviews" ADD CONSTRAINT "store_account_reviews_tracked_app_id_fkey" FOREIGN KEY ("tracked_app_id") REFERENCES "tracked_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

