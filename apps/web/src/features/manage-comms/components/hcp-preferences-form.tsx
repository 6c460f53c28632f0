import {
  EMAIL_OPT_LABELS,
  EMAIL_OPT_MODES,
  type MdPartnerCommPrefs,
  type MdStaff,
  mdPartnerCommPrefsSchema,
} from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { CommPrefsForm } from '../../../components/comm-prefs-form.tsx';
import { optionsOf, RadioGroup } from '../../../components/radio-group.tsx';
import { useUpdateMdPartnerCommPrefs } from '../api/update-md-partner-comm-prefs.ts';
import styles from './manage-comms.module.css';

/** How an HCP or staff member wants to be contacted. */
export function HcpPreferencesForm({ person }: { person: MdStaff }) {
  const save = useUpdateMdPartnerCommPrefs(person.id);
  const form = useForm<MdPartnerCommPrefs>({ resolver: zodResolver(mdPartnerCommPrefsSchema), defaultValues: person.commPrefs });
  return (
    <CommPrefsForm form={form} className={styles.stack} save={async (prefs) => (await save.mutateAsync(prefs)).commPrefs}>
      <RadioGroup
        legend="Email updates"
        options={optionsOf(EMAIL_OPT_MODES, EMAIL_OPT_LABELS)}
        error={form.formState.errors.emailOptIn?.message}
        {...form.register('emailOptIn')}
      />
    </CommPrefsForm>
  );
}
