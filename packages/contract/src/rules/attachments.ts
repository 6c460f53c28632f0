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

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' satisfies AttachmentType;
/** Enough leading bytes to tell every type we take (PNG's signature is the longest). */
export const ATTACHMENT_MAGIC_BYTES = 8;

/** The type by the leading bytes alone; a ZIP still needs its entries looked at to be a .docx. */
function magicType(bytes: Uint8Array): Exclude<AttachmentType, typeof DOCX> | 'zip' | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  return null;
}

export function sniffAttachmentType(bytes: Uint8Array): AttachmentType | null {
  const magic = magicType(bytes);
  if (magic === 'zip') return contains(bytes, WORD_ENTRY) ? DOCX : null;
  return magic;
}

/**
 * The same decision over content that arrives in pieces (the server streams uploads to storage): `push` each piece
 * in order — it answers false as soon as the content cannot be one of our types — and `end` gives the type. A ZIP
 * is a .docx when a word/ entry appears anywhere in it, so that answer may come only at the end.
 */
export function attachmentSniffer() {
  let head = new Uint8Array(0);
  let magic: ReturnType<typeof magicType> | undefined;
  let sawWord = false;
  let tail = new Uint8Array(0);
  const join = (a: Uint8Array, b: Uint8Array) => {
    const out = new Uint8Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  };
  const scan = (piece: Uint8Array) => {
    // Keep the last few bytes so an entry name split across two pieces is still seen.
    const window = join(tail, piece);
    if (!sawWord && contains(window, WORD_ENTRY)) sawWord = true;
    tail = window.slice(Math.max(0, window.length - (WORD_ENTRY.length - 1)));
  };
  return {
    push(piece: Uint8Array): boolean {
      if (magic === undefined) {
        head = join(head, piece);
        if (head.length < ATTACHMENT_MAGIC_BYTES) return true;
        magic = magicType(head);
        if (magic === 'zip') scan(head);
        return magic !== null;
      }
      if (magic === 'zip') scan(piece);
      return magic !== null;
    },
    end(): AttachmentType | null {
      if (magic === undefined) return sniffAttachmentType(head);
      if (magic === 'zip') return sawWord ? DOCX : null;
      return magic;
    },
  };
}

/** Why a file cannot be attached (its size, then its content), or null when it can. */
export function attachmentProblem(file: { size: number; bytes: Uint8Array }): string | null {
  if (file.size > APPEAL_FILE_MAX_BYTES) return APPEAL_FILE_TOO_LARGE;
  if (!sniffAttachmentType(file.bytes)) return APPEAL_FILE_WRONG_TYPE;
  return null;
}
