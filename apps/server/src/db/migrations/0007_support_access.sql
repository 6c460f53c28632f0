CREATE TABLE "support_access_grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"md_office_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"request_id" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "support_access_grants" ADD CONSTRAINT "support_access_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_access_grants" ADD CONSTRAINT "support_access_grants_md_office_id_md_offices_id_fk" FOREIGN KEY ("md_office_id") REFERENCES "public"."md_offices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "support_access_user_idx" ON "support_access_grants" USING btree ("user_id","expires_at");--> statement-breakpoint
CREATE INDEX "support_access_office_idx" ON "support_access_grants" USING btree ("md_office_id","started_at");