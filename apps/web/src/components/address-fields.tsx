import { US_STATES } from '@hcp/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { zipInfoQueryOptions } from '../lib/addresses/get-zip-info.ts';
import { ServiceError } from '../lib/service-error.ts';
import styles from './address-fields.module.css';
import { SelectField } from './select-field.tsx';
import { TextField } from './text-field.tsx';

const STATE_OPTIONS = US_STATES.map((s) => ({ value: s, label: s }));

type Fields = Record<string, unknown>;
const errorAt = (errors: Fields, path: string): string | undefined => {
  let node: unknown = errors;
  for (const key of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[key];
  return (node as { message?: string } | undefined)?.message;
};

/**
 * Street, ZIP, city and state of a form (`prefix` names a nested address, e.g. 'contactAddresses.0.').
 * Looking up a ZIP fills city and state from the ZIP table and says so; an unknown ZIP says that instead.
 */
export function AddressFields({ prefix = '' }: { prefix?: string }) {
  const { register, setValue, getValues, formState } = useFormContext<Fields>();
  const queryClient = useQueryClient();
  const statusId = useId();
  const [status, setStatus] = useState<{ text: string; problem: boolean } | null>(null);
  const [looking, setLooking] = useState(false);
  const name = (field: string) => `${prefix}${field}`;
  const error = (field: string) => errorAt(formState.errors as Fields, name(field));

  async function lookUp() {
    const zip = String(getValues(name('zip')) ?? '').trim();
    if (!/^\d{5}(-\d{4})?$/.test(zip)) {
      setStatus({ text: 'Enter a 5-digit ZIP code to look it up.', problem: true });
      return;
    }
    setLooking(true);
    try {
      const info = await queryClient.fetchQuery(zipInfoQueryOptions(zip));
      setValue(name('city'), info.city, { shouldDirty: true, shouldValidate: true });
      setValue(name('state'), info.state, { shouldDirty: true, shouldValidate: true });
      setStatus({ text: `${info.city}, ${info.state} filled in from ZIP ${info.zip}.`, problem: false });
    } catch (failure) {
      const notFound = failure instanceof ServiceError && failure.status === 404;
      setStatus({ text: notFound ? `ZIP code ${zip.slice(0, 5)} was not found.` : 'Failed to get zip info', problem: true });
    } finally {
      setLooking(false);
    }
  }

  return (
    <>
      <div className={styles.wide}>
        <TextField
          label="Street address"
          autoComplete="address-line1"
          error={error('address1')}
          {...register(name('address1'))}
        />
      </div>
      <div className={styles.wide}>
        <TextField
          label="Address line 2 (optional)"
          autoComplete="address-line2"
          error={error('address2')}
          {...register(name('address2'))}
        />
      </div>
      <div className={styles.zipRow}>
        <TextField
          label="ZIP code"
          inputMode="numeric"
          autoComplete="postal-code"
          error={error('zip')}
          describedBy={status ? statusId : undefined}
          {...register(name('zip'))}
        />
        <button type="button" className={styles.secondary} onClick={lookUp} disabled={looking}>
          {looking ? 'Looking up…' : 'Look up ZIP'}
        </button>
      </div>
      <TextField label="City" autoComplete="address-level2" error={error('city')} {...register(name('city'))} />
      <SelectField
        label="State"
        options={STATE_OPTIONS}
        emptyLabel="Choose a state"
        autoComplete="address-level1"
        error={error('state')}
        {...register(name('state'))}
      />
      <p id={statusId} role="status" className={status?.problem ? styles.problem : styles.status}>
        {status?.text ?? ''}
      </p>
    </>
  );
}
