-- Credit charges and refunds as functions (not part of the Prisma schema: Prisma neither models nor diffs them).
--
-- charge_credits takes a batch of charges (a JSON array; one app process sends the charges of its concurrent
-- requests together) and decides each in order, exactly as one statement per charge would: a charge passes when
-- its cost fits in what remains of its account's allowance ("limit" null: unlimited), and then writes its ledger
-- row and its daily rollup. Charges are taken in account order, so two batches (two processes) always lock usage
-- rows in the same order and cannot deadlock. Returns, for each charge (by its 1-based position in the array),
-- the period's usage after it, or null when it was refused.
CREATE FUNCTION "charge_credits"(charges JSONB)
RETURNS TABLE ("position" INTEGER, "used_after" INTEGER)
LANGUAGE plpgsql AS $$
DECLARE
  c RECORD;
BEGIN
  FOR c IN
    SELECT t.n::INTEGER AS n, x.*
    FROM jsonb_array_elements(charges) WITH ORDINALITY AS t(item, n),
         jsonb_to_record(t.item) AS x(account_id UUID, period_start DATE, cost INTEGER, "limit" INTEGER, key_id UUID,
                                      user_id UUID, endpoint TEXT, request_id UUID, created_at TIMESTAMPTZ, day DATE,
                                      subject TEXT)
    ORDER BY x.account_id, t.n
  LOOP
    "position" := c.n;
    "used_after" := NULL;
    INSERT INTO credit_usage AS usage (account_id, period_start, used)
    SELECT c.account_id, c.period_start, c.cost
    WHERE c."limit" IS NULL OR c.cost <= c."limit"
    ON CONFLICT (account_id, period_start) DO UPDATE SET used = usage.used + EXCLUDED.used
      WHERE c."limit" IS NULL OR usage.used + EXCLUDED.used <= c."limit"
    RETURNING usage.used INTO "used_after";
    IF "used_after" IS NOT NULL THEN
      INSERT INTO credit_ledger (account_id, period_start, key_id, user_id, endpoint, cost, request_id, created_at)
      VALUES (c.account_id, c.period_start, c.key_id, c.user_id, c.endpoint, c.cost, c.request_id, c.created_at);
      INSERT INTO credit_usage_daily AS daily (account_id, period_start, day, endpoint, subject, calls, credits)
      VALUES (c.account_id, c.period_start, c.day, c.endpoint, c.subject, 1, c.cost)
      ON CONFLICT (account_id, day, endpoint, subject)
      DO UPDATE SET calls = daily.calls + 1, credits = daily.credits + EXCLUDED.credits;
    END IF;
    RETURN NEXT;
  END LOOP;
END
$$;

-- Gives back the charge of a request whose call then failed (a write is charged before it runs): its ledger row,
-- its usage and its rollup. The usage row is locked first, in the same order as charge_credits.
CREATE FUNCTION "refund_credits"(p_account_id UUID, p_request_id UUID)
RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
BEGIN
  FOR r IN
    SELECT id, period_start, cost, endpoint, COALESCE(key_id::TEXT, 'user:' || COALESCE(user_id::TEXT, 'unknown')) AS subject,
           (created_at AT TIME ZONE 'UTC')::DATE AS day
    FROM credit_ledger WHERE account_id = p_account_id AND request_id = p_request_id
  LOOP
    UPDATE credit_usage SET used = used - r.cost WHERE account_id = p_account_id AND period_start = r.period_start;
    DELETE FROM credit_ledger WHERE id = r.id;
    UPDATE credit_usage_daily SET calls = calls - 1, credits = credits - r.cost
    WHERE account_id = p_account_id AND day = r.day AND endpoint = r.endpoint AND subject = r.subject;
  END LOOP;
END
$$;
