import {
  ACTION_TYPE_LABELS,
  type ActionQueueItem,
  type ActionType,
  type BulkAction,
  type BulkActionResult,
  CLINICAL_REFUSALS,
  type ClinicalAccess,
  countActionNeeded,
  deriveActionTypes,
  mayTakeAction,
  needsChartNotes,
  onlyNeedsDismissing,
  sigKey,
  signedByText,
  tellsPharmacy,
  type UndoOffer,
  type UserDetails,
} from '@hcp/contract';
import { type MouseEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { FormAlert } from '../../../components/form-alert.tsx';
import { focusWhenReady } from '../../../lib/focus.ts';
import { useActionQueue } from '../api/get-action-queue.ts';
import { failure } from '../utils/decision-values.ts';
import { QUEUE_LOADING_TEXT } from '../utils/labels.ts';
import { alternativeIndexOf, QUEUE_KEY_HELP, type QueueCommand } from '../utils/queue-keys.ts';
import { useDecisionToast } from '../utils/use-decision-toast.ts';
import { isArrowOutside, usePageKeys } from '../utils/use-page-keys.ts';
import styles from './action-queue.module.css';
import { useAlternativeChoice } from './alternative-form.tsx';
import { BulkBar, BulkResults, bulkChoices, signableBy } from './bulk-bar.tsx';
import { BulkDialog } from './bulk-dialog.tsx';
import { decidedText } from './decided-text.ts';
import { decisionTarget } from './decision-form.tsx';
import { KeyHelpDialog } from './key-help-dialog.tsx';
import { CategoryNav, OwnerFilter } from './list-filters.tsx';
import { patientName } from './patient-card.tsx';
import { type DecideHere, QueueDecideHere, QueueRow } from './queue-row.tsx';

interface Row {
  item: ActionQueueItem;
  types: ActionType[];
}

const unique = (pairs: { id: string; name: string }[]) => [...new Map(pairs.map((p) => [p.id, p])).values()];

/** Lower case without accents, so "jose" finds José. */
const normalizeSearchText = (text: string) =>
  text.toLocaleLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ');

/** Patient name and drug, as the filter box matches them (every word, in any order). */
function matches(item: ActionQueueItem, words: string[]): boolean {
  const text = normalizeSearchText(`${patientName(item.patient)} ${item.drugName} ${item.strength ?? ''}`);
  return words.every((word) => text.includes(word));
}

/**
 * How many are in the queue, and why "All" counts more (issue 47): the category counts are requests, and a
 * prescription that needs two actions (a refill and its prior authorization) is one row with two requests.
 */
function queueCountText(rows: readonly Row[], category: ActionType | null): string {
  const requests = category === null ? rows.reduce((n, r) => n + r.types.length, 0) : rows.length;
  if (requests === rows.length) return `${rows.length} in the queue`;
  return `${rows.length} in the queue (${requests} requests: some prescriptions need more than one action)`;
}

/**
 * The one queue (issue 22): every item that needs the user, most urgent first (the server's order), each with
 * its decision facts. Keys: j/k move, x selects, o/Enter opens, / filters, ? lists them. One row is in the Tab
 * order at a time (roving tabindex); the keys move it.
 */
const KEY_ACTIONS: Partial<Record<QueueCommand, BulkAction>> = {
  authorize: 'refillAuthorize',
  deny: 'refillDeny',
  postpone: 'refillPostpone',
};

export function ActionQueue({
  userId,
  category,
  prescriber,
  practice,
  access,
  user,
}: {
  userId: string;
  category: ActionType | null;
  prescriber: string | null;
  practice: string | null;
  access: ClinicalAccess | undefined;
  user: UserDetails | undefined;
}) {
  const query = useActionQueue(userId, { prescriber, practice });
  // The whole queue names the prescribers and practices to choose from.
  const whole = useActionQueue(userId, {});
  const [filter, setFilter] = useState('');
  const [activeId, setActiveId] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [anchor, setAnchor] = useState<string | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [deciding, setDeciding] = useState<{ action: BulkAction; items: ActionQueueItem[] } | null>(null);
  const [outcome, setOutcome] = useState<{ result: BulkActionResult; items: ActionQueueItem[] } | null>(null);
  const links = useRef(new Map<string, HTMLAnchorElement>());
  const filterRef = useRef<HTMLInputElement>(null);
  const filterId = useId();
  const navigate = useNavigate();
  const listSearch = useLocation().search;
  const { announce, undoNewest } = useDecisionToast();
  /** The item whose decision is open under its row (issue 22: chart notes or the alternative, no page change). */
  const [decidingHere, setDecidingHere] = useState<string | null>(null);
  const lastIndex = useRef(0);
  /**
   * After a decision its rows leave: the item after them still waiting becomes current and takes focus, so the next
   * key acts on it; with none left, the page's heading (the one focus rule, lib/focus.ts).
   */
  function goOnFrom(leaving: ReadonlySet<string>) {
    const waiting = (r: Row) => !leaving.has(r.item.id);
    const next = rows.slice(activeIndex).find(waiting) ?? rows.slice(0, activeIndex).reverse().find(waiting);
    if (next) setActiveId(next.item.id);
    focusWhenReady(() => (next ? links.current.get(next.item.id) : null));
  }
  const oneDone = (message: string, undo?: UndoOffer) => {
    const leaving = decidingHere ?? active?.item.id;
    setDecidingHere(null);
    setAnnouncement(message);
    announce(message, undo);
    goOnFrom(new Set(leaving ? [leaving] : []));
  };
  const alternative = useAlternativeChoice(user, oneDone);

  const all: Row[] = useMemo(
    () => (query.data?.items ?? []).map((item) => ({ item, types: deriveActionTypes(item) })),
    [query.data],
  );
  const counts = useMemo(() => countActionNeeded(all.map((r) => ({ actionTypes: r.types }))), [all]);
  const rows = useMemo(() => {
    const words = normalizeSearchText(filter).split(' ').filter(Boolean);
    return all.filter((r) => (category === null || r.types.includes(category)) && (words.length === 0 || matches(r.item, words)));
  }, [all, category, filter]);
  // When the current item leaves (decided here or elsewhere), the one now in its place is current.
  const found = rows.findIndex((r) => r.item.id === activeId);
  const activeIndex = found >= 0 ? found : Math.min(lastIndex.current, Math.max(rows.length - 1, 0));
  const active = rows[activeIndex];
  useEffect(() => {
    lastIndex.current = activeIndex;
  });
  // Items that left the queue (acted on, or filtered out) leave the selection too.
  const visibleSelected = rows.filter((r) => selected.has(r.item.id));
  // A decision takes the selection, or the item the user is on when nothing is selected.
  const targets = visibleSelected.length > 0 ? visibleSelected.map((r) => r.item) : active ? [active.item] : [];
  const choices = bulkChoices(
    access,
    visibleSelected.map((r) => r.item),
    user,
  );

  // "Select all refills with the same sig" (issue 22): the refill requests whose directions read as the current one's.
  const activeSig = active?.types.includes('refillAuth') ? sigKey(active.item.sig) : null;
  const sameSig = activeSig
    ? rows.filter((r) => r.types.includes('refillAuth') && sigKey(r.item.sig) === activeSig).map((r) => r.item.id)
    : [];
  function selectSameSig() {
    const next = new Set([...selected, ...sameSig]);
    setSelected(next);
    const count = rows.filter((r) => next.has(r.item.id)).length;
    setAnnouncement(`${sameSig.length} refill requests with the same sig selected. ${count} of ${rows.length} selected.`);
  }

  // Every item shown (the category and filter narrow it); again, when all are selected, clears them.
  function selectAll() {
    const allSelected = visibleSelected.length === rows.length && rows.length > 0;
    setSelected(allSelected ? new Set() : new Set([...selected, ...rows.map((r) => r.item.id)]));
    setAnnouncement(allSelected ? 'Selection cleared.' : `All ${rows.length} selected.`);
  }

  // The PA notices that ask for nothing but dismissing: the usual bulk dismiss, without walking the rows.
  const dismissable = rows.filter((r) => r.types.includes('priorAuth') && onlyNeedsDismissing(r.item.priorAuthStatus));
  function selectDismissable() {
    const next = new Set([...selected, ...dismissable.map((r) => r.item.id)]);
    setSelected(next);
    const count = rows.filter((r) => next.has(r.item.id)).length;
    const notices = `${dismissable.length} PA ${dismissable.length === 1 ? 'notice' : 'notices'}`;
    setAnnouncement(`${notices} selected. ${count} of ${rows.length} selected.`);
  }

  /** What can be decided under the row itself, for this user (decision 0020: staff send chart notes, prescribers choose). */
  function decideHereOf(row: Row | undefined): DecideHere | null {
    if (!row || !user || !access) return null;
    if (row.types.includes('priorAuth') && needsChartNotes(row.item.priorAuthStatus)) {
      return mayTakeAction(access, 'chartNotesSent') ? 'chartNotes' : null;
    }
    if (row.types.includes('altMed'))
      return signableBy(user)(row.item) && mayTakeAction(access, 'alternativeMed') ? 'alternative' : null;
    return null;
  }

  function openHere(row: Row | undefined) {
    if (decideHereOf(row) && row) {
      setActiveId(row.item.id);
      setDecidingHere(row.item.id);
    } else setAnnouncement('Nothing to decide here for this item: open it (o) to see its page.');
  }

  function chooseAlternative(row: Row | undefined, index: number) {
    if (!row?.types.includes('altMed') || !access) {
      setAnnouncement('This item offers no alternative to choose.');
      return;
    }
    const choice = row.item.alternativeMeds[index];
    if (!mayTakeAction(access, 'alternativeMed')) setAnnouncement(CLINICAL_REFUSALS.needsPrescriber);
    else if (!signableBy(user)(row.item)) setAnnouncement(signedByText(row.item.prescriber.name));
    else if (!choice) setAnnouncement(`This item offers ${row.item.alternativeMeds.length} alternatives.`);
    else alternative.choose(decisionTarget(row.item, row.item.patient), choice);
  }

  function decide(action: BulkAction) {
    if (targets.length > 0 && bulkChoices(access, targets, user).includes(action)) setDeciding({ action, items: targets });
    else setAnnouncement('Nothing here can take that decision.');
  }

  function decided(action: BulkAction, result: BulkActionResult, items: ActionQueueItem[]) {
    setDeciding(null);
    setOutcome({ result, items });
    const done = new Set(result.results.filter((r) => r.status === 'done').map((r) => r.id));
    setSelected(new Set([...selected].filter((id) => !done.has(id))));
    const said = decidedText(action, result, items);
    setAnnouncement(said);
    // The toast carries Undo while the server holds the decision (issue 22).
    if (result.done > 0) announce(said, result.undo, { toPharmacy: tellsPharmacy(action) });
    // The current item becomes the next one still waiting (the decided ones leave the queue), with focus.
    goOnFrom(done);
  }

  function moveTo(index: number) {
    const row = rows[Math.min(Math.max(index, 0), rows.length - 1)];
    if (!row) return;
    setActiveId(row.item.id);
    links.current.get(row.item.id)?.focus();
  }

  function toggle(id: string, range = false) {
    const next = new Set(selected);
    if (range && anchor) {
      const from = rows.findIndex((r) => r.item.id === anchor);
      const to = rows.findIndex((r) => r.item.id === id);
      const [lo, hi] = from < to ? [from, to] : [to, from];
      for (const row of rows.slice(lo, hi + 1)) next.add(row.item.id);
    } else if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
    setAnchor(id);
    const row = rows.find((r) => r.item.id === id);
    const count = rows.filter((r) => next.has(r.item.id)).length;
    setAnnouncement(
      `${row ? `${patientName(row.item.patient)} ${next.has(id) ? 'selected' : 'cleared'}. ` : ''}${count} of ${rows.length} selected.`,
    );
  }

  function open(row: Row | undefined) {
    if (row) navigate(links.current.get(row.item.id)?.getAttribute('href') ?? '', { state: { listSearch } });
  }

  const listRef = useRef<HTMLUListElement>(null);
  usePageKeys((command, event) => {
    if (helpOpen || deciding || isArrowOutside(event, listRef.current)) return false;
    // In the decision open under a row, keys belong to its radios and buttons (j, x and 1-9 must not act behind it).
    if (event.target instanceof Element && event.target.closest('[data-decide-here]')) return false;
    if (command === 'next') moveTo(activeIndex + 1);
    else if (command === 'previous') moveTo(activeIndex - 1);
    else if (command === 'first') moveTo(0);
    else if (command === 'last') moveTo(rows.length - 1);
    else if (command === 'toggle') {
      if (active) toggle(active.item.id);
    } else if (command === 'selectAll') selectAll();
    else if (command === 'open') open(active);
    else if (command === 'search') filterRef.current?.focus();
    else if (command === 'help') setHelpOpen(true);
    else if (command === 'undo') undoNewest();
    else if (command === 'decideHere') openHere(active);
    else if (command === 'alternative') chooseAlternative(active, alternativeIndexOf(event.key) ?? -1);
    else {
      const action = KEY_ACTIONS[command];
      if (!action) return false;
      decide(action);
    }
    return true;
  });

  if (query.isPending) return <p aria-live="polite">{QUEUE_LOADING_TEXT}</p>;
  if (query.isError) {
    return (
      <>
        <p role="alert">Could not load the queue. Please try again.</p>
        <button type="button" className={styles.button} onClick={() => query.refetch()}>
          Try again
        </button>
      </>
    );
  }
  const source = whole.data?.items ?? query.data.items;
  const prescribers = unique(source.map((i) => ({ id: i.prescriber.id, name: `${i.prescriber.name}, ${i.prescriber.role}` })));
  const practices = unique(source.map((i) => ({ id: i.practice.id, name: i.practice.name })));
  return (
    <>
      <div className={styles.filters}>
        <OwnerFilter choice="prescriber" options={prescribers} current={prescriber} />
        <OwnerFilter choice="practice" options={practices} current={practice} />
        <div className={styles.filterBox}>
          <label htmlFor={filterId}>Filter by patient or drug</label>
          <input
            ref={filterRef}
            id={filterId}
            type="search"
            autoComplete="off"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            onKeyDown={(event) => {
              // From the box straight back to the list: ↓ or Escape (an empty box) goes to the first item.
              if (event.key === 'ArrowDown' || (event.key === 'Escape' && filter === '')) {
                event.preventDefault();
                moveTo(0);
              }
            }}
          />
        </div>
      </div>
      <CategoryNav counts={counts} current={category} />
      <div className={styles.toolbar}>
        <p className={styles.selection}>
          {visibleSelected.length > 0 ? `${visibleSelected.length} selected` : queueCountText(rows, category)}
        </p>
        {rows.length > 1 && visibleSelected.length < rows.length ? (
          <button type="button" className={styles.secondary} onClick={selectAll}>
            Select all {rows.length}
          </button>
        ) : null}
        {visibleSelected.length > 0 ? (
          <button type="button" className={styles.secondary} onClick={() => setSelected(new Set())}>
            Clear selection
          </button>
        ) : null}
        {dismissable.length > 0 && dismissable.some((r) => !selected.has(r.item.id)) ? (
          <button type="button" className={styles.secondary} onClick={selectDismissable}>
            {dismissable.length === 1
              ? 'Select the 1 PA notice that only needs dismissing'
              : `Select the ${dismissable.length} PA notices that only need dismissing`}
          </button>
        ) : null}
        {sameSig.length > 1 ? (
          <button type="button" className={styles.secondary} onClick={selectSameSig}>
            Select the {sameSig.length} refills with this sig
          </button>
        ) : null}
        <button type="button" className={styles.shortcuts} onClick={() => setHelpOpen(true)} aria-haspopup="dialog">
          Keyboard shortcuts
        </button>
      </div>
      {visibleSelected.length > 0 ? <BulkBar choices={choices} onChoose={decide} /> : null}
      {alternative.dialog}
      <FormAlert message={failure(alternative.error)} />
      {outcome ? <BulkResults result={outcome.result} items={outcome.items} onDismiss={() => setOutcome(null)} /> : null}
      {deciding ? (
        <BulkDialog
          action={deciding.action}
          items={deciding.items}
          senderName={user?.userName ?? ''}
          signable={signableBy(user)}
          today={query.data.today}
          onClose={() => setDeciding(null)}
          onDone={(result, items) => decided(deciding.action, result, items)}
        />
      ) : null}
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      {rows.length === 0 ? (
        <p>
          {filter
            ? 'No item matches the filter.'
            : category
              ? `No ${ACTION_TYPE_LABELS[category].category.toLowerCase()} need you right now.`
              : 'Nothing needs you right now.'}
        </p>
      ) : (
        <ul ref={listRef} className={styles.rows} aria-label="Queue, most urgent first">
          {rows.map((row, index) => {
            const here = decideHereOf(row);
            return (
              <QueueRow
                key={row.item.id}
                item={row.item}
                types={category ? [category] : row.types}
                today={query.data.today}
                active={index === activeIndex}
                selected={selected.has(row.item.id)}
                listSearch={listSearch}
                linkRef={(node) => {
                  if (node) links.current.set(row.item.id, node);
                  else links.current.delete(row.item.id);
                }}
                onFocus={() => setActiveId(row.item.id)}
                onToggle={(event: MouseEvent<HTMLInputElement>) => toggle(row.item.id, event.shiftKey)}
                decideHere={here}
                onDecideHere={() => openHere(row)}
              >
                {decidingHere === row.item.id && user && here ? (
                  <QueueDecideHere
                    item={row.item}
                    kind={here}
                    user={user}
                    onDone={oneDone}
                    onCancel={() => {
                      setDecidingHere(null);
                      links.current.get(row.item.id)?.focus();
                    }}
                  />
                ) : null}
              </QueueRow>
            );
          })}
        </ul>
      )}
      <KeyHelpDialog open={helpOpen} keys={QUEUE_KEY_HELP} onClose={() => setHelpOpen(false)} />
    </>
  );
}
