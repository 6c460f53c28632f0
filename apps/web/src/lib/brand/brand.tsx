/**
 * The brand of the page (spec §1, docs/decisions/0016-brands.md): resolved by the server with the contract's
 * rule, narrowed for a signed-in user without second-brand access, and applied as the page colour, the
 * title and the favicon. Switching stores the choice; on a dedicated hostname the brand is forced.
 */
import {
  type BrandKey,
  effectiveBrand,
  hasSecondBrandAccess,
  MAIN_BRAND,
  type Tenant,
  type TenantResponse,
  type UserDetails,
} from '@hcp/contract';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { useFeatureFlags } from '../current-user/get-feature-flags.ts';
import { useUserDetails } from '../current-user/get-user-details.ts';
import { readSession, storage } from '../storage.ts';
import { useTenant } from './get-tenant.ts';

export const DEFAULT_TENANT: Tenant = { key: 'main', name: 'HCP Portal', title: 'HCP Portal', colour: '#0b5cab' };
const FAVICONS: Record<BrandKey, string> = { main: '/favicon.svg', harrow: '/favicon-harrow.svg' };
export const LOGOS = FAVICONS;

interface BrandSource {
  data: TenantResponse | undefined;
  switchTo: (brand: BrandKey) => void;
  /** False outside a BrandProvider (screens tested alone): the main brand, and no user lookups. */
  provided: boolean;
}
const BrandSourceContext = createContext<BrandSource>({ data: undefined, switchTo: () => {}, provided: false });

/** Loads the page's brand (once; again after a switch) for everything below. */
export function BrandProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState(() => storage.get('brand'));
  const tenant = useTenant(choice);
  const value = useMemo<BrandSource>(
    () => ({
      data: tenant.data,
      provided: true,
      switchTo: (brand) => {
        storage.set('brand', brand);
        setChoice(brand);
        void queryClient.invalidateQueries({ queryKey: ['tenant'] });
      },
    }),
    [tenant.data, queryClient],
  );
  return <BrandSourceContext value={value}>{children}</BrandSourceContext>;
}

export interface BrandValue {
  tenant: Tenant;
  brands: Tenant[];
  forced: boolean;
  /** The signed-in user's access to the second brand (false when signed out). */
  hasSecondBrandAccess: boolean;
  user: UserDetails | null;
  switchTo: (brand: BrandKey) => void;
}

/** The brand this user sees now, with the user and whether they may switch. */
export function useBrand(): BrandValue {
  const { data, switchTo, provided } = useContext(BrandSourceContext);
  const userId = provided ? (readSession()?.userId ?? null) : null;
  const user = useUserDetails(userId).data ?? null;
  const flags = useFeatureFlags(Boolean(userId)).data;
  const access = Boolean(user && flags && hasSecondBrandAccess(user, flags));
  const brands = data?.brands ?? [DEFAULT_TENANT];
  const resolved = data ? { brand: data.tenant.key, forced: data.forced } : { brand: MAIN_BRAND, forced: false };
  const key = effectiveBrand(resolved, user ? { userBrand: user.brand, hasSecondBrandAccess: access } : null);
  return {
    tenant: brands.find((b) => b.key === key) ?? data?.tenant ?? DEFAULT_TENANT,
    brands,
    forced: resolved.forced,
    hasSecondBrandAccess: access,
    user,
    switchTo,
  };
}

/**
 * The reports' time zone (AUDIT_TIME_ZONE, from the tenant answer): the audit trail's and EPCS's days are counted in
 * it, so their "today" is its today. Until that answer is here (or outside a provider), the reader's own zone.
 */
export function useReportTimeZone(): string {
  const { data } = useContext(BrandSourceContext);
  return data?.reportTimeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Applies the brand to the document: the colour token, a data attribute for styles, the favicon. */
export function BrandStyle() {
  const { tenant } = useBrand();
  useEffect(() => {
    const root = document.documentElement;
    root.style.setProperty('--brand', tenant.colour);
    root.dataset.brand = tenant.key;
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (icon) icon.href = FAVICONS[tenant.key];
  }, [tenant]);
  return null;
}
