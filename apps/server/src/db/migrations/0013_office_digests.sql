CREATE TABLE "office_digests" (
	"md_office_id" uuid PRIMARY KEY NOT NULL,
	"last_sent_at" timestamp with time zone NOT NULL,
	"last_event_id" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "office_digests" ADD CONSTRAINT "office_digests_md_office_id_md_offices_id_fk" FOREIGN KEY ("md_office_id") REFERENCES "public"."md_offices"("id") ON DELETE no action ON UPDATE no action;