import {
  ACTION_TYPE_LABELS,
  type ActionType,
  isActionNeededView,
  isActionType,
  mayTakeAction,
  type UserDetails,
} from '@hcp/contract';
import {
  lazy,
  type ReactNode,
  type RefObject,
  Suspense,
  startTransition,
  useDeferredValue,
  useEffect,
  useRef,
  useState,
} from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { useUserDetails } from '../../../lib/current-user/get-user-details.ts';
import { listMustDrawAtOnce } from '../../../lib/scroll-positions.ts';
import { readSession } from '../../../lib/storage.ts';
import { useClinicalAccess } from '../../../lib/support-access/use-clinical-access.ts';
import { type ActionNeededView, useActionNeeded } from '../api/get-action-needed.ts';
import styles from '../components/action-needed.module.css';
import { BulkDismiss } from '../components/bulk-dismiss.tsx';
import { KeyHelpDialog } from '../components/key-help-dialog.tsx';
import { CategoryNav, OwnerFilter } from '../components/list-filters.tsx';
import { PatientCard } from '../components/patient-card.tsx';
import { ReadyToSign } from '../components/ready-to-sign.tsx';
import { ViewSwitch } from '../components/view-switch.tsx';
import { GROUP_OF_TYPE, QUEUE_LOADING_TEXT } from '../utils/labels.ts';
import { CARD_KEY_HELP } from '../utils/queue-keys.ts';
import { useDecisionToast } from '../utils/use-decision-toast.ts';
import { isArrowOutside, usePageKeys } from '../utils/use-page-keys.ts';
import { rememberedView } from '../utils/view-choice.ts';

// The queue view (its decision panels) and the provider's practice overview (its support-access form) carry the forms
// library and most of this feature's code. The card view, where a prescriber lands, needs neither: they load when
// their view is shown, and the cards arrive without them (issue 21, decision 0045).
const ActionQueue = lazy(() => import('../components/action-queue.tsx').then((m) => ({ default: m.ActionQueue })));
const PracticeOverview = lazy(() => import('../components/practice-overview.tsx').then((m) => ({ default: m.PracticeOverview })));

export default function ActionNeededRoute() {
  const userId = readSession()?.userId ?? '';
  const { access, seesNoPatients } = useClinicalAccess(userId);
  const [params] = useSearchParams();
  const user = useUserDetails(userId).data;
  // The provider's users see counts per practice until they open support access to one (decision 0020).
  if (seesNoPatients) {
    return (
      <Page title="Action Needed">
        <Suspense fallback={<p aria-live="polite">Loading the practices…</p>}>
          <PracticeOverview userId={userId} />
        </Suspense>
      </Page>
    );
  }
  const requested = params.get('view');
  const view = isActionNeededView(requested) ? requested : rememberedView(userId);
  const switcher = <ViewSwitch userId={userId} current={view} />;
  if (view === 'queue') {
    const category = params.get('category');
    return (
      <Page title="Action Needed">
        {switcher}
        <QueueReadyToSign
          userId={userId}
          canSign={access !== undefined && mayTakeAction(access, 'refillAuthorizedFax')}
          user={user}
        />
        <Suspense fallback={<p aria-live="polite">{QUEUE_LOADING_TEXT}</p>}>
          <ActionQueue
            userId={userId}
            access={access}
            user={user}
            category={isActionType(category) ? category : null}
            prescriber={params.get('prescriber') || null}
            practice={params.get('practice') || null}
          />
        </Suspense>
      </Page>
    );
  }
  return (
    <ActionNeededList
      userId={userId}
      canDismiss={access !== undefined && mayTakeAction(access, 'priorAuthDismiss')}
      canSign={access !== undefined && mayTakeAction(access, 'refillAuthorizedFax')}
      switcher={switcher}
    />
  );
}

/** What staff prepared, above the queue too (the list's answer carries it; the shell has it for the count already). */
function QueueReadyToSign({ userId, canSign, user }: { userId: string; canSign: boolean; user: UserDetails | undefined }) {
  const list = useActionNeeded(userId);
  return list.data ? <ReadyToSign doctors={list.data.doctors} canSign={canSign} user={user} /> : null;
}

/** The card view's keys (issue 22): j/k move between the request links of the cards, o opens, ? lists them. */
function useCardKeys(list: RefObject<HTMLUListElement | null>, showHelp: () => void) {
  const { undoNewest } = useDecisionToast();
  usePageKeys((command, event) => {
    if (isArrowOutside(event, list.current)) return false;
    const links = [...(list.current?.querySelectorAll<HTMLAnchorElement>('a[href]') ?? [])];
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    const go = (index: number) => {
      links[Math.min(Math.max(index, 0), links.length - 1)]?.focus();
      return links.length > 0;
    };
    if (command === 'next') return go(at + 1);
    if (command === 'previous') return go(at - 1);
    if (command === 'first') return go(0);
    if (command === 'last') return go(links.length - 1);
    if (command === 'open' && at >= 0) {
      links[at]?.click();
      return true;
    }
    if (command === 'help') {
      showHelp();
      return true;
    }
    if (command === 'undo') {
      undoNewest();
      return true;
    }
    return false;
  });
}

type Card = ActionNeededView['groups']['all'][number];
const NO_CARDS: Card[] = [];
/** The first cards a phone draws, then as many more per frame: a screenful first, the rest right after. */
const CARDS_PER_STEP = 20;

/**
 * The cards draw in a transition (issue 21): the list's answer arrives through TanStack Query's external store,
 * which React renders in one blocking task; forty cards were a half-second freeze on a phone. Deferred, React
 * draws them in slices and the page answers taps meanwhile; the heading and counts are already there.
 */
function Cards({
  cards,
  only,
  restoring,
  listRef,
  label,
}: {
  cards: Card[];
  only: ActionType | null;
  restoring: boolean;
  listRef: RefObject<HTMLUListElement | null>;
  label: string;
}) {
  // Drawn at once only when a scroll place waits for it (Back to the list, a reload deep in it): the place is
  // restored on that draw. A first visit draws the screen first and the cards a moment later, in slices.
  const shown = useDeferredValue(cards, restoring ? cards : NO_CARDS);
  // Drawing and laying out eighty cards at once was one long task however it was scheduled: they come in steps,
  // each its own short task, the first screenful first (issue 21).
  const [drawn, setDrawn] = useState(restoring ? Number.POSITIVE_INFINITY : CARDS_PER_STEP);
  useEffect(() => {
    if (drawn >= shown.length) return;
    const next = window.setTimeout(() => startTransition(() => setDrawn((n) => n + CARDS_PER_STEP)), 0);
    return () => window.clearTimeout(next);
  }, [drawn, shown.length]);
  // The list appears with its cards, never empty first (a screen reader would announce an empty list).
  if (shown.length === 0) return null;
  return (
    <ul ref={listRef} className={restoring ? styles.cards : `${styles.cards} ${styles.deferOffscreen}`} aria-label={label}>
      {shown.slice(0, drawn).map((card) => (
        <PatientCard
          key={`${card.doctor.doctorId}-${card.patient.id}`}
          doctor={card.doctor}
          patient={card.patient}
          prescriptions={card.prescriptions}
          only={only}
        />
      ))}
    </ul>
  );
}

function ActionNeededList({
  userId,
  canDismiss,
  canSign,
  switcher,
}: {
  userId: string;
  canDismiss: boolean;
  canSign: boolean;
  switcher: ReactNode;
}) {
  const [params] = useSearchParams();
  const prescriber = params.get('prescriber') || null;
  // The whole list names the prescribers to choose from (the shell has it already for the navigation's count).
  const whole = useActionNeeded(userId);
  const narrowed = useActionNeeded(userId, { filterBy: prescriber, enabled: prescriber !== null });
  const query = prescriber === null ? whole : narrowed;
  // Read once, when the screen opens: whether a scroll place waits for the cards (Back, a reload).
  const { key } = useLocation();
  const [restoring] = useState(() => listMustDrawAtOnce({ atHand: !query.isPending, locationKey: key }));
  const user = useUserDetails(userId).data;
  const requested = params.get('category');
  const category = isActionType(requested) ? requested : null;
  const cardsRef = useRef<HTMLUListElement>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  useCardKeys(cardsRef, () => setHelpOpen(true));

  if (query.isPending) return <Page title="Action Needed">{switcher}</Page>;
  if (query.isError) {
    return (
      <Page title="Action Needed">
        {switcher}
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
      {switcher}
      {/* Whose requests (?prescriber=…, sent as the spec's filterBy): the counts and cards become that prescriber's. */}
      <OwnerFilter
        choice="prescriber"
        options={doctors.map((d) => ({ id: d.doctorId, name: `${d.name}, ${d.role}` }))}
        current={prescriber}
      />
      <ReadyToSign doctors={doctors} canSign={canSign} user={user} />
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
        <Cards
          cards={cards}
          only={category}
          restoring={restoring}
          listRef={cardsRef}
          label={category ? ACTION_TYPE_LABELS[category].category : 'All requests'}
        />
      )}
      <KeyHelpDialog open={helpOpen} keys={CARD_KEY_HELP} onClose={() => setHelpOpen(false)} />
    </Page>
  );
}
