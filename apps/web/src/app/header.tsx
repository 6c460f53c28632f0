import { ROUTES } from '@hcp/contract';
import { Link } from 'react-router';
import { APP_TITLE } from '../components/page.tsx';
import styles from './layout.module.css';

export function Header({ signedIn }: { signedIn: boolean }) {
  return (
    <header className={styles.header}>
      <Link to={ROUTES.root} className={styles.brand}>
        <img src="/favicon.svg" alt="" width={32} height={32} />
        <span className={styles.title}>{APP_TITLE}</span>
      </Link>
      {signedIn ? (
        <nav aria-label="Account" className={styles.account}>
          <Link to={ROUTES.logout}>Log Out</Link>
        </nav>
      ) : null}
    </header>
  );
}
