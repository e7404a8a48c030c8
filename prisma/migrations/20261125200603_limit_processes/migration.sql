-- The register of the app's live processes: a shared limit that cannot reach its counts divides itself by how many
-- processes are alive, so that together they never let more than the limit through.
-- CreateTable
CREATE TABLE "limit_processes" (
    "id" TEXT NOT NULL,
    "seen_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "limit_processes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "limit_processes_seen_at_idx" ON "limit_processes"("seen_at");

