-- The apps of the stores, once each, whoever follows them (docs/architecture.md, "Store facts"): what is observed of
-- an app is to be stored under its store_apps row, not under each account's tracked app or competitor. A sandbox's
-- app (its account's live_account_id set) is a store app of its own (livemode false): generated facts never mix with
-- the stores'.
CREATE TABLE "store_apps" (
    "id" SERIAL NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "store" "Store" NOT NULL,
    "store_id" TEXT NOT NULL,

    CONSTRAINT "store_apps_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "store_apps_livemode_store_store_id_key" ON "store_apps"("livemode", "store", "store_id");

-- Every app and competitor followed today.
INSERT INTO "store_apps" ("livemode", "store", "store_id")
SELECT DISTINCT a."live_account_id" IS NULL, t."store", t."store_id"
FROM "tracked_apps" t JOIN "accounts" a ON a."id" = t."account_id"
UNION
SELECT DISTINCT a."live_account_id" IS NULL, c."store", c."store_id"
FROM "competitors" c JOIN "tracked_apps" t ON t."id" = c."app_id" JOIN "accounts" a ON a."id" = t."account_id"
ORDER BY 1 DESC, 2, 3;

ALTER TABLE "tracked_apps" ADD COLUMN "store_app_id" INTEGER;
ALTER TABLE "competitors" ADD COLUMN "store_app_id" INTEGER;

UPDATE "tracked_apps" t SET "store_app_id" = s."id"
FROM "accounts" a, "store_apps" s
WHERE a."id" = t."account_id" AND s."livemode" = (a."live_account_id" IS NULL) AND s."store" = t."store" AND s."store_id" = t."store_id";

UPDATE "competitors" c SET "store_app_id" = s."id"
FROM "tracked_apps" t, "accounts" a, "store_apps" s
WHERE t."id" = c."app_id" AND a."id" = t."account_id"
  AND s."livemode" = (a."live_account_id" IS NULL) AND s."store" = c."store" AND s."store_id" = c."store_id";

-- The default is Prisma's way of letting a create leave the column out: the trigger below always sets it.
ALTER TABLE "tracked_apps" ALTER COLUMN "store_app_id" SET NOT NULL, ALTER COLUMN "store_app_id" SET DEFAULT 0;
ALTER TABLE "competitors" ALTER COLUMN "store_app_id" SET NOT NULL, ALTER COLUMN "store_app_id" SET DEFAULT 0;

CREATE INDEX "tracked_apps_store_app_id_idx" ON "tracked_apps"("store_app_id");
CREATE INDEX "competitors_store_app_id_idx" ON "competitors"("store_app_id");

ALTER TABLE "tracked_apps" ADD CONSTRAINT "tracked_apps_store_app_id_fkey" FOREIGN KEY ("store_app_id") REFERENCES "store_apps"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "competitors" ADD CONSTRAINT "competitors_store_app_id_fkey" FOREIGN KEY ("store_app_id") REFERENCES "store_apps"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The store app of (mode, store, store id), added on first sight. Two first sights at once: the insert of the second
-- waits for the first's, finds the row there and reads it.
CREATE FUNCTION "store_app_id_of"("p_livemode" BOOLEAN, "p_store" "Store", "p_store_id" TEXT) RETURNS INTEGER
LANGUAGE plpgsql AS $$
DECLARE
  "found" INTEGER;
BEGIN
  SELECT "id" INTO "found" FROM "store_apps" WHERE "livemode" = "p_livemode" AND "store" = "p_store" AND "store_id" = "p_store_id";
  IF "found" IS NULL THEN
    INSERT INTO "store_apps" ("livemode", "store", "store_id") VALUES ("p_livemode", "p_store", "p_store_id")
      ON CONFLICT ("livemode", "store", "store_id") DO NOTHING RETURNING "id" INTO "found";
    IF "found" IS NULL THEN
      SELECT "id" INTO "found" FROM "store_apps" WHERE "livemode" = "p_livemode" AND "store" = "p_store" AND "store_id" = "p_store_id";
    END IF;
  END IF;
  RETURN "found";
END
$$;

-- Whichever code inserts an app or a competitor (a service, a test's factory, the operator CLI), the database names its
-- store app. An account that does not exist counts as live here; the insert then fails on its own foreign key, as before.
CREATE FUNCTION "tracked_app_store_app"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  NEW."store_app_id" := "store_app_id_of"(
    COALESCE((SELECT "live_account_id" IS NULL FROM "accounts" WHERE "id" = NEW."account_id"), TRUE), NEW."store", NEW."store_id");
  RETURN NEW;
END
$$;

CREATE FUNCTION "competitor_store_app"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  NEW."store_app_id" := "store_app_id_of"(
    COALESCE((SELECT a."live_account_id" IS NULL FROM "tracked_apps" t JOIN "accounts" a ON a."id" = t."account_id" WHERE t."id" = NEW."app_id"), TRUE),
    NEW."store", NEW."store_id");
  RETURN NEW;
END
$$;

CREATE TRIGGER "tracked_apps_store_app" BEFORE INSERT OR UPDATE OF "store", "store_id", "store_app_id" ON "tracked_apps"
  FOR EACH ROW EXECUTE FUNCTION "tracked_app_store_app"();
CREATE TRIGGER "competitors_store_app" BEFORE INSERT OR UPDATE OF "store", "store_id", "store_app_id" ON "competitors"
  FOR EACH ROW EXECUTE FUNCTION "competitor_store_app"();
