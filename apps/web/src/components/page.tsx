import { type ReactNode, useLayoutEffect } from 'react';
import { useBrand } from '../lib/brand/brand.tsx';

export const APP_TITLE = 'HCP Portal';

/**
 * A screen: sets the document title and renders its heading. The title goes into index.html's one <title>
 * element: a React <title> would be hoisted beside it, and pages had two (issue 21).
 */
export function Page({
  title,
  count,
  children,
  headingHidden = false,
  narrow = false,
}: {
  title: string;
  /**
   * A count the heading ends with, "(12)": null while it is not known yet (no silent zero). On a phone it takes a line
   * of its own, kept from the first paint, so the count arriving moves nothing below it (decision 0047).
   */
  count?: number | null;
  children?: ReactNode;
  headingHidden?: boolean;
  /** A one-column screen (sign-in and its steps): centred at a readable width instead of pinned left. */
  narrow?: boolean;
}) {
  const { tenant } = useBrand();
  const counted = typeof count === 'number' ? `${title} (${count})` : title;
  const documentTitle = `${counted} · ${tenant.title}`;
  // In the same commit as the heading: the title never lags the page it names.
  useLayoutEffect(() => {
    document.title = documentTitle;
  }, [documentTitle]);
  const content = (
    <>
      {/* Focusable from script (not by Tab) so a screen can move focus to its heading after navigation. */}
      <h1 className={headingHidden ? 'visually-hidden' : undefined} tabIndex={-1}>
        {title}
        {count === undefined ? null : (
          <>
            {' '}
            <span className="heading-count">{count === null ? '' : `(${count})`}</span>
          </>
        )}
      </h1>
      {children}
    </>
  );
  return narrow ? <div className="narrow-page">{content}</div> : content;
}
