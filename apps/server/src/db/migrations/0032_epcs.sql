CREATE TABLE "dea_registrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"md_staff_id" uuid NOT NULL,
	"number" text NOT NULL,
	"schedules" text[] NOT NULL,
	"state" text NOT NULL,
	"expires_on" date NOT NULL,
	"added_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "epcs_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"md_office_id" uuid NOT NULL,
	"md_staff_id" uuid NOT NULL,
	"action" text NOT NULL,
	"entered_by" uuid NOT NULL,
	"entered_factor" text NOT NULL,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_by" uuid,
	"approved_factor" text,
	"approved_at" timestamp with time zone,
	"registration_verified" boolean DEFAULT false NOT NULL,
	"declined_by" uuid,
	"declined_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "epcs_signings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"prescription_id" uuid NOT NULL,
	"md_office_id" uuid NOT NULL,
	"prescription_version" integer NOT NULL,
	"content" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"signed_at" timestamp with time zone,
	"signature" text,
	"key_id" text,
	"factor" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "drug_products" ADD COLUMN "dea_schedule" text;--> statement-breakpoint
ALTER TABLE "dea_registrations" ADD CONSTRAINT "dea_registrations_md_staff_id_md_staff_id_fk" FOREIGN KEY ("md_staff_id") REFERENCES "public"."md_staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dea_registrations" ADD CONSTRAINT "dea_registrations_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epcs_changes" ADD CONSTRAINT "epcs_changes_md_office_id_md_offices_id_fk" FOREIGN KEY ("md_office_id") REFERENCES "public"."md_offices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epcs_changes" ADD CONSTRAINT "epcs_changes_md_staff_id_md_staff_id_fk" FOREIGN KEY ("md_staff_id") REFERENCES "public"."md_staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epcs_changes" ADD CONSTRAINT "epcs_changes_entered_by_users_id_fk" FOREIGN KEY ("entered_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epcs_changes" ADD CONSTRAINT "epcs_changes_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epcs_changes" ADD CONSTRAINT "epcs_changes_declined_by_users_id_fk" FOREIGN KEY ("declined_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epcs_signings" ADD CONSTRAINT "epcs_signings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epcs_signings" ADD CONSTRAINT "epcs_signings_prescription_id_prescriptions_id_fk" FOREIGN KEY ("prescription_id") REFERENCES "public"."prescriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epcs_signings" ADD CONSTRAINT "epcs_signings_md_office_id_md_offices_id_fk" FOREIGN KEY ("md_office_id") REFERENCES "public"."md_offices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dea_registrations_staff_idx" ON "dea_registrations" USING btree ("md_staff_id");--> statement-breakpoint
CREATE UNIQUE INDEX "dea_registrations_number_idx" ON "dea_registrations" USING btree ("md_staff_id","number") WHERE "dea_registrations"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "epcs_changes_subject_idx" ON "epcs_changes" USING btree ("md_office_id","md_staff_id","approved_at");--> statement-breakpoint
CREATE UNIQUE INDEX "epcs_changes_pending_idx" ON "epcs_changes" USING btree ("md_office_id","md_staff_id") WHERE "epcs_changes"."approved_at" is null and "epcs_changes"."declined_at" is null;--> statement-breakpoint
CREATE INDEX "epcs_signings_prescription_idx" ON "epcs_signings" USING btree ("prescription_id");--> statement-breakpoint
CREATE INDEX "epcs_signings_office_signed_idx" ON "epcs_signings" USING btree ("md_office_id","signed_at");