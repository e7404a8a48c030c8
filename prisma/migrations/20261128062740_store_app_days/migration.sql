-- The days of a store app whose full observation in a storefront is stored (docs/architecture.md, "Store facts"): a
-- follower's refresh of such a day asks the provider only for the ranks still missing. Empty at first: a day stored
-- before is observed once more by its next refresh, which stores nothing twice.
CREATE TABLE "store_app_days" (
    "store_app_id" INTEGER NOT NULL,
    "country" CHAR(2) NOT NULL,
    "date" DATE NOT NULL,
    "observed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "store_app_days_pkey" PRIMARY KEY ("store_app_id","country","date")
);
