-- AlterTable
ALTER TABLE "tracked_apps" ADD COLUMN     "last_observed_at" TIMESTAMPTZ(3),
ADD COLUMN     "last_provider_error" TEXT,
ADD COLUMN     "last_provider_error_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "app_storefronts" ADD COLUMN     "last_error" TEXT,
ADD COLUMN     "last_error_at" TIMESTAMPTZ(3),
ADD COLUMN     "last_observed_at" TIMESTAMPTZ(3);

