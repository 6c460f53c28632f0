import { calendarDateOf, compareCalendarDates, parseDateInput } from '@hcp/contract';
import { useId, useRef, useState } from 'react';
import ReactDatePicker from 'react-datepicker';
import 'react-datepicker/dist/react-datepicker.css';
import styles from './date-picker.module.css';

export const DATE_INPUT_INVALID = 'Date input not valid.';
const UNBOUNDED_MIN = new Date(1900, 0, 1);
const UNBOUNDED_MAX = new Date(2100, 11, 31);

/** The typed date (any of the ten §5 formats, optionally followed by a time) on the day of `keepTimeOf`. */
function parseTyped(text: string, keepTimeOf: Date | null): Date | null {
  const datePart = text.trim().split(/\s+/)[0] ?? '';
  const date = parseDateInput(datePart);
  if (!date) return null;
  const base = keepTimeOf ?? new Date(0, 0, 1, 0, 0);
  return new Date(date.year, date.month - 1, date.day, base.getHours(), base.getMinutes());
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
}: {
  label: string;
  value: Date | null;
  onChange: (value: Date | null) => void;
  minDate?: Date;
  maxDate?: Date;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const typed = useRef<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const validateTyped = () => {
    const text = typed.current;
    typed.current = null;
    if (text === null) return;
    const parsed = parseTyped(text, value);
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
      <ReactDatePicker
        id={id}
        selected={value}
        onChange={(date: Date | null) => {
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
        ariaInvalid={error ? 'true' : undefined}
        ariaDescribedBy={error ? errorId : undefined}
        className={styles.input}
        autoComplete="off"
      />
      {error ? (
        <span id={errorId} className={styles.error} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
