import { calendarDateOf, compareCalendarDates, formatDateTime, parseDateInput } from '@hcp/contract';
import { lazy, Suspense, useId, useRef, useState } from 'react';
import styles from './date-picker.module.css';

// Starts downloading when a date field first draws; the field shows its value meanwhile.
const ReactDatePicker = lazy(() => import('./date-picker-calendar.ts'));

export const DATE_INPUT_INVALID = 'Date input not valid.';
const UNBOUNDED_MIN = new Date(1900, 0, 1);
const UNBOUNDED_MAX = new Date(2100, 11, 31);

const TYPED_TIME = /^(\d{1,2}):(\d{2})\s*([AaPp][Mm])?$/;

/** A typed time ('3:30 PM', '15:30'); null when there is none or it is not a time. */
function parseTypedTime(text: string): { hour: number; minute: number } | null {
  const match = TYPED_TIME.exec(text.trim());
  if (!match) return null;
  let hour = Number(match[1]);
  const minute = Number(match[2]);
  const meridiem = match[3]?.toLowerCase();
  if (minute > 59 || hour > (meridiem ? 12 : 23) || (meridiem && hour === 0)) return null;
  if (meridiem === 'pm' && hour < 12) hour += 12;
  if (meridiem === 'am' && hour === 12) hour = 0;
  return { hour, minute };
}

/**
 * The typed date (any of the ten §5 formats), with its time when one follows. A date typed alone means
 * the start of that day, or its end (`end`, for a To field: 'to 11/24' includes the whole of 11/24 —
 * issue 21 found today's prescriptions vanishing because a typed To meant 12:00 AM).
 */
function parseTyped(text: string, dayMeans: 'start' | 'end'): Date | null {
  const [datePart = '', ...rest] = text.trim().split(/\s+/);
  const date = parseDateInput(datePart);
  if (!date) return null;
  const timeText = rest.join(' ');
  const time = timeText ? parseTypedTime(timeText) : null;
  if (timeText && !time) return null;
  if (time) return new Date(date.year, date.month - 1, date.day, time.hour, time.minute);
  return dayMeans === 'end'
    ? new Date(date.year, date.month - 1, date.day, 23, 59, 59, 999)
    : new Date(date.year, date.month - 1, date.day, 0, 0);
}

/**
 * Date and time picker of spec §5/§9: MM/dd/yyyy, 30-minute times, at most 6 week rows, a year dropdown
 * (1900-2100 when unbounded), days after `maxDate` out of range, and 'Date input not valid.' for typed
 * text that is not a date. The popup renders in a portal so it never shifts the layout under the pointer.
 */
export function DatePicker({
  label,
  value,
  onChange,
  minDate,
  maxDate,
  typedDayMeans = 'start',
}: {
  label: string;
  value: Date | null;
  onChange: (value: Date | null) => void;
  minDate?: Date;
  maxDate?: Date;
  /** What a date typed without a time means: the start of that day, or its end (a To field). */
  typedDayMeans?: 'start' | 'end';
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const typed = useRef<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Focused before the calendar arrived: the field takes focus back when it does, which opens the calendar as a
  // tap would, so no tap is lost.
  const [wanted, setWanted] = useState(false);

  const validateTyped = () => {
    const text = typed.current;
    typed.current = null;
    if (text === null) return;
    const parsed = parseTyped(text, typedDayMeans);
    const tooLate = parsed && maxDate && compareCalendarDates(calendarDateOf(parsed), calendarDateOf(maxDate)) > 0;
    const tooEarly = parsed && minDate && compareCalendarDates(calendarDateOf(parsed), calendarDateOf(minDate)) < 0;
    if (!parsed || tooLate || tooEarly) {
      setError(DATE_INPUT_INVALID);
      return;
    }
    setError(null);
    onChange(parsed);
  };

  const min = minDate ?? UNBOUNDED_MIN;
  const max = maxDate ?? UNBOUNDED_MAX;
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <Suspense
        fallback={
          // The same field, read-only for the moment the calendar takes to arrive: the value in the picker's own
          // format (MM/dd/yyyy h:mm AM), so nothing moves or changes when it replaces this.
          <input
            id={id}
            className={styles.input}
            value={formatDateTime(value).toUpperCase()}
            readOnly
            onFocus={() => setWanted(true)}
          />
        }
      >
        <ReactDatePicker
          id={id}
          autoFocus={wanted}
          selected={value}
          onChange={(date: Date | null, event?: { type?: string }) => {
            // Typing: the picker parses each keystroke by its own rules (a date alone is 12:00 AM); the
            // portal's reading of the typed text (validateTyped, on blur or Enter) decides instead.
            if (event?.type === 'change' && typed.current !== null) return;
            typed.current = null;
            setError(null);
            onChange(date);
          }}
          onChangeRaw={(event) => {
            const target = event?.target as HTMLInputElement | undefined;
            if (target && typeof target.value === 'string') typed.current = target.value;
          }}
          onBlur={validateTyped}
          onKeyDown={(event) => {
            if (event.key === 'Enter') validateTyped();
          }}
          dateFormat="MM/dd/yyyy h:mm aa"
          showTimeSelect
          timeIntervals={30}
          fixedHeight
          showYearDropdown
          scrollableYearDropdown
          yearDropdownItemNumber={max.getFullYear() - min.getFullYear() + 1}
          minDate={min}
          maxDate={max}
          portalId="date-picker-portal"
          // Under the field from its left edge: centred, the calendar and its times ran off a phone's left side.
          popperPlacement="bottom-start"
          ariaInvalid={error ? 'true' : undefined}
          ariaDescribedBy={error ? errorId : undefined}
          className={styles.input}
          autoComplete="off"
        />
      </Suspense>
      {error ? (
        <span id={errorId} className={styles.error} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
