CREATE TABLE "coverages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"md_office_id" uuid NOT NULL,
	"covering_staff_id" uuid NOT NULL,
	"covered_staff_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" uuid,
	CONSTRAINT "coverages_not_self" CHECK ("coverages"."covering_staff_id" <> "coverages"."covered_staff_id"),
	CONSTRAINT "coverages_period" CHECK ("coverages"."ends_at" > "coverages"."starts_at")
);
--> statement-breakpoint
ALTER TABLE "md_offices" ADD COLUMN "signing_policy" text DEFAULT 'anyPrescriber' NOT NULL;--> statement-breakpoint
ALTER TABLE "coverages" ADD CONSTRAINT "coverages_md_office_id_md_offices_id_fk" FOREIGN KEY ("md_office_id") REFERENCES "public"."md_offices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coverages" ADD CONSTRAINT "coverages_covering_staff_id_md_staff_id_fk" FOREIGN KEY ("covering_staff_id") REFERENCES "public"."md_staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coverages" ADD CONSTRAINT "coverages_covered_staff_id_md_staff_id_fk" FOREIGN KEY ("covered_staff_id") REFERENCES "public"."md_staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coverages" ADD CONSTRAINT "coverages_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coverages" ADD CONSTRAINT "coverages_ended_by_users_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "coverages_covering_idx" ON "coverages" USING btree ("covering_staff_id") WHERE "coverages"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "coverages_office_idx" ON "coverages" USING btree ("md_office_id");