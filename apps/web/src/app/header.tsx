import { ROUTES } from '@hcp/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LOGOS, useBrand } from '../lib/brand/brand.tsx';
import styles from './layout.module.css';

/**
 * The header of spec §2: logo and brand title, and when signed in the account links (`account`, drawn by the
 * signed-in shell: app/header-account.tsx). The signed-in part is not in the first load (issue 21).
 */
export function Header({ account }: { account?: ReactNode }) {
  const { tenant } = useBrand();
  return (
    <header className={styles.header}>
      <Link to={ROUTES.root} className={styles.brand}>
        <img src={LOGOS[tenant.key]} alt="" width={32} height={32} />
        <span className={styles.title}>{tenant.title}</span>
      </Link>
      {account}
    </header>
  );
}
