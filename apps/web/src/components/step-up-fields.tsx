import type { EpcsFactor } from '@hcp/contract';
import { useId } from 'react';
import type { StepUpEntry } from '../lib/step-up.ts';
import radios from './radio-group.module.css';
import { TextField } from './text-field.tsx';

const METHOD_LABELS: Record<EpcsFactor, string> = {
  passkey: 'Passkey or security key',
  totp: 'Code from my authenticator app',
};

/**
 * The fields of a two-factor step (issue 48): the password, and the second factor — the choice between a passkey
 * and the app when the person has both, the app's code when chosen. Controlled by its parent (a dialog's form).
 */
export function StepUpFields({
  factors,
  value,
  onChange,
  errors,
}: {
  factors: readonly EpcsFactor[];
  value: StepUpEntry;
  onChange: (next: StepUpEntry) => void;
  errors?: { currentPassword?: string | undefined; totpCode?: string | undefined };
}) {
  const name = useId();
  return (
    <>
      <TextField
        label="Your password"
        type="password"
        autoComplete="current-password"
        value={value.currentPassword}
        onChange={(event) => onChange({ ...value, currentPassword: event.target.value })}
        error={errors?.currentPassword}
        required
      />
      {factors.length > 1 ? (
        <fieldset className={radios.group}>
          <legend>Second factor</legend>
          {factors.map((factor) => (
            <label key={factor} className={radios.option}>
              <input
                type="radio"
                name={name}
                value={factor}
                checked={value.method === factor}
                onChange={() => onChange({ ...value, method: factor })}
              />
              {METHOD_LABELS[factor]}
            </label>
          ))}
        </fieldset>
      ) : (
        <p>Second factor: {METHOD_LABELS[value.method]}.</p>
      )}
      {value.method === 'totp' ? (
        <TextField
          label="6-digit code from your authenticator app"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={8}
          value={value.totpCode}
          onChange={(event) => onChange({ ...value, totpCode: event.target.value })}
          error={errors?.totpCode}
          required
        />
      ) : (
        <p>Your browser asks for your passkey or security key when you confirm.</p>
      )}
    </>
  );
}

export const emptyStepUp = (factors: readonly EpcsFactor[]): StepUpEntry => ({
  currentPassword: '',
  method: factors[0] ?? 'passkey',
  totpCode: '',
});
