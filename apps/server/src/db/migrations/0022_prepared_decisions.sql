CREATE TABLE "prepared_decisions" (
	"prescription_id" uuid PRIMARY KEY NOT NULL,
	"decision" jsonb NOT NULL,
	"prepared_by" uuid NOT NULL,
	"prepared_at" timestamp with time zone DEFAULT now() NOT NULL,
	"prescription_version" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "prepared_decisions" ADD CONSTRAINT "prepared_decisions_prescription_id_prescriptions_id_fk" FOREIGN KEY ("prescription_id") REFERENCES "public"."prescriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prepared_decisions" ADD CONSTRAINT "prepared_decisions_prepared_by_users_id_fk" FOREIGN KEY ("prepared_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;