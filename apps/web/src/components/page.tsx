import type { ReactNode } from 'react';
import { useBrand } from '../lib/brand/brand.tsx';

export const APP_TITLE = 'HCP Portal';

/** A screen: sets the document title (React 19 hoists <title>) and renders its heading. */
export function Page({
  title,
  children,
  headingHidden = false,
}: {
  title: string;
  children?: ReactNode;
  headingHidden?: boolean;
}) {
  const { tenant } = useBrand();
  return (
    <>
      <title>{`${title} · ${tenant.title}`}</title>
      {/* Focusable from script (not by Tab) so a screen can move focus to its heading after navigation. */}
      <h1 className={headingHidden ? 'visually-hidden' : undefined} tabIndex={-1}>
        {title}
      </h1>
      {children}
    </>
  );
}
