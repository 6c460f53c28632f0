/** argon2id with OWASP's minimum parameters (19 MiB memory, 2 iterations, 1 lane). */
import { hash, type Options, verify } from '@node-rs/argon2';

// 2 is Algorithm.Argon2id; the package exports it as a const enum, which isolated modules cannot read.
export const ARGON2_OPTIONS: Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2_OPTIONS);

/** False for a wrong password or an unreadable hash; never throws on bad input. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
