import {
  MD_STAFF_ROLES,
  type MdStaff,
  type MdStaffFormValues,
  type MdStaffInput,
  mdStaffInputSchema,
  webPaths,
} from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { SelectField } from '../../../components/select-field.tsx';
import { SubmitRow } from '../../../components/submit-row.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes.tsx';
import { showSaveFailure } from '../../../lib/form-errors.ts';
import { useMdOfficesSearch } from '../../../lib/practices/search-md-offices.ts';
import { useAddMdOfficeStaff } from '../api/add-md-office-staff.ts';
import { useUpdateMdStaff } from '../api/update-md-staff.ts';
import { ContactFields } from './contact-fields.tsx';
import styles from './manage-comms.module.css';

const ROLE_OPTIONS = MD_STAFF_ROLES.map((r) => ({ value: r, label: r === 'STAFF' ? 'Office staff' : r }));
/** The practice picker lists this many practices by name; more than that is a job for the Practices search. */
const PRACTICE_CHOICES = 100;

const valuesOf = (person: MdStaff | null): MdStaffFormValues => ({
  fullName: person?.fullName ?? '',
  role: (person?.role ?? '') as MdStaffFormValues['role'],
  npi: person?.npi ?? '',
  specialty: person?.specialty ?? '',
  phoneNumber: person?.phoneNumber ?? '',
  faxNumber: person?.faxNumber ?? '',
  email: person?.email ?? '',
});

/**
 * An HCP's or staff member's details: the create screen (person null; a new person is created in a
 * practice, given by ?practiceId or chosen here) and the edit screen's Details tab.
 */
export function HcpDetailsForm({ person, practiceId }: { person: MdStaff | null; practiceId?: string | null }) {
  const navigate = useNavigate();
  const update = useUpdateMdStaff(person?.id ?? '');
  const add = useAddMdOfficeStaff();
  const practices = useMdOfficesSearch('', 1, PRACTICE_CHOICES);
  const [officeId, setOfficeId] = useState(practiceId ?? '');
  const [officeError, setOfficeError] = useState<string | null>(null);
  const { register, handleSubmit, formState, setError, reset } = useForm<MdStaffFormValues, unknown, MdStaffInput>({
    resolver: zodResolver(mdStaffInputSchema),
    defaultValues: valuesOf(person),
  });
  const errors = formState.errors;

  const onSubmit = handleSubmit(async (input) => {
    try {
      if (person) {
        reset(valuesOf(await update.mutateAsync(input)));
        toast.success('Details saved.');
        return;
      }
      if (!officeId) {
        setOfficeError('Choose the practice this person works at.');
        return;
      }
      const created = await add.mutateAsync({ officeId, body: { staff: input } });
      reset(valuesOf(created));
      toast.success(`${created.fullName} created.`);
      navigate(webPaths.manageCommsHcpEdit(created.id, 'preferences'), { replace: true });
    } catch (error) {
      showSaveFailure(error, setError, person ? 'body.' : 'body.staff.');
    }
  });

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="HCP or staff details">
      <UnsavedChangesGuard when={formState.isDirty && !formState.isSubmitting} />
      {person ? null : (
        <div className={styles.wide}>
          <SelectField
            label="Practice"
            emptyLabel={practices.isPending ? 'Loading practices…' : 'Choose a practice'}
            options={(practices.data?.records ?? []).map((o) => ({ value: o.id, label: o.name }))}
            value={officeId}
            onChange={(e) => {
              setOfficeId(e.target.value);
              setOfficeError(null);
            }}
            error={officeError ?? undefined}
          />
        </div>
      )}
      <TextField label="Full name" autoComplete="name" error={errors.fullName?.message} {...register('fullName')} />
      <SelectField
        label="Role"
        emptyLabel="Choose a role"
        options={ROLE_OPTIONS}
        error={errors.role?.message}
        {...register('role')}
      />
      <TextField label="NPI (prescribers)" inputMode="numeric" error={errors.npi?.message} {...register('npi')} />
      <TextField label="Specialty (optional)" error={errors.specialty?.message} {...register('specialty')} />
      <ContactFields
        phoneLabel="Phone (optional)"
        register={(name) => register(name)}
        errors={{ phoneNumber: errors.phoneNumber?.message, faxNumber: errors.faxNumber?.message, email: errors.email?.message }}
      />
      <SubmitRow
        label={person ? 'Save details' : 'Create HCP or staff member'}
        busy={formState.isSubmitting}
        error={errors.root?.server?.message}
      />
    </form>
  );
}
