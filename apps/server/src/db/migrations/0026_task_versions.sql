-- Issue 46: a Task's version moves with every change of what it reads, the portal's as well as the pharmacy's.
-- A Task reads its status from its prescription (completed once the prescriber answered), so a decision, an undo,
-- a standing rule or a renewal that changes the prescription's flags is a new version of its open Tasks: a
-- pharmacy's If-Match on the version it read before answers 412 instead of overwriting the answer (lost update).
-- A Task already changed in this transaction (its updated_at is this transaction's now()) is not bumped again:
-- one write, one version. Written as a trigger so that every present and future write path is covered.
CREATE OR REPLACE FUNCTION hcp_task_versions_follow_prescription() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE inbound_tasks SET version = version + 1, updated_at = now()
   WHERE prescription_id = NEW.id
     AND status NOT IN ('cancelled', 'entered-in-error')
     AND updated_at IS DISTINCT FROM now();
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER prescriptions_task_versions AFTER UPDATE ON prescriptions FOR EACH ROW
  WHEN (OLD.needs_refill_auth IS DISTINCT FROM NEW.needs_refill_auth
     OR OLD.refill_postponed_until IS DISTINCT FROM NEW.refill_postponed_until
     OR OLD.prior_auth_status IS DISTINCT FROM NEW.prior_auth_status
     OR OLD.substitution_status IS DISTINCT FROM NEW.substitution_status
     OR OLD.offered_alternatives IS DISTINCT FROM NEW.offered_alternatives
     OR OLD.phone_exception IS DISTINCT FROM NEW.phone_exception
     OR OLD.hcp_action_required IS DISTINCT FROM NEW.hcp_action_required)
  EXECUTE FUNCTION hcp_task_versions_follow_prescription();
