ALTER TABLE "prescriptions" ADD COLUMN "last_filled_on" date;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD COLUMN "refills_remaining" integer;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD COLUMN "request_received_at" timestamp;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD COLUMN "prior_auth_expires_on" date;