/**
 * The access-token signing key: AUTH_SIGNING_KEY when set (required for several instances), otherwise a
 * key generated once into DATA_DIR so a single dev instance keeps sessions across restarts.
 */
import { webcrypto } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import { randomToken } from './crypto.ts';

/** The issuer of every token the portal signs (user sessions and system tokens alike). */
export const TOKEN_ISSUER = 'hcp-portal';

/**
 * The HS256 key of `secret`, imported once as a CryptoKey on first use: given the bytes, jose imports them again on
 * every call, which was half of each request's token check (176 µs against 90 µs, measured on this machine).
 */
export function hmacKey(secret: string): () => Promise<webcrypto.CryptoKey> {
  let imported: Promise<webcrypto.CryptoKey> | null = null;
  return () =>
    (imported ??= webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]));
}

export async function resolveSigningKey(config: Pick<Config, 'authSigningKey' | 'dataDir'>): Promise<string> {
  if (config.authSigningKey) return config.authSigningKey;
  const file = path.join(config.dataDir, 'auth-signing-key');
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start: create below
  }
  await mkdir(config.dataDir, { recursive: true });
  const key = randomToken(48);
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return key;
}
