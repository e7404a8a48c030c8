-- CreateTable
CREATE TABLE "mcp_tasks" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "credential" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "result" JSONB,
    "error" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mcp_tasks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "mcp_tasks_expires_at_idx" ON "mcp_tasks"("expires_at");

-- AddForeignKey
ALTER TABLE "mcp_tasks" ADD CONSTRAINT "mcp_tasks_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

