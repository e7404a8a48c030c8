-- AlterTable
ALTER TABLE "memberships" ADD COLUMN     "ownership_offered_by_id" UUID;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_ownership_offered_by_id_fkey" FOREIGN KEY ("ownership_offered_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

