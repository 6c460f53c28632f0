import {
  COMMUNICATION_MODE_LABELS,
  formatDateTime,
  type MyPractice,
  PA_HANDLING_LABELS,
  REFILL_REQUEST_LABELS,
  type SupportAccessGrant,
  webPaths,
} from '@hcp/contract';
import { Link, Navigate, useParams } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { PracticePreferencesForm } from '../../../components/practice-preferences-form.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { Table } from '../../../components/table/table.tsx';
import { failureText } from '../../../lib/form-errors.ts';
import { useMdOffice } from '../../../lib/practices/get-md-office.ts';
import { readSession } from '../../../lib/storage.ts';
import { useMyPractices } from '../api/get-my-practices.ts';
import { useSupportAccessLog } from '../api/get-support-access-log.ts';
import { PracticeSignInPolicy } from '../components/practice-sign-in-policy.tsx';

const at = (iso: string) => formatDateTime(iso);

/** Every read-only support window the provider opened on this practice (decision 0020): who, when, why. */
function SupportAccessLog({ officeId }: { officeId: string }) {
  const log = useSupportAccessLog(officeId);
  return (
    <Table<SupportAccessGrant>
      caption="Support access to this practice"
      columns={[
        { key: 'when', header: 'Opened', cell: (g) => <time dateTime={g.startedAt}>{at(g.startedAt)}</time> },
        { key: 'who', header: 'By', cell: (g) => g.userName },
        { key: 'why', header: 'Reason', cell: (g) => g.reason },
        {
          key: 'until',
          header: 'Until',
          cell: (g) => (g.active ? `Open until ${at(g.expiresAt)}` : `Ended ${at(g.endedAt ?? g.expiresAt)}`),
        },
      ]}
      rows={log.data?.records ?? []}
      rowKey={(g) => g.id}
      isLoading={log.isPending}
      emptyMessage={log.isError ? failureText(log.error) : 'Nobody of the provider has opened support access to this practice.'}
    />
  );
}

function Loading({ what }: { what: string }) {
  return (
    <p role="status">
      <Spinner /> Loading {what}…
    </p>
  );
}

/** /practice-preferences: the user's practices and how each wants to be contacted; one practice opens directly. */
function PracticeList({ userId }: { userId: string }) {
  const practices = useMyPractices(userId);
  if (practices.data?.length === 1 && practices.data[0]) {
    return <Navigate to={webPaths.practicePreferencesDetail(practices.data[0].id)} replace />;
  }
  return (
    <Table<MyPractice>
      caption="Your practices"
      columns={[
        { key: 'name', header: 'Practice', cell: (p) => p.name },
        { key: 'mode', header: 'Communication', cell: (p) => COMMUNICATION_MODE_LABELS[p.mdOfficePrefs.communicationMode] },
        { key: 'pa', header: 'Prior authorizations', cell: (p) => PA_HANDLING_LABELS[p.mdOfficePrefs.paHandling] },
        { key: 'refills', header: 'Refill requests', cell: (p) => REFILL_REQUEST_LABELS[p.mdOfficePrefs.refillRequestOption] },
      ]}
      actions={(p) => (
        <Link to={webPaths.practicePreferencesDetail(p.id)} aria-label={`Open ${p.name}`}>
          Open
        </Link>
      )}
      rows={practices.data ?? []}
      rowKey={(p) => p.id}
      isLoading={practices.isPending}
      emptyMessage={practices.isError ? practices.error.message : 'You are not part of any practice yet.'}
    />
  );
}

/** /practice-preferences/{mdOfficeId}: one practice's communication preferences, editable by its office users. */
function PracticeDetail({ officeId }: { officeId: string }) {
  const office = useMdOffice(officeId);
  if (office.isPending) return <Loading what="practice" />;
  if (office.isError) return <p role="alert">{office.error.message}</p>;
  return (
    <section aria-labelledby="practice-name">
      <h2 id="practice-name">{office.data.name}</h2>
      <p>
        <Link to="/practice-preferences">All your practices</Link>
      </p>
      <PracticePreferencesForm key={office.data.id} office={office.data} />
      <PracticeSignInPolicy practiceId={office.data.id} />
      <SupportAccessLog officeId={office.data.id} />
    </section>
  );
}

export default function PracticePreferencesRoute() {
  const { mdOfficeId } = useParams();
  const userId = readSession()?.userId ?? '';
  return (
    <Page title="Practice Preferences">
      {mdOfficeId ? <PracticeDetail officeId={mdOfficeId} /> : <PracticeList userId={userId} />}
    </Page>
  );
}
