import { brandHeaderLinks, canManageAccounts, isPrescriber, MAIN_BRAND, ROUTES, SECOND_BRAND } from '@hcp/contract';
import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useBrand } from '../lib/brand/brand.tsx';
import { useFeatureFlags } from '../lib/current-user/get-feature-flags.ts';
import styles from './layout.module.css';

/** The username links to manage accounts for admins only; for others it is plain text, not a link (spec §2). */
function UserName() {
  const { user } = useBrand();
  if (!user) return null;
  return canManageAccounts(user) ? (
    <Link to={ROUTES.manageAccounts}>{user.userName}</Link>
  ) : (
    <span className={styles.userName}>{user.userName}</span>
  );
}

/**
 * The signed-in header's account links (spec §2): the brand links ('Access' the second brand, 'Back to' the main
 * portal), 'Prescribe Rx', 'Tutorial Video', the username, 'Contact' and 'Log Out'.
 */
export function AccountNav({ onOpenTutorial, onOpenContact }: { onOpenTutorial: () => void; onOpenContact: () => void }) {
  const { tenant, brands, forced, hasSecondBrandAccess, user, switchTo } = useBrand();
  const flags = useFeatureFlags(true).data;
  const links = user
    ? brandHeaderLinks({
        brand: tenant.key,
        forced,
        userBrand: user.brand,
        hasSecondBrandAccess,
        isPrescriber: isPrescriber(user),
        hcpPrescribingEnabled: flags?.isHcpPrescribingEnabled ?? false,
      })
    : null;
  const nameOf = (key: string) => brands.find((b) => b.key === key);
  // On a phone the account links wait behind a Menu button (issue 47): spread over two rows they pushed the first
  // item of Action Needed below the first screen. On a wider screen the button is not drawn and the links show.
  const [open, setOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const navId = useId();
  return (
    <>
      <button
        ref={menuButton}
        type="button"
        className={`${styles.headerButton} ${styles.menuButton}`}
        aria-expanded={open}
        aria-controls={navId}
        onClick={() => setOpen((was) => !was)}
      >
        Menu
      </button>
      {/* Escape closes the phone's menu (a disclosure) and returns to Menu; a choice in it closes it too. */}
      <nav
        id={navId}
        aria-label="Account"
        className={styles.account}
        data-open={open || undefined}
        onClick={(event) => {
          if ((event.target as Element).closest('a, button')) setOpen(false);
        }}
        onKeyDown={(event) => {
          if (event.key !== 'Escape' || !open) return;
          setOpen(false);
          menuButton.current?.focus();
        }}
      >
        {links?.access ? (
          <button type="button" className={styles.headerButton} onClick={() => switchTo(SECOND_BRAND)}>
            Access {nameOf(SECOND_BRAND)?.name ?? 'Harrow'}
          </button>
        ) : null}
        {links?.backTo ? (
          <button type="button" className={styles.headerButton} onClick={() => switchTo(MAIN_BRAND)}>
            Back to {nameOf(MAIN_BRAND)?.title ?? 'HCP Portal'}
          </button>
        ) : null}
        {links?.prescribe ? <Link to={ROUTES.prescribe}>Prescribe Rx</Link> : null}
        <button type="button" className={styles.headerButton} onClick={onOpenTutorial}>
          Tutorial Video
        </button>
        <UserName />
        <button type="button" className={styles.headerButton} onClick={onOpenContact}>
          Contact
        </button>
        <Link to={ROUTES.logout}>Log Out</Link>
      </nav>
    </>
  );
}
