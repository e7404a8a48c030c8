-- A keyword's history reads a store app's rank for one term and storefront over up to 365 days. The rows of those days
-- are written a day at a time, each day beside every other store app's, so a read that goes to the table finds each
-- day's row on a page of its own: hundreds of pages for one history, from disk once the table outgrows memory. The
-- primary key carries the rank (INCLUDE), so the read is an index-only scan of one contiguous run of the index per
-- month, however many store apps and terms the table holds (docs/benchmarks.md, "Issue 62").
ALTER TABLE "app_ranks" DROP CONSTRAINT "app_ranks_pkey";
ALTER TABLE "app_ranks" ADD CONSTRAINT "app_ranks_pkey" PRIMARY KEY ("store_app_id", "country", "term_key", "date") INCLUDE ("rank");
