import {
  ADDRESS_LABELS,
  type AddressVerification,
  type ContactAddressFormValues,
  type ContactAddressInput,
  contactAddressInputSchema,
  type MdStaff,
} from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { FormProvider, useFieldArray, useForm, useFormContext } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { AddressFields } from '../../../components/address-fields.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes.tsx';
import { useVerifyAddress } from '../../../lib/addresses/verify-address.ts';
import { failureText, showSaveFailure } from '../../../lib/form-errors.ts';
import { useUpdateMdStaff } from '../api/update-md-staff.ts';
import styles from './manage-comms.module.css';

const MAX_ADDRESSES = 10;
const schema = z.object({ contactAddresses: z.array(contactAddressInputSchema).max(MAX_ADDRESSES) });
type Values = { contactAddresses: ContactAddressFormValues[] };
type Output = { contactAddresses: ContactAddressInput[] };

const EMPTY: ContactAddressFormValues = {
  label: 'Office',
  address1: '',
  address2: '',
  city: '',
  state: '' as ContactAddressFormValues['state'],
  zip: '',
};
const valuesOf = (person: MdStaff): Values => ({
  contactAddresses: person.contactAddresses.map(({ verified: _verified, ...a }) => ({ ...a, address2: a.address2 ?? '' })),
});

/** The addresses an HCP or staff member is contacted at; each can be checked against the ZIP table before saving. */
export function HcpAddressesForm({ person }: { person: MdStaff }) {
  const save = useUpdateMdStaff(person.id);
  const form = useForm<Values, unknown, Output>({ resolver: zodResolver(schema), defaultValues: valuesOf(person) });
  const { control, handleSubmit, formState, setError, reset } = form;
  const { fields, append, remove } = useFieldArray({ control, name: 'contactAddresses' });
  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      reset(valuesOf(saved));
      const unverified = saved.contactAddresses.filter((a) => !a.verified).length;
      toast.success(
        unverified > 0
          ? `Addresses saved; ${unverified} did not match the ZIP table — please check ${unverified === 1 ? 'it' : 'them'}.`
          : 'Addresses saved.',
      );
    } catch (error) {
      showSaveFailure(error, setError);
    }
  });
  return (
    <FormProvider {...form}>
      <form className={styles.stack} onSubmit={onSubmit} noValidate aria-label="Contact addresses">
        <UnsavedChangesGuard when={formState.isDirty && !formState.isSubmitting} />
        {fields.length === 0 ? <p>No contact addresses yet.</p> : null}
        {fields.map((field, index) => (
          <AddressBlock
            key={field.id}
            index={index}
            saved={formState.isDirty ? null : (person.contactAddresses[index] ?? null)}
            onRemove={() => remove(index)}
          />
        ))}
        <div className={styles.actions}>
          <button
            type="button"
            className={styles.secondary}
            disabled={fields.length >= MAX_ADDRESSES}
            onClick={() => append(EMPTY, { shouldFocus: false })}
          >
            Add address
          </button>
          <button type="submit" className={styles.primary} disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Saving…' : 'Save addresses'}
          </button>
          <FormAlert message={formState.errors.root?.server?.message} />
        </div>
      </form>
    </FormProvider>
  );
}

function AddressBlock({
  index,
  saved,
  onRemove,
}: {
  index: number;
  saved: MdStaff['contactAddresses'][number] | null;
  onRemove: () => void;
}) {
  const { register, getValues, setValue, formState } = useFormContext<Values>();
  const verify = useVerifyAddress();
  const [result, setResult] = useState<AddressVerification | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const prefix = `contactAddresses.${index}` as const;

  async function check() {
    setProblem(null);
    const parsed = contactAddressInputSchema.safeParse(getValues(prefix));
    if (!parsed.success) {
      setProblem('Fill in street, ZIP, city and state first.');
      return;
    }
    try {
      setResult(await verify.mutateAsync(parsed.data));
    } catch (error) {
      setProblem(failureText(error));
    }
  }

  return (
    <fieldset className={styles.address}>
      <legend>Address {index + 1}</legend>
      <div className={styles.form}>
        <SelectField
          label="Used for"
          options={ADDRESS_LABELS.map((l) => ({ value: l, label: l }))}
          error={formState.errors.contactAddresses?.[index]?.label?.message}
          {...register(`${prefix}.label`)}
        />
        <AddressFields prefix={`${prefix}.`} />
        {saved ? (
          <p className={saved.verified ? styles.status : styles.problem}>
            {saved.verified ? 'Verified against the ZIP table.' : 'Not verified: the ZIP, city or state did not match.'}
          </p>
        ) : null}
        <div role="status" className={styles.wide}>
          {result?.verified ? <p className={styles.status}>Address verified.</p> : null}
          {result && !result.verified ? (
            <>
              {result.problems.map((p) => (
                <p key={p.field} className={styles.problem}>
                  {p.message}
                </p>
              ))}
              {result.problems.every((p) => p.field !== 'zip') ? (
                <button
                  type="button"
                  className={styles.secondary}
                  onClick={() => {
                    setValue(`${prefix}.city`, result.address.city, { shouldDirty: true, shouldValidate: true });
                    setValue(`${prefix}.state`, result.address.state, { shouldDirty: true, shouldValidate: true });
                    setResult(null);
                  }}
                >
                  Use {result.address.city}, {result.address.state}
                </button>
              ) : null}
            </>
          ) : null}
        </div>
        <FormAlert message={problem} />
        <div className={styles.actions}>
          <button type="button" className={styles.secondary} onClick={check} disabled={verify.isPending}>
            {verify.isPending ? 'Verifying…' : 'Verify address'}
          </button>
          <button type="button" className={styles.danger} onClick={onRemove} aria-label={`Remove address ${index + 1}`}>
            Remove
          </button>
        </div>
      </div>
    </fieldset>
  );
}
