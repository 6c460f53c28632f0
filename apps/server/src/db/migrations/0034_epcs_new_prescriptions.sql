ALTER TABLE "epcs_signings" ALTER COLUMN "prescription_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "epcs_signings" ADD COLUMN "kind" text DEFAULT 'refill-authorization' NOT NULL;--> statement-breakpoint
ALTER TABLE "epcs_signings" ADD COLUMN "input" jsonb;