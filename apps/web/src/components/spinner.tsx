import styles from './spinner.module.css';

/** A decorative spinner; pair it with visible or announced text. */
export function Spinner({ size = 'small' }: { size?: 'small' | 'large' }) {
  return <span className={`${styles.spinner} ${size === 'large' ? styles.large : ''}`} aria-hidden="true" />;
}
