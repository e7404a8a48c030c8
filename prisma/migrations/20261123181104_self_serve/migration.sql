-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "stripe_customer_id" TEXT,
ADD COLUMN     "stripe_subscription_id" TEXT,
ADD COLUMN     "subscription_status" TEXT,
ADD COLUMN     "trial_credits" INTEGER,
ADD COLUMN     "trial_ends_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "plan_changes" (
    "id" BIGSERIAL NOT NULL,
    "account_id" UUID NOT NULL,
    "from_plan" "PlanTier",
    "to_plan" "PlanTier" NOT NULL,
    "reason" TEXT NOT NULL,
    "stripe_event_id" TEXT,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plan_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stripe_events" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "account_id" UUID,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stripe_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "app_backfills" (
    "app_id" UUID NOT NULL,
    "days_total" INTEGER NOT NULL DEFAULT 0,
    "days_done" INTEGER NOT NULL DEFAULT 0,
    "claimed_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "app_backfills_pkey" PRIMARY KEY ("app_id")
);

-- CreateTable
CREATE TABLE "app_storefronts" (
    "app_id" UUID NOT NULL,
    "country" CHAR(2) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_storefronts_pkey" PRIMARY KEY ("app_id","country")
);

-- CreateIndex
CREATE INDEX "plan_changes_account_id_changed_at_idx" ON "plan_changes"("account_id", "changed_at");

-- CreateIndex
CREATE INDEX "stripe_events_processed_at_idx" ON "stripe_events"("processed_at");

-- CreateIndex
CREATE INDEX "app_backfills_finished_at_created_at_idx" ON "app_backfills"("finished_at", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_stripe_customer_id_key" ON "accounts"("stripe_customer_id");

-- AddForeignKey
ALTER TABLE "plan_changes" ADD CONSTRAINT "plan_changes_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app_backfills" ADD CONSTRAINT "app_backfills_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "tracked_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app_storefronts" ADD CONSTRAINT "app_storefronts_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "tracked_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- An app's backfill progress and its storefronts are members of the app as GET /apps and GET /apps/{id} answer it:
-- their changes move the app's data version and its account's, like a change of the app's own row
-- (20261122023815_response_cache_versions).
CREATE FUNCTION "app_member_changed"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "tracked_apps" SET "data_version" = "data_version" + 1 WHERE "id" IN (SELECT "app_id" FROM changed);
  UPDATE "accounts" SET "data_version" = "data_version" + 1
  WHERE "id" IN (SELECT "account_id" FROM "tracked_apps" WHERE "id" IN (SELECT "app_id" FROM changed));
  RETURN NULL;
END
$$;

DO $$
DECLARE
  app_table TEXT;
BEGIN
  FOREACH app_table IN ARRAY ARRAY['app_backfills', 'app_storefronts'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "app_member_changed"()', app_table || '_changed_insert', app_table);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "app_member_changed"()', app_table || '_changed_update', app_table);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "app_member_changed"()', app_table || '_changed_delete', app_table);
  END LOOP;
END
$$;

-- An app is tracked in its primary storefront and in every storefront of its tracked keywords, besides those the user
-- adds: the database keeps that set itself, whatever code path adds the app or the keyword.
INSERT INTO "app_storefronts" ("app_id", "country")
  SELECT "id", "primary_country" FROM "tracked_apps"
  UNION SELECT DISTINCT "app_id", "country" FROM "tracked_keywords"
  ON CONFLICT DO NOTHING;

CREATE FUNCTION "primary_storefront_added"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "app_storefronts" ("app_id", "country") SELECT "id", "primary_country" FROM changed ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER "tracked_apps_primary_storefront" AFTER INSERT ON "tracked_apps"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "primary_storefront_added"();

CREATE FUNCTION "keyword_storefront_added"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "app_storefronts" ("app_id", "country")
    SELECT DISTINCT c."app_id", c."country" FROM changed c
    WHERE NOT EXISTS (SELECT 1 FROM "app_storefronts" s WHERE s."app_id" = c."app_id" AND s."country" = c."country")
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER "tracked_keywords_storefront" AFTER INSERT ON "tracked_keywords"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "keyword_storefront_added"();
