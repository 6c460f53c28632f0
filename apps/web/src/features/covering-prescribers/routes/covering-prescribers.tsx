import {
  type Coverage,
  coverageFirstDayText,
  coverageLastDayText,
  type PracticeSigning,
  SIGNING_POLICIES,
  SIGNING_POLICY_LABELS,
  type SigningPolicy,
} from '@hcp/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import controls from '../../../components/controls.module.css';
import { Page } from '../../../components/page.tsx';
import { optionsOf, RadioGroup } from '../../../components/radio-group.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { Table } from '../../../components/table/table.tsx';
import { useUserDetails } from '../../../lib/current-user/get-user-details.ts';
import { byFocusKey, FOCUS_KEY, focusWhenReady } from '../../../lib/focus.ts';
import { failureText } from '../../../lib/form-errors.ts';
import { readSession } from '../../../lib/storage.ts';
import { useEndCoverage } from '../api/end-coverage.ts';
import { useCoverage } from '../api/get-coverage.ts';
import { useSetSigningPolicy } from '../api/set-signing-policy.ts';
import { CoverageForm } from '../components/coverage-form.tsx';
import styles from './covering-prescribers.module.css';

/** Who signs a practice's requests: a choice for its prescribers, a sentence for everyone else. */
function PolicyChoice({ userId, practice }: { userId: string; practice: PracticeSigning }) {
  const save = useSetSigningPolicy(userId);
  const { register, handleSubmit, watch } = useForm<{ policy: SigningPolicy }>({ defaultValues: { policy: practice.policy } });
  if (!practice.mayManage) return <p>Who signs: {SIGNING_POLICY_LABELS[practice.policy]}.</p>;
  const onSubmit = handleSubmit(({ policy }) =>
    save.mutate(
      { practiceId: practice.practiceId, policy },
      {
        onSuccess: (saved) => toast.success(`Saved. ${SIGNING_POLICY_LABELS[saved.policy]}.`),
        onError: (error) => toast.error(failureText(error)),
      },
    ),
  );
  return (
    <form onSubmit={onSubmit}>
      <RadioGroup
        legend="Who signs refill authorizations, denials and alternatives"
        options={optionsOf(SIGNING_POLICIES, SIGNING_POLICY_LABELS)}
        {...register('policy')}
      />
      <p className={styles.buttons}>
        <button type="submit" className={controls.primary} disabled={save.isPending || watch('policy') === practice.policy}>
          {save.isPending ? 'Saving…' : 'Save who signs'}
        </button>
      </p>
    </form>
  );
}

function PracticeCoverage({
  userId,
  practice,
  ownPrescriberId,
  headed,
}: {
  userId: string;
  practice: PracticeSigning;
  ownPrescriberId: string | null;
  headed: boolean;
}) {
  const [adding, setAdding] = useState(false);
  const end = useEndCoverage(userId);
  const titleId = `coverage-${practice.practiceId}`;
  const addId = `coverage-add-${practice.practiceId}`;
  return (
    <section className={styles.practice} aria-labelledby={headed ? titleId : undefined}>
      {headed ? <h2 id={titleId}>{practice.practiceName}</h2> : null}
      <PolicyChoice key={practice.policy} userId={userId} practice={practice} />
      {practice.policy === 'anyPrescriber' ? (
        <p className={styles.hint}>
          While any prescriber signs any request, coverages change nothing; they count once each prescriber signs their own.
        </p>
      ) : null}
      {practice.mayManage && !adding ? (
        <p>
          <button id={addId} type="button" className={controls.secondary} onClick={() => setAdding(true)}>
            Name a covering prescriber
          </button>
        </p>
      ) : null}
      {adding ? (
        <CoverageForm
          userId={userId}
          practice={practice}
          ownPrescriberId={ownPrescriberId}
          headingLevel={headed ? 3 : 2}
          onDone={(savedId) => {
            setAdding(false);
            // The new coverage's row (its End button), else the button that opens the form again.
            focusWhenReady(() => (savedId ? byFocusKey(savedId) : null), {
              fallback: () => document.getElementById(addId),
            });
          }}
        />
      ) : null}
      <Table<Coverage>
        caption={`Coverages of ${practice.practiceName}`}
        rows={practice.coverages}
        rowKey={(c) => c.id}
        emptyMessage="No one is covering for anyone."
        columns={[
          { key: 'covering', header: 'Covering prescriber', cell: (c) => c.coveringPrescriber.name },
          { key: 'covered', header: 'Covers for', cell: (c) => c.coveredPrescriber.name },
          { key: 'first', header: 'First day', cell: (c) => coverageFirstDayText(c.startsAt) },
          { key: 'last', header: 'Last day', cell: (c) => coverageLastDayText(c.endsAt) },
          { key: 'by', header: 'Named by', cell: (c) => c.createdByName ?? '—' },
        ]}
        {...(practice.mayManage
          ? {
              actions: (c: Coverage) => (
                <button
                  type="button"
                  className={controls.secondary}
                  aria-label={`End ${c.coveringPrescriber.name}’s coverage for ${c.coveredPrescriber.name}`}
                  {...{ [FOCUS_KEY]: c.id }}
                  disabled={end.isPending}
                  onClick={() =>
                    end.mutate(c.id, {
                      onSuccess: () => {
                        toast.success(`${c.coveringPrescriber.name} no longer covers for ${c.coveredPrescriber.name}.`);
                        // Its row is gone: focus goes on to the button that names another.
                        focusWhenReady(() => document.getElementById(addId));
                      },
                      onError: (error) => toast.error(failureText(error)),
                    })
                  }
                >
                  End now
                </button>
              ),
            }
          : {})}
      />
    </section>
  );
}

/**
 * /covering-prescribers (issue 23, decision 0041): who signs a practice's requests, and which colleague covers for
 * whom from when until when. The practice's prescribers change it; its staff read it.
 */
export default function CoveringPrescribersRoute() {
  const userId = readSession()?.userId ?? '';
  const coverage = useCoverage(userId);
  const ownPrescriberId = useUserDetails(userId).data?.details.mdStaffId ?? null;
  const practices = coverage.data?.practices ?? [];
  return (
    <Page title="Covering Prescribers">
      <p className={styles.intro}>
        Decide who signs refill authorizations, denials and alternatives for whom. While a prescriber is away, name a colleague
        who covers for them; a prescriber who may not sign an item can still prepare it for signature.
      </p>
      {coverage.isError ? (
        <p role="alert">Could not load who signs for whom. Please try again.</p>
      ) : !coverage.data ? (
        <p role="status">
          <Spinner /> Loading…
        </p>
      ) : practices.length === 0 ? (
        <p>You are not a member of a practice.</p>
      ) : (
        <>
          {practices.some((p) => p.mayManage) ? null : (
            <p className={styles.hint}>Only a prescriber of the practice can change who signs.</p>
          )}
          {practices.map((practice) => (
            <PracticeCoverage
              key={practice.practiceId}
              userId={userId}
              practice={practice}
              ownPrescriberId={ownPrescriberId}
              headed={practices.length > 1}
            />
          ))}
        </>
      )}
    </Page>
  );
}
