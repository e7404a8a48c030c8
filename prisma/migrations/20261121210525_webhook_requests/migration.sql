-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "requested_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "webhook_deliveries_requested_at_idx" ON "webhook_deliveries"("requested_at");

