import { formatPhoneDisplay, ROUTES } from '@hcp/contract';
import { Suspense } from 'react';
import { Link, Outlet } from 'react-router';
import { FullPageLoader } from '../components/full-page-loader.tsx';
import { BrandStyle } from '../lib/brand/brand.tsx';
import { webConfig } from '../lib/config.ts';
import { Header } from './header.tsx';
import styles from './layout.module.css';
import { RouteFocus } from './route-focus.tsx';

export function SkipLink() {
  return (
    <a className="skip-link" href="#main">
      Skip to main content
    </a>
  );
}

export function PublicLayout() {
  return (
    <>
      <BrandStyle />
      <RouteFocus />
      <SkipLink />
      <Header />
      <main id="main" className={styles.main} tabIndex={-1}>
        <Suspense fallback={<FullPageLoader />}>
          <Outlet />
        </Suspense>
      </main>
      <PublicFooter />
    </>
  );
}

/**
 * Signed out, the page still says where the terms are and how to reach a person (issue 21: the sign-in
 * page had no footer, no Terms and no support line).
 */
function PublicFooter() {
  const { phone, email } = webConfig.support;
  return (
    <footer className={styles.footer}>
      <Link to={ROUTES.termsOfUse}>Terms of Use</Link>
      <span>
        Help: <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{formatPhoneDisplay(phone)}</a> ·{' '}
        <a href={`mailto:${email}`}>{email}</a>
      </span>
    </footer>
  );
}
