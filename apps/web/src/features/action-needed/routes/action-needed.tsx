import { ACTION_TYPE_LABELS, ACTION_TYPES, type ActionType, isActionType, mayTakeAction } from '@hcp/contract';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { useUserDetails } from '../../../lib/current-user/get-user-details.ts';
import { readSession } from '../../../lib/storage.ts';
import { useClinicalAccess } from '../../../lib/support-access/use-clinical-access.ts';
import { type ActionNeededView, useActionNeeded } from '../api/get-action-needed.ts';
import styles from '../components/action-needed.module.css';
import { BulkDismiss } from '../components/bulk-dismiss.tsx';
import { PatientCard } from '../components/patient-card.tsx';
import { PracticeOverview } from '../components/practice-overview.tsx';
import { GROUP_OF_TYPE } from '../utils/labels.ts';

/** The list's address with one choice changed and the other kept (?category=…&prescriber=…). */
function withChoice(params: URLSearchParams, key: 'category' | 'prescriber', value: string | null): URLSearchParams {
  const next = new URLSearchParams(params);
  if (value === null) next.delete(key);
  else next.set(key, value);
  return next;
}

/** The categories as links (?category=…), so the browser's back button and shared links keep the choice. */
function CategoryNav({ counts, current }: { counts: Record<ActionType | 'total', number>; current: ActionType | null }) {
  const [params] = useSearchParams();
  const items: { type: ActionType | null; label: string; count: number }[] = [
    { type: null, label: 'All', count: counts.total },
    ...ACTION_TYPES.map((type) => ({ type, label: ACTION_TYPE_LABELS[type].category, count: counts[type] })),
  ];
  return (
    <nav aria-label="Categories" className={styles.categories}>
      <ul>
        {items.map(({ type, label, count }) => {
          const content = (
            <>
              {label} <span className={styles.count}>({count})</span>
            </>
          );
          return (
            <li key={type ?? 'all'}>
              {type === current ? (
                <span className={styles.current} aria-current="page">
                  {content}
                </span>
              ) : (
                <Link to={`?${withChoice(params, 'category', type)}`}>{content}</Link>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export default function ActionNeededRoute() {
  const userId = readSession()?.userId ?? '';
  const { access, seesNoPatients } = useClinicalAccess(userId);
  // The provider's users see counts per practice until they open support access to one (decision 0020).
  if (seesNoPatients) {
    return (
      <Page title="Action Needed">
        <PracticeOverview userId={userId} />
      </Page>
    );
  }
  return <ActionNeededList userId={userId} canDismiss={access !== undefined && mayTakeAction(access, 'priorAuthDismiss')} />;
}

/**
 * Whose requests the list shows (?prescriber=…): offered when the user's requests belong to more than one
 * prescriber. The choice travels to the server as `filterBy` (spec §7), so the counts and cards are that
 * prescriber's alone; the navigation's count stays the whole list's.
 */
function PrescriberFilter({ doctors, current }: { doctors: ActionNeededView['doctors']; current: string | null }) {
  const id = useId();
  const [params, setParams] = useSearchParams();
  // A prescriber no longer in the list (all their requests handled) stays selectable, so the choice is visible.
  const known = current === null || doctors.some((d) => d.doctorId === current);
  return (
    <div className={styles.prescriberFilter}>
      <label htmlFor={id}>Prescriber</label>
      <select
        id={id}
        className={styles.select}
        value={current ?? ''}
        onChange={(event) => setParams(withChoice(params, 'prescriber', event.target.value || null))}
      >
        <option value="">All prescribers</option>
        {doctors.map((doctor) => (
          <option key={doctor.doctorId} value={doctor.doctorId}>
            {doctor.name}, {doctor.role}
          </option>
        ))}
        {known ? null : <option value={current ?? ''}>A prescriber with nothing waiting</option>}
      </select>
    </div>
  );
}

function ActionNeededList({ userId, canDismiss }: { userId: string; canDismiss: boolean }) {
  const [params] = useSearchParams();
  const prescriber = params.get('prescriber') || null;
  // The whole list names the prescribers to choose from (the shell has it already for the navigation's count).
  const whole = useActionNeeded(userId);
  const narrowed = useActionNeeded(userId, { filterBy: prescriber, enabled: prescriber !== null });
  const query = prescriber === null ? whole : narrowed;
  const user = useUserDetails(userId).data;
  const requested = params.get('category');
  const category = isActionType(requested) ? requested : null;

  if (query.isPending) return <Page title="Action Needed" />;
  if (query.isError) {
    return (
      <Page title="Action Needed">
        <p role="alert">Could not load the prescriptions that need you. Please try again.</p>
        <button type="button" className={styles.button} onClick={() => query.refetch()}>
          Try again
        </button>
      </Page>
    );
  }
  const { counts, groups, singleBrandedDrug, priorAuthRequiredIds } = query.data;
  const cards = category ? groups[GROUP_OF_TYPE[category]] : groups.all;
  const doctors = whole.data?.doctors ?? [];
  return (
    <Page title="Action Needed">
      {doctors.length > 1 || prescriber !== null ? <PrescriberFilter doctors={doctors} current={prescriber} /> : null}
      <CategoryNav counts={counts} current={category} />
      {singleBrandedDrug ? <p className={styles.notice}>Every prescription here is for Xifaxan.</p> : null}
      {category === 'priorAuth' && user && canDismiss ? <BulkDismiss ids={priorAuthRequiredIds} user={user} /> : null}
      {cards.length === 0 ? (
        <p>
          {category
            ? `No ${ACTION_TYPE_LABELS[category].category.toLowerCase()} need you right now.`
            : 'Nothing needs you right now.'}
        </p>
      ) : (
        <ul className={styles.cards} aria-label={category ? ACTION_TYPE_LABELS[category].category : 'All requests'}>
          {cards.map((card) => (
            <PatientCard
              key={`${card.doctor.doctorId}-${card.patient.id}`}
              doctor={card.doctor}
              patient={card.patient}
              prescriptions={card.prescriptions}
              only={category}
            />
          ))}
        </ul>
      )}
    </Page>
  );
}
