/**
 * Expiring links to an appeal's attachments, for the pharmacy's systems (issue 20): the appeal message names each
 * file by a URL that carries its expiry and an HMAC of (file id, expiry) under a key derived from the signing key
 * every instance shares. Anyone holding the link reads that one file until it expires; nothing else. A link is
 * not a session: it cannot list, change or reach any other file.
 */
import { createHmac } from 'node:crypto';
import { APPEAL_FILE_LINK_PATH } from '@hcp/contract';
import { safeEqual } from './crypto.ts';

export type LinkCheck = 'valid' | 'expired' | 'invalid';

export function createFileLinks(signingKey: string) {
  const key = createHmac('sha256', signingKey).update('hcp-portal:appeal-file-links:v1').digest();
  const sign = (fileId: string, expires: number) => createHmac('sha256', key).update(`${fileId}.${expires}`).digest('base64url');
  return {
    url(baseUrl: string, fileId: string, expiresAt: Date): string {
      const expires = Math.floor(expiresAt.getTime() / 1000);
      return `${baseUrl}${APPEAL_FILE_LINK_PATH.replace(':fileId', fileId)}?expires=${expires}&signature=${sign(fileId, expires)}`;
    },
    /** An unsigned or tampered link is invalid (answered as unknown); a signed one past its time is expired. */
    check(fileId: string, expires: number, signature: string, now: Date): LinkCheck {
      if (!safeEqual(signature, sign(fileId, expires))) return 'invalid';
      return expires * 1000 > now.getTime() ? 'valid' : 'expired';
    },
  };
}
export type FileLinks = ReturnType<typeof createFileLinks>;
