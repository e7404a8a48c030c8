-- CreateTable
CREATE TABLE "exports" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "request" JSONB NOT NULL,
    "format" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "rows_estimated" BIGINT NOT NULL DEFAULT 0,
    "rows_done" BIGINT NOT NULL DEFAULT 0,
    "credits" INTEGER NOT NULL DEFAULT 0,
    "charge_request_id" UUID,
    "claimed_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "exports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "export_files" (
    "id" UUID NOT NULL,
    "export_id" UUID NOT NULL,
    "dataset" TEXT NOT NULL,
    "rows" BIGINT NOT NULL DEFAULT 0,
    "bytes" BIGINT NOT NULL DEFAULT 0,
    "sha256" TEXT,
    "storage" TEXT NOT NULL DEFAULT 'postgres',
    "storage_key" TEXT,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "export_files_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "export_file_chunks" (
    "file_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "export_file_chunks_pkey" PRIMARY KEY ("file_id","seq")
);

-- CreateIndex
CREATE INDEX "exports_account_id_created_at_idx" ON "exports"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "exports_state_claimed_at_idx" ON "exports"("state", "claimed_at");

-- CreateIndex
CREATE INDEX "exports_expires_at_idx" ON "exports"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "export_files_export_id_dataset_key" ON "export_files"("export_id", "dataset");

-- AddForeignKey
ALTER TABLE "exports" ADD CONSTRAINT "exports_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "export_files" ADD CONSTRAINT "export_files_export_id_fkey" FOREIGN KEY ("export_id") REFERENCES "exports"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "export_file_chunks" ADD CONSTRAINT "export_file_chunks_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "export_files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

