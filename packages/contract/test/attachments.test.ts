import { describe, expect, it } from 'vitest';
import {
  APPEAL_FILE_MAX_BYTES,
  APPEAL_FILE_TOO_LARGE,
  APPEAL_FILE_WRONG_TYPE,
  appealSubmitProblems,
  attachmentProblem,
  attachmentSniffer,
  sniffAttachmentType,
} from '../src/index.ts';

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('appeal attachments', () => {
  it('recognises the allowed types by their first bytes, not their names', () => {
    expect(sniffAttachmentType(bytes('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffAttachmentType(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffAttachmentType(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffAttachmentType(bytes([0x49, 0x49, 0x2a, 0x00, 8]))).toBe('image/tiff');
    expect(sniffAttachmentType(bytes([0x4d, 0x4d, 0x00, 0x2a, 8]))).toBe('image/tiff');
    expect(sniffAttachmentType(bytes([0x50, 0x4b, 0x03, 0x04], '....[Content_Types].xml....word/document.xml'))).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
  });

  it('refuses executables, plain zips, text and empty files', () => {
    expect(sniffAttachmentType(bytes('MZ\x90\x00 this program cannot be run in DOS mode'))).toBeNull();
    expect(sniffAttachmentType(bytes([0x50, 0x4b, 0x03, 0x04], 'xl/workbook.xml wor d/'))).toBeNull();
    expect(sniffAttachmentType(bytes('hello %PDF-'))).toBeNull();
    expect(sniffAttachmentType(new Uint8Array())).toBeNull();
  });

  it('names the first problem: size before content', () => {
    const pdf = bytes('%PDF-1.4');
    expect(attachmentProblem({ size: 8, bytes: pdf })).toBeNull();
    expect(attachmentProblem({ size: APPEAL_FILE_MAX_BYTES, bytes: pdf })).toBeNull();
    expect(attachmentProblem({ size: APPEAL_FILE_MAX_BYTES + 1, bytes: pdf })).toBe(APPEAL_FILE_TOO_LARGE);
    expect(attachmentProblem({ size: 3, bytes: bytes('MZ!') })).toBe(APPEAL_FILE_WRONG_TYPE);
  });

  it('lists what a submit still needs, the clinical notes only in the variant that requires them', () => {
    const draft = {
      clinicalJustification: '',
      diagnosisCodes: '',
      treatmentsTried: '',
      urgency: 'standard' as const,
      attestation: false,
    };
    expect(appealSubmitProblems({ draft, files: [], clinicalNotesRequired: false }).map((p) => p.path)).toEqual([
      'clinicalJustification',
      'attestation',
    ]);
    const complete = { ...draft, clinicalJustification: 'Failed metformin.', attestation: true };
    expect(appealSubmitProblems({ draft: complete, files: [], clinicalNotesRequired: false })).toEqual([]);
    expect(appealSubmitProblems({ draft: complete, files: [], clinicalNotesRequired: true }).map((p) => p.path)).toEqual([
      'clinicalNotesFile',
    ]);
    const notes = {
      slot: 'clinicalNotesFile' as const,
      originalName: 'n.pdf',
      contentType: 'application/pdf',
      sizeBytes: 1,
      uploadedAt: '',
    };
    expect(appealSubmitProblems({ draft: complete, files: [notes], clinicalNotesRequired: true })).toEqual([]);
  });
});

describe('attachment sniffing over a stream', () => {
  const docx = bytes([0x50, 0x4b, 0x03, 0x04], 'x'.repeat(40), '[Content_Types].xml', 'y'.repeat(300), 'word/document.xml', 'z');
  const samples = [
    bytes('%PDF-1.7\n', 'x'.repeat(100)),
    bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2]),
    bytes([0xff, 0xd8, 0xff, 0xe0]),
    bytes([0x49, 0x49, 0x2a, 0x00, 8]),
    docx,
    bytes([0x50, 0x4b, 0x03, 0x04], 'plain zip without a document'),
    bytes('MZ', 'executable'),
    bytes('%PD'),
    bytes(),
  ];
  const stream = (content: Uint8Array, size: number) => {
    const sniffer = attachmentSniffer();
    let refusedAt: number | null = null;
    for (let i = 0; i < content.length; i += size) {
      if (!sniffer.push(content.subarray(i, i + size)) && refusedAt === null) refusedAt = i;
    }
    return { type: sniffer.end(), refusedAt };
  };

  it('decides as the whole-file check does, however the content is split', () => {
    for (const sample of samples) {
      for (const size of [1, 2, 3, 5, 7, 8, 64, 10_000]) {
        expect(stream(sample, size).type, `${sample.length} bytes in pieces of ${size}`).toBe(sniffAttachmentType(sample));
      }
    }
  });

  it('refuses a wrong type at its first bytes, before the rest arrives', () => {
    const executable = bytes('MZ', 'x'.repeat(10_000));
    expect(stream(executable, 1024)).toEqual({ type: null, refusedAt: 0 });
  });

  it('finds word/ even when it is split across two pieces', () => {
    const at = [...docx].findIndex((_, i) => docx[i] === 0x77 && docx[i + 1] === 0x6f && docx[i + 2] === 0x72);
    const sniffer = attachmentSniffer();
    sniffer.push(docx.subarray(0, at + 2));
    sniffer.push(docx.subarray(at + 2));
    expect(sniffer.end()).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });
});
