CREATE TABLE "drug_alternatives" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"drug_name" text NOT NULL,
	"alternative_name" text NOT NULL,
	"rank" integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "drug_alternatives_drug_idx" ON "drug_alternatives" USING btree ("drug_name","alternative_name");