-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "all_apps" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "allowed_cidrs" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "app_ids" UUID[] DEFAULT ARRAY[]::UUID[],
ADD COLUMN     "monthly_budget" INTEGER;

-- CreateTable
CREATE TABLE "key_credit_usage" (
    "key_id" UUID NOT NULL,
    "period_start" DATE NOT NULL,
    "used" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "key_credit_usage_pkey" PRIMARY KEY ("key_id","period_start")
);

-- AddForeignKey
ALTER TABLE "key_credit_usage" ADD CONSTRAINT "key_credit_usage_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Charges (migration usage_report_version's function) also keep the spending of each key that has a monthly budget
-- (`key_budget`, null: none; a budget set later is seeded from the ledger, src/server/services/api-keys/api-keys.ts),
-- and refuse a charge that would take it past the budget. Keys without one cost the statement nothing more. The account's usage row is locked first, by its
-- upsert, as before: every charge and refund of an account passes through that row, so the key rows behind it are
-- never locked in two orders. A charge the key's budget refuses gives its account increment back at once.
-- "refused" says why a charge was refused: 'credits' (the account's allowance) or 'key_budget'.
DROP FUNCTION "charge_credits"(JSONB);
CREATE FUNCTION "charge_credits"(charges JSONB)
RETURNS TABLE ("position" INTEGER, "used_after" INTEGER, "refused" TEXT)
LANGUAGE plpgsql AS $$
DECLARE
  c RECORD;
  key_used INTEGER;
BEGIN
  FOR c IN
    SELECT t.n::INTEGER AS n, x.*
    FROM jsonb_array_elements(charges) WITH ORDINALITY AS t(item, n),
         jsonb_to_record(t.item) AS x(account_id UUID, period_start DATE, cost INTEGER, "limit" INTEGER, key_id UUID,
                                      key_budget INTEGER, user_id UUID, endpoint TEXT, request_id UUID,
                                      created_at TIMESTAMPTZ, day DATE, subject TEXT)
    ORDER BY x.account_id, t.n
  LOOP
    "position" := c.n;
    "used_after" := NULL;
    "refused" := NULL;
    INSERT INTO credit_usage AS usage (account_id, period_start, used, version)
    SELECT c.account_id, c.period_start, c.cost, 1
    WHERE c."limit" IS NULL OR c.cost <= c."limit"
    ON CONFLICT (account_id, period_start) DO UPDATE SET used = usage.used + EXCLUDED.used, version = usage.version + 1
      WHERE c."limit" IS NULL OR usage.used + EXCLUDED.used <= c."limit"
    RETURNING usage.used INTO "used_after";
    IF "used_after" IS NULL THEN
      "refused" := 'credits';
    ELSIF c.key_id IS NOT NULL AND c.key_budget IS NOT NULL THEN
      key_used := NULL;
      INSERT INTO key_credit_usage AS spent (key_id, period_start, used)
      SELECT c.key_id, c.period_start, c.cost
      WHERE c.cost <= c.key_budget
      ON CONFLICT (key_id, period_start) DO UPDATE SET used = spent.used + EXCLUDED.used
        WHERE spent.used + EXCLUDED.used <= c.key_budget
      RETURNING spent.used INTO key_used;
      IF key_used IS NULL THEN
        UPDATE credit_usage SET used = used - c.cost, version = version + 1
        WHERE account_id = c.account_id AND period_start = c.period_start;
        "used_after" := NULL;
        "refused" := 'key_budget';
      END IF;
    END IF;
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
    SELECT id, period_start, cost, endpoint, key_id, COALESCE(key_id::TEXT, 'user:' || COALESCE(user_id::TEXT, 'unknown')) AS subject,
           (created_at AT TIME ZONE 'UTC')::DATE AS day
    FROM credit_ledger WHERE account_id = p_account_id AND request_id = p_request_id
  LOOP
    UPDATE credit_usage SET used = used - r.cost, version = version + 1
    WHERE account_id = p_account_id AND period_start = r.period_start;
    IF r.key_id IS NOT NULL THEN
      UPDATE key_credit_usage SET used = used - r.cost WHERE key_id = r.key_id AND period_start = r.period_start;
    END IF;
    DELETE FROM credit_ledger WHERE id = r.id;
    UPDATE credit_usage_daily SET calls = calls - 1, credits = credits - r.cost
    WHERE account_id = p_account_id AND day = r.day AND endpoint = r.endpoint AND subject = r.subject;
  END LOOP;
END
$$;
