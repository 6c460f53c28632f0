import { activeTabForPath, canManageCommunications, canPrescribe, isProviderUser, type NavTab, ROUTES } from '@hcp/contract';
import { Link, useLocation } from 'react-router';
import { useFeatureFlags } from '../lib/current-user/get-feature-flags.ts';
import { useUserDetails } from '../lib/current-user/get-user-details.ts';
import { readSession } from '../lib/storage.ts';
import styles from './layout.module.css';

/** A menu item of spec §2: name, displayName, href, count, isLoading (onClick is the link itself). */
export interface MenuItem {
  name: NavTab;
  displayName: string;
  href: string;
  count?: number | undefined;
  isLoading?: boolean;
  badge?: string;
}

export function buildMenu(input: {
  actionNeededCount: number | undefined;
  actionNeededLoading: boolean;
  newCommentsCount: number | undefined;
  showManageComms: boolean;
  showPrescribe: boolean;
  /** The practice's people: the Rx list holds their patients' prescriptions (the provider's users see none). */
  showRxList?: boolean;
}): MenuItem[] {
  const items: MenuItem[] = [
    {
      name: 'actionNeeded',
      displayName: 'Action Needed',
      href: ROUTES.actionNeeded,
      count: input.actionNeededCount,
      isLoading: input.actionNeededLoading,
    },
    { name: 'patients', displayName: 'All Patients', href: ROUTES.patientSearch },
  ];
  // Our addition (issue 21): nothing led to /rx-list; it sits beside the lists it belongs with.
  if (input.showRxList) items.push({ name: 'rxList', displayName: 'New Prescriptions', href: ROUTES.rxList });
  // Spec §2: New Comments is hidden while its count is zero.
  if (input.newCommentsCount && input.newCommentsCount > 0) {
    items.push({ name: 'newComments', displayName: 'New Comments', href: ROUTES.newComments, count: input.newCommentsCount });
  }
  if (input.showManageComms) items.push({ name: 'manageComms', displayName: 'Manage Communications', href: ROUTES.manageComms });
  if (input.showPrescribe) items.push({ name: 'prescribe', displayName: 'Prescribe Rx', href: ROUTES.prescribe, badge: 'New' });
  return items;
}

function Label({ item }: { item: MenuItem }) {
  const showCount = typeof item.count === 'number' && !item.isLoading;
  return (
    <>
      {item.displayName}
      {item.badge ? <span className={styles.badge}>{item.badge}</span> : null}
      {showCount ? <span className={styles.countBadge}>{item.count}</span> : null}
    </>
  );
}

/** Top navigation; the active tab comes from the path prefix and its link is inert (spec §2). */
export function NavTabs({
  actionNeededCount,
  actionNeededLoading,
  newCommentsCount,
}: {
  actionNeededCount: number | undefined;
  actionNeededLoading: boolean;
  newCommentsCount: number | undefined;
}) {
  const active = activeTabForPath(useLocation().pathname);
  const user = useUserDetails(readSession()?.userId ?? null).data;
  const flags = useFeatureFlags().data;
  const items = buildMenu({
    actionNeededCount,
    actionNeededLoading,
    newCommentsCount,
    showManageComms: user ? canManageCommunications(user) : false,
    showPrescribe: user && flags ? canPrescribe(user, flags) : false,
    showRxList: user ? !isProviderUser(user) : false,
  });
  return (
    <nav aria-label="Main" className={styles.tabs}>
      <ul>
        {items.map((item) => (
          <li key={item.name}>
            {item.name === active ? (
              <span aria-current="page" className={styles.activeTab}>
                <Label item={item} />
              </span>
            ) : (
              <Link to={item.href}>
                <Label item={item} />
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
