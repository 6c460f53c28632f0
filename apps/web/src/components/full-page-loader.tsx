import styles from './full-page-loader.module.css';

export function FullPageLoader({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className={styles.loader} role="status" aria-live="polite">
      <span className={styles.spinner} aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
