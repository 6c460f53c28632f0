import { ROUTES } from '@hcp/contract';
import { Link } from 'react-router';
import { Page } from '../components/page.tsx';
import { readSession } from '../lib/storage.ts';

export default function NotFoundRoute() {
  const signedIn = readSession() !== null;
  return (
    <Page title="Page not found">
      <p>We could not find that page. The link may be old, or the address may have a typo.</p>
      <p>{signedIn ? <Link to={ROUTES.actionNeeded}>Go to Action Needed</Link> : <Link to={ROUTES.login}>Go to sign in</Link>}</p>
    </Page>
  );
}
