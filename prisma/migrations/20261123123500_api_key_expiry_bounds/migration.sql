-- A key's expiry is always an instant JavaScript can write as ISO 8601 (years 0000 to 9999). A key created before the
-- API bounded expiries (issue 18) with a later one answered 500 on every listing of the account's keys: such a key is
-- given the latest expiry that can be read back, which still means "never" in practice. Then no writer can store one.
UPDATE "api_keys" SET "expires_at" = '9999-12-31T23:59:59.999Z' WHERE "expires_at" >= '10000-01-01';
UPDATE "api_keys" SET "expires_at" = '1970-01-01T00:00:00.000Z' WHERE "expires_at" < '1970-01-01';
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_expires_at_readable" CHECK ("expires_at" >= '1970-01-01' AND "expires_at" < '10000-01-01');
