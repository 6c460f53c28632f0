import { canManageAccounts, ROUTES } from '@hcp/contract';
import { Link } from 'react-router';
import { APP_TITLE } from '../components/page.tsx';
import { useUserDetails } from '../lib/current-user/get-user-details.ts';
import { readSession } from '../lib/storage.ts';
import styles from './layout.module.css';

/** The username links to manage accounts for admins only; for others it is plain text, not a link (spec §2). */
function UserName() {
  const { data: user } = useUserDetails(readSession()?.userId ?? null);
  if (!user) return null;
  return canManageAccounts(user) ? (
    <Link to={ROUTES.manageAccounts}>{user.userName}</Link>
  ) : (
    <span className={styles.userName}>{user.userName}</span>
  );
}

export function Header({ signedIn }: { signedIn: boolean }) {
  return (
    <header className={styles.header}>
      <Link to={ROUTES.root} className={styles.brand}>
        <img src="/favicon.svg" alt="" width={32} height={32} />
        <span className={styles.title}>{APP_TITLE}</span>
      </Link>
      {signedIn ? (
        <nav aria-label="Account" className={styles.account}>
          <UserName />
          <Link to={ROUTES.logout}>Log Out</Link>
        </nav>
      ) : null}
    </header>
  );
}
