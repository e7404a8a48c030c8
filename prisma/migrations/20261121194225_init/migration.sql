-- CreateEnum
CREATE TYPE "PlanTier" AS ENUM ('free', 'solo', 'pro', 'business', 'agency', 'enterprise');

-- CreateEnum
CREATE TYPE "ApiKeyScope" AS ENUM ('read-only', 'read-write');

-- CreateEnum
CREATE TYPE "Store" AS ENUM ('app_store', 'google_play');

-- CreateTable
CREATE TABLE "accounts" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "plan" "PlanTier" NOT NULL DEFAULT 'free',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ended_session_tokens" (
    "jti" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ended_session_tokens_pkey" PRIMARY KEY ("jti")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "created_by_id" UUID,
    "name" TEXT NOT NULL,
    "scope" "ApiKeyScope" NOT NULL,
    "secret_hash" BYTEA NOT NULL,
    "display_prefix" TEXT NOT NULL,
    "last_four" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "rolled_at" TIMESTAMPTZ(3),
    "rolled_from_id" UUID,
    "last_used_at" TIMESTAMPTZ(3),
    "last_used_ip" TEXT,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tracked_apps" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "store" "Store" NOT NULL,
    "store_id" TEXT NOT NULL,
    "bundle_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "developer" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "primary_country" CHAR(2) NOT NULL,
    "icon_url" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tracked_apps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tracked_keywords" (
    "id" UUID NOT NULL,
    "app_id" UUID NOT NULL,
    "term" TEXT NOT NULL,
    "term_key" TEXT NOT NULL,
    "country" CHAR(2) NOT NULL,
    "is_favorite" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tracked_keywords_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "users_account_id_idx" ON "users"("account_id");

-- CreateIndex
CREATE INDEX "ended_session_tokens_expires_at_idx" ON "ended_session_tokens"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_secret_hash_key" ON "api_keys"("secret_hash");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_rolled_from_id_key" ON "api_keys"("rolled_from_id");

-- CreateIndex
CREATE INDEX "api_keys_account_id_created_at_idx" ON "api_keys"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "api_keys_display_prefix_idx" ON "api_keys"("display_prefix");

-- CreateIndex
CREATE INDEX "tracked_apps_account_id_created_at_idx" ON "tracked_apps"("account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "tracked_apps_account_id_store_store_id_key" ON "tracked_apps"("account_id", "store", "store_id");

-- CreateIndex
CREATE UNIQUE INDEX "tracked_keywords_app_id_country_term_key_key" ON "tracked_keywords"("app_id", "country", "term_key");

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ended_session_tokens" ADD CONSTRAINT "ended_session_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_rolled_from_id_fkey" FOREIGN KEY ("rolled_from_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tracked_apps" ADD CONSTRAINT "tracked_apps_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tracked_keywords" ADD CONSTRAINT "tracked_keywords_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "tracked_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

