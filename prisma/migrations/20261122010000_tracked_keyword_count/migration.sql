-- AlterTable
ALTER TABLE "tracked_apps" ADD COLUMN     "tracked_keyword_count" INTEGER NOT NULL DEFAULT 0;

-- The number of an app's tracked keywords, kept by the database itself (statement triggers with transition tables,
-- so that adding 100 terms is one update of the app's row), whichever code inserts or deletes them, cascades
-- included. GET /apps and GET /apps/{id} read it instead of counting the keywords on every call. Keywords never move
-- from one app to another, so updates need no trigger.
UPDATE "tracked_apps" a SET "tracked_keyword_count" = c.n
FROM (SELECT "app_id", count(*)::INTEGER AS n FROM "tracked_keywords" GROUP BY "app_id") c
WHERE a."id" = c."app_id";

CREATE FUNCTION "tracked_keywords_counted"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "tracked_apps" a SET "tracked_keyword_count" = a."tracked_keyword_count" + c.n
    FROM (SELECT "app_id", count(*)::INTEGER AS n FROM inserted GROUP BY "app_id") c
    WHERE a."id" = c."app_id";
  ELSE
    UPDATE "tracked_apps" a SET "tracked_keyword_count" = a."tracked_keyword_count" - c.n
    FROM (SELECT "app_id", count(*)::INTEGER AS n FROM removed GROUP BY "app_id") c
    WHERE a."id" = c."app_id";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "tracked_keywords_count_insert" AFTER INSERT ON "tracked_keywords"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "tracked_keywords_counted"();
CREATE TRIGGER "tracked_keywords_count_delete" AFTER DELETE ON "tracked_keywords"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION "tracked_keywords_counted"();
