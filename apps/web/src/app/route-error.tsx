import { ROUTES } from '@hcp/contract';
import { Link, useRouteError } from 'react-router';
import { Page } from '../components/page.tsx';
import styles from './layout.module.css';

/** Shown when a screen fails to load or render; keeps the user one click from a working screen. */
export function RouteError() {
  const error = useRouteError();
  const chunkFailed = error instanceof TypeError && /dynamically imported module|Importing a module script/.test(error.message);
  return (
    <main id="main" className={styles.main}>
      <Page title="Something went wrong">
        <p role="alert">
          {chunkFailed
            ? 'A new version of the portal is available. Reload the page to continue.'
            : 'This screen could not be shown. Reload the page, or go back to Action Needed.'}
        </p>
        <p>
          <a href={window.location.href}>Reload the page</a> · <Link to={ROUTES.actionNeeded}>Go to Action Needed</Link>
        </p>
      </Page>
    </main>
  );
}
