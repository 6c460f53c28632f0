import {
  formatApiDate,
  formatMonthDayTime,
  formatOrderStatus,
  formatPhoneDisplay,
  formatPrescribedDate,
  type RxListItem,
  type RxListSortKey,
} from '@hcp/contract';
import type { Ref } from 'react';
import { operationsOrderHref } from '../../../lib/config.ts';
import styles from './rx-list.module.css';

/** The table's columns, in the order of a row's cells. */
export const RX_COLUMNS: { key: RxListSortKey; label: string }[] = [
  { key: 'prescribedDate', label: 'Prescribed Date' },
  { key: 'prescriptionName', label: 'Prescription' },
  { key: 'patientName', label: 'Patient' },
  { key: 'prescriberName', label: 'Prescriber' },
  { key: 'practiceName', label: 'Practice' },
  { key: 'lastProcessedDate', label: 'Order Status' },
];

/** One prescription's row; `measure` is the virtualizer's, for a long list drawn only in view. */
export function RxRow({ row, index, measure }: { row: RxListItem; index: number; measure?: Ref<HTMLTableRowElement> }) {
  return (
    <tr data-index={index} ref={measure} aria-rowindex={index + 2}>
      <td>{formatPrescribedDate(row.prescribedDate)}</td>
      <td>
        <div>{row.prescriptionName}</div>
        {row.orderNumber ? (
          <a href={operationsOrderHref(row.orderNumber)} target="_blank" rel="noopener noreferrer">
            Order {row.orderNumber}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        ) : null}
        {row.isWholeSale ? <span className={styles.tag}>Wholesale</span> : null}
      </td>
      <td>
        <div>{row.patientName}</div>
        <div className={styles.muted}>{formatApiDate(row.patientDob)}</div>
      </td>
      <td>
        <div>{row.prescriberName}</div>
        {row.prescriberPhoneNumber ? <div className={styles.muted}>{formatPhoneDisplay(row.prescriberPhoneNumber)}</div> : null}
        {row.prescriberCreatedDate ? (
          <div className={styles.muted}>Added on {formatApiDate(row.prescriberCreatedDate)}</div>
        ) : null}
      </td>
      <td>
        <div>{row.practiceName}</div>
        {row.prescriberSpecialty ? <div className={styles.muted}>{row.prescriberSpecialty}</div> : null}
      </td>
      <td>
        <div>
          {row.pending ? <span className={styles.pending} role="img" aria-label="Pending" title="Pending" /> : null}
          {formatOrderStatus(row.orderStatus, row.price)}
        </div>
        {row.lastProcessedDate ? <div className={styles.muted}>Since {formatMonthDayTime(row.lastProcessedDate)}</div> : null}
      </td>
    </tr>
  );
}

/** The rows a list drawn whole shows; the first of them stand in while a long list's virtualizer loads. */
export function RxRows({ rows }: { rows: readonly RxListItem[] }) {
  return rows.map((row, index) => <RxRow key={row.id} row={row} index={index} />);
}

/** The height of the rows not drawn, above or below those in view, so the scroll bar stays true. */
export function RxSpacer({ height }: { height: number }) {
  return (
    <tr className={styles.spacer}>
      <td colSpan={RX_COLUMNS.length} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}
