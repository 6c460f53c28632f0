/**
 * The access-token signing key: AUTH_SIGNING_KEY when set (required for several instances), otherwise a
 * key generated once into DATA_DIR so a single dev instance keeps sessions across restarts.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import { randomToken } from './crypto.ts';

/** The issuer of every token the portal signs (user sessions and system tokens alike). */
export const TOKEN_ISSUER = 'hcp-portal';

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
