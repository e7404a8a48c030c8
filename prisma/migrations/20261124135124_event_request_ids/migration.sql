-- AlterTable
ALTER TABLE "domain_events" ADD COLUMN     "request_id" UUID;

