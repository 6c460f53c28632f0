import styles from './full-page-loader.module.css';
import { Spinner } from './spinner.tsx';

export function FullPageLoader({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className={styles.loader} role="status" aria-live="polite">
      <Spinner size="large" />
      <span>{label}</span>
    </div>
  );
}
