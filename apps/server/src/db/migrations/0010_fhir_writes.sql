CREATE TABLE "fhir_identifiers" (
	"tenant_id" uuid NOT NULL,
	"resource_type" text NOT NULL,
	"system" text NOT NULL,
	"value" text NOT NULL,
	"entity_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fhir_identifiers_tenant_id_resource_type_system_value_pk" PRIMARY KEY("tenant_id","resource_type","system","value")
);
--> statement-breakpoint
CREATE TABLE "inbound_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"prescription_id" uuid NOT NULL,
	"category" text NOT NULL,
	"status" text NOT NULL,
	"business_status" text,
	"input" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"note" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "prescriptions" ADD COLUMN "offered_alternatives" text[];--> statement-breakpoint
ALTER TABLE "fhir_identifiers" ADD CONSTRAINT "fhir_identifiers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_tasks" ADD CONSTRAINT "inbound_tasks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_tasks" ADD CONSTRAINT "inbound_tasks_prescription_id_prescriptions_id_fk" FOREIGN KEY ("prescription_id") REFERENCES "public"."prescriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fhir_identifiers_entity_idx" ON "fhir_identifiers" USING btree ("entity_id");--> statement-breakpoint
CREATE INDEX "inbound_tasks_prescription_idx" ON "inbound_tasks" USING btree ("prescription_id","category");--> statement-breakpoint
CREATE INDEX "inbound_tasks_tenant_updated_idx" ON "inbound_tasks" USING btree ("tenant_id","updated_at");