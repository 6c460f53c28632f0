import { NOTICE_LINK_MESSAGES, normalizeError, ROUTES } from '@hcp/contract';
import { Link, type LoaderFunctionArgs, redirect, useLoaderData } from 'react-router';
import { FormAlert } from '../../../components/form-alert.tsx';
import styles from '../../../components/form-card.module.css';
import { Page } from '../../../components/page.tsx';
import { readSession } from '../../../lib/storage.ts';
import { redeemNoticeLink } from '../api/redeem-notice-link.ts';

/**
 * /notice/{code}: the one-time link of a fax cover sheet (issue 20). Signed out, the shell sends the user to sign in
 * and back here; signed in, the link is used once (a route loader: one call per visit) and opens Action Needed.
 * A link that is not theirs, used or expired says so and still offers the list.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const session = readSession();
  if (!session || !params.code) return { error: null };
  try {
    await redeemNoticeLink(session.userId, params.code);
    return redirect(ROUTES.actionNeeded);
  } catch (error) {
    const problem = normalizeError(error, 'Could not open this link. Please try again.');
    const message =
      problem.status === 404
        ? NOTICE_LINK_MESSAGES.notFound
        : problem.status === 410
          ? NOTICE_LINK_MESSAGES.used
          : problem.message;
    return { error: message };
  }
}

export default function NoticeLinkRoute() {
  const { error } = useLoaderData<typeof loader>();
  return (
    <Page title="New requests from the pharmacy">
      <div className={styles.card}>
        {error ? <FormAlert message={error} /> : <p role="status">Opening your practice’s requests…</p>}
        <p className={styles.links}>
          <Link to={ROUTES.actionNeeded}>Go to Action Needed</Link>
        </p>
      </div>
    </Page>
  );
}
