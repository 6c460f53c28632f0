/** Answers a first screen reads are checked without zod (decision 0043): each guard must agree with its schema. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  featureFlagsSchema,
  isFeatureFlags,
  isSignInOptions,
  isTenantResponse,
  isUserDetails,
  PRESCRIBE_VIA_VALUES,
  signInOptionsSchema,
  tenantResponseSchema,
  USER_ROLE_VALUES,
  userDetailsSchema,
} from '../src/index.ts';
import { expectSameAsSchema, nearMissesOf } from './guard-testing.ts';

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
const goodAnswer = fc.record({
  tenant: goodTenant,
  forced: fc.boolean(),
  brands: fc.array(goodTenant, { maxLength: 3 }),
  reportTimeZone: fc.constantFrom('America/New_York', 'UTC', ''),
});
const nearAnswer = fc.record(
  {
    tenant,
    forced: fc.oneof(fc.boolean(), fc.constantFrom(0, 1, 'true', null)),
    brands: fc.oneof(fc.array(tenant, { maxLength: 3 }), fc.anything()),
    reportTimeZone: fc.oneof(fc.string(), fc.constantFrom(null, 0, undefined)),
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
    const answer = {
      tenant: tenantOf('main'),
      forced: false,
      brands: [tenantOf('main'), tenantOf('harrow')],
      reportTimeZone: 'America/New_York',
    };
    expect(isTenantResponse(answer)).toBe(true);
    expect(isTenantResponse({ ...answer, brands: [{ ...tenantOf('harrow'), colour: 'blue' }] })).toBe(false);
    const { reportTimeZone: _, ...withoutZone } = answer;
    expect(isTenantResponse(withoutZone)).toBe(false);
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

describe('the feature flags’ zod-free guard', () => {
  it('accepts exactly the answers the schema accepts', () => {
    const valid = fc.record({ isHarrowPortalEnabled: fc.boolean(), isHcpPrescribingEnabled: fc.boolean() });
    expectSameAsSchema(
      fc.oneof(valid, nearMissesOf(valid, ['isHarrowPortalEnabled', 'isHcpPrescribingEnabled']), fc.anything()),
      isFeatureFlags,
      featureFlagsSchema,
    );
  });
});

describe('the user details’ zod-free guard', () => {
  const nullable = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });
  const officePrefs = fc.record({
    prescribeVia: nullable(fc.constantFrom(...PRESCRIBE_VIA_VALUES)),
    harrowPortalAccess: fc.boolean(),
    prescribingEnabled: fc.boolean(),
    notOnboarded: fc.boolean(),
  });
  const userPrefs = fc.record({
    skipPriorAuthDismissNotice: fc.boolean(),
    skipErxConfirmation: fc.boolean(),
    skipSendConfirmation: fc.boolean(),
    newRequestNotices: fc.boolean(),
  });
  const cover = fc.record({ practiceId: fc.string(), prescriberId: fc.string(), startsAt: fc.string(), endsAt: fc.string() });
  const signing = fc.record({
    ownOrCoveringPracticeIds: fc.array(fc.string(), { maxLength: 3 }),
    covers: fc.array(cover, { maxLength: 2 }),
  });
  const requiredKeys = [
    'userId',
    'userName',
    'email',
    'phoneNumber',
    'role',
    'mdOfficeUser',
    'mdOfficePrefs',
    'mdOfficeUserPrefs',
    'details',
    'isVAMPracticeUser',
    'brand',
    'accountManager',
  ] as const;
  const valid = fc.record(
    {
      userId: fc.string(),
      userName: fc.string(),
      email: fc.string(),
      phoneNumber: nullable(fc.string()),
      role: fc.constantFrom(...USER_ROLE_VALUES),
      mdOfficeUser: nullable(fc.record({ userType: fc.string(), role: nullable(fc.string()) })),
      mdOfficePrefs: nullable(officePrefs),
      mdOfficeUserPrefs: userPrefs,
      details: fc.record({ mdOfficeId: nullable(fc.string()), mdStaffId: nullable(fc.string()) }),
      isVAMPracticeUser: fc.boolean(),
      brand: fc.constantFrom('main', 'harrow'),
      accountManager: nullable(fc.record({ name: fc.string(), phone: nullable(fc.string()), email: nullable(fc.string()) })),
      signing: nullable(signing),
    },
    { requiredKeys: [...requiredKeys] },
  );
  const topKeys = [...requiredKeys, 'signing'];
  // Near misses one level down too: a nested object with one field wrong.
  const nested = fc
    .tuple(
      valid,
      fc.constantFrom('mdOfficeUser', 'mdOfficePrefs', 'mdOfficeUserPrefs', 'details', 'accountManager', 'signing'),
      fc.constantFrom(
        'userType',
        'role',
        'prescribeVia',
        'harrowPortalAccess',
        'skipErxConfirmation',
        'newRequestNotices',
        'mdOfficeId',
        'mdStaffId',
        'name',
        'phone',
        'ownOrCoveringPracticeIds',
        'covers',
      ),
      fc.oneof(fc.anything(), fc.constant(undefined), fc.constant(null), fc.string(), fc.array(fc.anything(), { maxLength: 2 })),
    )
    .map(([value, outer, inner, replacement]) => {
      const current = value[outer as keyof typeof value];
      return typeof current === 'object' && current !== null
        ? { ...value, [outer]: { ...current, [inner]: replacement } }
        : value;
    });

  it('accepts exactly the answers the schema accepts', () => {
    expectSameAsSchema(fc.oneof(valid, nearMissesOf(valid, topKeys), nested, fc.anything()), isUserDetails, userDetailsSchema);
  });
});
