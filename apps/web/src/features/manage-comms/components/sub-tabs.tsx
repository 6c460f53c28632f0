import { NavLink } from 'react-router';
import styles from './manage-comms.module.css';

/** A row of links that behave as tabs of a screen; the current one is marked for screen readers. */
export function SubTabs({ label, tabs }: { label: string; tabs: readonly { to: string; label: string }[] }) {
  return (
    <nav aria-label={label}>
      <ul className={styles.tabs}>
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink to={tab.to} end={false}>
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
