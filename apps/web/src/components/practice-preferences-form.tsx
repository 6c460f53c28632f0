import {
  type MdOffice,
  type MdOfficeCommPrefs,
  mdOfficeCommPrefsSchema,
  PA_HANDLING_LABELS,
  PA_HANDLING_OPTIONS,
  REFILL_REQUEST_LABELS,
  REFILL_REQUEST_OPTIONS,
} from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useUpdateMdOfficeCommPrefs } from '../lib/practices/update-md-office-comm-prefs.ts';
import { CommPrefsForm } from './comm-prefs-form.tsx';
import styles from './practice-preferences-form.module.css';
import { optionsOf, RadioGroup } from './radio-group.tsx';

type Values = Omit<MdOfficeCommPrefs, 'notOnboarded'> & { onboarded: boolean };
const valuesOf = (office: MdOffice): Values => ({
  communicationMode: office.mdOfficePrefs.communicationMode,
  paHandling: office.mdOfficePrefs.paHandling,
  refillRequestOption: office.mdOfficePrefs.refillRequestOption,
  onboarded: !office.mdOfficePrefs.notOnboarded,
});
const schema = mdOfficeCommPrefsSchema
  .omit({ notOnboarded: true })
  .extend({ onboarded: mdOfficeCommPrefsSchema.shape.notOnboarded });

/** How a practice wants to be contacted, how it handles prior authorizations and refill requests, and whether it is onboarded. */
export function PracticePreferencesForm({ office }: { office: MdOffice }) {
  const save = useUpdateMdOfficeCommPrefs(office.id);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: valuesOf(office) });
  const errors = form.formState.errors;
  return (
    <CommPrefsForm
      form={form}
      className={styles.stack}
      save={async ({ onboarded, ...prefs }) => valuesOf(await save.mutateAsync({ ...prefs, notOnboarded: !onboarded }))}
    >
      <RadioGroup
        legend="Prior authorization handling"
        options={optionsOf(PA_HANDLING_OPTIONS, PA_HANDLING_LABELS)}
        error={errors.paHandling?.message}
        {...form.register('paHandling')}
      />
      <RadioGroup
        legend="Refill requests"
        options={optionsOf(REFILL_REQUEST_OPTIONS, REFILL_REQUEST_LABELS)}
        error={errors.refillRequestOption?.message}
        {...form.register('refillRequestOption')}
      />
      <label className={styles.check}>
        <input type="checkbox" {...form.register('onboarded')} />
        Onboarded
      </label>
    </CommPrefsForm>
  );
}
