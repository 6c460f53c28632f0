import { AUDIT_PAGE_SIZE, formatDateTime, type SupportWindowReviewItem } from '@hcp/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { useReportDayOf } from '../../../components/report-zone.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { Table } from '../../../components/table/table.tsx';
import { type ReviewStatus, useSupportWindows } from '../api/get-support-windows.ts';
import { useReviewSupportWindow } from '../api/review-support-window.ts';
import styles from '../routes/audit-trail.module.css';
import { DateRangeForm, messageOf, ReviewCell, useReportRange } from './shared.tsx';

export const STATUS_OPTIONS: { value: ReviewStatus; label: string }[] = [
  { value: 'open', label: 'Not reviewed' },
  { value: 'reviewed', label: 'Reviewed' },
  { value: 'all', label: 'All' },
];

/** Support access review: every break-the-glass window with its reason, length and what was read; each reviewed once. */
export function SupportWindows({ selfId }: { selfId: string }) {
  /** The reports' calendar day of an instant: a window's link opens the user's activity on its days. */
  const dayOf = useReportDayOf();
  const [range, setRange] = useReportRange();
  const [status, setStatus] = useState<ReviewStatus>('open');
  const [draftStatus, setDraftStatus] = useState<ReviewStatus>('open');
  const [page, setPage] = useState(1);
  const windows = useSupportWindows({ ...range, status, page });
  const review = useReviewSupportWindow();
  return (
    <section aria-labelledby="support-windows-title" className={styles.section}>
      <h2 id="support-windows-title">Support access review</h2>
      <p>
        Each time someone of the provider opened read-only access to a practice’s patients: why, for how long, and how much was
        read. Mark each reviewed with what you checked.
      </p>
      <DateRangeForm
        value={range}
        onApply={(next) => {
          setRange(next);
          setStatus(draftStatus);
          setPage(1);
        }}
      >
        <SelectField
          label="Show"
          options={STATUS_OPTIONS}
          value={draftStatus}
          onChange={(event) => setDraftStatus(event.target.value as ReviewStatus)}
        />
      </DateRangeForm>
      {windows.isError ? (
        <p role="alert">{messageOf(windows.error, 'Could not load the support windows. Please try again.')}</p>
      ) : !windows.data ? (
        <p role="status">
          <Spinner /> Loading…
        </p>
      ) : (
        <Table<SupportWindowReviewItem>
          caption="Support windows"
          rows={windows.data.records}
          rowKey={(w) => w.id}
          emptyMessage={
            status === 'open' ? 'No support window waits for review in these dates.' : 'No support window in these dates.'
          }
          columns={[
            { key: 'started', header: 'Opened', cell: (w) => formatDateTime(w.startedAt) },
            { key: 'who', header: 'Who', cell: (w) => w.user.name },
            { key: 'practice', header: 'Practice', cell: (w) => w.practice },
            { key: 'reason', header: 'Reason', cell: (w) => w.reason },
            { key: 'minutes', header: 'Minutes', cell: (w) => String(w.minutes) },
            {
              key: 'reads',
              header: 'Read',
              cell: (w) => (
                <>
                  {`${w.reads} ${w.reads === 1 ? 'time' : 'times'}, ${w.patients} ${w.patients === 1 ? 'patient' : 'patients'}`}
                  {w.user.id === selfId ? null : (
                    <Link
                      className={styles.sub}
                      to={`?view=user&userId=${w.user.id}&from=${dayOf(w.startedAt)}&to=${dayOf(w.endedAt)}`}
                    >
                      What {w.user.name} read
                    </Link>
                  )}
                </>
              ),
            },
            {
              key: 'review',
              header: 'Review',
              cell: (w) => (
                <ReviewCell
                  review={w.review}
                  own={w.user.id === selfId}
                  label="Mark reviewed"
                  pending={review.isPending}
                  save={(note) => review.mutateAsync({ windowId: w.id, note })}
                />
              ),
            },
          ]}
          pagination={{
            page,
            limit: AUDIT_PAGE_SIZE,
            total: windows.data.total,
            onPageChange: setPage,
            label: 'Support windows pages',
          }}
        />
      )}
    </section>
  );
}
