-- CreateTable
CREATE TABLE "key_calls" (
    "id" BIGSERIAL NOT NULL,
    "key_id" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "method" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "credits" INTEGER NOT NULL,
    "client_address" TEXT,
    "request_id" UUID NOT NULL,

    CONSTRAINT "key_calls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "key_call_days" (
    "key_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "calls" INTEGER NOT NULL,
    "failures" INTEGER NOT NULL,

    CONSTRAINT "key_call_days_pkey" PRIMARY KEY ("key_id","day")
);

-- CreateIndex
CREATE INDEX "key_calls_key_id_at_idx" ON "key_calls"("key_id", "at" DESC);

-- AddForeignKey
ALTER TABLE "key_calls" ADD CONSTRAINT "key_calls_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "key_call_days" ADD CONSTRAINT "key_call_days_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

