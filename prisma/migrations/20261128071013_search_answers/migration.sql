-- What a store's search answered for a term in a storefront on a day, stored once whoever tracks the term: every
-- store app's rank for that term that day is its place in the list (docs/architecture.md, "Store facts"). A refresh
-- reads a stored answer instead of searching again, for any app or competitor of any account.
CREATE TABLE "search_answers" (
    "livemode" BOOLEAN NOT NULL,
    "store" "Store" NOT NULL,
    "country" CHAR(2) NOT NULL,
    "term_key" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "store_ids" TEXT[] NOT NULL,
    "observed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "search_answers_pkey" PRIMARY KEY ("livemode","store","country","term_key","date")
) PARTITION BY RANGE ("date");

-- The monthly partitions (<table>_YYYY_MM) of the store facts' time series, app_ranks and search_answers, for the
-- months from `first` to `last`, made where missing. Called by the refresh before it writes, in a statement of its own
-- (src/server/db/ingest-statements.ts, ensureFactPartitions): making a partition locks the whole table, which no long
-- transaction may hold. Two calls at once: the second waits for the first's lock and finds the partition there.
CREATE FUNCTION "ensure_store_fact_partitions"("first" DATE, "last" DATE) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
  "parent" TEXT;
  "month" DATE;
  "partition" TEXT;
BEGIN
  FOREACH "parent" IN ARRAY ARRAY['app_ranks', 'search_answers'] LOOP
    "month" := date_trunc('month', "first")::date;
    WHILE "month" <= "last" LOOP
      "partition" := "parent" || '_' || to_char("month", 'YYYY_MM');
      IF to_regclass(format('%I', "partition")) IS NULL THEN
        PERFORM pg_advisory_xact_lock(hashtext("parent" || ' partitions'));
        EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
                       "partition", "parent", "month", ("month" + interval '1 month')::date);
      END IF;
      "month" := ("month" + interval '1 month')::date;
    END LOOP;
  END LOOP;
END
$$;

-- Retention, a month at a time: drops the partitions of `parent` whose whole month is before `before`, and returns
-- their names. Dropping a partition frees its space at once, and leaves nothing for vacuum to do, where deleting its
-- rows would leave a month of dead rows behind.
CREATE FUNCTION "drop_store_fact_partitions_before"("parent" TEXT, "before" DATE) RETURNS SETOF TEXT
LANGUAGE plpgsql AS $$
DECLARE
  "partition" TEXT;
BEGIN
  IF "parent" NOT IN ('app_ranks', 'search_answers') THEN
    RAISE EXCEPTION 'not a store fact table: %', "parent";
  END IF;
  FOR "partition" IN
    SELECT c.relname FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = "parent"::regclass
      AND c.relname ~ ('^' || "parent" || '_[0-9]{4}_[0-9]{2}$')
      AND (to_date(right(c.relname, 7), 'YYYY_MM') + interval '1 month')::date <= "before"
    ORDER BY c.relname
  LOOP
    EXECUTE format('DROP TABLE %I', "partition");
    RETURN NEXT "partition";
  END LOOP;
END
$$;

-- The partitions app_ranks has, for search_answers too.
SELECT "ensure_store_fact_partitions"(
  LEAST((SELECT min("date") FROM "app_ranks"), CURRENT_DATE),
  GREATEST((SELECT max("date") FROM "app_ranks"), (CURRENT_DATE + interval '1 month')::date));

DROP FUNCTION "ensure_app_rank_partitions"(DATE, DATE);
