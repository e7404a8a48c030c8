-- Charges decided in order as before (migration key_restrictions), written once per batch: a group-committed batch of
-- charges used to run four statements for each charge (the account's usage upsert, the ledger row, the daily rollup's
-- upsert, and their foreign-key checks); the decisions now run in the function's own variables, and the writes are
-- one usage update per account and period, one ledger insert and one rollup upsert (a row per day, endpoint and
-- subject) for the whole batch.
--
-- What each charge is told is unchanged: in order within its account and period, it is refused ('credits') when it
-- would take the period's usage past its limit, or ('key_budget') its key's monthly spending past the key's budget,
-- and otherwise told the usage after it. The account's usage row is still locked first (accounts, then periods, in
-- order), so refunds, budget seeding and other batches queue behind it as before; the key rows of budgeted keys are
-- still upserted charge by charge behind that lock (budgeted keys are few). The usage row's version moves by the
-- number of charges accepted, where it moved once per charge and twice per budget refusal: it only has to move when
-- the usage report does. A first charge of a period that is refused no longer leaves its account no usage row: the
-- row is created at 0 before the decisions, under the same lock, and reads as no usage did.
CREATE OR REPLACE FUNCTION "charge_credits"(charges JSONB)
RETURNS TABLE ("position" INTEGER, "used_after" INTEGER, "refused" TEXT)
LANGUAGE plpgsql AS $$
DECLARE
  c RECORD;
  group_account UUID;
  group_period DATE;
  usage_now INTEGER;
  accepted_in_group INTEGER := 0;
  accepted INTEGER[] := ARRAY[]::INTEGER[];
  key_used INTEGER;
BEGIN
  FOR c IN
    SELECT t.n::INTEGER AS n, x.*
    FROM jsonb_array_elements(charges) WITH ORDINALITY AS t(item, n),
         jsonb_to_record(t.item) AS x(account_id UUID, period_start DATE, cost INTEGER, "limit" INTEGER, key_id UUID,
                                      key_budget INTEGER)
    ORDER BY x.account_id, x.period_start, t.n
  LOOP
    IF group_account IS DISTINCT FROM c.account_id OR group_period IS DISTINCT FROM c.period_start THEN
      IF accepted_in_group > 0 THEN
        UPDATE credit_usage SET used = usage_now, version = version + accepted_in_group
        WHERE account_id = group_account AND period_start = group_period;
      END IF;
      group_account := c.account_id;
      group_period := c.period_start;
      accepted_in_group := 0;
      SELECT u.used INTO usage_now FROM credit_usage u WHERE u.account_id = c.account_id AND u.period_start = c.period_start FOR UPDATE;
      IF NOT FOUND THEN
        INSERT INTO credit_usage (account_id, period_start, used, version) VALUES (c.account_id, c.period_start, 0, 0)
        ON CONFLICT (account_id, period_start) DO NOTHING;
        SELECT u.used INTO usage_now FROM credit_usage u WHERE u.account_id = c.account_id AND u.period_start = c.period_start FOR UPDATE;
      END IF;
    END IF;
    "position" := c.n;
    "used_after" := NULL;
    "refused" := NULL;
    IF c."limit" IS NOT NULL AND usage_now + c.cost > c."limit" THEN
      "refused" := 'credits';
    ELSE
      IF c.key_id IS NOT NULL AND c.key_budget IS NOT NULL THEN
        key_used := NULL;
        INSERT INTO key_credit_usage AS spent (key_id, period_start, used)
        SELECT c.key_id, c.period_start, c.cost
        WHERE c.cost <= c.key_budget
        ON CONFLICT (key_id, period_start) DO UPDATE SET used = spent.used + EXCLUDED.used
          WHERE spent.used + EXCLUDED.used <= c.key_budget
        RETURNING spent.used INTO key_used;
        IF key_used IS NULL THEN
          "refused" := 'key_budget';
        END IF;
      END IF;
      IF "refused" IS NULL THEN
        usage_now := usage_now + c.cost;
        "used_after" := usage_now;
        accepted_in_group := accepted_in_group + 1;
        accepted := accepted || c.n;
      END IF;
    END IF;
    RETURN NEXT;
  END LOOP;
  IF accepted_in_group > 0 THEN
    UPDATE credit_usage SET used = usage_now, version = version + accepted_in_group
    WHERE account_id = group_account AND period_start = group_period;
  END IF;
  IF cardinality(accepted) = 0 THEN
    RETURN;
  END IF;

  INSERT INTO credit_ledger (account_id, period_start, key_id, user_id, endpoint, cost, request_id, created_at)
  SELECT x.account_id, x.period_start, x.key_id, x.user_id, x.endpoint, x.cost, x.request_id, x.created_at
  FROM jsonb_array_elements(charges) WITH ORDINALITY AS t(item, n),
       jsonb_to_record(t.item) AS x(account_id UUID, period_start DATE, key_id UUID, user_id UUID, endpoint TEXT, cost INTEGER,
                                    request_id UUID, created_at TIMESTAMPTZ)
  WHERE t.n = ANY (accepted)
  ORDER BY x.account_id, x.period_start, t.n;

  INSERT INTO credit_usage_daily AS daily (account_id, period_start, day, endpoint, subject, calls, credits)
  SELECT x.account_id, x.period_start, x.day, x.endpoint, x.subject, count(*)::INTEGER, sum(x.cost)::INTEGER
  FROM jsonb_array_elements(charges) WITH ORDINALITY AS t(item, n),
       jsonb_to_record(t.item) AS x(account_id UUID, period_start DATE, day DATE, endpoint TEXT, subject TEXT, cost INTEGER)
  WHERE t.n = ANY (accepted)
  GROUP BY x.account_id, x.period_start, x.day, x.endpoint, x.subject
  ORDER BY x.account_id, x.period_start, x.day, x.endpoint, x.subject
  ON CONFLICT (account_id, day, endpoint, subject)
  DO UPDATE SET calls = daily.calls + EXCLUDED.calls, credits = daily.credits + EXCLUDED.credits;
END
$$;
