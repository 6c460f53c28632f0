import type { ActionNeededViewName } from '@hcp/contract';
import { useSearchParams } from 'react-router';
import { byFocusKey, FOCUS_KEY, focusWhenReady } from '../../../lib/focus.ts';
import { rememberView } from '../utils/view-choice.ts';
import styles from './action-needed.module.css';
import { withChoice } from './list-filters.tsx';

const LABELS: Record<ActionNeededViewName, string> = { cards: 'Patient cards', queue: 'Queue by urgency' };

/** Cards (the spec's view, the default) or the one queue; the choice is kept in the address and remembered per user. */
export function ViewSwitch({ userId, current }: { userId: string; current: ActionNeededViewName }) {
  const [params, setParams] = useSearchParams();
  return (
    <fieldset className={styles.viewSwitch}>
      <legend className="visually-hidden">View</legend>
      {(Object.keys(LABELS) as ActionNeededViewName[]).map((view) => (
        <button
          key={view}
          type="button"
          aria-pressed={view === current}
          className={view === current ? styles.viewCurrent : styles.viewOption}
          {...{ [FOCUS_KEY]: `view-${view}` }}
          onClick={() => {
            rememberView(userId, view);
            // The other view draws its own switch: focus stays on the choice just made (issue 47).
            focusWhenReady(() => {
              const chosen = byFocusKey(`view-${view}`);
              return chosen?.getAttribute('aria-pressed') === 'true' ? chosen : null;
            });
            // The category travels; the list's own filters (practice) belong to the queue only.
            setParams(withChoice(withChoice(params, 'view', view), 'practice', null));
          }}
        >
          {LABELS[view]}
        </button>
      ))}
    </fieldset>
  );
}
