/**
 * Secrets the server must read back (an authenticator app's TOTP secret, issue 48), kept sealed: AES-256-GCM under a
 * key derived (HKDF-SHA256) from the signing key for one purpose, so a copy of the database alone reveals nothing and
 * a sealed value of one purpose does not open as another's. `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

export function createSealer(signingKey: string, purpose: string) {
  const key = Buffer.from(hkdfSync('sha256', signingKey, 'hcp-portal-sealed', purpose, 32));
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    /** The sealed text's plain text; null when it was not sealed by this key for this purpose, or was changed. */
    open(sealed: string): string | null {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}
export type Sealer = ReturnType<typeof createSealer>;
