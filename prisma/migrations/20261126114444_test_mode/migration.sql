-- AlterEnum
ALTER TYPE "PlanTier" ADD VALUE 'test';

-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "live_account_id" UUID;

-- AlterTable
ALTER TABLE "keyword_metrics" DROP CONSTRAINT "keyword_metrics_pkey",
ADD COLUMN     "livemode" BOOLEAN NOT NULL DEFAULT true,
ADD CONSTRAINT "keyword_metrics_pkey" PRIMARY KEY ("livemode", "store", "country", "term_key", "date");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_live_account_id_key" ON "accounts"("live_account_id");

-- AddForeignKey
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_live_account_id_fkey" FOREIGN KEY ("live_account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- A sandbox, and only a sandbox, is on the test tier (compared as text: a value added to an enum cannot be used in the
-- transaction that adds it).
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_sandbox_tier" CHECK (("live_account_id" IS NULL) = ("plan"::text <> 'test'));
