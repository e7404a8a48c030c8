-- AlterTable
ALTER TABLE "credit_usage" ADD COLUMN     "version" BIGINT NOT NULL DEFAULT 0;


-- credit_usage.version: the version of a period's usage report (its usage, ledger and rollup), which every charge and
-- every refund moves (the usage alone cannot say: a refund and another charge may leave it where it was). GET /usage's
-- answers are kept under it in the response cache (src/server/openapi/response-cache.ts). The functions below are
-- those of migration batched_charges with the version moved in the statement that already writes the usage row.
CREATE OR REPLACE FUNCTION "charge_credits"(charges JSONB)
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
    INSERT INTO credit_usage AS usage (account_id, period_start, used, version)
    SELECT c.account_id, c.period_start, c.cost, 1
    WHERE c."limit" IS NULL OR c.cost <= c."limit"
    ON CONFLICT (account_id, period_start) DO UPDATE SET used = usage.used + EXCLUDED.used, version = usage.version + 1
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

CREATE OR REPLACE FUNCTION "refund_credits"(p_account_id UUID, p_request_id UUID)
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
    UPDATE credit_usage SET used = used - r.cost, version = version + 1
    WHERE account_id = p_account_id AND period_start = r.period_start;
    DELETE FROM credit_ledger WHERE id = r.id;
    UPDATE credit_usage_daily SET calls = calls - 1, credits = credits - r.cost
    WHERE account_id = p_account_id AND day = r.day AND endpoint = r.endpoint AND subject = r.subject;
  END LOOP;
END
$$;
