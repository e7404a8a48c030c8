-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "require_key_expiry" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "expiry_notice_at" TIMESTAMPTZ(3);

