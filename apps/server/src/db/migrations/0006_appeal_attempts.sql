ALTER TABLE "appeals" ADD COLUMN "failed_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "appeals" ADD COLUMN "locked_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "appeals_key_idx" ON "appeals" USING btree ("access_key_hash");