-- CreateTable
CREATE TABLE "credit_usage_daily" (
    "account_id" UUID NOT NULL,
    "period_start" DATE NOT NULL,
    "day" DATE NOT NULL,
    "endpoint" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "calls" INTEGER NOT NULL,
    "credits" INTEGER NOT NULL,

    CONSTRAINT "credit_usage_daily_pkey" PRIMARY KEY ("account_id","day","endpoint","subject")
);

-- CreateIndex
CREATE INDEX "credit_usage_daily_account_id_period_start_idx" ON "credit_usage_daily"("account_id", "period_start");

-- AddForeignKey
ALTER TABLE "credit_usage_daily" ADD CONSTRAINT "credit_usage_daily_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

