import styles from './form-alert.module.css';

/** A form-level error, announced when it appears; renders nothing without a message. */
export function FormAlert({ message, id }: { message: string | null | undefined; id?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className={styles.alert}>
      {message}
    </p>
  );
}
