import { ROUTES } from '@hcp/contract';
import { Suspense } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { FullPageLoader } from '../components/full-page-loader.tsx';
import { readSession } from '../lib/storage.ts';
import { Header } from './header.tsx';
import styles from './layout.module.css';
import { NavTabs } from './nav-tabs.tsx';

function SkipLink() {
  return (
    <a className="skip-link" href="#main">
      Skip to main content
    </a>
  );
}

export function PublicLayout() {
  return (
    <>
      <SkipLink />
      <Header signedIn={false} />
      <main id="main" className={styles.main} tabIndex={-1}>
        <Suspense fallback={<FullPageLoader />}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}

/** The signed-in shell: needs an access token and a user id in local storage, else login (spec §2). */
export function SignedInShell() {
  const location = useLocation();
  if (!readSession()) return <Navigate to={ROUTES.login} replace state={{ from: location.pathname }} />;
  return (
    <>
      <SkipLink />
      <Header signedIn />
      <NavTabs />
      <main id="main" className={styles.main} tabIndex={-1}>
        <Suspense fallback={<FullPageLoader />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className={styles.footer}>
        <Link to={ROUTES.termsOfUse}>Terms of Use</Link>
      </footer>
    </>
  );
}
