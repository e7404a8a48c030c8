-- AlterTable
ALTER TABLE "mcp_tasks" ADD COLUMN     "follows" JSONB;

