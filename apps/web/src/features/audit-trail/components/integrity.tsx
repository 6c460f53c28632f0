import { type ChainReport, formatDateTime } from '@hcp/contract';
import controls from '../../../components/controls.module.css';
import { Spinner } from '../../../components/spinner.tsx';
import { usePrivacyOfficers } from '../api/get-privacy-officers.ts';
import { useSetPrivacyOfficer } from '../api/set-privacy-officer.ts';
import { useVerifyChain } from '../api/verify-chain.ts';
import styles from '../routes/audit-trail.module.css';
import { messageOf } from './shared.tsx';

const PROBLEM: Record<NonNullable<ChainReport['problem']>['kind'], string> = {
  changed: 'was changed after it was sealed',
  removed: 'was removed after it was sealed',
  inserted: 'was inserted after sealing',
  seal: 'is under a seal that does not check (the seal itself was changed or removed)',
};

/** Proof nothing was changed: walks the seals on demand; and who else reviews the trail. */
export function Integrity({ selfId }: { selfId: string }) {
  const verify = useVerifyChain();
  const report = verify.data;
  return (
    <section aria-labelledby="integrity-title" className={styles.section}>
      <h2 id="integrity-title">Trail integrity</h2>
      <p>
        Every minute the trail’s new rows are sealed: each seal covers its rows and the seal before it, under a key the database
        does not hold. Checking walks every seal and names the first row changed, removed or inserted afterwards. Rows of the last
        few minutes are not sealed yet.
      </p>
      <button type="button" className={controls.primary} disabled={verify.isPending} onClick={() => verify.mutate()}>
        Check the trail
      </button>
      <div aria-live="polite">
        {verify.isPending ? (
          <p role="status">
            <Spinner /> Checking every seal…
          </p>
        ) : verify.isError ? (
          <p role="alert">{messageOf(verify.error, 'Could not check the trail. Please try again.')}</p>
        ) : report ? (
          report.problem ? (
            <p role="alert" className={styles.problem}>
              The trail does not verify: row {report.problem.rowId} {PROBLEM[report.problem.kind]}. Checked{' '}
              {formatDateTime(report.checkedAt)}.
            </p>
          ) : (
            <p className={styles.ok}>
              The trail verifies: {report.sealedRows.toLocaleString('en-US')} rows under {report.seals.toLocaleString('en-US')}{' '}
              seals are as they were sealed
              {report.lastSealedAt ? `, the last sealed ${formatDateTime(report.lastSealedAt)}` : ''}.{' '}
              {report.unsealedRows.toLocaleString('en-US')} rows written since wait for the next seal.
              {report.purgedRows ? ` ${report.purgedRows.toLocaleString('en-US')} rows older than six years were purged.` : ''}
            </p>
          )
        ) : null}
      </div>
      <PrivacyOfficers selfId={selfId} />
    </section>
  );
}

function PrivacyOfficers({ selfId }: { selfId: string }) {
  const officers = usePrivacyOfficers();
  const set = useSetPrivacyOfficer();
  return (
    <>
      <h3>Privacy officers</h3>
      <p>Provider admins who review the trail. Another privacy officer changes your own permission.</p>
      {officers.isError ? (
        <p role="alert">Could not load the provider admins. Please try again.</p>
      ) : !officers.data ? (
        <p role="status">
          <Spinner /> Loading…
        </p>
      ) : (
        <ul className={styles.officers}>
          {officers.data.records.map((o) => (
            <li key={o.id}>
              <span>
                {o.name} ({o.email}){o.privacyOfficer ? ' — privacy officer' : ''}
              </span>
              {o.id === selfId ? null : (
                <button
                  type="button"
                  className={controls.secondary}
                  disabled={set.isPending}
                  onClick={() => set.mutate({ userId: o.id, privacyOfficer: !o.privacyOfficer })}
                >
                  {o.privacyOfficer ? `Remove ${o.name}` : `Make ${o.name} a privacy officer`}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {set.isError ? (
        <p role="alert" className={styles.error}>
          {messageOf(set.error, 'Could not change the permission. Please try again.')}
        </p>
      ) : null}
    </>
  );
}
