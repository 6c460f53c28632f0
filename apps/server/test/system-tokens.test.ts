import { SMART_ACCESS_TOKEN_SECONDS } from '@hcp/contract';
import { describe, expect, it } from 'vitest';
import { createSystemTokens } from '../src/lib/system-tokens.ts';

const claims = { clientRowId: 'row-1', clientId: 'pharmacy-1', tenantId: 'tenant-1', scopes: ['system/Task.write'] };

/** Tokens on a clock the test moves. */
function onClock(secret = 'a-secret-of-the-right-length-for-hs256-0123') {
  let at = Date.UTC(2026, 11, 3, 12, 0, 0);
  const tokens = createSystemTokens(secret, () => at);
  return { tokens, advance: (seconds: number) => (at += seconds * 1000) };
}

describe('system access tokens: a verified token is kept until it expires (issue 46)', () => {
  it('answers the same claims for every request of a batch, and none once the token has expired', async () => {
    const { tokens, advance } = onClock();
    const token = await tokens.issue(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    advance(SMART_ACCESS_TOKEN_SECONDS - 1);
    expect(await tokens.verify(token)).toEqual(claims);
    advance(2);
    // Kept or not, an expired token passes no more.
    expect(await tokens.verify(token)).toBeNull();
  });

  it('keeps nothing for a token it did not verify: a changed signature, payload or another secret fails every time', async () => {
    const { tokens } = onClock();
    const token = await tokens.issue(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const widened = `${header}.${Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), scope: 'system/*.*' }),
    ).toString('base64url')}.${signature}`;
    for (let round = 0; round < 2; round += 1) {
      expect(await tokens.verify(flipped)).toBeNull();
      expect(await tokens.verify(widened)).toBeNull();
    }
    const other = onClock('another-secret-of-the-right-length-for-hs256');
    expect(await other.tokens.verify(token)).toBeNull();
    expect(await tokens.verify(token)).toEqual(claims);
  });

  it('stays bounded: far more tokens than it keeps all verify, each with its own claims', async () => {
    const { tokens } = onClock();
    const issued = await Promise.all(
      Array.from({ length: 600 }, (_, n) => tokens.issue({ ...claims, clientId: `pharmacy-${n}` })),
    );
    for (const [n, token] of issued.entries()) expect((await tokens.verify(token))?.clientId).toBe(`pharmacy-${n}`);
    for (const [n, token] of issued.entries()) expect((await tokens.verify(token))?.clientId).toBe(`pharmacy-${n}`);
  });
});
