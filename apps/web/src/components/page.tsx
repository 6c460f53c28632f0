import type { ReactNode } from 'react';

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
  return (
    <>
      <title>{`${title} · ${APP_TITLE}`}</title>
      <h1 className={headingHidden ? 'visually-hidden' : undefined}>{title}</h1>
      {children}
    </>
  );
}
