import {
  ACTION_TYPE_LABELS,
  type ActionNeededDoctor,
  type ActionNeededPatient,
  type ActionNeededPrescription,
  type ActionType,
  capitalizeName,
  deriveActionTypes,
  formatPhoneDisplay,
  formatPrescribedDate,
  formatUsDate,
  localTodayIso,
  parseIsoDate,
  runOutInDays,
  runOutText,
  webPaths,
} from '@hcp/contract';
import { memo } from 'react';
import { Link, useLocation } from 'react-router';
import { FOCUS_KEY } from '../../../lib/focus.ts';
import { displayDrugName } from '../utils/special-drugs.ts';
import styles from './action-needed.module.css';

export function patientName(patient: Pick<ActionNeededPatient, 'firstName' | 'lastName'>): string {
  return `${capitalizeName(patient.firstName)} ${capitalizeName(patient.lastName)}`;
}

/** An ISO day (a birth date, a fill day) as MM/DD/YYYY; the text as it came when it is no day. */
export function dobText(dob: string): string {
  const date = parseIsoDate(dob);
  return date ? formatUsDate(date) : dob;
}

/**
 * What the pharmacy reported of the supply (issue 22: decision-ready cards), when it did: the run-out words of the
 * queue, the last fill and the refills left. Days are counted from the reader's today.
 */
function SupplyLine({ rx }: { rx: ActionNeededPrescription }) {
  if (!rx.lastFilledOn) return null;
  const runOut = runOutText(runOutInDays(rx.lastFilledOn, rx.daysSupply, localTodayIso()));
  return (
    <p className={styles.meta}>
      {runOut ? <strong>{runOut}</strong> : null}
      {runOut ? ' · ' : ''}Last filled {dobText(rx.lastFilledOn)}
      {rx.refillsRemaining !== null && rx.refillsRemaining !== undefined ? ` · Refills left ${rx.refillsRemaining}` : ''}
    </p>
  );
}

/**
 * One patient with the prescriptions that need the user, each with a link per request (spec §3 card
 * groups). `only` limits the links to one category (the category filter).
 */
function PatientCardView({
  doctor,
  patient,
  prescriptions,
  only,
}: {
  doctor: ActionNeededDoctor;
  patient: ActionNeededPatient;
  prescriptions: ActionNeededPrescription[];
  only: ActionType | null;
}) {
  const name = patientName(patient);
  // The detail page goes back to the list as it was (category and prescriber), not to its start.
  const listSearch = useLocation().search;
  const headingId = `patient-${patient.id}-${doctor.doctorId}`;
  return (
    <li className={styles.card} aria-labelledby={headingId}>
      <h2 id={headingId}>{name}</h2>
      <p className={styles.meta}>
        DOB {dobText(patient.dob)}
        {patient.phoneNumbers[0] ? ` · ${formatPhoneDisplay(patient.phoneNumbers[0])}` : ''} · {doctor.name}, {doctor.role}
      </p>
      <ul className={styles.rxList}>
        {prescriptions.map((rx) => {
          const types = deriveActionTypes(rx).filter((type) => only === null || type === only);
          return (
            <li key={rx.id} className={styles.rx}>
              <strong>{displayDrugName(rx)}</strong>
              {rx.strength ? ` ${rx.strength}` : ''}
              <p className={styles.meta}>Prescribed {formatPrescribedDate(rx.prescribedDate)}</p>
              <SupplyLine rx={rx} />
              <ul className={styles.requests} aria-label={`Requests for ${displayDrugName(rx)}`}>
                {types.map((type) => (
                  <li key={type}>
                    <Link
                      to={webPaths.actionNeededDetail(rx.id, type)}
                      state={{ listSearch }}
                      aria-label={`${ACTION_TYPE_LABELS[type].request}: ${displayDrugName(rx)} for ${name}`}
                      {...{ [FOCUS_KEY]: rx.id }}
                    >
                      {ACTION_TYPE_LABELS[type].request}
                    </Link>
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ul>
    </li>
  );
}

/**
 * Memoised: the list draws its cards in steps (decision 0044), and each step must draw only its new cards, not
 * every card drawn before (the props are the list answer's own objects, unchanged between steps).
 */
export const PatientCard = memo(PatientCardView);
