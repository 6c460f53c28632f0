/**
 * The digital signature kept with each controlled prescription signed in the portal (21 CFR 1311.120(b)(20), .205;
 * decision 0059): the content as RFC 8785 canonical JSON (`canonicalize`, so a pharmacy rebuilds the same bytes in
 * any language), its SHA-256, and an Ed25519 signature over those bytes by the application's key. The key is
 * derived (HKDF) from the server's signing key for this purpose only; its public half is published as a JSON Web
 * Key Set, named by its RFC 7638 thumbprint, so a pharmacy verifies without asking us.
 */
import { createHash, createPrivateKey, createPublicKey, hkdfSync, type KeyObject, sign, verify } from 'node:crypto';
import canonicalize from 'canonicalize';

/** PKCS #8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface EpcsSignatureRecord {
  algorithm: 'EdDSA';
  keyId: string;
  contentHash: string;
  signature: string;
}

export interface EpcsPublicKey {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

/** The bytes a signature covers: the content as canonical JSON. */
export function canonicalBytes(content: unknown): Buffer {
  const text = canonicalize(content);
  if (text === undefined) throw new Error('EPCS content cannot be canonicalized');
  return Buffer.from(text, 'utf8');
}

export function contentHashOf(content: unknown): string {
  return createHash('sha256').update(canonicalBytes(content)).digest('base64url');
}

export function createEpcsSigner(signingKey: string) {
  const seed = Buffer.from(hkdfSync('sha256', signingKey, 'hcp-portal-epcs', 'epcs-signature-ed25519', 32));
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey: KeyObject = createPublicKey(privateKey);
  const x = (publicKey.export({ format: 'jwk' }) as { x: string }).x;
  // RFC 7638: the thumbprint of the required members, in lexicographic order.
  const kid = createHash('sha256')
    .update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x }))
    .digest('base64url');
  const jwk: EpcsPublicKey = { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' };

  return {
    keyId: kid,
    keySet: (): { keys: EpcsPublicKey[] } => ({ keys: [jwk] }),
    sign(content: unknown): EpcsSignatureRecord {
      const bytes = canonicalBytes(content);
      return {
        algorithm: 'EdDSA',
        keyId: kid,
        contentHash: createHash('sha256').update(bytes).digest('base64url'),
        signature: sign(null, bytes, privateKey).toString('base64url'),
      };
    },
  };
}
export type EpcsSigner = ReturnType<typeof createEpcsSigner>;

/** What a pharmacy does: true when `signature` is the key's signature over this very content. */
export function verifyEpcsSignature(content: unknown, signature: string, key: Pick<EpcsPublicKey, 'x'>): boolean {
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.x }, format: 'jwk' });
  return verify(null, canonicalBytes(content), publicKey, Buffer.from(signature, 'base64url'));
}
