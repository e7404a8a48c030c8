-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "api_version" TEXT;

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "api_version" TEXT;

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "api_version" TEXT;


-- Every account and webhook endpoint that existed before dated versions keeps the meanings it was built against: the
-- original version. An account created from now on is pinned to the newest as its first key is created (until then,
-- and for a key of its own that names none, the account's version applies; src/server/domain/api-versions.ts).
UPDATE "accounts" SET "api_version" = '2026-11-21';
UPDATE "webhook_endpoints" SET "api_version" = '2026-11-21';
