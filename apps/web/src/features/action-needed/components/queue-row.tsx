import {
  ACTION_TYPE_LABELS,
  type ActionQueueItem,
  type ActionType,
  daysBetweenIsoDays,
  formatDateTime,
  formatPrescribedDate,
  runOutText,
  supplyLeftText,
  type UndoOffer,
  type UserDetails,
  webPaths,
} from '@hcp/contract';
import type { MouseEvent, ReactNode, Ref } from 'react';
import { Link } from 'react-router';
import { FOCUS_KEY } from '../../../lib/focus.ts';
import { PRIOR_AUTH_STATUS_TEXT } from '../utils/labels.ts';
import { preparedText } from '../utils/prepared-text.ts';
import { drugLabel } from '../utils/special-drugs.ts';
import styles from './action-queue.module.css';
import { AlternativeForm } from './alternative-form.tsx';
import { ChartNotesForm } from './chart-notes-form.tsx';
import { decisionTarget } from './decision-form.tsx';
import { dobText, patientName } from './patient-card.tsx';

/** What can be decided under a queue row without opening the item: its chart notes or the alternative to dispense. */
export type DecideHere = 'chartNotes' | 'alternative';

/** The decision open under a row: the detail page's own form, opened in place with focus in it. */
export function QueueDecideHere({
  item,
  kind,
  user,
  onDone,
  onCancel,
}: {
  item: ActionQueueItem;
  kind: DecideHere;
  user: UserDetails;
  onDone: (message: string, undo?: UndoOffer) => void;
  onCancel: () => void;
}) {
  const target = decisionTarget(item, item.patient);
  const props = { target, user, onDone, onCancel, autoFocus: true };
  return (
    <div className={styles.here} data-decide-here>
      {kind === 'chartNotes' ? <ChartNotesForm {...props} /> : <AlternativeForm {...props} />}
    </div>
  );
}

const day = (iso: string | null) => (iso ? dobText(iso) : 'Not reported');

/** "On file until 03/31/2027", or that it ended (a refill may need a new approval). */
function priorAuthOnFile(expiresOn: string, today: string): string {
  const left = daysBetweenIsoDays(today, expiresOn);
  return left !== null && left < 0 ? `Expired ${day(expiresOn)}` : `On file until ${day(expiresOn)}`;
}

function timesText(n: number): string {
  return n === 0 ? 'First request' : `${n} ${n === 1 ? 'time' : 'times'}`;
}

/** One item of the queue with what a prescriber decides from; the link opens its first request. */
export function QueueRow({
  item,
  types,
  today,
  active,
  selected,
  listSearch,
  linkRef,
  onFocus,
  onToggle,
  decideHere,
  onDecideHere,
  children,
}: {
  item: ActionQueueItem;
  types: ActionType[];
  today: string;
  active: boolean;
  selected: boolean;
  listSearch: string;
  linkRef: Ref<HTMLAnchorElement>;
  onFocus: () => void;
  onToggle: (event: MouseEvent<HTMLInputElement>) => void;
  /** What the user can decide under this row (key e), if anything. */
  decideHere: DecideHere | null;
  onDecideHere: () => void;
  /** The decision, when it is open under this row. */
  children?: ReactNode;
}) {
  const name = patientName(item.patient);
  const drug = drugLabel(item);
  const runOut = runOutText(item.runOutInDays);
  const headingId = `queue-${item.id}`;
  const first = types[0] ?? 'refillAuth';
  return (
    <li className={`${styles.row} ${active ? styles.active : ''}`} aria-labelledby={headingId} onFocus={onFocus}>
      <input
        type="checkbox"
        className={styles.check}
        checked={selected}
        tabIndex={active ? 0 : -1}
        aria-label={`Select ${drug} for ${name}`}
        onClick={onToggle}
        onChange={() => undefined}
      />
      <div className={styles.body}>
        <h2 id={headingId} className={styles.title}>
          <Link
            ref={linkRef}
            to={webPaths.actionNeededDetail(item.id, first)}
            state={{ listSearch }}
            tabIndex={active ? 0 : -1}
            aria-describedby={`${headingId}-badges`}
            {...{ [FOCUS_KEY]: item.id }}
          >
            {name} · {drug}
          </Link>
        </h2>
        <p id={`${headingId}-badges`} className={styles.badges}>
          {runOut ? (
            <span className={item.runOutInDays !== null && item.runOutInDays <= 3 ? styles.urgent : styles.badge}>{runOut}</span>
          ) : null}
          {types.map((type) => (
            <span key={type} className={styles.badge}>
              {ACTION_TYPE_LABELS[type].request}
            </span>
          ))}
          {item.isControlled ? <span className={styles.urgent}>Controlled substance</span> : null}
        </p>
        <p className={styles.meta}>
          DOB {dobText(item.patient.dob)} · {item.prescriber.name}, {item.prescriber.role} · {item.practice.name}
        </p>
        <dl className={styles.facts}>
          <div>
            <dt>Last filled</dt>
            <dd>{day(item.lastFilledOn)}</dd>
          </div>
          <div>
            <dt>Supply left</dt>
            <dd>{supplyLeftText(item.runOutInDays)}</dd>
          </div>
          <div>
            <dt>Refills left</dt>
            <dd>{item.refillsRemaining ?? 'Not reported'}</dd>
          </div>
          <div>
            <dt>Requested before</dt>
            <dd>
              {timesText(item.timesRequestedBefore)}
              {item.priorDenials > 0 ? ` (${item.priorDenials} denied)` : ''}
            </dd>
          </div>
          <div>
            <dt>Written</dt>
            <dd>{formatPrescribedDate(item.prescribedDate)}</dd>
          </div>
          {item.priorAuthStatus || item.priorAuthExpiresOn ? (
            <div>
              <dt>Prior authorization</dt>
              <dd>
                {[
                  item.priorAuthStatus ? (PRIOR_AUTH_STATUS_TEXT[item.priorAuthStatus] ?? item.priorAuthStatus) : null,
                  item.priorAuthExpiresOn ? priorAuthOnFile(item.priorAuthExpiresOn, today) : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </dd>
            </div>
          ) : null}
          {item.alternativeMeds.length > 0 ? (
            <div>
              <dt>Alternatives offered</dt>
              <dd>
                {/* Numbered as the keys 1-9 choose them. */}
                {item.alternativeMeds.map((name, i) => (
                  <span key={name}>
                    {i > 0 ? ', ' : ''}
                    <kbd>{i + 1}</kbd> {name}
                  </span>
                ))}
              </dd>
            </div>
          ) : null}
          {item.sig ? (
            <div>
              <dt>Sig</dt>
              <dd>{item.sig}</dd>
            </div>
          ) : null}
          <div>
            <dt>Waiting since</dt>
            <dd>{formatDateTime(item.waitingSince)}</dd>
          </div>
          {item.prepared ? (
            <div>
              <dt>Ready to sign</dt>
              <dd>
                {preparedText(item.prepared)}
                {item.prepared.decision.note ? `. Note: ${item.prepared.decision.note}` : ''}
              </dd>
            </div>
          ) : null}
        </dl>
        {decideHere && !children ? (
          <button type="button" className={styles.secondary} tabIndex={active ? 0 : -1} onClick={onDecideHere}>
            {decideHere === 'chartNotes' ? 'Write chart notes here' : 'Choose the alternative here'}
          </button>
        ) : null}
        {children}
      </div>
    </li>
  );
}
