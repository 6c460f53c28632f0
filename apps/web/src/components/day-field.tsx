import { addIsoDays, DAY_FIELD_FORMAT_MESSAGE, formatUsDate, isoOfTypedDay, parseIsoDate } from '@hcp/contract';
import { lazy, type Ref, Suspense, useId, useRef, useState } from 'react';
import styles from './day-field.module.css';

// The same calendar as the Rx list's date-and-time picker, loaded only when someone opens it (decision 0047).
const Calendar = lazy(() => import('./date-picker-calendar.ts'));

/** YYYY-MM-DD as the field shows it (MM/DD/YYYY); any other text as it is. */
function shown(value: string): string {
  const date = parseIsoDate(value);
  return date ? formatUsDate(date) : value;
}

function localDate(iso: string | undefined): Date | undefined {
  const date = iso ? parseIsoDate(iso) : null;
  return date ? new Date(date.year, date.month - 1, date.day) : undefined;
}

function isoOfLocal(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

export interface DayFieldProps {
  label: string;
  /** The day as YYYY-MM-DD once the typed text is a day; until then the text as typed (the form's rules refuse it). */
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  name?: string;
  /** The form's message for the field (a rule about the day); a text that is no day says so itself. */
  error?: string | undefined;
  /** Quick choices 'In N days', counted from `today` (the server's day where the rule uses it). */
  quickDays?: readonly number[];
  today?: string;
  /** The calendar's range (YYYY-MM-DD); the form's rules still decide. */
  min?: string;
  max?: string;
  /** A day people know by heart (a date of birth): typed, no calendar (GOV.UK's memorable-date advice). */
  memorable?: boolean;
  /** Where a dialog starts (the Dialog focuses its [data-autofocus] element). */
  'data-autofocus'?: boolean;
  ref?: Ref<HTMLInputElement>;
}

/**
 * The one field for a day (issue 47, decision 0057): typed as MM/DD/YYYY (any of the ten §5 formats, or YYYY-MM-DD),
 * with quick choices where a few days are usual and a calendar to pick from. What it hands the form is YYYY-MM-DD,
 * so the form's schema and the API read the same day. The Rx list's date-and-time pickers (spec §9) read typed days
 * with the same rule.
 */
export function DayField({
  label,
  value,
  onChange,
  onBlur,
  name,
  error,
  quickDays = [],
  today,
  min,
  max,
  memorable = false,
  'data-autofocus': dialogStart,
  ref,
}: DayFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const calendarId = `${id}-calendar`;
  // What is in the box: the typed text while typing; the day as MM/DD/YYYY when the form sets it (a quick choice,
  // the calendar, a reset). Adjusted during render when the form's value is not the one the box last handed out.
  const [text, setText] = useState(() => shown(value));
  const [handedOut, setHandedOut] = useState(value);
  if (value !== handedOut) {
    setHandedOut(value);
    setText(shown(value));
  }
  const [touched, setTouched] = useState(false);
  const [calendarOpen, setCalendarOpen] = useState(false);
  const calendarButton = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement | null>(null);

  const hand = (next: string) => {
    setHandedOut(next);
    onChange(next);
  };
  const type = (typed: string) => {
    setText(typed);
    hand(isoOfTypedDay(typed) ?? typed);
  };
  const pick = (iso: string) => {
    setText(shown(iso));
    hand(iso);
  };

  // A text that is no day is said by the field, in the field's own format (the schema's would name YYYY-MM-DD).
  const formatProblem = touched && text.trim() !== '' && isoOfTypedDay(text) === null ? DAY_FIELD_FORMAT_MESSAGE : null;
  const message = formatProblem ?? error;
  const described = [hintId, message ? errorId : null].filter(Boolean).join(' ');
  const setRefs = (node: HTMLInputElement | null) => {
    input.current = node;
    if (typeof ref === 'function') ref(node);
    else if (ref) ref.current = node;
  };

  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <span id={hintId} className={styles.hint}>
        MM/DD/YYYY{memorable ? ', for example 03/09/1984' : ''}
      </span>
      <div className={styles.entry}>
        <input
          id={id}
          ref={setRefs}
          name={name}
          className={styles.input}
          value={text}
          inputMode="numeric"
          autoComplete={memorable ? 'bday' : 'off'}
          data-autofocus={dialogStart || undefined}
          aria-invalid={message ? true : undefined}
          aria-describedby={described}
          onChange={(event) => type(event.target.value)}
          onBlur={() => {
            setTouched(true);
            onBlur?.();
          }}
          // The quick choices and the calendar stand beside the field; Enter in it submits its form, as any field.
        />
        {memorable ? null : (
          <button
            ref={calendarButton}
            type="button"
            className={styles.calendarButton}
            aria-expanded={calendarOpen}
            aria-controls={calendarOpen ? calendarId : undefined}
            // Named for its field (a form may hold two), starting with the text it shows (WCAG 2.5.3).
            aria-label={`Calendar: choose ${label.toLowerCase()}`}
            onClick={() => setCalendarOpen((open) => !open)}
          >
            Calendar
          </button>
        )}
      </div>
      {message ? (
        <p id={errorId} className={styles.error}>
          {message}
        </p>
      ) : null}
      {calendarOpen ? (
        // Escape closes the calendar and returns to its button; a picked day closes it and returns to the field.
        // biome-ignore lint/a11y/noStaticElementInteractions: the Escape key closes the calendar (a disclosure).
        <div
          id={calendarId}
          className={styles.calendar}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            // Only the calendar closes: not a dialog around the field (a <dialog> closes on an Escape not prevented).
            event.preventDefault();
            event.stopPropagation();
            setCalendarOpen(false);
            calendarButton.current?.focus();
          }}
        >
          <Suspense fallback={<p className={styles.hint}>Loading the calendar…</p>}>
            <Calendar
              inline
              selected={localDate(isoOfTypedDay(text) ?? undefined) ?? null}
              openToDate={localDate(isoOfTypedDay(text) ?? today ?? undefined)}
              minDate={localDate(min)}
              maxDate={localDate(max)}
              onChange={(date: Date | null) => {
                if (!date) return;
                pick(isoOfLocal(date));
                setCalendarOpen(false);
                input.current?.focus();
              }}
            />
          </Suspense>
        </div>
      ) : null}
      {quickDays.length > 0 && today ? (
        <fieldset className={styles.presets}>
          <legend className="visually-hidden">Quick choices for {label.toLowerCase()}</legend>
          {quickDays.map((days) => {
            const iso = addIsoDays(today, days);
            return (
              <button key={days} type="button" className={styles.preset} onClick={() => pick(iso)}>
                In {days} days <span className={styles.date}>({shown(iso)})</span>
              </button>
            );
          })}
        </fieldset>
      ) : null}
    </div>
  );
}
