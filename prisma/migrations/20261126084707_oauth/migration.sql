-- CreateEnum
CREATE TYPE "CredentialKind" AS ENUM ('api_key', 'oauth_grant');

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "kind" "CredentialKind" NOT NULL DEFAULT 'api_key',
ADD COLUMN     "oauth_client_id" TEXT,
ADD COLUMN     "oauth_grant_id" TEXT,
ALTER COLUMN "secret_hash" DROP NOT NULL;

-- CreateTable
CREATE TABLE "oauth_records" (
    "kind" TEXT NOT NULL,
    "id_hash" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grant_id" TEXT,
    "uid" TEXT,
    "user_code" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "consumed_at" TIMESTAMPTZ(3),

    CONSTRAINT "oauth_records_pkey" PRIMARY KEY ("kind","id_hash")
);

-- CreateIndex
CREATE INDEX "oauth_records_grant_id_idx" ON "oauth_records"("grant_id");

-- CreateIndex
CREATE INDEX "oauth_records_kind_uid_idx" ON "oauth_records"("kind", "uid");

-- CreateIndex
CREATE INDEX "oauth_records_kind_user_code_idx" ON "oauth_records"("kind", "user_code");

-- CreateIndex
CREATE INDEX "oauth_records_expires_at_idx" ON "oauth_records"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_oauth_grant_id_key" ON "api_keys"("oauth_grant_id");


-- A key has a secret and no grant; a connected app a grant and no secret.
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_kind_credentials" CHECK (
  ("kind" = 'api_key' AND "secret_hash" IS NOT NULL AND "oauth_grant_id" IS NULL)
  OR ("kind" = 'oauth_grant' AND "secret_hash" IS NULL AND "oauth_grant_id" IS NOT NULL)
);
