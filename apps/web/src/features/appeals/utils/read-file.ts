import { APPEAL_FILE_MAX_BYTES, APPEAL_TOTAL_MAX_BYTES, APPEAL_TOTAL_TOO_LARGE, attachmentProblem } from '@hcp/contract';

/** A file's bytes (FileReader where Blob.arrayBuffer is missing, as in older engines). */
function readBytes(file: Blob): Promise<Uint8Array> {
  if (typeof file.arrayBuffer === 'function') return file.arrayBuffer().then((b) => new Uint8Array(b));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(file);
  });
}

/**
 * Why a chosen file cannot go into a slot, before anything is sent: the contract's size and type-by-content
 * rule (the server checks again), then the appeal's total with the other slots' files.
 */
export async function checkAttachment(file: File, otherSlotsBytes: number): Promise<string | null> {
  const bytes = file.size <= APPEAL_FILE_MAX_BYTES ? await readBytes(file) : new Uint8Array();
  const problem = attachmentProblem({ size: file.size, bytes });
  if (problem) return problem;
  return otherSlotsBytes + file.size > APPEAL_TOTAL_MAX_BYTES ? APPEAL_TOTAL_TOO_LARGE : null;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
