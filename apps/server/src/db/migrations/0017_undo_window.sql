CREATE TABLE "decision_undos" (
	"user_id" uuid NOT NULL,
	"request_id" text NOT NULL,
	"prescription_id" uuid NOT NULL,
	"action" text NOT NULL,
	"event_id" bigint NOT NULL,
	"previous" jsonb NOT NULL,
	"version_after" integer NOT NULL,
	"undo_until" timestamp with time zone NOT NULL,
	"undone_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "decision_undos_user_id_request_id_prescription_id_pk" PRIMARY KEY("user_id","request_id","prescription_id")
);
--> statement-breakpoint
DROP INDEX "outbox_undispatched_idx";--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "not_before" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prescription_events" ADD COLUMN "undone_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "decision_undos" ADD CONSTRAINT "decision_undos_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decision_undos" ADD CONSTRAINT "decision_undos_prescription_id_prescriptions_id_fk" FOREIGN KEY ("prescription_id") REFERENCES "public"."prescriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decision_undos" ADD CONSTRAINT "decision_undos_event_id_prescription_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."prescription_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "decision_undos_created_idx" ON "decision_undos" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "outbox_undispatched_idx" ON "outbox" USING btree ("seq") WHERE "outbox"."event_type" is not null and "outbox"."dispatched_at" is null and "outbox"."cancelled_at" is null;