import { FormAlert } from '../../../components/form-alert.tsx';
import styles from './manage-comms.module.css';

/** A form's submit button (busy while saving) with the form-level error beside it. */
export function SubmitRow({ label, busy, error }: { label: string; busy: boolean; error: string | undefined }) {
  return (
    <div className={styles.actions}>
      <button type="submit" className={styles.primary} disabled={busy}>
        {busy ? 'Saving…' : label}
      </button>
      <FormAlert message={error} />
    </div>
  );
}
