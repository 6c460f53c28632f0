import { calendarDateOf, compareCalendarDates, formatDateTime, parseDateInput } from '@hcp/contract';
import { lazy, Suspense, startTransition, useId, useRef, useState } from 'react';
import styles from './date-picker.module.css';

let calendarArrived = false;
const loadCalendar = () =>
  import('./date-picker-calendar.ts').then((module) => {
    calendarArrived = true;
    return module;
  });
// The calendar (~40 KiB compressed) downloads when a date field is first pointed at, touched or focused, not when
// the screen draws: most visits never change the window, and on a phone its download delayed the screen's own
// rows (issue 21, decision 0047). The field shows its value meanwhile.
const ReactDatePicker = lazy(loadCalendar);

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
  // Pointed at, touched or focused: the calendar is wanted, so it downloads (once for every field). A transition
  // keeps this field in place, focus and all, until the calendar has arrived to replace it.
  const [active, setActive] = useState(calendarArrived);
  const want = () => startTransition(() => setActive(true));
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
  // The same field, read-only until the calendar is wanted and has arrived: the value in the picker's own format
  // (MM/dd/yyyy h:mm AM), so nothing moves or changes when it is replaced.
  const placeholder = (
    <input
      id={id}
      className={styles.input}
      value={formatDateTime(value).toUpperCase()}
      readOnly
      onPointerEnter={want}
      onPointerDown={want}
      onFocus={() => {
        setWanted(true);
        want();
      }}
    />
  );
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <Suspense fallback={placeholder}>
        {active ? (
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
        ) : (
          placeholder
        )}
      </Suspense>
      {error ? (
        <span id={errorId} className={styles.error} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
