CREATE TABLE "fhir_versions" (
	"tenant_id" uuid NOT NULL,
	"resource_type" text NOT NULL,
	"entity_id" uuid NOT NULL,
	"version_id" text NOT NULL,
	"resource" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fhir_versions_resource_type_entity_id_version_id_pk" PRIMARY KEY("resource_type","entity_id","version_id")
);
--> statement-breakpoint
ALTER TABLE "fhir_versions" ADD CONSTRAINT "fhir_versions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fhir_versions_created_idx" ON "fhir_versions" USING btree ("created_at");