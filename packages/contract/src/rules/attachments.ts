/**
 * Which appeal attachments we take, decided once for both sides: the type by a file's first bytes (never by
 * its name or the browser's claim) — PDF, PNG, JPEG, TIFF, or a Word .docx (a ZIP whose entries include
 * word/) — and the size per file. The server checks what it received; the browser checks before sending, so
 * a wrong file is refused at once instead of after a 10 MB upload.
 */
import { APPEAL_FILE_MAX_BYTES, APPEAL_FILE_TOO_LARGE, APPEAL_FILE_WRONG_TYPE } from '../api/appeals.ts';

export type AttachmentType =
  | 'application/pdf'
  | 'image/png'
  | 'image/jpeg'
  | 'image/tiff'
  | 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** What the file picker offers (a hint for the picker only; the content decides). */
export const ATTACHMENT_ACCEPT = '.pdf,.png,.jpg,.jpeg,.tif,.tiff,.docx';

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
const WORD_ENTRY = [0x77, 0x6f, 0x72, 0x64, 0x2f]; // "word/"

function contains(bytes: Uint8Array, needle: number[]): boolean {
  const first = needle[0] as number;
  for (let i = bytes.indexOf(first); i !== -1 && i <= bytes.length - needle.length; i = bytes.indexOf(first, i + 1)) {
    if (needle.every((b, j) => bytes[i + j] === b)) return true;
  }
  return false;
}

export function sniffAttachmentType(bytes: Uint8Array): AttachmentType | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) && contains(bytes, WORD_ENTRY)) {
    return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  }
  return null;
}

/** Why a file cannot be attached (its size, then its content), or null when it can. */
export function attachmentProblem(file: { size: number; bytes: Uint8Array }): string | null {
  if (file.size > APPEAL_FILE_MAX_BYTES) return APPEAL_FILE_TOO_LARGE;
  if (!sniffAttachmentType(file.bytes)) return APPEAL_FILE_WRONG_TYPE;
  return null;
}
