import {
  STANDING_RULE_ACTION_LABELS,
  type StandingRule,
  type StandingRuleFormValues,
  type StandingRulesResponse,
  standingRuleInputSchema,
} from '@hcp/contract';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { toast } from 'sonner';
import controls from '../../../components/controls.module.css';
import { Dialog } from '../../../components/dialog.tsx';
import { Page } from '../../../components/page.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { Table } from '../../../components/table/table.tsx';
import { byFocusKey, FOCUS_KEY, focusWhenReady, pageHeading } from '../../../lib/focus.ts';
import { failureText } from '../../../lib/form-errors.ts';
import { type StandingRuleStart, standingRuleStartOf } from '../../../lib/standing-rule-start.ts';
import { readSession } from '../../../lib/storage.ts';
import { useDeleteStandingRule } from '../api/delete-standing-rule.ts';
import { useStandingRules } from '../api/get-standing-rules.ts';
import { useSaveStandingRule } from '../api/save-standing-rule.ts';
import { type RuleDraft, StandingRuleForm } from '../components/standing-rule-form.tsx';
import styles from './standing-rules.module.css';

/** The button that opens a new rule: where focus goes back to when a rule leaves or a form closes unsaved. */
const NEW_RULE_ID = 'standing-rules-new';

const newDraft = (manageable: StandingRulesResponse['manageable'], start: StandingRuleStart | null): RuleDraft => ({
  values: {
    name: start?.drugName ? `${start.drugName}: stop asking` : '',
    practiceId: start?.practiceId ?? manageable[0]?.practiceId ?? '',
    action: 'discontinued',
    prescriberId: start?.prescriberId ?? '',
    patientId: start?.patientId ?? null,
    drugName: start?.drugName ?? '',
    ndc: '',
    note: '',
    enabled: true,
  } satisfies StandingRuleFormValues,
  patientName: start?.patientName ?? null,
  existing: null,
});

const draftOf = (rule: StandingRule): RuleDraft => ({
  values: {
    name: rule.name,
    practiceId: rule.practiceId,
    action: rule.action,
    prescriberId: rule.prescriberId ?? '',
    patientId: rule.patientId,
    drugName: rule.drugName ?? '',
    ndc: rule.ndc ?? '',
    note: rule.note ?? '',
    enabled: rule.enabled,
  },
  patientName: rule.patientName,
  existing: { id: rule.id, version: rule.version },
});

/** Whom a rule is for, in words: practice, prescriber, patient, drug. */
function targetText(rule: StandingRule): string {
  const parts = [rule.prescriberName ?? `every prescriber of ${rule.practiceName}`];
  if (rule.patientName) parts.push(`patient ${rule.patientName}`);
  if (rule.drugName) parts.push(rule.drugName);
  if (rule.ndc) parts.push(`NDC ${rule.ndc}`);
  return parts.join(' · ');
}

/**
 * /standing-rules (issue 23): a practice's "stop asking" rules for refill requests. Its prescribers make and change
 * them; its staff read them. Saving a rule answers the matching waiting requests at once, as the preview showed.
 */
export default function StandingRulesRoute() {
  const userId = readSession()?.userId ?? '';
  const rules = useStandingRules(userId);
  const start = standingRuleStartOf(useLocation().state);
  const [draft, setDraft] = useState<RuleDraft | 'start' | null>(start ? 'start' : null);
  const [deleting, setDeleting] = useState<StandingRule | null>(null);
  const remove = useDeleteStandingRule(userId);
  const save = useSaveStandingRule(userId);
  const manageable = rules.data?.manageable ?? [];
  const mayManage = manageable.length > 0;
  const shown = draft === 'start' ? (mayManage ? newDraft(manageable, start) : null) : draft;

  const toggle = (rule: StandingRule) => {
    const { values, existing } = draftOf(rule);
    save.mutate(
      { rule: standingRuleInputSchema.parse({ ...values, enabled: !rule.enabled }), existing },
      {
        onSuccess: (saved) =>
          toast.success(
            saved.rule.enabled
              ? `“${saved.rule.name}” is on${saved.answered.length ? ` and ${saved.rule.action === 'alwaysFax' ? 'sends by fax' : 'answered'} ${saved.answered.length} waiting request(s)` : ''}.`
              : `“${saved.rule.name}” is off.`,
          ),
        onError: (error) => toast.error(failureText(error)),
      },
    );
  };

  return (
    <Page title="Standing Rules">
      <p className={styles.intro}>
        Tell the portal once what to answer to refill requests you should not see again. A rule answers each matching request as a
        denial the pharmacy hears of, as soon as it arrives, and the prescription’s timeline names the rule. An “always send by
        fax” rule answers nothing: the prescriber still decides, and the authorization goes by fax instead of eRx.
      </p>
      {rules.isError ? (
        <p role="alert">Could not load the standing rules. Please try again.</p>
      ) : !rules.data ? (
        <p role="status">
          <Spinner /> Loading…
        </p>
      ) : (
        <>
          {mayManage && !shown ? (
            <p>
              <button
                id={NEW_RULE_ID}
                type="button"
                className={controls.primary}
                onClick={() => setDraft(newDraft(manageable, null))}
              >
                New rule
              </button>
            </p>
          ) : null}
          {!mayManage ? <p className={styles.hint}>Only a prescriber of the practice can make or change its rules.</p> : null}
          {shown ? (
            <StandingRuleForm
              key={shown.existing?.id ?? 'new'}
              userId={userId}
              draft={shown}
              manageable={manageable}
              onDone={(savedId) => {
                const changed = shown.existing?.id;
                setDraft(null);
                // The saved (or changed) rule's row, else the button that opens a new one: the one focus rule.
                const rowOf = savedId ?? changed;
                focusWhenReady(() => (rowOf ? byFocusKey(`rule-${rowOf}`) : null), {
                  fallback: () => document.getElementById(NEW_RULE_ID) ?? pageHeading(),
                });
              }}
            />
          ) : null}
          <Table<StandingRule>
            caption="Standing rules"
            rows={rules.data.records}
            rowKey={(r) => r.id}
            emptyMessage="No standing rules yet."
            columns={[
              { key: 'name', header: 'Rule', cell: (r) => r.name },
              { key: 'action', header: 'Answers', cell: (r) => STANDING_RULE_ACTION_LABELS[r.action] },
              { key: 'for', header: 'For', cell: targetText },
              {
                key: 'count',
                header: 'Answered',
                cell: (r) =>
                  `${r.answeredCount} request${r.answeredCount === 1 ? '' : 's'}${r.action === 'alwaysFax' ? ' sent by fax' : ''}`,
              },
              { key: 'status', header: 'Status', cell: (r) => (r.enabled ? 'On' : <span className={styles.off}>Off</span>) },
            ]}
            {...(mayManage
              ? {
                  actions: (r: StandingRule) =>
                    manageable.some((p) => p.practiceId === r.practiceId) ? (
                      <div className={styles.buttons}>
                        <button
                          type="button"
                          className={controls.secondary}
                          aria-label={`Change ${r.name}`}
                          {...{ [FOCUS_KEY]: `rule-${r.id}` }}
                          onClick={() => setDraft(draftOf(r))}
                        >
                          Change
                        </button>
                        <button
                          type="button"
                          className={controls.secondary}
                          aria-label={`${r.enabled ? 'Turn off' : 'Turn on'} ${r.name}`}
                          onClick={() => toggle(r)}
                          disabled={save.isPending}
                        >
                          {r.enabled ? 'Turn off' : 'Turn on'}
                        </button>
                        <button
                          type="button"
                          className={controls.secondary}
                          aria-label={`Delete ${r.name}`}
                          onClick={() => setDeleting(r)}
                        >
                          Delete
                        </button>
                      </div>
                    ) : null,
                }
              : {})}
          />
        </>
      )}
      <Dialog
        open={deleting !== null}
        title="Delete the rule?"
        onClose={() => setDeleting(null)}
        actions={
          <>
            <button
              type="button"
              className={controls.primary}
              data-autofocus
              onClick={() =>
                deleting &&
                remove.mutate(deleting.id, {
                  onSuccess: () => {
                    toast.success(`“${deleting.name}” is deleted.`);
                    setDeleting(null);
                    // Its row is gone: focus goes to the button that makes a new one.
                    focusWhenReady(() => document.getElementById(NEW_RULE_ID));
                  },
                  onError: (error) => toast.error(failureText(error)),
                })
              }
            >
              Delete rule
            </button>
            <button type="button" className={controls.secondary} onClick={() => setDeleting(null)}>
              Keep it
            </button>
          </>
        }
      >
        <p>“{deleting?.name}” will answer no more requests. What it answered stays answered. To pause it instead, turn it off.</p>
      </Dialog>
    </Page>
  );
}
