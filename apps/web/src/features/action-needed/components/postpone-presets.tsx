import { formatUsDate, parseIsoDate, postponePresets } from '@hcp/contract';
import styles from './postpone-presets.module.css';

/**
 * The quick choices beside a postponement's day (issue 47): in 7, 14 or 30 days, each filling the day field with
 * its date as the field reads it (MM/DD/YYYY), so the field stays the one place the day is set and can still be
 * typed. `today` is the server's day (the list's answer), as the date check uses.
 */
export function PostponePresets({ today, onPick }: { today: string; onPick: (usDate: string) => void }) {
  return (
    <fieldset className={styles.presets}>
      <legend className="visually-hidden">Quick choices</legend>
      {postponePresets(today).map(({ days, iso }) => {
        const date = parseIsoDate(iso);
        const text = date ? formatUsDate(date) : iso;
        return (
          <button key={days} type="button" className={styles.preset} onClick={() => onPick(text)}>
            In {days} days <span className={styles.date}>({text})</span>
          </button>
        );
      })}
    </fieldset>
  );
}
