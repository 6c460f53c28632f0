import { type ReactNode, useLayoutEffect } from 'react';
import { useBrand } from '../lib/brand/brand.tsx';

export const APP_TITLE = 'HCP Portal';

/**
 * A screen: sets the document title and renders its heading. The title goes into index.html's one <title>
 * element: a React <title> would be hoisted beside it, and pages had two (issue 21).
 */
export function Page({
  title,
  children,
  headingHidden = false,
  narrow = false,
}: {
  title: string;
  children?: ReactNode;
  headingHidden?: boolean;
  /** A one-column screen (sign-in and its steps): centred at a readable width instead of pinned left. */
  narrow?: boolean;
}) {
  const { tenant } = useBrand();
  const documentTitle = `${title} · ${tenant.title}`;
  // In the same commit as the heading: the title never lags the page it names.
  useLayoutEffect(() => {
    document.title = documentTitle;
  }, [documentTitle]);
  const content = (
    <>
      {/* Focusable from script (not by Tab) so a screen can move focus to its heading after navigation. */}
      <h1 className={headingHidden ? 'visually-hidden' : undefined} tabIndex={-1}>
        {title}
      </h1>
      {children}
    </>
  );
  return narrow ? <div className="narrow-page">{content}</div> : content;
}
