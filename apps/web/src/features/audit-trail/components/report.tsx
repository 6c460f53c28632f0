import type { AuditPage } from '@hcp/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import controls from '../../../components/controls.module.css';
import { Spinner } from '../../../components/spinner.tsx';
import type { ExportTarget } from '../api/download-export.ts';
import type { DateRange } from '../api/keys.ts';
import styles from '../routes/audit-trail.module.css';
import { EntriesTable } from './entries-table.tsx';
import { DateRangeForm, messageOf } from './shared.tsx';

/** Search results to pick the report's subject from (a patient, a person). */
export function Choices({
  label,
  items,
  onChoose,
}: {
  label: string;
  items: readonly { id: string; text: string; disabled?: boolean }[];
  onChoose: (id: string) => void;
}) {
  return (
    <ul className={styles.choices} aria-label={label}>
      {items.map((item) => (
        <li key={item.id}>
          <button type="button" className={controls.secondary} disabled={item.disabled} onClick={() => onChoose(item.id)}>
            {item.text}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * A report of one subject over whole days: the dates, then who it is about and its rows, 50 a page with the exports;
 * a failure said as such, never an empty table.
 */
export function Report<T extends AuditPage>({
  query,
  range,
  onRange,
  page,
  onPage,
  subject,
  caption,
  showPatients,
  exportTarget,
}: {
  query: UseQueryResult<T>;
  range: DateRange;
  onRange: (range: DateRange) => void;
  page: number;
  onPage: (page: number) => void;
  subject: (data: T) => ReactNode;
  caption: (data: T) => string;
  showPatients: boolean;
  exportTarget: ExportTarget;
}) {
  return (
    <>
      <DateRangeForm value={range} onApply={onRange} />
      {query.isError ? (
        <p role="alert">{messageOf(query.error, 'Could not load the report. Please try again.')}</p>
      ) : !query.data ? (
        <p role="status">
          <Spinner /> Loading the report…
        </p>
      ) : (
        <>
          <p className={styles.subject}>{subject(query.data)}</p>
          <EntriesTable
            caption={caption(query.data)}
            entries={query.data.records}
            total={query.data.total}
            page={page}
            onPageChange={onPage}
            showPatients={showPatients}
            isFetching={query.isFetching}
            exportRequest={exportTarget}
          />
        </>
      )}
    </>
  );
}
