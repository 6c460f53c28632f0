import { type EpcsFactor, type EpcsPractice, type EpcsPrescriber, formatDateTime } from '@hcp/contract';
import { useState } from 'react';
import { toast } from 'sonner';
import controls from '../../../components/controls.module.css';
import { Table } from '../../../components/table/table.tsx';
import { byFocusKey, FOCUS_KEY, focusWhenReady } from '../../../lib/focus.ts';
import { failureText } from '../../../lib/form-errors.ts';
import { useApproveChange } from '../api/approve-change.ts';
import { useDeclineChange } from '../api/decline-change.ts';
import { useProposeChange } from '../api/propose-change.ts';
import styles from '../routes/controlled-substances.module.css';
import { StepUpDialog } from './step-up-dialog.tsx';

type Open = { kind: 'grant' | 'revoke'; prescriber: EpcsPrescriber } | { kind: 'approve'; prescriber: EpcsPrescriber } | null;

const changeText = (p: EpcsPrescriber) =>
  p.pending
    ? `${p.pending.action === 'grant' ? 'Grant' : 'Revoke'} entered by ${p.pending.enteredBy}, ${formatDateTime(p.pending.enteredAt)}; waiting for a second person`
    : '—';

/**
 * Who may sign controlled substances at a practice (21 CFR 1311.125): one person enters a grant or revocation, a
 * second — a prescriber with a current DEA registration — approves it; both with two factors.
 */
export function PracticePermissions({
  userId,
  practice,
  factors,
  headed,
}: {
  userId: string;
  practice: EpcsPractice;
  factors: readonly EpcsFactor[];
  headed: boolean;
}) {
  const [open, setOpen] = useState<Open>(null);
  const propose = useProposeChange(userId);
  const approve = useApproveChange(userId);
  const decline = useDeclineChange();
  const canStepUp = factors.length > 0;
  const titleId = `epcs-practice-${practice.id}`;
  const close = (focusKey?: string) => {
    setOpen(null);
    if (focusKey) focusWhenReady(() => byFocusKey(focusKey));
  };
  return (
    <section aria-labelledby={titleId} className={styles.section}>
      <h2 id={titleId}>{headed ? `Who signs controlled substances at ${practice.name}` : 'Who signs controlled substances'}</h2>
      <Table<EpcsPrescriber>
        caption={`Permission to sign controlled substances at ${practice.name}`}
        rows={practice.prescribers}
        rowKey={(p) => p.hcpId}
        emptyMessage="This practice has no prescribers."
        columns={[
          { key: 'name', header: 'Prescriber', cell: (p) => (p.isSelf ? `${p.name} (you)` : p.name) },
          {
            key: 'registration',
            header: `DEA registration for ${practice.state ?? 'the practice’s state'}`,
            cell: (p) => (p.hasCurrentRegistration ? 'Current' : 'None current'),
          },
          { key: 'permission', header: 'Permission', cell: (p) => (p.permission === 'granted' ? 'May sign' : 'May not sign') },
          { key: 'change', header: 'Waiting change', cell: changeText },
        ]}
        actions={(p) => {
          const focus = { [FOCUS_KEY]: `epcs-${practice.id}-${p.hcpId}` };
          if (p.pending) {
            return (
              <span className={styles.actions}>
                {p.pending.mayApprove ? (
                  <button
                    type="button"
                    className={controls.primary}
                    disabled={!canStepUp}
                    aria-label={`Approve: ${p.pending.action} permission for ${p.name}`}
                    onClick={() => setOpen({ kind: 'approve', prescriber: p })}
                    {...focus}
                  >
                    Approve
                  </button>
                ) : null}
                <button
                  type="button"
                  className={controls.secondary}
                  aria-label={`Decline: ${p.pending.action} permission for ${p.name}`}
                  disabled={decline.isPending}
                  onClick={() =>
                    decline.mutate(p.pending?.id ?? '', {
                      onSuccess: () => {
                        toast.success(`The change for ${p.name} was declined.`);
                        focusWhenReady(() => byFocusKey(focus[FOCUS_KEY] as string));
                      },
                      onError: (error) => toast.error(failureText(error)),
                    })
                  }
                  {...(p.pending.mayApprove ? {} : focus)}
                >
                  Decline
                </button>
              </span>
            );
          }
          const kind = p.permission === 'granted' ? 'revoke' : 'grant';
          if (kind === 'grant' && !p.hasCurrentRegistration)
            return <span className={styles.hint}>Needs a current DEA registration</span>;
          return (
            <button
              type="button"
              className={controls.secondary}
              disabled={!canStepUp}
              aria-label={`${kind === 'grant' ? 'Grant' : 'Revoke'} permission for ${p.name}`}
              onClick={() => setOpen({ kind, prescriber: p })}
              {...focus}
            >
              {kind === 'grant' ? 'Grant permission' : 'Revoke permission'}
            </button>
          );
        }}
      />
      {open && open.kind !== 'approve' ? (
        <StepUpDialog
          title={`${open.kind === 'grant' ? 'Grant' : 'Revoke'} permission for ${open.prescriber.name}`}
          factors={factors}
          confirmLabel={open.kind === 'grant' ? 'Enter the grant' : 'Enter the revocation'}
          onClose={() => close(`epcs-${practice.id}-${open.prescriber.hcpId}`)}
          onConfirm={async (entry) => {
            await propose.mutateAsync({ practiceId: practice.id, hcpId: open.prescriber.hcpId, action: open.kind, entry });
            toast.success(`Entered. A second person must approve it before it takes effect.`);
            close(`epcs-${practice.id}-${open.prescriber.hcpId}`);
          }}
        >
          <p>
            {open.kind === 'grant'
              ? `${open.prescriber.name} will be able to sign controlled substances at ${practice.name}`
              : `${open.prescriber.name} will no longer be able to sign controlled substances at ${practice.name}`}{' '}
            once a second person — a prescriber of the practice with a current DEA registration — approves it.
          </p>
        </StepUpDialog>
      ) : null}
      {open?.kind === 'approve' && open.prescriber.pending ? (
        <StepUpDialog
          title={`Approve: ${open.prescriber.pending.action} permission for ${open.prescriber.name}`}
          factors={factors}
          confirmLabel="Approve"
          attestation={
            open.prescriber.pending.action === 'grant'
              ? `I checked that ${open.prescriber.name}’s DEA registration and state authorization to practice are current and in good standing.`
              : `I checked that this revocation for ${open.prescriber.name} is intended.`
          }
          onClose={() => close(`epcs-${practice.id}-${open.prescriber.hcpId}`)}
          onConfirm={async (entry) => {
            await approve.mutateAsync({ changeId: open.prescriber.pending?.id ?? '', entry });
            toast.success(
              `Approved. ${open.prescriber.name} ${open.prescriber.pending?.action === 'grant' ? 'may now sign' : 'may no longer sign'} controlled substances here.`,
            );
            close(`epcs-${practice.id}-${open.prescriber.hcpId}`);
          }}
        >
          <p>
            Entered by {open.prescriber.pending.enteredBy}, {formatDateTime(open.prescriber.pending.enteredAt)}.
          </p>
        </StepUpDialog>
      ) : null}
    </section>
  );
}
