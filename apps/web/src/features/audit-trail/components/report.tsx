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

/**
 * Search results to pick the report's subject from (a patient, a person), once a search was made and until one is
 * chosen: a failure said as such, a loading line, "no match", or the list.
 */
export function Choices<T extends { id: string }>({
  query,
  shown,
  label,
  failure,
  empty,
  itemOf,
  onChoose,
}: {
  query: UseQueryResult<{ records: T[] }>;
  shown: boolean;
  label: string;
  failure: string;
  empty: string;
  itemOf: (record: T) => { text: string; disabled?: boolean };
  onChoose: (id: string) => void;
}) {
  if (!shown) return null;
  if (query.isError) return <p role="alert">{failure}</p>;
  if (!query.data) {
    return (
      <p role="status">
        <Spinner /> Searching…
      </p>
    );
  }
  if (query.data.records.length === 0) return <p role="status">{empty}</p>;
  return (
    <ul className={styles.choices} aria-label={label}>
      {query.data.records.map((record) => {
        const item = itemOf(record);
        return (
          <li key={record.id}>
            <button type="button" className={controls.secondary} disabled={item.disabled} onClick={() => onChoose(record.id)}>
              {item.text}
            </button>
          </li>
        );
      })}
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
