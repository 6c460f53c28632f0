/** Answers a first screen reads are checked without zod (decision 0043): each guard must agree with its schema. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSignInOptions, isTenantResponse, signInOptionsSchema, tenantResponseSchema } from '../src/index.ts';

const colour = fc.oneof(
  fc.stringMatching(/^#[0-9a-fA-F]{6}$/),
  fc.stringMatching(/^#[0-9a-fA-F]{5,7}\n?$/),
  fc.string(),
  fc.integer(),
);
const tenant = fc.oneof(
  fc.record(
    {
      key: fc.oneof(fc.constantFrom('main', 'harrow'), fc.string(), fc.constant(null)),
      name: fc.oneof(fc.string(), fc.integer()),
      title: fc.oneof(fc.string(), fc.constant(undefined)),
      colour,
      extra: fc.anything(),
    },
    { requiredKeys: ['key', 'name', 'title', 'colour'] },
  ),
  fc.record({ key: fc.constantFrom('main', 'harrow'), name: fc.string(), title: fc.string(), colour }, { requiredKeys: [] }),
  fc.array(fc.anything()),
  fc.anything(),
);
const goodTenant = fc.record({
  key: fc.constantFrom('main', 'harrow'),
  name: fc.string(),
  title: fc.string(),
  colour: fc.stringMatching(/^#[0-9a-fA-F]{6}$/),
});
const goodAnswer = fc.record({ tenant: goodTenant, forced: fc.boolean(), brands: fc.array(goodTenant, { maxLength: 3 }) });
const nearAnswer = fc.record(
  {
    tenant,
    forced: fc.oneof(fc.boolean(), fc.constantFrom(0, 1, 'true', null)),
    brands: fc.oneof(fc.array(tenant, { maxLength: 3 }), fc.anything()),
    extra: fc.anything(),
  },
  { requiredKeys: ['tenant', 'forced', 'brands'] },
);

describe('the tenant answer’s zod-free guard', () => {
  it('accepts exactly the answers the schema accepts', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(goodAnswer, nearAnswer, fc.anything()), (value) => {
        const expected = tenantResponseSchema.safeParse(value).success;
        if (expected) accepted += 1;
        expect(isTenantResponse(value)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
    // The generator reaches the accepted side too, not only refusals.
    expect(accepted).toBeGreaterThan(300);
  });

  it('accepts the server’s real answer', () => {
    const tenantOf = (key: 'main' | 'harrow') => ({ key, name: key, title: `${key} portal`, colour: '#0a5fa3' });
    expect(isTenantResponse({ tenant: tenantOf('main'), forced: false, brands: [tenantOf('main'), tenantOf('harrow')] })).toBe(
      true,
    );
    expect(
      isTenantResponse({ tenant: tenantOf('main'), forced: false, brands: [{ ...tenantOf('harrow'), colour: 'blue' }] }),
    ).toBe(false);
  });
});

describe('the sign-in options’ zod-free guard', () => {
  it('accepts exactly the answers the schema accepts', () => {
    let accepted = 0;
    const near = fc.record(
      {
        googleClientId: fc.oneof(fc.string(), fc.constant(null), fc.constant(undefined), fc.integer(), fc.anything()),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(near, fc.anything()), (value) => {
        const expected = signInOptionsSchema.safeParse(value).success;
        if (expected) accepted += 1;
        expect(isSignInOptions(value)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(300);
  });
});
