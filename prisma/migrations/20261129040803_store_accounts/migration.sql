-- AlterTable
ALTER TABLE "tracked_apps" ADD COLUMN     "owned_by_store_account_id" UUID;

-- CreateTable
CREATE TABLE "store_accounts" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "store" "Store" NOT NULL,
    "label" TEXT NOT NULL,
    "credential" TEXT NOT NULL,
    "last_checked_at" TIMESTAMPTZ(3) NOT NULL,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "store_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "store_accounts_account_id_store_key" ON "store_accounts"("account_id", "store");

-- AddForeignKey
ALTER TABLE "tracked_apps" ADD CONSTRAINT "tracked_apps_owned_by_store_account_id_fkey" FOREIGN KEY ("owned_by_store_account_id") REFERENCES "store_accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "store_accounts" ADD CONSTRAINT "store_accounts_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

