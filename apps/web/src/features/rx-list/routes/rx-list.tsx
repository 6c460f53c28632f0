import {
  DEFAULT_RX_LIST_SORT,
  parseApiInstant,
  RX_LIST_DEFAULT_FILTER,
  RX_LIST_FILTERS,
  RX_LIST_LOAD_FAILED_MESSAGE,
  RX_LIST_MAX_ROWS,
  type RxListFilter,
  type RxListSort,
  rxListDefaultWindow,
  rxListQueryFor,
  rxListWindowProblem,
  sortRxRows,
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

/**
 * Rows prescribed within the chosen moments. The server answers whole UTC days (the contract's query
 * days) and each row carries its UTC instant, so the window is exact in any zone (issue 21).
 */
function withinMoments<T extends { prescribedDate: string }>(rows: readonly T[], from: Date, to: Date): T[] {
  const lo = from.getTime();
  // The To moment includes its whole minute (pickers show minutes).
  const hi = Math.floor(to.getTime() / 60_000) * 60_000 + 59_999;
  return rows.filter((r) => {
    const at = parseApiInstant(r.prescribedDate)?.getTime();
    return at !== undefined && at >= lo && at <= hi;
  });
}

export default function RxListRoute() {
  const userId = readSession()?.userId ?? '';
  const filterId = useId();
  // Spec §9 defaults: the last 24 hours (the same window the first load asked for early, decision 0046).
  const [opened] = useState(() => rxListDefaultWindow());
  const [from, setFrom] = useState<Date | null>(opened.from);
  const [to, setTo] = useState<Date | null>(opened.to);
  const [filter, setFilter] = useState<RxListFilter>(RX_LIST_DEFAULT_FILTER);
  const [applied, setApplied] = useState(() => ({ from: from as Date, to: to as Date, filter }));
  const [loadCount, setLoadCount] = useState(0);
  const [sort, setSort] = useState<RxListSort>(DEFAULT_RX_LIST_SORT);
  const { seesNoPatients } = useClinicalAccess(userId);

  const params: RxListParams = rxListQueryFor(applied.from, applied.to, applied.filter);
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
  // The server's own rule, checked before sending: a refused range must say why, not look like no rows.
  const windowProblem = from && to ? rxListWindowProblem(from, to) : null;
  const canLoad = from !== null && to !== null && windowProblem === null;
  const failedEmpty = query.isError && rows.length === 0;
  // No count until one is known: "(0)" while loading, or after a failed first load, would be a silent zero.
  const countKnown = lastGood.current !== undefined;
  return (
    <Page title="New Prescriptions List" count={countKnown ? rows.length : null}>
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
        <DatePicker label="To" value={to} onChange={setTo} maxDate={new Date()} typedDayMeans="end" />
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
        <span
          className={query.isFetching ? styles.loading : `${styles.loading} ${styles.idle}`}
          aria-hidden={query.isFetching ? undefined : true}
        >
          {/* Drawn only while loading: a hidden ring would still turn, frame by frame (decision 0046). */}
          {query.isFetching ? <Spinner /> : null} Loading…
        </span>
        {windowProblem ? (
          <p id={`${filterId}-range`} role="alert">
            {windowProblem}
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
        {query.isFetching ? 'Loading prescriptions…' : failedEmpty ? RX_LIST_LOAD_FAILED_MESSAGE : `${rows.length} prescriptions`}
      </p>
      <RxTable
        rows={rows}
        sort={sort}
        onSort={setSort}
        isLoading={query.isFetching}
        emptyMessage={failedEmpty ? RX_LIST_LOAD_FAILED_MESSAGE : undefined}
      />
    </Page>
  );
}
