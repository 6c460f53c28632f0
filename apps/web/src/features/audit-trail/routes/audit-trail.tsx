import { Link, useSearchParams } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { readSession } from '../../../lib/storage.ts';
import { Integrity } from '../components/integrity.tsx';
import { PatientAccess } from '../components/patient-access.tsx';
import { SupportWindows } from '../components/support-windows.tsx';
import { UnusualAccess } from '../components/unusual-access.tsx';
import { UserActivity } from '../components/user-activity.tsx';
import styles from './audit-trail.module.css';

const VIEWS = [
  { key: 'patient', label: 'Patient access' },
  { key: 'user', label: 'User activity' },
  { key: 'support', label: 'Support windows' },
  { key: 'unusual', label: 'Unusual access' },
  { key: 'integrity', label: 'Integrity' },
] as const;
type View = (typeof VIEWS)[number]['key'];

/**
 * /audit-trail (issue 49, decision 0061): the privacy officer's reports — who saw a patient, what a person did,
 * support windows and unusual access to review, and proof the trail was not changed. Reading any of them is itself
 * recorded. Anyone else is answered 404 by every call, so the page says it is not theirs.
 */
export default function AuditTrailRoute() {
  const selfId = readSession()?.userId ?? '';
  const [params] = useSearchParams();
  const view: View = VIEWS.find((v) => v.key === params.get('view'))?.key ?? 'patient';
  return (
    <Page title="Audit Trail">
      <p>Who saw a patient’s records, what a person did, and proof nothing was changed. Your reading here is recorded too.</p>
      <nav aria-label="Audit trail reports" className={styles.tabs}>
        <ul>
          {VIEWS.map((v) => (
            <li key={v.key}>
              <Link to={`?view=${v.key}`} aria-current={v.key === view ? 'page' : undefined}>
                {v.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {view === 'patient' ? <PatientAccess /> : null}
      {view === 'user' ? <UserActivity selfId={selfId} /> : null}
      {view === 'support' ? <SupportWindows selfId={selfId} /> : null}
      {view === 'unusual' ? <UnusualAccess selfId={selfId} /> : null}
      {view === 'integrity' ? <Integrity selfId={selfId} /> : null}
    </Page>
  );
}
