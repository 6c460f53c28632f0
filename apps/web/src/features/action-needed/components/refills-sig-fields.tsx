import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import styles from './action-needed.module.css';

/** 0 to 11 refills (the contract's limit). */
const REFILL_CHOICES = Array.from({ length: 12 }, (_, n) => n);

/** Refills and sig of a refill authorization: the prescriber's form and the staff's preparation use the same two. */
export function RefillsSigFields({
  refills,
  sig,
  sigError,
  maxRefills = 11,
}: {
  refills: UseFormRegisterReturn;
  sig: UseFormRegisterReturn;
  sigError: string | undefined;
  /** A controlled substance in Schedules III to V: at most five (21 CFR 1306.22). */
  maxRefills?: number;
}) {
  const ids = { refills: useId(), sig: useId() };
  return (
    <>
      <label className={styles.label} htmlFor={ids.refills}>
        Refills
        <select id={ids.refills} {...refills}>
          {REFILL_CHOICES.filter((n) => n <= maxRefills).map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <label className={styles.label} htmlFor={ids.sig}>
        Sig (directions)
        <textarea
          id={ids.sig}
          rows={2}
          aria-invalid={sigError ? true : undefined}
          aria-describedby={sigError ? `${ids.sig}-error` : undefined}
          {...sig}
        />
        {sigError ? (
          <span id={`${ids.sig}-error`} className={styles.fieldError}>
            {sigError}
          </span>
        ) : null}
      </label>
    </>
  );
}
