import { type InputHTMLAttributes, type Ref, useId } from 'react';
import styles from './text-field.module.css';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** The field's error message; marks the input invalid and is announced with it. */
  error?: string | undefined;
  /** Extra description ids (e.g. a form-level error) read with the field. */
  describedBy?: string | undefined;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input whose error is tied to it by aria-describedby (works with react-hook-form's register). */
export function TextField({ label, error, describedBy, ref, ...input }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const described = [error ? errorId : null, describedBy].filter(Boolean).join(' ') || undefined;
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input id={id} ref={ref} aria-invalid={error ? true : undefined} aria-describedby={described} {...input} />
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
