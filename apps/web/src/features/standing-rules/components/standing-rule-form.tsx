import {
  type RuleAnsweredItem,
  STANDING_RULE_ACTION_LABELS,
  STANDING_RULE_ACTIONS,
  type StandingRuleFormValues,
  type StandingRuleInput,
  type StandingRulesResponse,
  standingRuleInputSchema,
} from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import controls from '../../../components/controls.module.css';
import { FormAlert } from '../../../components/form-alert.tsx';
import { optionsOf, RadioGroup } from '../../../components/radio-group.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { focusWhenReady } from '../../../lib/focus.ts';
import { showSaveFailure } from '../../../lib/form-errors.ts';
import { usePreviewStandingRule } from '../api/preview-standing-rule.ts';
import { useSaveStandingRule } from '../api/save-standing-rule.ts';
import styles from '../routes/standing-rules.module.css';

/** What the form starts from: a rule being changed, or a new one (possibly from an Action Needed item). */
export interface RuleDraft {
  values: StandingRuleFormValues;
  /** The patient a draft names, as the practice's people read it (never in the URL). */
  patientName: string | null;
  existing: { id: string; version: number } | null;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The requests a preview or a save named, so the prescriber sees exactly whom the rule answers. */
export function AnsweredList({ items, label }: { items: RuleAnsweredItem[]; label: string }) {
  if (items.length === 0) return null;
  return (
    <ul className={styles.answered} aria-label={label}>
      {items.map((item) => (
        <li key={item.prescriptionId}>
          {item.patientName} · {item.drugName} · {item.prescriberName}
          {item.ruleId === null ? null : <span className={styles.hint}> (rule “{item.ruleName}”)</span>}
        </li>
      ))}
    </ul>
  );
}

export function StandingRuleForm({
  userId,
  draft,
  manageable,
  onDone,
}: {
  userId: string;
  draft: RuleDraft;
  manageable: StandingRulesResponse['manageable'];
  /** Closed: after a save with the saved rule's id (its row takes focus), else without. */
  onDone: (savedId?: string) => void;
}) {
  const save = useSaveStandingRule(userId);
  const formRef = useRef<HTMLFormElement>(null);
  const previewRef = useRef<HTMLButtonElement>(null);
  // Opened, the form takes focus on its first field (the button that opened it is gone): the one focus rule.
  useEffect(() => {
    focusWhenReady(() => formRef.current?.querySelector<HTMLElement>('input, select'));
  }, []);
  const preview = usePreviewStandingRule();
  const [previewed, setPreviewed] = useState<RuleAnsweredItem[] | null>(null);
  const [patient, setPatient] = useState(draft.patientName);
  const { register, handleSubmit, formState, setError, setValue, watch, getValues, trigger } = useForm<
    StandingRuleFormValues,
    unknown,
    StandingRuleInput
  >({ resolver: zodResolver(standingRuleInputSchema), defaultValues: draft.values });
  const errors = formState.errors;
  const practiceId = watch('practiceId');
  // An "always send by fax" rule answers nothing: it sends the authorizations of what it matches by fax.
  const routes = watch('action') === 'alwaysFax';
  const waiting = (n: number) => plural(n, 'waiting request', 'waiting requests');
  const practice = manageable.find((p) => p.practiceId === practiceId);
  // A change of the form makes the preview stale: it is shown only for what was previewed.
  const clearPreview = () => setPreviewed(null);

  const onPreview = async () => {
    if (!(await trigger())) return;
    const parsed = standingRuleInputSchema.safeParse(getValues());
    if (!parsed.success) return;
    try {
      const result = await preview.mutateAsync({ userId, rule: parsed.data, ruleId: draft.existing?.id ?? null });
      setPreviewed(result.items);
    } catch (error) {
      showSaveFailure(error, setError, 'body.rule.');
    }
    // While it checked, the button was disabled and let focus go: back to it, with what it found read out below.
    focusWhenReady(() => (previewRef.current?.disabled ? null : previewRef.current));
  };

  const onSubmit = handleSubmit(async (rule) => {
    try {
      const saved = await save.mutateAsync({ rule, existing: draft.existing });
      const answered = saved.answered.length;
      toast.success(
        saved.rule.action === 'alwaysFax'
          ? answered > 0
            ? `Rule saved. ${waiting(answered)} will be authorized by fax.`
            : 'Rule saved. Matching requests will be authorized by fax as they arrive.'
          : answered > 0
            ? `Rule saved. It answered ${waiting(answered)}.`
            : 'Rule saved. It answers matching requests as they arrive.',
      );
      onDone(saved.rule.id);
    } catch (error) {
      showSaveFailure(error, setError, draft.existing ? 'body.rule.' : 'body.');
    }
  });

  return (
    <form
      ref={formRef}
      className={styles.form}
      onSubmit={onSubmit}
      onChange={clearPreview}
      noValidate
      aria-labelledby="rule-form-title"
    >
      <h2 id="rule-form-title">{draft.existing ? 'Change the rule' : 'New rule'}</h2>
      <TextField label="Rule name" autoComplete="off" error={errors.name?.message} {...register('name')} />
      {manageable.length > 1 ? (
        <SelectField
          label="Practice"
          options={manageable.map((p) => ({ value: p.practiceId, label: p.practiceName }))}
          error={errors.practiceId?.message}
          disabled={draft.existing !== null}
          {...register('practiceId', { onChange: () => setValue('prescriberId', '') })}
        />
      ) : null}
      <RadioGroup
        legend="What the rule answers"
        options={optionsOf(STANDING_RULE_ACTIONS, STANDING_RULE_ACTION_LABELS)}
        error={errors.action?.message}
        {...register('action')}
      />
      <SelectField
        label="Prescriber"
        options={(practice?.prescribers ?? []).map((p) => ({ value: p.id, label: p.name }))}
        emptyLabel="Every prescriber of the practice"
        error={errors.prescriberId?.message}
        {...register('prescriberId')}
      />
      <TextField
        label="Drug name (whole words from the start, e.g. Atorvastatin)"
        autoComplete="off"
        error={errors.drugName?.message}
        {...register('drugName')}
      />
      <TextField
        label="NDC (optional, 11 digits)"
        inputMode="numeric"
        autoComplete="off"
        error={errors.ndc?.message}
        {...register('ndc')}
      />
      {patient ? (
        <p className={styles.patient}>
          For one patient: <strong>{patient}</strong>{' '}
          <button
            type="button"
            className={controls.secondary}
            onClick={() => {
              setValue('patientId', null);
              setPatient(null);
              clearPreview();
            }}
          >
            Remove the patient
          </button>
        </p>
      ) : null}
      {errors.patientId?.message ? <FormAlert message={errors.patientId.message} /> : null}
      {routes ? null : (
        <TextField
          label="Note to the pharmacy (optional)"
          autoComplete="off"
          error={errors.note?.message}
          {...register('note')}
        />
      )}
      <label className={controls.check}>
        <input type="checkbox" {...register('enabled')} /> The rule is on
      </label>
      <p className={styles.hint}>Controlled substances always come to the prescriber: no rule answers them.</p>
      <div className={styles.buttons}>
        <button ref={previewRef} type="button" className={controls.secondary} onClick={onPreview} disabled={preview.isPending}>
          {preview.isPending ? 'Checking…' : 'Preview'}
        </button>
        <button type="submit" className={controls.primary} disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Saving…' : 'Save rule'}
        </button>
        <button type="button" className={controls.secondary} onClick={() => onDone()}>
          Cancel
        </button>
      </div>
      <FormAlert message={errors.root?.server?.message} />
      <div role="status" className={styles.preview}>
        {previewed === null ? null : previewed.length === 0 ? (
          <p>
            {routes
              ? 'Would send no waiting request by fax now; matching requests will go by fax as they arrive.'
              : 'Would answer no waiting request now; it answers matching requests as they arrive.'}
          </p>
        ) : (
          <>
            <p>
              {routes
                ? `Would send the authorization of ${waiting(previewed.length)} by fax:`
                : `Would answer ${waiting(previewed.length)} now:`}
            </p>
            <AnsweredList
              items={previewed}
              label={routes ? 'Requests the rule would send by fax' : 'Requests the rule would answer'}
            />
          </>
        )}
      </div>
    </form>
  );
}
