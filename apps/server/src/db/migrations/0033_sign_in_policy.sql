ALTER TABLE "md_offices" ADD COLUMN "strong_factor_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "strong_factor_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "email_codes_allowed" boolean DEFAULT true NOT NULL;