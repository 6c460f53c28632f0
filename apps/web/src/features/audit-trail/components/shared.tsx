import { type AuditReview, formatDateTime, shiftIsoDay } from '@hcp/contract';
import { useId, useState } from 'react';
import controls from '../../../components/controls.module.css';
import { DayField } from '../../../components/day-field.tsx';
import { ReportZoneHint, useReportToday } from '../../../components/report-zone.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import type { DateRange } from '../api/keys.ts';
import styles from '../routes/audit-trail.module.css';

/** The server's own sentence for a refusal it explains (a range too wide, a review already made), else `fallback`. */
export const messageOf = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : fallback;

/**
 * A report's range of days: the one chosen (or linked), else the last 30 days up to the reports' zone's today. The
 * default is derived, not stored, so it follows the zone once the tenant answer names it.
 */
export function useReportRange(linked: DateRange | null = null) {
  const today = useReportToday();
  const [chosen, setChosen] = useState<DateRange | null>(linked);
  return [chosen ?? { from: shiftIsoDay(today, -29), to: today }, setChosen] as const;
}

/** From and to (whole days), applied with a button so a half-typed date does not ask the server. */
export function DateRangeForm({
  value,
  onApply,
  submitLabel = 'Show',
  children,
}: {
  value: DateRange;
  onApply: (range: DateRange) => void;
  submitLabel?: string;
  children?: React.ReactNode;
}) {
  // Until a field is typed in, it shows the range in force (whose default can still move to the reports' zone).
  const [typedFrom, setFrom] = useState<string | null>(null);
  const [typedTo, setTo] = useState<string | null>(null);
  const from = typedFrom ?? value.from;
  const to = typedTo ?? value.to;
  const [error, setError] = useState<string | null>(null);
  const today = useReportToday();
  const errorId = useId();
  return (
    <form
      className={styles.filters}
      aria-describedby={error ? errorId : undefined}
      onSubmit={(event) => {
        event.preventDefault();
        if (!from || !to) return setError('Enter both dates.');
        if (from > to) return setError('The start must not be after the end.');
        setError(null);
        onApply({ from, to });
      }}
    >
      <DayField label="From" name="from" value={from} onChange={setFrom} today={today} max={today} />
      <DayField label="To" name="to" value={to} onChange={setTo} today={today} max={today} />
      {children}
      <button type="submit" className={controls.secondary}>
        {submitLabel}
      </button>
      <ReportZoneHint />
      {error ? (
        <p id={errorId} role="alert" className={styles.error}>
          {error}
        </p>
      ) : null}
    </form>
  );
}

/**
 * A review's cell: the note with who wrote it and when; for one's own item, that another officer reviews it; else
 * the form that marks it reviewed (once: the server refuses a second, and its sentence is shown).
 */
export function ReviewCell({
  review,
  own,
  label,
  pending,
  save,
}: {
  review: AuditReview | null;
  own: boolean;
  label: string;
  pending: boolean;
  save: (note: string) => Promise<unknown>;
}) {
  if (review) {
    return (
      <>
        {review.note}
        <span className={styles.sub}>
          {review.reviewedBy}, {formatDateTime(review.reviewedAt)}
        </span>
      </>
    );
  }
  if (own) return 'Another privacy officer reviews this.';
  return (
    <ReviewForm
      label={label}
      pending={pending}
      onSave={(note, done) =>
        save(note).then(
          () => done(null),
          (error: unknown) => done(messageOf(error, 'Could not save the review. Please try again.')),
        )
      }
    />
  );
}

/** A note and a button: marks a support window or a finding reviewed. */
function ReviewForm({
  label,
  onSave,
  pending,
}: {
  label: string;
  onSave: (note: string, done: (error: string | null) => void) => void;
  pending: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  if (!open) {
    return (
      <button type="button" className={controls.secondary} onClick={() => setOpen(true)}>
        {label}
      </button>
    );
  }
  return (
    <form
      className={styles.reviewForm}
      onSubmit={(event) => {
        event.preventDefault();
        if (note.trim().length < 3) return setError('Write what you checked (at least 3 characters).');
        onSave(note.trim(), (failure) => {
          setError(failure);
          if (!failure) setOpen(false);
        });
      }}
    >
      <label htmlFor={id}>Note</label>
      <textarea
        id={id}
        value={note}
        rows={2}
        maxLength={1000}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => setNote(event.target.value)}
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className={styles.error}>
          {error}
        </p>
      ) : null}
      <div className={styles.buttons}>
        <button type="submit" className={controls.primary} disabled={pending}>
          Save review
        </button>
        <button type="button" className={controls.secondary} onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
