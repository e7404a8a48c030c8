-- The table of the sign-in limit's counts now holds every limit shared by the app's processes (sign-ups per address,
-- test deliveries per webhook endpoint): renamed, its counts kept.
ALTER TABLE "sign_in_limits" RENAME TO "rate_limits";
ALTER TABLE "rate_limits" RENAME CONSTRAINT "sign_in_limits_pkey" TO "rate_limits_pkey";
