import { EPCS_LIMITS, type EpcsSigning } from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { EpcsSigningDialog } from '../../../components/epcs-signing-dialog.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { failureText } from '../../../lib/form-errors.ts';
import { type StepUpEntry, stepUpFailure } from '../../../lib/step-up.ts';
import { readSession } from '../../../lib/storage.ts';
import type { Entry } from '../api/get-action-needed.ts';
import { usePrepareEpcsSigning } from '../api/prepare-epcs-signing.ts';
import { useSignEpcs } from '../api/sign-epcs.ts';
import styles from './action-needed.module.css';
import { RefillsSigFields } from './refills-sig-fields.tsx';

const schema = z.object({
  refills: z.coerce.number().int().min(0).max(EPCS_LIMITS.maxRefills),
  sig: z.string().trim().min(1, { message: 'Enter the directions (sig).' }).max(1000),
});

/**
 * A controlled substance's refill (issue 48, EPCS): the prescriber sets refills (at most five) and directions, reviews
 * exactly what will be signed with the rule's legal text, and signs with the password and a passkey, security key or
 * authenticator app code. No fax, no eRx without the signature, no undo: what was signed is final.
 */
export function ControlledRefillSigning({ entry, onDone }: { entry: Entry; onDone: (message: string) => void }) {
  const rx = entry.prescription;
  const userId = readSession()?.userId ?? '';
  const prepare = usePrepareEpcsSigning();
  const sign = useSignEpcs();
  const [signing, setSigning] = useState<EpcsSigning | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { refills: Math.min(rx.refills, EPCS_LIMITS.maxRefills), sig: rx.sig ?? '' },
  });
  const review = form.handleSubmit((values) =>
    prepare.mutate(
      { prescriptionId: rx.id, ...values },
      {
        onSuccess: (shown) => {
          setProblem(null);
          setSigning(shown);
        },
      },
    ),
  );
  const confirm = (entry: StepUpEntry) => {
    if (!signing) return;
    setProblem(null);
    sign.mutate(
      { prescriptionId: rx.id, signingId: signing.signingId, userId, entry },
      {
        onSuccess: () => {
          setSigning(null);
          onDone('Controlled substance signed and sent to the pharmacy by eRx.');
        },
        onError: (error) => setProblem(stepUpFailure(error)),
      },
    );
  };
  return (
    <>
      <form className={styles.fieldset} aria-labelledby="epcs-heading" noValidate onSubmit={review}>
        <h3 id="epcs-heading">Sign controlled substance (C-{rx.controlled?.schedule ?? '?'})</h3>
        <p className={styles.hint}>
          A controlled substance is signed here with EPCS: your password and your passkey, security key or authenticator app. It
          is sent to the pharmacy by eRx with its signature, and cannot be undone.
        </p>
        <RefillsSigFields
          refills={form.register('refills')}
          sig={form.register('sig')}
          sigError={form.formState.errors.sig?.message}
          maxRefills={rx.controlled?.schedule === 'II' ? 0 : EPCS_LIMITS.maxRefills}
        />
        <FormAlert message={prepare.error ? failureText(prepare.error) : null} />
        <div className={styles.row}>
          <button type="submit" className={styles.button} disabled={prepare.isPending}>
            {prepare.isPending ? 'Checking…' : 'Review and sign'}
          </button>
        </div>
      </form>
      {/* Outside the form: the dialog is a form of its own (Enter signs). */}
      <EpcsSigningDialog
        key={signing?.signingId ?? 'none'}
        signing={signing}
        busy={sign.isPending}
        problem={problem}
        onSign={confirm}
        onClose={() => setSigning(null)}
      />
    </>
  );
}
