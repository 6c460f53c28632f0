import {
  ACTION_TYPE_LABELS,
  capitalizeName,
  deriveActionTypes,
  formatApiDate,
  formatOrderStatus,
  formatPhoneDisplay,
  formatPrescribedDate,
  type PatientDetail,
  ROUTES,
  webPaths,
} from '@hcp/contract';
import { Link, useParams } from 'react-router';
import { FullPageLoader } from '../../../components/full-page-loader.tsx';
import { Page } from '../../../components/page.tsx';
import { Table } from '../../../components/table/table.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { readSession } from '../../../lib/storage.ts';
import { usePatient } from '../api/get-patient.ts';
import styles from '../components/patients.module.css';

type Rx = PatientDetail['prescriptions'][number];

export default function PatientDetailRoute() {
  const { patientId = '' } = useParams();
  const userId = readSession()?.userId ?? '';
  const query = usePatient(userId, patientId);

  if (query.isPending) return <FullPageLoader label="Loading the patient…" />;
  if (query.isError) {
    const missing = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <Page title="Patient">
        <p role="alert">
          {missing ? 'This patient is not one of your practices’ patients.' : 'Could not load the patient. Please try again.'}
        </p>
        <p>
          <Link to={ROUTES.patientSearch}>Back to All Patients</Link>
        </p>
      </Page>
    );
  }
  const { patient, prescriptions } = query.data;
  const name = `${capitalizeName(patient.firstName)} ${capitalizeName(patient.lastName)}`;
  const address = [patient.address1, [patient.city, patient.state].filter(Boolean).join(', '), patient.zip]
    .filter(Boolean)
    .join(' ');
  return (
    <Page title={name}>
      <p>
        <Link to={ROUTES.patientSearch}>Back to All Patients</Link>
      </p>
      <dl className={styles.facts}>
        <dt>Date of birth</dt>
        <dd>{formatApiDate(patient.dob)}</dd>
        <dt>Phone</dt>
        <dd>{patient.phoneNumbers.map(formatPhoneDisplay).join(', ') || '—'}</dd>
        <dt>Address</dt>
        <dd>{address || '—'}</dd>
        <dt>Practice</dt>
        <dd>{patient.practiceName}</dd>
        <dt>Comments</dt>
        <dd>
          {/* The thread stays open when nothing is unread (persist): it holds read comments and the reply box. */}
          <Link to={webPaths.newCommentsDetail(patient.id)} state={{ persist: true }}>
            Read and answer the patient’s comments
          </Link>
        </dd>
      </dl>
      <Table<Rx>
        caption="Prescriptions"
        columns={[
          {
            key: 'drug',
            header: 'Prescription',
            cell: (rx) => `${rx.drugName}${rx.strength ? ` ${rx.strength}` : ''}`,
          },
          { key: 'prescribed', header: 'Prescribed', cell: (rx) => formatPrescribedDate(rx.prescribedDate) },
          { key: 'prescriber', header: 'Prescriber', cell: (rx) => `${rx.prescriberName}, ${rx.prescriberRole}` },
          { key: 'status', header: 'Order status', cell: (rx) => formatOrderStatus(rx.orderStatus, rx.price) || '—' },
          {
            key: 'needs',
            header: 'Needs action',
            cell: (rx) => {
              const types = deriveActionTypes(rx);
              if (types.length === 0)
                return rx.refillPostponedUntil ? `Refill postponed to ${formatApiDate(rx.refillPostponedUntil)}` : '—';
              return (
                <ul className={styles.requests}>
                  {types.map((type) => (
                    <li key={type}>
                      <Link to={webPaths.actionNeededDetail(rx.id, type)}>{ACTION_TYPE_LABELS[type].request}</Link>
                    </li>
                  ))}
                </ul>
              );
            },
          },
        ]}
        rows={prescriptions}
        rowKey={(rx) => rx.id}
        emptyMessage="This patient has no prescriptions."
      />
    </Page>
  );
}
