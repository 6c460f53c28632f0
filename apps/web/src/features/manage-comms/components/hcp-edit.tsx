import { webPaths } from '@hcp/contract';
import { Navigate, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { Spinner } from '../../../components/spinner.tsx';
import { useDeleteMdStaff } from '../api/delete-md-staff.ts';
import { useStaff } from '../api/get-staff.ts';
import { DeleteButton } from './delete-button.tsx';
import { HcpAddressesForm } from './hcp-addresses-form.tsx';
import { HcpDetailsForm } from './hcp-details-form.tsx';
import { HcpPreferencesForm } from './hcp-preferences-form.tsx';
import styles from './manage-comms.module.css';
import { SubTabs } from './sub-tabs.tsx';

const TABS = ['details', 'preferences', 'contact-addresses'] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = {
  details: 'Details',
  preferences: 'Preferences',
  'contact-addresses': 'Contact addresses',
};

/** /manage-comms/hcps/{mdStaffId}/edit/{tab}: details (default), preferences, contact-addresses. */
export function HcpEdit() {
  const { mdStaffId = '', tab } = useParams();
  const navigate = useNavigate();
  const person = useStaff(mdStaffId);
  const remove = useDeleteMdStaff(mdStaffId);
  if (!TABS.includes(tab as Tab)) return <Navigate to={webPaths.manageCommsHcpEdit(mdStaffId)} replace />;
  if (person.isPending) {
    return (
      <p role="status">
        <Spinner /> Loading…
      </p>
    );
  }
  if (person.isError) return <p role="alert">{person.error.message}</p>;
  const current = tab as Tab;
  const p = person.data;
  return (
    <section aria-labelledby="hcp-title">
      <div className={styles.heading}>
        <h2 id="hcp-title">{p.fullName}</h2>
        <DeleteButton
          label="Delete"
          title={`Delete ${p.fullName}?`}
          explanation="They leave HCPs and Staff and all their practices; their history is kept. Someone with prescriptions waiting for action or with a portal account cannot be deleted."
          onDelete={async () => {
            await remove.mutateAsync();
            toast.success(`${p.fullName} deleted.`);
            navigate(webPaths.manageCommsHcps, { replace: true });
          }}
        />
      </div>
      <p className={styles.muted}>
        {p.practices.length > 0 ? `Practices: ${p.practices.map((o) => o.name).join(', ')}` : 'Not in any practice.'}
      </p>
      <SubTabs
        label="HCP or staff member"
        tabs={TABS.map((t) => ({ to: webPaths.manageCommsHcpEdit(mdStaffId, t), label: TAB_LABELS[t] }))}
      />
      {current === 'details' ? <HcpDetailsForm key={p.id} person={p} /> : null}
      {current === 'preferences' ? <HcpPreferencesForm key={p.id} person={p} /> : null}
      {current === 'contact-addresses' ? <HcpAddressesForm key={p.id} person={p} /> : null}
    </section>
  );
}
