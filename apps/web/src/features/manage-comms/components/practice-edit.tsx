import { webPaths } from '@hcp/contract';
import { Navigate, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { PracticePreferencesForm } from '../../../components/practice-preferences-form.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useMdOffice } from '../../../lib/practices/get-md-office.ts';
import { useDeleteMdOffice } from '../api/delete-md-office.ts';
import { DeleteButton } from './delete-button.tsx';
import styles from './manage-comms.module.css';
import { PracticeDetailsForm } from './practice-details-form.tsx';
import { PracticeHcps } from './practice-hcps.tsx';
import { SubTabs } from './sub-tabs.tsx';

const TABS = ['details', 'preferences', 'hcps'] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = { details: 'Details', preferences: 'Preferences', hcps: 'HCPs and Staff' };

/** /manage-comms/practices/{id}/edit/{tab}: details (default), preferences, hcps. */
export function PracticeEdit() {
  const { practiceId = '', tab } = useParams();
  const navigate = useNavigate();
  const office = useMdOffice(practiceId);
  const remove = useDeleteMdOffice(practiceId);
  if (!TABS.includes(tab as Tab)) return <Navigate to={webPaths.manageCommsPracticeEdit(practiceId)} replace />;
  if (office.isPending) {
    return (
      <p role="status">
        <Spinner /> Loading practice…
      </p>
    );
  }
  if (office.isError) return <p role="alert">{office.error.message}</p>;
  const current = tab as Tab;
  return (
    <section aria-labelledby="practice-title">
      <div className={styles.heading}>
        <h2 id="practice-title">{office.data.name}</h2>
        <DeleteButton
          label="Delete practice"
          title={`Delete ${office.data.name}?`}
          explanation="The practice leaves Manage Communications; its history is kept. A practice with prescriptions waiting for action or with active portal accounts cannot be deleted."
          onDelete={async () => {
            await remove.mutateAsync();
            toast.success(`${office.data.name} deleted.`);
            navigate(webPaths.manageCommsPractices, { replace: true });
          }}
        />
      </div>
      <SubTabs
        label="Practice"
        tabs={TABS.map((t) => ({ to: webPaths.manageCommsPracticeEdit(practiceId, t), label: TAB_LABELS[t] }))}
      />
      {current === 'details' ? <PracticeDetailsForm key={office.data.id} office={office.data} /> : null}
      {current === 'preferences' ? <PracticePreferencesForm key={office.data.id} office={office.data} /> : null}
      {current === 'hcps' ? <PracticeHcps office={office.data} /> : null}
    </section>
  );
}
