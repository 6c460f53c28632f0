/**
 * The type of an uploaded file by its first bytes (never by its name or the browser's claim): PDF, PNG, JPEG,
 * TIFF, or a Word .docx (a ZIP whose entries include word/). Anything else is null.
 */
export type SniffedType =
  | 'application/pdf'
  | 'image/png'
  | 'image/jpeg'
  | 'image/tiff'
  | 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const startsWith = (buffer: Buffer, bytes: number[]) => bytes.every((b, i) => buffer[i] === b);

export function sniffFileType(buffer: Buffer): SniffedType | null {
  if (startsWith(buffer, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  if (startsWith(buffer, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(buffer, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(buffer, [0x49, 0x49, 0x2a, 0x00]) || startsWith(buffer, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (startsWith(buffer, [0x50, 0x4b, 0x03, 0x04]) && buffer.includes('word/')) {
    return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  }
  return null;
}
