import {
  type MdOffice,
  type MdOfficeFormValues,
  type MdOfficeInput,
  mdOfficeInputSchema,
  USER_ROLES,
  webPaths,
} from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { FormProvider, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { AddressFields } from '../../../components/address-fields.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { SubmitRow } from '../../../components/submit-row.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes.tsx';
import { showSaveFailure } from '../../../lib/form-errors.ts';
import { useSalesList } from '../api/get-sales-list.ts';
import { useSaveMdOffice } from '../api/save-md-office.ts';
import { ContactFields } from './contact-fields.tsx';
import styles from './manage-comms.module.css';
import { useManageCommsContext } from './manage-comms-context.ts';

const valuesOf = (office: MdOffice | null, defaultSalesUserId = ''): MdOfficeFormValues => ({
  name: office?.name ?? '',
  address1: office?.address1 ?? '',
  address2: office?.address2 ?? '',
  city: office?.city ?? '',
  state: (office?.state ?? '') as MdOfficeFormValues['state'],
  zip: office?.zip ?? '',
  phoneNumber: office?.phoneNumber ?? '',
  faxNumber: office?.faxNumber ?? '',
  email: office?.email ?? '',
  isKeyAccount: office?.isKeyAccount ?? false,
  salesUserId: office ? (office.salesUserId ?? '') : defaultSalesUserId,
});

/** A practice's details: the create screen (office null) and the edit screen's Details tab. */
export function PracticeDetailsForm({ office }: { office: MdOffice | null }) {
  const navigate = useNavigate();
  const save = useSaveMdOffice(office?.id ?? null);
  const sales = useSalesList();
  const { user } = useManageCommsContext();
  // A sales representative creating a practice is its representative unless they choose otherwise.
  const ownSalesId = user?.role === USER_ROLES.providerSales ? user.userId : '';
  const isAdmin = user?.role === USER_ROLES.providerAdmin;
  const form = useForm<MdOfficeFormValues, unknown, MdOfficeInput>({
    resolver: zodResolver(mdOfficeInputSchema),
    defaultValues: valuesOf(office, ownSalesId),
  });
  const { register, handleSubmit, formState, setError, reset } = form;
  const errors = formState.errors;

  const onSubmit = handleSubmit(async (input) => {
    try {
      const saved = await save.mutateAsync(input);
      reset(valuesOf(saved));
      if (office) {
        toast.success('Practice details saved.');
      } else {
        toast.success(`Practice ${saved.name} created.`);
        navigate(webPaths.manageCommsPracticeEdit(saved.id, 'preferences'), { replace: true });
      }
    } catch (error) {
      showSaveFailure(error, setError);
    }
  });

  return (
    <FormProvider {...form}>
      <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Practice details">
        <UnsavedChangesGuard when={formState.isDirty && !formState.isSubmitting} />
        <div className={styles.wide}>
          <TextField label="Practice name" autoComplete="organization" error={errors.name?.message} {...register('name')} />
        </div>
        <AddressFields />
        <ContactFields
          phoneLabel="Phone"
          register={(name) => register(name)}
          errors={{
            phoneNumber: errors.phoneNumber?.message,
            faxNumber: errors.faxNumber?.message,
            email: errors.email?.message,
          }}
        />
        {isAdmin ? (
          <SelectField
            label="Sales representative"
            emptyLabel="None"
            options={(sales.data ?? []).map((u) => ({ value: u.id, label: u.name }))}
            error={errors.salesUserId?.message}
            {...register('salesUserId')}
          />
        ) : (
          // Who serves a practice is the administrator's to change (issue 42): shown, and sent back unchanged.
          <p className={styles.wide}>
            Sales representative: {sales.data?.find((u) => u.id === form.getValues('salesUserId'))?.name ?? 'None'}
            {errors.salesUserId?.message ? <span role="alert"> {errors.salesUserId.message}</span> : null}
          </p>
        )}
        <label className={styles.check}>
          <input type="checkbox" {...register('isKeyAccount')} />
          Key account
        </label>
        <SubmitRow
          label={office ? 'Save details' : 'Create practice'}
          busy={formState.isSubmitting}
          error={errors.root?.server?.message}
        />
      </form>
    </FormProvider>
  );
}
