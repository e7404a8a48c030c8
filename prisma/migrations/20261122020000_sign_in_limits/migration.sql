-- CreateTable
CREATE TABLE "sign_in_limits" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "sign_in_limits_pkey" PRIMARY KEY ("key")
);
