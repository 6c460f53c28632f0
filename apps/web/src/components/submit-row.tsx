import controls from './controls.module.css';
import { FormAlert } from './form-alert.tsx';
import styles from './submit-row.module.css';

/** A form's submit button (busy while saving) with the form-level error beside it. */
export function SubmitRow({ label, busy, error }: { label: string; busy: boolean; error: string | undefined }) {
  return (
    <div className={styles.row}>
      <button type="submit" className={controls.primary} disabled={busy}>
        {busy ? 'Saving…' : label}
      </button>
      <FormAlert message={error} />
    </div>
  );
}
