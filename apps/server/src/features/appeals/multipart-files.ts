/**
 * The file parts of an appeal upload as the attachments service takes them (issue 43). A body the multipart parser
 * cannot read — no boundary, a boundary the body does not use, one longer than RFC 2046's 70 characters, a part cut
 * off before the closing boundary — is the sender's fault: 400 in the one error shape, never the parser's own error
 * (which reached the handler as a 500). A file name with NUL or another control character is refused like any text.
 */

import type { MultipartFile } from '@fastify/multipart';
import { hasUnsafeCharacters, TEXT_SAFETY_MESSAGES } from '@hcp/contract';
import { AppError } from '../../lib/errors.ts';
import type { IncomingFile } from './attachments.ts';

export const MALFORMED_UPLOAD_MESSAGE = 'The upload is not a complete multipart/form-data body. Choose the files again.';

/** RFC 2046 §5.1.1: a boundary is 1 to 70 characters (quoted, or a token). */
const BOUNDARY = /;\s*boundary\s*=\s*(?:"[^"\r\n]{1,70}"|[^\s;"]{1,70})\s*(?:;|$)/i;

const malformed = () => new AppError('BAD_REQUEST', MALFORMED_UPLOAD_MESSAGE);

/** Errors we or the multipart plugin chose (a limit's 413, a refused slot) pass; anything else the parser threw is malformed input. */
function asClientError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const status = (error as { statusCode?: number } | null)?.statusCode;
  return status !== undefined && status >= 400 && status < 500 ? error : malformed();
}

async function* content(stream: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  try {
    yield* stream;
  } catch (error) {
    throw asClientError(error);
  }
}

/** Checks the declared boundary before reading, then yields each file part with its errors made the sender's. */
export async function* uploadedFiles(
  contentType: string | undefined,
  parts: () => AsyncIterable<MultipartFile>,
): AsyncIterable<IncomingFile> {
  if (!BOUNDARY.test(contentType ?? '')) throw malformed();
  try {
    for await (const part of parts()) {
      if (hasUnsafeCharacters(part.filename) || hasUnsafeCharacters(part.fieldname)) {
        throw new AppError('VALIDATION_FAILED', TEXT_SAFETY_MESSAGES.unsafe, [
          { path: `body.${part.fieldname.replace(/[^\w-]/g, '?')}`, message: TEXT_SAFETY_MESSAGES.unsafe },
        ]);
      }
      yield { field: part.fieldname, filename: part.filename, content: content(part.file), truncated: () => part.file.truncated };
    }
  } catch (error) {
    throw asClientError(error);
  }
}
