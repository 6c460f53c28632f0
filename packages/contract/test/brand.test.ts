import { describe, expect, it } from 'vitest';
import { brandHeaderLinks, effectiveBrand, loginBrandDecision, resolveBrand, shouldAutoOpenTutorial } from '../src/index.ts';

const brands = [
  { key: 'main' as const, hostnames: ['portal.hcp.localhost'] },
  { key: 'harrow' as const, hostnames: ['harrow.localhost', 'portal.harrow.example'] },
];

describe('resolveBrand', () => {
  it('forces the brand of a dedicated hostname (any case, trailing dot) over any choice or setting', () => {
    expect(resolveBrand({ hostname: 'HARROW.localhost.', brands, storedChoice: 'main', globalSetting: 'main' })).toEqual({
      brand: 'harrow',
      forced: true,
    });
    expect(resolveBrand({ hostname: 'portal.hcp.localhost', brands, storedChoice: 'harrow', globalSetting: 'harrow' })).toEqual({
      brand: 'main',
      forced: true,
    });
  });
  it('else takes the stored choice, else the global setting, else the main brand; unknown values are ignored', () => {
    expect(resolveBrand({ hostname: 'localhost', brands, storedChoice: 'harrow', globalSetting: 'main' })).toEqual({
      brand: 'harrow',
      forced: false,
    });
    expect(resolveBrand({ hostname: 'localhost', brands, storedChoice: null, globalSetting: 'harrow' }).brand).toBe('harrow');
    expect(resolveBrand({ hostname: 'localhost', brands, storedChoice: 'acme', globalSetting: 'acme' }).brand).toBe('main');
    expect(resolveBrand({ hostname: 'localhost', brands: [], storedChoice: undefined, globalSetting: undefined }).brand).toBe(
      'main',
    );
  });
});

describe('effectiveBrand', () => {
  const chosenHarrow = { brand: 'harrow' as const, forced: false };
  it('keeps a chosen second brand only for users with access', () => {
    expect(effectiveBrand(chosenHarrow, { userBrand: 'main', hasSecondBrandAccess: true })).toBe('harrow');
    expect(effectiveBrand(chosenHarrow, { userBrand: 'main', hasSecondBrandAccess: false })).toBe('main');
    expect(effectiveBrand(chosenHarrow, { userBrand: 'harrow', hasSecondBrandAccess: false })).toBe('harrow');
    expect(effectiveBrand(chosenHarrow, null)).toBe('harrow');
    expect(effectiveBrand({ brand: 'harrow', forced: true }, { userBrand: 'main', hasSecondBrandAccess: false })).toBe('harrow');
    expect(effectiveBrand({ brand: 'main', forced: false }, { userBrand: 'harrow', hasSecondBrandAccess: false })).toBe('main');
  });
});

describe('brandHeaderLinks', () => {
  const base = {
    brand: 'main' as const,
    forced: false,
    userBrand: 'main' as const,
    hasSecondBrandAccess: true,
    isPrescriber: true,
    hcpPrescribingEnabled: false,
  };
  it('offers Access on the main brand to users with access, Back to on a chosen second brand', () => {
    expect(brandHeaderLinks(base)).toEqual({ access: true, backTo: false, prescribe: false });
    expect(brandHeaderLinks({ ...base, hasSecondBrandAccess: false }).access).toBe(false);
    expect(brandHeaderLinks({ ...base, brand: 'harrow' })).toEqual({ access: false, backTo: true, prescribe: false });
    // On the second brand's own domain there is no way back (it is forced) ...
    expect(brandHeaderLinks({ ...base, brand: 'harrow', forced: true })).toEqual({
      access: false,
      backTo: false,
      prescribe: true,
    });
    // ... and a second-brand user has no main portal to go back to.
    expect(brandHeaderLinks({ ...base, brand: 'harrow', userBrand: 'harrow' }).backTo).toBe(false);
  });
  it('shows Prescribe Rx to prescribers when HCP prescribing is on or on the second-brand domain', () => {
    expect(brandHeaderLinks({ ...base, hcpPrescribingEnabled: true }).prescribe).toBe(true);
    expect(brandHeaderLinks({ ...base, hcpPrescribingEnabled: true, isPrescriber: false }).prescribe).toBe(false);
    expect(brandHeaderLinks({ ...base, brand: 'harrow', forced: true, isPrescriber: false }).prescribe).toBe(false);
  });
});

describe('shouldAutoOpenTutorial', () => {
  it('opens unless dismissed for good or already closed in this session', () => {
    expect(shouldAutoOpenTutorial({ dismissedForever: false, closedThisSession: false })).toBe(true);
    expect(shouldAutoOpenTutorial({ dismissedForever: true, closedThisSession: false })).toBe(false);
    expect(shouldAutoOpenTutorial({ dismissedForever: false, closedThisSession: true })).toBe(false);
  });
});

describe('loginBrandDecision', () => {
  it('lets users in on their own brand, main users with access on the second, and redirects the rest', () => {
    expect(loginBrandDecision({ requestBrand: 'main', userBrand: 'main', hasSecondBrandAccess: false })).toBe('allow');
    expect(loginBrandDecision({ requestBrand: 'harrow', userBrand: 'main', hasSecondBrandAccess: true })).toBe('allow');
    expect(loginBrandDecision({ requestBrand: 'harrow', userBrand: 'main', hasSecondBrandAccess: false })).toBe('redirect');
    expect(loginBrandDecision({ requestBrand: 'main', userBrand: 'harrow', hasSecondBrandAccess: true })).toBe('redirect');
  });
});
