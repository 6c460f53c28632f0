import {
  type CatalogueProduct,
  COMMON_SIGS,
  type CreatedPrescription,
  capitalizeName,
  type EpcsSigning,
  formatApiDate,
  MAX_REFILLS,
  type NewPrescription,
  newPrescriptionSchema,
  type PrescribeVia,
  type UserDetails,
} from '@hcp/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { Controller, FormProvider, useForm, useWatch } from 'react-hook-form';
import { AddressFields } from '../../../components/address-fields.tsx';
import controls from '../../../components/controls.module.css';
import { DayField } from '../../../components/day-field.tsx';
import { EpcsSigningDialog } from '../../../components/epcs-signing-dialog.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes.tsx';
import { failureText } from '../../../lib/form-errors.ts';
import { usePatientSearch } from '../../../lib/patients/search-patients.ts';
import { stepUpFailure } from '../../../lib/step-up.ts';
import { useCreatePrescription } from '../api/create-prescription.ts';
import { useDiscardPrescriptionDraft, useSavePrescriptionDraft } from '../api/prescription-draft.ts';
import { useCatalogue } from '../api/search-catalogue.ts';
import { usePrepareControlledPrescription, useSignControlledPrescription } from '../api/sign-controlled.ts';
import styles from './prescribe.module.css';

export interface PrescribeValues {
  mode: 'existing' | 'new';
  patientId: string;
  patientLabel: string;
  newPatient: {
    fullName: string;
    dob: string;
    phoneNumber: string;
    address1: string;
    address2: string;
    city: string;
    state: string;
    zip: string;
  };
  productId: string;
  productLabel: string;
  /** A controlled substance: signed with EPCS (issue 48) instead of sent after a confirmation. */
  productControlled?: boolean;
  order: {
    quantity: string;
    daysSupply: string;
    refills: string;
    sig: string;
    substitutionAllowed: boolean;
    notesToPharmacist: string;
  };
}

export const EMPTY_VALUES: PrescribeValues = {
  mode: 'existing',
  patientId: '',
  patientLabel: '',
  newPatient: { fullName: '', dob: '', phoneNumber: '', address1: '', address2: '', city: '', state: '', zip: '' },
  productId: '',
  productLabel: '',
  order: { quantity: '', daysSupply: '', refills: '0', sig: '', substitutionAllowed: true, notesToPharmacist: '' },
};

/** What the server receives: only the chosen kind of patient. */
export function toRequest(values: PrescribeValues): unknown {
  return {
    patient: values.mode === 'existing' ? { patientId: values.patientId || undefined } : { newPatient: values.newPatient },
    order: { ...values.order, productId: values.productId },
  };
}

/** Where a contract error lands in the form ('patient.newPatient.zip' -> 'newPatient.zip'). */
export function formPathOf(path: (string | number)[]): string {
  const joined = path.join('.');
  if (joined === 'patient' || joined === 'patient.patientId') return 'patientId';
  if (joined.startsWith('patient.')) return joined.slice('patient.'.length);
  if (joined === 'order.productId') return 'productId';
  return joined;
}

const DRAFT_DELAY_MS = 800;

/**
 * Prescribe Rx: a patient (found or new), a product from the catalogue and the order; a review before
 * sending unless the prescriber chose to skip eRx confirmations; kept as a draft on the server meanwhile.
 */
export function PrescribeForm({
  user,
  via,
  initial,
  onSent,
}: {
  user: UserDetails;
  via: PrescribeVia;
  initial: PrescribeValues;
  onSent: (created: CreatedPrescription) => void;
}) {
  const form = useForm<PrescribeValues>({ defaultValues: initial });
  const { register, handleSubmit, setError, clearErrors, setValue, formState, control, getValues } = form;
  const values = useWatch({ control }) as PrescribeValues;
  const create = useCreatePrescription(user.userId);
  const prepareControlled = usePrepareControlledPrescription(user.userId);
  const signControlled = useSignControlledPrescription(user.userId);
  const [signing, setSigning] = useState<EpcsSigning | null>(null);
  const [signProblem, setSignProblem] = useState<string | null>(null);
  const saveDraft = useSavePrescriptionDraft(user.userId);
  const discardDraft = useDiscardPrescriptionDraft(user.userId);
  const [reviewing, setReviewing] = useState<NewPrescription | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [patientText, setPatientText] = useState('');
  const [patientQuery, setPatientQuery] = useState('');
  const [productText, setProductText] = useState('');
  const [productQuery, setProductQuery] = useState('');
  const patients = usePatientSearch(user.userId, patientQuery, 1);
  const catalogue = useCatalogue(productQuery);
  const reviewHeading = useRef<HTMLHeadingElement>(null);
  const ids = { patient: useId(), product: useId(), sig: useId(), notes: useId(), sigHelp: useId() };

  // Keep the draft on the server a moment after each change (survives a reload or another device).
  const { isDirty } = formState;
  useEffect(() => {
    if (!isDirty) return;
    const timer = setTimeout(() => saveDraft.mutate(values as unknown as Record<string, unknown>), DRAFT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [values, isDirty, saveDraft.mutate]);

  useEffect(() => {
    if (reviewing) reviewHeading.current?.focus();
  }, [reviewing]);

  async function send(request: NewPrescription) {
    setProblem(null);
    try {
      const created = await create.mutateAsync(request);
      form.reset(EMPTY_VALUES);
      onSent(created);
    } catch (error) {
      setReviewing(null);
      setProblem(failureText(error));
    }
  }

  const onSubmit = handleSubmit(async (current) => {
    clearErrors();
    setProblem(null);
    const parsed = newPrescriptionSchema.safeParse(toRequest(current));
    if (!parsed.success) {
      parsed.error.issues.forEach((issue, i) => {
        setError(formPathOf(issue.path as (string | number)[]) as never, { message: issue.message }, { shouldFocus: i === 0 });
      });
      return;
    }
    // A controlled substance is reviewed and signed with two factors (EPCS), never sent without it.
    if (current.productControlled) {
      prepareControlled.mutate(parsed.data, {
        onSuccess: (shown) => {
          setSignProblem(null);
          setSigning(shown);
        },
        onError: (failure) => setProblem(failureText(failure)),
      });
      return;
    }
    if (user.mdOfficeUserPrefs.skipErxConfirmation) await send(parsed.data);
    else setReviewing(parsed.data);
  });

  const signDialog = (
    <EpcsSigningDialog
      key={signing?.signingId ?? 'none'}
      signing={signing}
      busy={signControlled.isPending}
      problem={signProblem}
      onClose={() => setSigning(null)}
      onSign={(entry) =>
        signing &&
        signControlled.mutate(
          { signingId: signing.signingId, entry },
          {
            onSuccess: ({ signature: _signature, ...created }) => {
              setSigning(null);
              form.reset(EMPTY_VALUES);
              onSent(created);
            },
            onError: (failure) => setSignProblem(stepUpFailure(failure)),
          },
        )
      }
    />
  );

  const error = (path: string): string | undefined => {
    let node: unknown = formState.errors;
    for (const key of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[key];
    return (node as { message?: string } | undefined)?.message;
  };

  if (reviewing) {
    const p = getValues();
    return (
      <section aria-labelledby="review-title" className={styles.review}>
        <h2 id="review-title" ref={reviewHeading} tabIndex={-1}>
          Review and send
        </h2>
        <dl className={styles.facts}>
          <dt>Patient</dt>
          <dd>
            {p.mode === 'existing' ? p.patientLabel : `${p.newPatient.fullName} (new), born ${formatApiDate(p.newPatient.dob)}`}
          </dd>
          <dt>Medication</dt>
          <dd>{p.productLabel}</dd>
          <dt>Quantity</dt>
          <dd>
            {reviewing.order.quantity} for {reviewing.order.daysSupply} days, {reviewing.order.refills} refill(s)
          </dd>
          <dt>Directions</dt>
          <dd>{reviewing.order.sig}</dd>
          <dt>Substitution</dt>
          <dd>{reviewing.order.substitutionAllowed ? 'Generic substitution allowed' : 'Dispense as written'}</dd>
          {reviewing.order.notesToPharmacist ? (
            <>
              <dt>Notes to pharmacist</dt>
              <dd>{reviewing.order.notesToPharmacist}</dd>
            </>
          ) : null}
          <dt>Prescriber</dt>
          <dd>{user.userName}</dd>
        </dl>
        <div className={styles.actions}>
          <button type="button" className={controls.primary} disabled={create.isPending} onClick={() => send(reviewing)}>
            {create.isPending ? 'Sending…' : `Send by ${via === 'Fax' ? 'fax' : 'eRx'}`}
          </button>
          <button type="button" className={controls.secondary} onClick={() => setReviewing(null)}>
            Edit
          </button>
        </div>
      </section>
    );
  }

  return (
    <FormProvider {...form}>
      <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="New prescription">
        <UnsavedChangesGuard when={isDirty && !create.isPending} />
        <fieldset className={styles.section}>
          <legend>Patient</legend>
          <div className={styles.modes}>
            <label>
              <input type="radio" value="existing" {...register('mode')} /> A patient of my practices
            </label>
            <label>
              <input type="radio" value="new" {...register('mode')} /> A new patient
            </label>
          </div>
          {values.mode === 'existing' ? (
            <div className={styles.stack}>
              <div className={styles.searchRow}>
                <TextField
                  label="Find a patient (name, date of birth or phone)"
                  value={patientText}
                  onChange={(e) => setPatientText(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      e.preventDefault();
                      setPatientQuery(patientText.trim());
                    }
                  }}
                />
                <button type="button" className={controls.secondary} onClick={() => setPatientQuery(patientText.trim())}>
                  Find patient
                </button>
              </div>
              {values.patientLabel ? <p>Chosen: {values.patientLabel}</p> : null}
              {patientQuery ? (
                <fieldset className={styles.choices} aria-describedby={error('patientId') ? ids.patient : undefined}>
                  <legend>Patients found</legend>
                  {patients.isFetching && !patients.data ? <p role="status">Searching…</p> : null}
                  {patients.data?.records.length === 0 ? <p>No patients match your search.</p> : null}
                  {patients.data?.records.map((r) => {
                    const label = `${capitalizeName(r.lastName)}, ${capitalizeName(r.firstName)} — born ${formatApiDate(r.dob)}`;
                    return (
                      <label key={r.id} className={styles.choice}>
                        <input
                          type="radio"
                          name="patient-choice"
                          checked={values.patientId === r.id}
                          onChange={() => {
                            setValue('patientId', r.id, { shouldDirty: true });
                            setValue('patientLabel', label, { shouldDirty: true });
                            clearErrors('patientId');
                          }}
                        />
                        {label}
                      </label>
                    );
                  })}
                </fieldset>
              ) : null}
              {error('patientId') ? (
                <p id={ids.patient} className={styles.error} role="alert">
                  {error('patientId')}
                </p>
              ) : null}
            </div>
          ) : (
            <div className={styles.grid}>
              <TextField
                label="Full name"
                autoComplete="off"
                error={error('newPatient.fullName')}
                {...register('newPatient.fullName')}
              />
              <Controller
                control={control}
                name="newPatient.dob"
                render={({ field }) => (
                  // A birth date is known by heart: typed, no calendar; the server's rule says when it is no birth date.
                  <DayField
                    label="Date of birth"
                    {...field}
                    value={field.value ?? ''}
                    error={error('newPatient.dob')}
                    memorable
                  />
                )}
              />
              <TextField
                label="Phone"
                type="tel"
                placeholder="(555) 555-5555"
                error={error('newPatient.phoneNumber')}
                {...register('newPatient.phoneNumber')}
              />
              <AddressFields prefix="newPatient." />
            </div>
          )}
        </fieldset>

        <fieldset className={styles.section}>
          <legend>Medication</legend>
          <div className={styles.searchRow}>
            <TextField
              label="Find a product (name or NDC)"
              value={productText}
              onChange={(e) => setProductText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  setProductQuery(productText.trim());
                }
              }}
            />
            <button type="button" className={controls.secondary} onClick={() => setProductQuery(productText.trim())}>
              Find product
            </button>
          </div>
          {values.productLabel ? <p>Chosen: {values.productLabel}</p> : null}
          {productQuery.length >= 2 ? (
            <fieldset className={styles.choices}>
              <legend>Products found</legend>
              {catalogue.data?.length === 0 ? <p>No products match your search.</p> : null}
              {catalogue.data?.map((product: CatalogueProduct) => {
                const label = `${product.name} ${product.strength ?? ''} ${product.form ?? ''} (NDC ${product.ndc})`.replace(
                  /\s+/g,
                  ' ',
                );
                return (
                  <label key={product.id} className={styles.choice}>
                    <input
                      type="radio"
                      name="product-choice"
                      checked={values.productId === product.id}
                      onChange={() => {
                        setValue('productId', product.id, { shouldDirty: true });
                        setValue('productLabel', label, { shouldDirty: true });
                        setValue('productControlled', product.isControlled, { shouldDirty: true });
                        clearErrors('productId');
                      }}
                    />
                    {label}
                    {product.isControlled ? (
                      <span className={styles.muted}> — controlled: signed with EPCS (password and passkey or app)</span>
                    ) : null}
                  </label>
                );
              })}
            </fieldset>
          ) : null}
          {error('productId') ? (
            <p id={ids.product} className={styles.error} role="alert">
              {error('productId')}
            </p>
          ) : null}
          <div className={styles.grid}>
            <TextField label="Quantity" inputMode="numeric" error={error('order.quantity')} {...register('order.quantity')} />
            <TextField
              label="Days supply"
              inputMode="numeric"
              error={error('order.daysSupply')}
              {...register('order.daysSupply')}
            />
            <TextField
              label={`Refills (0-${MAX_REFILLS})`}
              inputMode="numeric"
              error={error('order.refills')}
              {...register('order.refills')}
            />
          </div>
          <div className={styles.field}>
            <label htmlFor={ids.sig}>Directions (sig)</label>
            <select
              aria-label="Common directions"
              className={controls.control}
              value=""
              onChange={(e) => {
                if (e.target.value) setValue('order.sig', e.target.value, { shouldDirty: true, shouldValidate: false });
              }}
            >
              <option value="">Common directions…</option>
              {COMMON_SIGS.map((sig) => (
                <option key={sig} value={sig}>
                  {sig}
                </option>
              ))}
            </select>
            <textarea
              id={ids.sig}
              rows={3}
              className={controls.control}
              aria-invalid={error('order.sig') ? true : undefined}
              aria-describedby={error('order.sig') ? ids.sigHelp : undefined}
              {...register('order.sig')}
            />
            {error('order.sig') ? (
              <p id={ids.sigHelp} className={styles.error}>
                {error('order.sig')}
              </p>
            ) : null}
          </div>
          <label className={styles.check}>
            <input type="checkbox" {...register('order.substitutionAllowed')} />
            Generic substitution allowed (clear for dispense as written)
          </label>
          <div className={styles.field}>
            <label htmlFor={ids.notes}>Notes to pharmacist (optional)</label>
            <textarea id={ids.notes} rows={2} className={controls.control} {...register('order.notesToPharmacist')} />
          </div>
        </fieldset>

        <p className={styles.muted}>
          Prescriber: {user.userName}. Sent by {via === 'Fax' ? 'fax' : 'eRx'} to the provider's pharmacy.
        </p>
        <div className={styles.actions}>
          <button type="submit" className={controls.primary} disabled={create.isPending || prepareControlled.isPending}>
            {values.productControlled
              ? 'Review and sign'
              : user.mdOfficeUserPrefs.skipErxConfirmation
                ? `Send by ${via === 'Fax' ? 'fax' : 'eRx'}`
                : 'Review'}
          </button>
          <button
            type="button"
            className={controls.secondary}
            onClick={async () => {
              await discardDraft.mutateAsync().catch(() => undefined);
              form.reset(EMPTY_VALUES);
            }}
          >
            Discard draft
          </button>
          {saveDraft.isSuccess && isDirty ? <span className={styles.muted}>Draft saved</span> : null}
        </div>
        <FormAlert message={problem} />
      </form>
      {/* Outside the form: the dialog is a form of its own (Enter signs). */}
      {signDialog}
    </FormProvider>
  );
}
