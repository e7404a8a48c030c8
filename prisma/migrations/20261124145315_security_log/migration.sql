-- CreateTable
CREATE TABLE "security_events" (
    "id" BIGSERIAL NOT NULL,
    "account_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_type" TEXT NOT NULL,
    "actor_user_id" UUID,
    "actor_label" TEXT NOT NULL,
    "ip_address" TEXT,
    "user_agent" TEXT,
    "target_type" TEXT,
    "target_id" TEXT,
    "target_label" TEXT,
    "before" JSONB,
    "after" JSONB,
    "request_id" UUID,

    CONSTRAINT "security_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "security_events_account_id_occurred_at_idx" ON "security_events"("account_id", "occurred_at");

-- CreateIndex
CREATE INDEX "security_events_occurred_at_idx" ON "security_events"("occurred_at");


-- Append-only from the application's point of view: no statement edits an entry, and none deletes one before its
-- retention (365 days, purged by the job schedule: src/server/services/security-log/security-log.ts) has ended.
CREATE FUNCTION "security_events_append_only"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND OLD.occurred_at < now() - INTERVAL '365 days' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'security log entries are append-only (% of entry % refused)', TG_OP, OLD.id USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER "security_events_append_only" BEFORE UPDATE OR DELETE ON "security_events"
FOR EACH ROW EXECUTE FUNCTION "security_events_append_only"();
