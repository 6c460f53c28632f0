import { ACTION_TYPE_LABELS, ACTION_TYPES, type ActionType, isActionType, mayTakeAction } from '@hcp/contract';
import { useEffect } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { useUserDetails } from '../../../lib/current-user/get-user-details.ts';
import { readSession } from '../../../lib/storage.ts';
import { useClinicalAccess } from '../../../lib/support-access/use-clinical-access.ts';
import { useActionNeeded } from '../api/get-action-needed.ts';
import styles from '../components/action-needed.module.css';
import { BulkDismiss } from '../components/bulk-dismiss.tsx';
import { PatientCard } from '../components/patient-card.tsx';
import { PracticeOverview } from '../components/practice-overview.tsx';
import { GROUP_OF_TYPE } from '../utils/labels.ts';

/** The categories as links (?category=…), so the browser's back button and shared links keep the choice. */
function CategoryNav({ counts, current }: { counts: Record<ActionType | 'total', number>; current: ActionType | null }) {
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
                <Link to={type ? `?category=${type}` : '?'}>{content}</Link>
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

function ActionNeededList({ userId, canDismiss }: { userId: string; canDismiss: boolean }) {
  const query = useActionNeeded(userId);
  const user = useUserDetails(userId).data;
  const [params] = useSearchParams();
  const requested = params.get('category');
  const category = isActionType(requested) ? requested : null;
  const acted = (useLocation().state as { acted?: boolean } | null)?.acted === true;
  const ready = query.isSuccess;
  // Back from an action: focus the heading, so keyboard and screen-reader users continue from the list's top.
  useEffect(() => {
    if (acted && ready) document.querySelector<HTMLElement>('#main h1')?.focus();
  }, [acted, ready]);

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
  return (
    <Page title="Action Needed">
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
