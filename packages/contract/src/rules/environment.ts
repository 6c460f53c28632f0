/** Environment names (spec §9). */

export const PRODUCTION_ENVIRONMENTS = ['production', 'cks-prod', 'eks-prod'] as const;
export const DEV_ENVIRONMENTS = ['development', 'dev', 'cks-dev', 'eks-dev'] as const;
export type EnvironmentKind = 'production' | 'dev';

export function environmentKind(name: string | null | undefined): EnvironmentKind | null {
  const value = (name ?? '').trim().toLowerCase();
  if ((PRODUCTION_ENVIRONMENTS as readonly string[]).includes(value)) return 'production';
  if ((DEV_ENVIRONMENTS as readonly string[]).includes(value)) return 'dev';
  return null;
}

export const isProduction = (name: string | null | undefined): boolean => environmentKind(name) === 'production';
export const isDev = (name: string | null | undefined): boolean => environmentKind(name) === 'dev';
