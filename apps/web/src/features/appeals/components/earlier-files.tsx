import { APPEAL_SLOT_LABELS, type AppealFile, type EarlierAppealFile, formatDateTime } from '@hcp/contract';
import { useState } from 'react';
import controls from '../../../components/controls.module.css';
import { useEarlierFiles, useReuseAppealFile } from '../api/earlier-files.ts';
import { appealFailureText } from '../utils/appeal-failure.ts';
import { formatBytes } from '../utils/read-file.ts';
import styles from './appeals.module.css';

const sameFile = (a: AppealFile | undefined, b: EarlierAppealFile) =>
  a !== undefined && a.originalName === b.originalName && a.sizeBytes === b.sizeBytes;

/**
 * The files sent with this patient's earlier appeals at the practice (issue 23): "Use it" puts one in its slot of this
 * appeal without choosing and uploading it again. Nothing is shown when there are none.
 */
export function EarlierFiles({ appealId, files }: { appealId: string; files: AppealFile[] }) {
  const earlier = useEarlierFiles(appealId);
  const reuse = useReuseAppealFile(appealId);
  const [problem, setProblem] = useState<string | null>(null);
  if (earlier.isError) return <p className={styles.muted}>Could not load the patient’s earlier appeal files.</p>;
  const records = earlier.data?.records ?? [];
  if (records.length === 0) return null;
  return (
    <section aria-labelledby="earlier-files-title" className={styles.earlier}>
      <h3 id="earlier-files-title">From this patient’s earlier appeals</h3>
      <ul>
        {records.map((record) => {
          const inSlot = files.find((f) => f.slot === record.slot);
          const label = APPEAL_SLOT_LABELS[record.slot];
          return (
            <li key={record.fileId}>
              {record.originalName} — {label}, {formatBytes(record.sizeBytes)}, sent {formatDateTime(record.submittedAt)}{' '}
              {sameFile(inSlot, record) ? (
                <span className={styles.muted}>Attached</span>
              ) : (
                <button
                  type="button"
                  className={controls.secondary}
                  disabled={reuse.isPending}
                  aria-label={`Use ${record.originalName} as ${label}`}
                  onClick={() => {
                    setProblem(null);
                    reuse.mutate(
                      { fileId: record.fileId, slot: record.slot },
                      { onError: (error) => setProblem(appealFailureText(error)) },
                    );
                  }}
                >
                  Use it{inSlot ? ' instead' : ''}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {problem ? (
        <p role="alert" className={styles.error}>
          {problem}
        </p>
      ) : null}
    </section>
  );
}
