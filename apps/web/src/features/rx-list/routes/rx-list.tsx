import {
  calendarDateOf,
  DEFAULT_RX_LIST_SORT,
  RX_LIST_FILTERS,
  RX_LIST_MAX_ROWS,
  type RxListFilter,
  type RxListSort,
  sortRxRows,
  toIsoDate,
} from '@hcp/contract';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { DatePicker } from '../../../components/date-picker.tsx';
import { Page } from '../../../components/page.tsx';
import { PatientDataNotice } from '../../../components/patient-data-notice.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { reportError } from '../../../lib/error-reporting.ts';
import { readSession } from '../../../lib/storage.ts';
import { useClinicalAccess } from '../../../lib/support-access/use-clinical-access.ts';
import { type RxListParams, useRxList } from '../api/get-rx-list.ts';
import styles from '../components/rx-list.module.css';
import { RxTable } from '../components/rx-table.tsx';

const DAY = 86_400_000;
const isoOf = (date: Date) => toIsoDate(calendarDateOf(date));

/** Rows prescribed within the chosen moments (the server filters by whole days; the pickers carry times). */
function withinMoments<T extends { prescribedDate: string }>(rows: readonly T[], from: Date, to: Date): T[] {
  const stamp = (d: Date) => `${isoOf(d)} ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}:00`;
  const lo = stamp(from);
  const hi = `${stamp(to).slice(0, 16)}:59`;
  return rows.filter((r) => r.prescribedDate >= lo && r.prescribedDate <= hi);
}

export default function RxListRoute() {
  const userId = readSession()?.userId ?? '';
  const filterId = useId();
  // Spec §9 defaults: the last 24 hours.
  const [from, setFrom] = useState<Date | null>(() => new Date(Date.now() - DAY));
  const [to, setTo] = useState<Date | null>(() => new Date());
  const [filter, setFilter] = useState<RxListFilter>('none');
  const [applied, setApplied] = useState(() => ({ from: from as Date, to: to as Date, filter }));
  const [loadCount, setLoadCount] = useState(0);
  const [sort, setSort] = useState<RxListSort>(DEFAULT_RX_LIST_SORT);
  const { seesNoPatients } = useClinicalAccess(userId);

  const params: RxListParams = { startdate: isoOf(applied.from), enddate: isoOf(applied.to), selectedFilter: applied.filter };
  const query = useRxList(userId, params, loadCount);

  // Spec §4/§8: a failed load keeps the rows shown before and is reported without a message.
  const lastGood = useRef(query.data);
  if (query.isSuccess && !query.isPlaceholderData) lastGood.current = query.data;
  const failedKey = query.isError ? query.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedKey) reportError('Rx List Load Error', { error: query.error });
  }, [failedKey, query.error]);

  const rows = useMemo(() => {
    const data = (query.isError ? lastGood.current : query.data) ?? [];
    // Spec §4: re-sorted whenever new data loads (and on every header click).
    return sortRxRows(withinMoments(data, applied.from, applied.to), sort);
  }, [query.data, query.isError, applied, sort]);

  const capped = (query.data?.length ?? 0) >= RX_LIST_MAX_ROWS;
  const canLoad = from !== null && to !== null && from.getTime() <= to.getTime();
  return (
    <Page title={`New Prescriptions List (${rows.length})`}>
      {seesNoPatients ? <PatientDataNotice /> : null}
      <form
        className={styles.controls}
        onSubmit={(event) => {
          event.preventDefault();
          if (!canLoad) return;
          setApplied({ from, to, filter });
          setLoadCount((n) => n + 1);
        }}
      >
        <DatePicker label="From" value={from} onChange={setFrom} maxDate={new Date()} />
        <DatePicker label="To" value={to} onChange={setTo} maxDate={new Date()} />
        <div className={styles.select}>
          <label htmlFor={filterId}>Filter</label>
          <select
            id={filterId}
            className={styles.filter}
            value={filter}
            onChange={(e) => setFilter(e.target.value as RxListFilter)}
          >
            {RX_LIST_FILTERS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          className={styles.load}
          disabled={!canLoad}
          aria-describedby={canLoad ? undefined : `${filterId}-range`}
        >
          Load Rx
        </button>
        {query.isFetching ? (
          <span className={styles.loading}>
            <Spinner /> Loading…
          </span>
        ) : null}
        {!canLoad && from && to ? (
          <p id={`${filterId}-range`} role="alert">
            The From date must be before the To date.
          </p>
        ) : null}
      </form>
      {capped ? (
        <p className={styles.notice} role="status">
          Showing the newest {RX_LIST_MAX_ROWS.toLocaleString('en-US')} prescriptions. Choose a shorter range or a filter to see
          the rest.
        </p>
      ) : null}
      <p className="visually-hidden" role="status" aria-live="polite">
        {query.isFetching ? 'Loading prescriptions…' : `${rows.length} prescriptions`}
      </p>
      <RxTable rows={rows} sort={sort} onSort={setSort} isLoading={query.isFetching} />
    </Page>
  );
}
