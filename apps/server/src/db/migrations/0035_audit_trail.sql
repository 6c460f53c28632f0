CREATE TABLE "audit_chain_anchor" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"seal_id" bigint NOT NULL,
	"last_row_id" bigint NOT NULL,
	"hash" text NOT NULL,
	"purged_rows" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_seals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"first_id" bigint NOT NULL,
	"last_id" bigint NOT NULL,
	"row_ids" bigint[] NOT NULL,
	"row_digests" text NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	"sealed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_subjects" (
	"audit_id" bigint NOT NULL,
	"patient_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "audit_subjects_audit_id_patient_id_pk" PRIMARY KEY("audit_id","patient_id")
);
--> statement-breakpoint
DROP INDEX "audit_log_actor_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "privacy_officer" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_subjects_patient_idx" ON "audit_subjects" USING btree ("patient_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_actor_time_idx" ON "audit_log" USING btree ("actor_user_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
-- Issue 49 (decision 0061): the patients an audit row is about, from its entity and the ids in its details. A
-- prescription, Task, appeal, comment or mention names its patient. Written as a trigger so every present and future writer
-- is covered; a reference that is not a known id names nobody (never an error: the audited write must not fail).
CREATE OR REPLACE FUNCTION hcp_audit_patients(kind text, ref text, details jsonb) RETURNS SETOF uuid
LANGUAGE sql STABLE AS $$
  WITH refs(kind, ref) AS (
    SELECT kind, ref WHERE ref IS NOT NULL
    UNION ALL SELECT 'patient', details->>'patientId' WHERE jsonb_typeof(details->'patientId') = 'string'
    UNION ALL SELECT 'patient', jsonb_array_elements_text(
      CASE WHEN jsonb_typeof(details->'patientIds') = 'array' THEN details->'patientIds' ELSE '[]'::jsonb END)
    UNION ALL SELECT 'prescription', details->>'prescriptionId' WHERE jsonb_typeof(details->'prescriptionId') = 'string'
    UNION ALL SELECT 'prescription', jsonb_array_elements_text(
      CASE WHEN jsonb_typeof(details->'prescriptionIds') = 'array' THEN details->'prescriptionIds' ELSE '[]'::jsonb END)
    UNION ALL SELECT 'comment_mention', jsonb_array_elements_text(
      CASE WHEN jsonb_typeof(details->'mentionIds') = 'array' THEN details->'mentionIds' ELSE '[]'::jsonb END)
  ), ids AS (
    SELECT kind, CASE WHEN ref ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN ref::uuid END AS id
      FROM refs
  )
  SELECT p.id FROM ids JOIN patients p ON p.id = ids.id WHERE ids.kind = 'patient'
  UNION SELECT rx.patient_id FROM ids JOIN prescriptions rx ON rx.id = ids.id
   WHERE ids.kind IN ('prescription', 'prescription-task', 'epcs')
  UNION SELECT rx.patient_id FROM ids JOIN appeals a ON a.id = ids.id JOIN prescriptions rx ON rx.id = a.prescription_id
   WHERE ids.kind = 'appeal'
  UNION SELECT c.patient_id FROM ids JOIN comments c ON c.id = ids.id WHERE ids.kind = 'comment'
  UNION SELECT c.patient_id FROM ids JOIN comment_mentions m ON m.id = ids.id JOIN comments c ON c.id = m.comment_id
   WHERE ids.kind = 'comment_mention'
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hcp_audit_subjects_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_subjects (audit_id, patient_id, created_at)
  SELECT n.id, s.patient_id, n.created_at
    FROM inserted n CROSS JOIN LATERAL hcp_audit_patients(n.entity_type, n.entity_id, n.details) AS s(patient_id)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_subjects AFTER INSERT ON audit_log REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION hcp_audit_subjects_follow();
--> statement-breakpoint
INSERT INTO audit_subjects (audit_id, patient_id, created_at)
SELECT a.id, s.patient_id, a.created_at
  FROM audit_log a CROSS JOIN LATERAL hcp_audit_patients(a.entity_type, a.entity_id, a.details) AS s(patient_id)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- The application never changes or removes an audit row; only retention's purge does, and it says so first
-- (set local hcp.audit_purge). Someone with the database's owner rights can still drop this trigger: the seals
-- are what find that.
CREATE OR REPLACE FUNCTION hcp_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('hcp.audit_purge', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION hcp_audit_log_append_only();
