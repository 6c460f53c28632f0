import { ACTION_TYPE_LABELS, ACTION_TYPES, type ActionType } from '@hcp/contract';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import styles from './action-needed.module.css';

export type ListChoice = 'category' | 'prescriber' | 'practice' | 'view';

/** The list's address with one choice changed and the others kept (?category=…&prescriber=…&view=…). */
export function withChoice(params: URLSearchParams, key: ListChoice, value: string | null): URLSearchParams {
  const next = new URLSearchParams(params);
  if (value === null) next.delete(key);
  else next.set(key, value);
  return next;
}

/** The categories as links (?category=…), so the browser's back button and shared links keep the choice. */
export function CategoryNav({ counts, current }: { counts: Record<ActionType | 'total', number>; current: ActionType | null }) {
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
              {/* The current one stays a link (marked current): the one just chosen keeps focus (issue 47). */}
              <Link
                to={`?${withChoice(params, 'category', type)}`}
                aria-current={type === current ? 'page' : undefined}
                className={type === current ? styles.current : undefined}
              >
                {content}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

const OWNER_TEXTS = {
  prescriber: { label: 'Prescriber', all: 'All prescribers', gone: 'A prescriber with nothing waiting' },
  practice: { label: 'Practice', all: 'All practices', gone: 'A practice with nothing waiting' },
} as const;

/**
 * One choice among the list's owners (?prescriber=… or ?practice=…), offered when there is more than one or one
 * is chosen. A choice no longer in the list (all its requests handled) stays selectable, so the choice stays visible.
 */
export function OwnerFilter({
  choice,
  options,
  current,
}: {
  choice: keyof typeof OWNER_TEXTS;
  options: { id: string; name: string }[];
  current: string | null;
}) {
  const id = useId();
  const [params, setParams] = useSearchParams();
  if (options.length <= 1 && current === null) return null;
  const { label, all, gone } = OWNER_TEXTS[choice];
  const known = current === null || options.some((o) => o.id === current);
  return (
    <div className={styles.prescriberFilter}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className={styles.select}
        value={current ?? ''}
        onChange={(event) => setParams(withChoice(params, choice, event.target.value || null))}
      >
        <option value="">{all}</option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name}
          </option>
        ))}
        {known ? null : <option value={current ?? ''}>{gone}</option>}
      </select>
    </div>
  );
}
