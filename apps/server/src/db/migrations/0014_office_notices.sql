CREATE TABLE "notice_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"md_office_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notice_links_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "office_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"md_office_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_token" uuid,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"external_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "new_request_notices" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notice_links" ADD CONSTRAINT "notice_links_md_office_id_md_offices_id_fk" FOREIGN KEY ("md_office_id") REFERENCES "public"."md_offices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "office_notices" ADD CONSTRAINT "office_notices_md_office_id_md_offices_id_fk" FOREIGN KEY ("md_office_id") REFERENCES "public"."md_offices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "office_notices_due_idx" ON "office_notices" USING btree ("next_attempt_at") WHERE "office_notices"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "office_notices_office_idx" ON "office_notices" USING btree ("md_office_id","created_at");