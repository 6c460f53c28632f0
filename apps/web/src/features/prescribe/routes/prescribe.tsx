import { type CreatedPrescription, canPrescribe, ROUTES, toPrescribeVia, type UserDetails, webPaths } from '@hcp/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useFeatureFlags } from '../../../lib/current-user/get-feature-flags.ts';
import { useUserDetails } from '../../../lib/current-user/get-user-details.ts';
import { readSession } from '../../../lib/storage.ts';
import { usePrescriptionDraft } from '../api/prescription-draft.ts';
import styles from '../components/prescribe.module.css';
import { EMPTY_VALUES, PrescribeForm, type PrescribeValues } from '../components/prescribe-form.tsx';

function Loading() {
  return (
    <p role="status">
      <Spinner /> Loading…
    </p>
  );
}

/** The form, starting from the prescriber's saved draft when there is one. */
function WithDraft({ user, onSent }: { user: UserDetails; onSent: (created: CreatedPrescription) => void }) {
  const draft = usePrescriptionDraft(user.userId);
  if (draft.isPending) return <Loading />;
  const saved = draft.data?.draft as Partial<PrescribeValues> | null | undefined;
  const initial: PrescribeValues = saved ? { ...EMPTY_VALUES, ...saved } : EMPTY_VALUES;
  return (
    <>
      {saved ? <p className={styles.muted}>Your unsent prescription was restored.</p> : null}
      <PrescribeForm
        user={user}
        via={toPrescribeVia(user.mdOfficePrefs?.prescribeVia) ?? 'eRx'}
        initial={initial}
        onSent={onSent}
      />
    </>
  );
}

/** /prescribe (spec §6: prescribers whose office enabled prescribing, with the feature flag on). */
export default function PrescribeRoute() {
  const userId = readSession()?.userId ?? '';
  const user = useUserDetails(userId || null);
  const flags = useFeatureFlags();
  const allowed = Boolean(user.data && flags.data && canPrescribe(user.data, flags.data));
  const [sent, setSent] = useState<CreatedPrescription | null>(null);
  return (
    <Page title="Prescribe Rx">
      {!user.data || !flags.data ? (
        <Loading />
      ) : !allowed ? (
        <p role="alert">Prescribe Rx is available to prescribers whose practice has prescribing turned on.</p>
      ) : sent ? (
        <section className={styles.sent} aria-labelledby="sent-title">
          <h2 id="sent-title">Prescription sent</h2>
          <p role="status">
            {sent.drugName} was sent by {sent.sentVia === 'Fax' ? 'fax' : 'eRx'} to the pharmacy. Order {sent.orderNumber}.
          </p>
          <p className={styles.actions}>
            <Link to={webPaths.patientDetail(sent.patientId)}>Open the patient</Link>
            <Link to={ROUTES.rxList}>New Prescriptions list</Link>
            <button type="button" onClick={() => setSent(null)}>
              Write another prescription
            </button>
          </p>
        </section>
      ) : (
        <WithDraft user={user.data} onSent={setSent} />
      )}
    </Page>
  );
}
