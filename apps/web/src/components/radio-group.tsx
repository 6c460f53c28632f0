import { type InputHTMLAttributes, type Ref, useId } from 'react';
import styles from './radio-group.module.css';

/** Radio options from a list of values and their labels (e.g. a contract's enum and label map). */
export const optionsOf = <T extends string>(values: readonly T[], labels: Record<T, string>) =>
  values.map((value) => ({ value, label: labels[value] }));

export interface RadioGroupProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> {
  legend: string;
  options: readonly { value: string; label: string }[];
  error?: string | undefined;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A fieldset of radio buttons: the legend names the question, arrow keys move between the choices.
 * Spread react-hook-form's register(name) into it; the same props go on every radio.
 */
export function RadioGroup({ legend, options, error, ref, ...input }: RadioGroupProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <fieldset className={styles.group} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o.value} className={styles.option}>
          <input type="radio" value={o.value} ref={ref} {...input} />
          {o.label}
        </label>
      ))}
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
