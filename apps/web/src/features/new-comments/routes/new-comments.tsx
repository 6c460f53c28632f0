import { capitalizeName, formatApiDate, webPaths } from '@hcp/contract';
import { Link } from 'react-router';
import { FullPageLoader } from '../../../components/full-page-loader.tsx';
import { Page } from '../../../components/page.tsx';
import { readSession } from '../../../lib/storage.ts';
import { useNewComments } from '../api/get-new-comments.ts';
import styles from '../components/new-comments.module.css';

/** /new-comments: doctors -> patients with unread comments for the user's offices. */
export default function NewCommentsRoute() {
  const userId = readSession()?.userId ?? '';
  const query = useNewComments(userId);
  if (query.isPending) return <FullPageLoader label="Loading new comments…" />;
  const { doctors } = query.data ?? { doctors: [] };
  return (
    <Page title="New Comments">
      {doctors.length === 0 ? (
        <p>No new comments.</p>
      ) : (
        <ul className={styles.doctors}>
          {doctors.map((doctor) => (
            <li key={doctor.doctorId} className={styles.doctor}>
              <h2>
                {doctor.name}, {doctor.role}
              </h2>
              <ul className={styles.patients}>
                {doctor.patients.map((p) => (
                  <li key={p.id}>
                    <Link to={webPaths.newCommentsDetail(p.id)}>
                      {capitalizeName(p.firstName)} {capitalizeName(p.lastName)} (DOB {formatApiDate(p.dob)}): {p.unreadCount} new{' '}
                      {p.unreadCount === 1 ? 'comment' : 'comments'}
                    </Link>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
