-- The sign-in, registration, reset and refresh limits, counted here so that every
-- instance behind the load balancer shares one count per key instead of each keeping its own.
-- One row per (limit, key) with its fixed window; keys are SHA-256 hashes, so typed e-mail
-- addresses are not stored. UNLOGGED: no WAL for a counter written on every sign-in. A crash of
-- PostgreSQL (or a failover to a replica, which never receives unlogged rows) empties it, which
-- only restarts the current windows early; the windows themselves last 15 to 60 minutes.
-- CreateTable
CREATE UNLOGGED TABLE "rate_limit_windows" (
    "name" TEXT NOT NULL,
    "key" BYTEA NOT NULL,
    "count" INTEGER NOT NULL,
    "resets_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("name","key")
);

-- CreateIndex (the sweep of expired windows reads it)
CREATE INDEX "rate_limit_windows_resets_at_idx" ON "rate_limit_windows"("resets_at");
