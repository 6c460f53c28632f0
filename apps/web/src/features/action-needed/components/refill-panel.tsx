import {
  addIsoDays,
  type ClinicalAccess,
  DAY_FIELD_FORMAT_MESSAGE,
  DENIAL_REASON_LABELS,
  formatUsDate,
  localTodayIso,
  mayTakeAction,
  POSTPONE_PRESET_DAYS,
  parseIsoDate,
  postponeDateProblem,
  REFILL_DENIAL_REASONS,
  ROUTES,
  resolveSkipErxConfirmation,
  routedByRuleText,
  tellsPharmacy,
  toIsoDate,
  type UndoOffer,
  type UserDetails,
} from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { type Control, useController, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { DayField } from '../../../components/day-field.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { standingRuleState } from '../../../lib/standing-rule-start.ts';
import { useAuthorizeRefillErx } from '../api/authorize-refill-erx.ts';
import { useAuthorizeRefillFax } from '../api/authorize-refill-fax.ts';
import { useDenyRefill } from '../api/deny-refill.ts';
import type { Entry } from '../api/get-action-needed.ts';
import { usePostponeRefill } from '../api/postpone-refill.ts';
import { failure } from '../utils/decision-values.ts';
import { drugLabel } from '../utils/special-drugs.ts';
import type { DecisionKind } from '../utils/use-decision-toast.ts';
import styles from './action-needed.module.css';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { ControlledRefillSigning } from './controlled-signing.tsx';
import { patientName } from './patient-card.tsx';
import { PreparedBox, PrepareRefillForm } from './prepared-decision.tsx';
import { RefillsSigFields } from './refills-sig-fields.tsx';
import { sendChoice, useSendConfirmation } from './send-confirmation.tsx';

const faxSchema = z.object({
  refills: z.coerce.number().int().min(0).max(11),
  sig: z.string().trim().min(1, { message: 'Enter the directions (sig).' }).max(1000),
});
/** What is wrong with an 'ask me again on' day (YYYY-MM-DD from the day field), or null when it is after today. */
function postponeDateIssue(day: string | undefined): string | null {
  if (!parseIsoDate(day ?? '')) return DAY_FIELD_FORMAT_MESSAGE;
  return postponeDateProblem(day ?? '', localTodayIso());
}
const postponeSchema = z.object({
  date: z.string().superRefine((text, ctx) => {
    const issue = postponeDateIssue(text);
    if (issue) ctx.addIssue({ code: 'custom', message: issue });
  }),
});
/**
 * 'Postpone the refill authorization' is one of the spec's denial reasons, but a postponement without a
 * date would drop the request for good (issue 21): choosing it asks for the date, and the request is
 * postponed to that date (it comes back then) instead of denied.
 */
const denySchema = z
  .object({ reason: z.enum(REFILL_DENIAL_REASONS, { message: 'Choose a reason.' }), date: z.string().optional() })
  .superRefine((value, ctx) => {
    if (value.reason !== 'POSTPONE_REFILL_AUTH') return;
    const issue = postponeDateIssue(value.date);
    if (issue) ctx.addIssue({ code: 'custom', message: issue, path: ['date'] });
  });

export interface PanelProps {
  entry: Entry;
  user: UserDetails;
  /** Said after the decision; with the server's offer, it can be undone for its window (issue 22). */
  onDone: (message: string, undo?: UndoOffer, kind?: DecisionKind) => void;
  /** What the user may do here (decision 0020): office staff prepare, prescribers sign. */
  access: ClinicalAccess;
}

/** What a postponement does, said where it is chosen (issue 47: it must not look like a denial). */
const POSTPONE_SENDS_NOTHING = 'Nothing is sent to the pharmacy: the request comes back to Action Needed on the day you choose.';

export const PRESCRIBER_SIGNS = 'A prescriber of the practice authorizes or denies refills. You can postpone this request.';

export function RefillPanel({ entry, user, onDone, access }: PanelProps) {
  // Authorise and deny are the prescriber's decision (one rule for all of them, decision 0020).
  const canSign = mayTakeAction(access, 'refillAuthorizedFax');
  const rx = entry.prescription;
  const fax = useAuthorizeRefillFax();
  const erx = useAuthorizeRefillErx();
  const deny = useDenyRefill();
  const postpone = usePostponeRefill();
  const [confirming, setConfirming] = useState(false);
  const { confirmSend, dialog: sendDialog } = useSendConfirmation(user);
  const about = `${drugLabel(rx)} for ${patientName(entry.patient)}`;
  const faxForm = useForm<z.input<typeof faxSchema>, unknown, z.output<typeof faxSchema>>({
    resolver: zodResolver(faxSchema),
    defaultValues: { refills: rx.refills, sig: rx.sig ?? '' },
  });
  // A postponement starts a week out (the first quick choice), as in the queue's dialog: Enter confirms it.
  const inAWeek = addIsoDays(localTodayIso(), POSTPONE_PRESET_DAYS[0]);
  const denyForm = useForm<z.infer<typeof denySchema>>({ resolver: zodResolver(denySchema), defaultValues: { date: inAWeek } });
  const postponeForm = useForm<z.infer<typeof postponeSchema>>({
    resolver: zodResolver(postponeSchema),
    defaultValues: { date: inAWeek },
  });
  const senderName = user.userName;
  const busy = fax.isPending || erx.isPending || deny.isPending || postpone.isPending;
  const preferred = user.mdOfficePrefs?.prescribeVia;

  const postponing = denyForm.watch('reason') === 'POSTPONE_REFILL_AUTH';
  const postponeTo = (date: NonNullable<ReturnType<typeof parseIsoDate>>) =>
    postpone.mutate(
      { prescriptionId: rx.id, refillPostponedToDate: toIsoDate(date), senderName },
      {
        onSuccess: (result) =>
          onDone(`Refill authorization postponed to ${formatUsDate(date)}.`, result.undo, {
            toPharmacy: tellsPharmacy('refillPostpone'),
          }),
      },
    );

  const sendErx = (skipErxConfirmation?: boolean) =>
    erx.mutate(
      { prescriptionId: rx.id, ...(skipErxConfirmation === undefined ? {} : { skipErxConfirmation }) },
      { onSuccess: (result) => onDone('Refill authorized by eRx.', result.undo) },
    );

  return (
    <section className={styles.panel} aria-labelledby="refill-heading">
      {sendDialog}
      <h2 id="refill-heading">Refill authorization</h2>
      <FormAlert message={failure(fax.error ?? erx.error ?? deny.error ?? postpone.error)} />

      {rx.prepared ? (
        <PreparedBox prescriptionId={rx.id} prepared={rx.prepared} canSign={canSign} user={user} about={about} onDone={onDone} />
      ) : null}
      {canSign ? (
        <>
          {rx.controlled ? (
            // A controlled substance is authorized only by an EPCS signature (issue 48): no fax, no plain eRx.
            <ControlledRefillSigning entry={entry} onDone={(message) => onDone(message)} />
          ) : (
            <form
              className={styles.fieldset}
              aria-labelledby="fax-heading"
              noValidate
              onSubmit={faxForm.handleSubmit((v) =>
                confirmSend({
                  title: 'Send this refill authorization by fax?',
                  confirmLabel: 'Send by fax',
                  summary: (
                    <p>
                      To the pharmacy, by fax: {about}. {v.refills} refill(s), “{v.sig}”. Signed {senderName}.
                    </p>
                  ),
                  send: (skip) =>
                    fax.mutate(
                      { prescriptionId: rx.id, refills: v.refills, sig: v.sig, senderName, ...sendChoice(skip) },
                      { onSuccess: (result) => onDone('Refill authorized by fax.', result.undo) },
                    ),
                }),
              )}
            >
              <h3 id="fax-heading">Authorize{preferred === 'Fax' && !rx.faxByRule ? ' (your practice prefers fax)' : ''}</h3>
              {rx.faxByRule ? <p className={styles.notice}>{routedByRuleText(rx.faxByRule)}.</p> : null}
              <RefillsSigFields
                refills={faxForm.register('refills')}
                sig={faxForm.register('sig')}
                sigError={faxForm.formState.errors.sig?.message}
              />
              <div className={styles.row}>
                <button type="submit" className={styles.button} disabled={busy}>
                  Authorize by fax
                </button>
                {/* An "always send by fax" standing rule routes this one: the server refuses eRx (issue 23). */}
                {rx.faxByRule ? null : (
                  <button
                    type="button"
                    className={preferred === 'eRx' ? styles.button : styles.secondary}
                    disabled={busy}
                    onClick={() =>
                      resolveSkipErxConfirmation(user.mdOfficeUserPrefs.skipErxConfirmation) ? sendErx() : setConfirming(true)
                    }
                  >
                    Authorize by eRx
                  </button>
                )}
              </div>
            </form>
          )}

          <ConfirmDialog
            open={confirming}
            title="Send this refill authorization by eRx?"
            confirmLabel="Send by eRx"
            skipLabel="Don’t ask me again"
            onCancel={() => setConfirming(false)}
            onConfirm={(skip) => {
              setConfirming(false);
              sendErx(skip);
            }}
          >
            <p>
              {drugLabel(rx)}: {rx.refills} refill(s), “{rx.sig ?? ''}”. The pharmacy receives it electronically.
            </p>
          </ConfirmDialog>

          <form
            className={styles.fieldset}
            aria-labelledby="deny-heading"
            noValidate
            onSubmit={denyForm.handleSubmit((v) => {
              const until = v.reason === 'POSTPONE_REFILL_AUTH' ? parseIsoDate(v.date ?? '') : null;
              if (until) return postponeTo(until);
              confirmSend({
                title: 'Send this refill denial?',
                confirmLabel: 'Send denial',
                summary: (
                  <p>
                    To the pharmacy, by fax: {about}. Refill denied: {DENIAL_REASON_LABELS[v.reason].toLowerCase()}. Signed{' '}
                    {senderName}.
                  </p>
                ),
                send: (skip) =>
                  deny.mutate(
                    { prescriptionId: rx.id, reason: v.reason, senderName, ...sendChoice(skip) },
                    { onSuccess: (result) => onDone('Refill denied.', result.undo) },
                  ),
              });
            })}
          >
            <h3 id="deny-heading">Deny</h3>
            <p className={styles.hint}>
              The pharmacy is told by fax that the refill is denied, with the reason. To be asked again later instead, choose “
              {DENIAL_REASON_LABELS.POSTPONE_REFILL_AUTH}”: nothing is then sent.
            </p>
            <fieldset className={styles.fieldset} aria-describedby={denyForm.formState.errors.reason ? 'deny-error' : undefined}>
              <legend>Reason</legend>
              {REFILL_DENIAL_REASONS.map((reason) => (
                <label key={reason} className={styles.choice}>
                  <input type="radio" value={reason} {...denyForm.register('reason')} />
                  {DENIAL_REASON_LABELS[reason]}
                </label>
              ))}
              {denyForm.formState.errors.reason ? (
                <span id="deny-error" className={styles.fieldError}>
                  {denyForm.formState.errors.reason.message}
                </span>
              ) : null}
            </fieldset>
            {postponing ? (
              <>
                <p className={styles.hint}>{POSTPONE_SENDS_NOTHING}</p>
                <AskAgainDayField control={denyForm.control} />
              </>
            ) : null}
            <div className={styles.row}>
              <button type="submit" className={styles.secondary} disabled={busy}>
                {postponing ? 'Postpone refill' : 'Deny refill'}
              </button>
            </div>
          </form>
          {/* No standing rule answers a controlled substance: it always comes to the prescriber. */}
          {rx.controlled ? null : (
            <p>
              <Link
                to={ROUTES.standingRules}
                state={standingRuleState({
                  practiceId: null,
                  prescriberId: entry.doctor.doctorId,
                  patientId: entry.patient.id,
                  patientName: patientName(entry.patient),
                  drugName: rx.drugName,
                })}
              >
                Stop asking: answer this drug’s refill requests for this patient by a standing rule
              </Link>
            </p>
          )}
        </>
      ) : rx.prepared ? (
        <p className={styles.notice}>{PRESCRIBER_SIGNS}</p>
      ) : mayTakeAction(access, 'refillPostponed') ? (
        <PrepareRefillForm
          prescriptionId={rx.id}
          refills={rx.refills}
          sig={rx.sig}
          faxOnly={Boolean(rx.faxByRule)}
          onDone={(message) => onDone(message)}
        />
      ) : (
        <p className={styles.notice}>{PRESCRIBER_SIGNS}</p>
      )}

      <form
        className={styles.fieldset}
        aria-labelledby="postpone-heading"
        noValidate
        onSubmit={postponeForm.handleSubmit((v) => {
          const date = parseIsoDate(v.date);
          if (date) postponeTo(date);
        })}
      >
        <h3 id="postpone-heading">Postpone</h3>
        <p className={styles.hint}>{POSTPONE_SENDS_NOTHING}</p>
        <AskAgainDayField control={postponeForm.control} />
        <div className={styles.row}>
          <button type="submit" className={styles.secondary} disabled={busy}>
            Postpone
          </button>
        </div>
      </form>
    </section>
  );
}

/** 'Ask me again on': the Postpone form and the postponing denial reason, with the quick choices of the contract. */
function AskAgainDayField<T extends { date?: string | undefined }>({ control }: { control: Control<T> }) {
  const { field, fieldState } = useController({
    control: control as unknown as Control<{ date?: string | undefined }>,
    name: 'date',
  });
  return (
    <DayField
      label="Ask me again on"
      {...field}
      value={field.value ?? ''}
      error={fieldState.error?.message}
      quickDays={POSTPONE_PRESET_DAYS}
      today={localTodayIso()}
      min={addIsoDays(localTodayIso(), 1)}
    />
  );
}
