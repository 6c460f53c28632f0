ALTER TABLE "mfa_challenges" ADD COLUMN "resends" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mfa_challenges" ADD COLUMN "sent_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "remember_me_user_idx" ON "remember_me_devices" USING btree ("user_id");