import {
  ACTION_TYPE_LABELS,
  accessToItem,
  formatOrderStatus,
  formatPhoneDisplay,
  formatPrescribedDate,
  isActionType,
  mayChangePatientData,
  ROUTES,
  signedByText,
  type UndoOffer,
} from '@hcp/contract';
import { useIsMutating } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { FullPageLoader } from '../../../components/full-page-loader.tsx';
import { Page } from '../../../components/page.tsx';
import { PatientDataNotice } from '../../../components/patient-data-notice.tsx';
import { useUserDetails } from '../../../lib/current-user/get-user-details.ts';
import { type FocusOnArrival, placesAfterOpened } from '../../../lib/focus.ts';
import { readSession } from '../../../lib/storage.ts';
import { useClinicalAccess } from '../../../lib/support-access/use-clinical-access.ts';
import { useActionNeeded } from '../api/get-action-needed.ts';
import styles from '../components/action-needed.module.css';
import { AlternativeMedPanel } from '../components/alternative-med-panel.tsx';
import { AppealPanel } from '../components/appeal-panel.tsx';
import { dobText, patientName } from '../components/patient-card.tsx';
import { PhoneExceptionPanel } from '../components/phone-exception-panel.tsx';
import { PriorAuthPanel } from '../components/prior-auth-panel.tsx';
import { type PanelProps, RefillPanel } from '../components/refill-panel.tsx';
import { Timeline } from '../components/timeline.tsx';
import { displayDrugName } from '../utils/special-drugs.ts';
import { type DecisionKind, useDecisionToast } from '../utils/use-decision-toast.ts';

const PANELS = {
  refillAuth: RefillPanel,
  priorAuth: PriorAuthPanel,
  phoneException: PhoneExceptionPanel,
  altMed: AlternativeMedPanel,
  appeals: AppealPanel,
} satisfies Record<string, (props: PanelProps) => React.ReactNode>;

/** /action-needed/{prescriptionId}/{authType}: one request of one prescription, with its actions and timeline. */
export default function ActionNeededDetailRoute() {
  const { prescriptionId = '', authType } = useParams();
  const navigate = useNavigate();
  // Opened from the list: back to it with its category and prescriber (only a query string is taken from state).
  const listSearch = (useLocation().state as { listSearch?: unknown } | null)?.listSearch;
  const listHref = `${ROUTES.actionNeeded}${typeof listSearch === 'string' && listSearch.startsWith('?') ? listSearch : ''}`;
  const userId = readSession()?.userId ?? '';
  const list = useActionNeeded(userId);
  const user = useUserDetails(userId).data;
  const { access, seesNoPatients } = useClinicalAccess(userId);
  const { announce } = useDecisionToast();
  const found = list.data?.entries.find((e) => e.prescription.id === prescriptionId);
  // The request as last shown. A decision's answer and a refreshed list without the request (the decision's own
  // refresh, or a live update of it) may arrive in either order; the panel must still be there when the answer does,
  // to say it was done and go back to the list (a mutation's callbacks die with the component that made it). So
  // while a decision is on its way the request stays on screen.
  const deciding = useIsMutating() > 0;
  const [shown, setShown] = useState(found);
  if (found && found !== shown) setShown(found);

  // Outside the user's reach (the provider's people with no support window open, or one that just ended): say so,
  // not that the prescription no longer needs the action, which nobody can know from here (issue 47).
  if (seesNoPatients) {
    return (
      <Page title="Prescription">
        <PatientDataNotice />
        <p>
          <Link to={listHref}>Back to Action Needed</Link>
        </p>
      </Page>
    );
  }

  if (list.isPending || !user || !access) return <FullPageLoader label="Loading the prescription…" />;
  const entry = found ?? (deciding && shown?.prescription.id === prescriptionId ? shown : undefined);
  const type = isActionType(authType) ? authType : null;
  if (!entry || !type || !entry.actionTypes.includes(type)) {
    return (
      <Page title="Prescription">
        <p>This prescription no longer needs this action. Someone may have handled it already.</p>
        <p>
          <Link to={listHref}>Back to Action Needed</Link>
        </p>
        {/* Who handled it, when, and whether the pharmacy's system has it (none for an id outside the user's reach). */}
        {prescriptionId ? <Timeline prescriptionId={prescriptionId} hideWhenNotFound /> : null}
      </Page>
    );
  }
  const rx = entry.prescription;
  const Panel = PANELS[type];
  // The practice may keep signing to the prescriber and whoever covers for them: then this one prepares it.
  const itemAccess = accessToItem(access, user, { practiceId: rx.practiceId, prescriberId: entry.doctor.doctorId });
  // After an action: say so (with Undo while the server holds it) and go back to the list (the item has left it),
  // with focus on the item that followed this one there (RouteFocus; the list's heading when none is left).
  // The message names whose which drug, as the screen showed them (issue 47): the list it lands on no longer shows it.
  const onDone = (message: string, undo?: UndoOffer, kind?: DecisionKind) => {
    announce(`${message} ${patientName(entry.patient)}: ${displayDrugName(rx)}.`, undo, kind);
    navigate(listHref, { state: { focusKeys: placesAfterOpened() } satisfies FocusOnArrival });
  };
  return (
    <Page title={`${ACTION_TYPE_LABELS[type].request}: ${displayDrugName(rx)}`}>
      <p>
        <Link to={listHref}>Back to Action Needed</Link>
      </p>
      <div className={styles.detail}>
        <div>
          <dl className={styles.facts}>
            <dt>Patient</dt>
            <dd>{patientName(entry.patient)}</dd>
            <dt>Date of birth</dt>
            <dd>{dobText(entry.patient.dob)}</dd>
            <dt>Phone</dt>
            <dd>{entry.patient.phoneNumbers.map(formatPhoneDisplay).join(', ') || '—'}</dd>
            <dt>Prescriber</dt>
            <dd>
              {entry.doctor.name}, {entry.doctor.role}
            </dd>
            <dt>Prescription</dt>
            <dd>
              {displayDrugName(rx)} {rx.strength ?? ''}
              {rx.quantity ? `, quantity ${rx.quantity}` : ''}, {rx.refills} refill(s)
            </dd>
            <dt>Sig</dt>
            <dd>{rx.sig ?? '—'}</dd>
            <dt>Prescribed</dt>
            <dd>{formatPrescribedDate(rx.prescribedDate)}</dd>
            <dt>Order status</dt>
            <dd>{formatOrderStatus(rx.orderStatus, rx.price) || '—'}</dd>
          </dl>
          {!mayChangePatientData(access) ? (
            <p className={styles.notice}>Support access is read-only: the practice’s own people act on this request.</p>
          ) : (
            <>
              {itemAccess !== access ? <p className={styles.notice}>{signedByText(entry.doctor.name)}</p> : null}
              <Panel entry={entry} user={user} onDone={onDone} access={itemAccess} />
            </>
          )}
        </div>
        <Timeline prescriptionId={rx.id} />
      </div>
    </Page>
  );
}
