import { APPEAL_SLOT_LABELS, type AppealFile, type AppealSlot, ATTACHMENT_ACCEPT } from '@hcp/contract';
import { useId, useState } from 'react';
import controls from '../../../components/controls.module.css';
import { downloadAppealFile, useRemoveAppealFile, useUploadAppealFile } from '../api/appeal-files.ts';
import { appealFailureText } from '../utils/appeal-failure.ts';
import { checkAttachment, formatBytes } from '../utils/read-file.ts';
import styles from './appeals.module.css';

export interface AttachmentSlotProps {
  appealId: string;
  slot: AppealSlot;
  file: AppealFile | undefined;
  /** Required by the variant: checked and cannot be unchecked. */
  required: boolean;
  /** Bytes already attached in the other slots (the appeal's total limit). */
  otherSlotsBytes: number;
  /** A submit problem for this slot (e.g. the required clinical notes are missing). */
  problem?: string | undefined;
  hintId: string;
}

/**
 * One attachment slot of spec §3: a checkbox says the document is part of the appeal; checked, it offers a
 * file picker. A chosen file is checked here first (type by content, size), then uploaded with a progress bar;
 * an attached file can be viewed, replaced (choose another) or removed.
 */
export function AttachmentSlot({ appealId, slot, file, required, otherSlotsBytes, problem, hintId }: AttachmentSlotProps) {
  const label = APPEAL_SLOT_LABELS[slot];
  const ids = { input: useId(), error: useId(), status: useId() };
  const [checked, setChecked] = useState(required || Boolean(file));
  const [progress, setProgress] = useState<number | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const upload = useUploadAppealFile(appealId);
  const remove = useRemoveAppealFile(appealId);
  // A slot the server says is missing opens too, so its picker sits right under the message.
  const included = required || checked || Boolean(file) || Boolean(problem);
  const error = localError ?? problem ?? null;

  async function choose(input: HTMLInputElement) {
    const chosen = input.files?.[0];
    // Clear the picker so choosing the same file again (after fixing it) still counts as a change.
    input.value = '';
    if (!chosen) return;
    setLocalError(null);
    const refusal = await checkAttachment(chosen, otherSlotsBytes);
    if (refusal) {
      setLocalError(refusal);
      return;
    }
    setProgress(0);
    upload.mutate(
      { slot, file: chosen, onProgress: setProgress },
      {
        onError: (e) => setLocalError(appealFailureText(e)),
        onSettled: () => setProgress(null),
      },
    );
  }

  async function view() {
    setLocalError(null);
    try {
      const blob = await downloadAppealFile(appealId, slot);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = file?.originalName ?? 'attachment';
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (e) {
      setLocalError(appealFailureText(e));
    }
  }

  function drop() {
    setLocalError(null);
    remove.mutate(slot, { onError: (e) => setLocalError(appealFailureText(e)) });
  }

  return (
    <div className={styles.slot}>
      <label className={controls.check}>
        <input
          type="checkbox"
          checked={included}
          disabled={required || upload.isPending || remove.isPending}
          onChange={(event) => {
            setChecked(event.target.checked);
            if (!event.target.checked && file) drop();
            if (!event.target.checked) setLocalError(null);
          }}
        />
        {label}
        {required ? ' (required)' : ''}
      </label>
      {included ? (
        <div className={styles.slotBody}>
          {file ? (
            <p className={styles.fileLine}>
              <span>
                Attached: <strong>{file.originalName}</strong> ({formatBytes(file.sizeBytes)})
              </span>
              <button type="button" className={controls.secondary} onClick={view} aria-label={`View ${file.originalName}`}>
                View
              </button>
              <button
                type="button"
                className={controls.secondary}
                onClick={drop}
                disabled={remove.isPending}
                aria-label={`Remove ${file.originalName}`}
              >
                {remove.isPending ? 'Removing…' : 'Remove'}
              </button>
            </p>
          ) : null}
          <label htmlFor={ids.input}>{file ? `Replace the ${label} file` : `File for ${label}`}</label>
          <input
            id={ids.input}
            type="file"
            accept={ATTACHMENT_ACCEPT}
            disabled={upload.isPending}
            aria-describedby={[hintId, error ? ids.error : null].filter(Boolean).join(' ')}
            aria-invalid={error ? true : undefined}
            onChange={(event) => void choose(event.currentTarget)}
          />
          {progress !== null ? (
            <div className={styles.progress} id={ids.status}>
              <progress max={1} value={progress} aria-label={`Uploading the ${label} file`} />
              <span aria-live="polite">{Math.round(progress * 100)}%</span>
            </div>
          ) : null}
          {error ? (
            <p id={ids.error} className={styles.error} role="alert">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
