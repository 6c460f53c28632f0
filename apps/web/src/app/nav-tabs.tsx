import { activeTabForPath, type NavTab, ROUTES } from '@hcp/contract';
import { Link, useLocation } from 'react-router';
import styles from './layout.module.css';

const TABS: { tab: NavTab; displayName: string; href: string }[] = [
  { tab: 'actionNeeded', displayName: 'Action Needed', href: ROUTES.actionNeeded },
  { tab: 'patients', displayName: 'All Patients', href: ROUTES.patientSearch },
];

/** Top navigation; the active tab comes from the path prefix and its link is inert (spec §2). */
export function NavTabs() {
  const active = activeTabForPath(useLocation().pathname);
  return (
    <nav aria-label="Main" className={styles.tabs}>
      <ul>
        {TABS.map(({ tab, displayName, href }) => (
          <li key={tab}>
            {tab === active ? (
              <span aria-current="page" className={styles.activeTab}>
                {displayName}
              </span>
            ) : (
              <Link to={href}>{displayName}</Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
