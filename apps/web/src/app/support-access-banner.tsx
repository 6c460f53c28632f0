import { formatTime, isProviderUser } from '@hcp/contract';
import { toast } from 'sonner';
import { useUserDetails } from '../lib/current-user/get-user-details.ts';
import { focusWhenReady } from '../lib/focus.ts';
import { failureText } from '../lib/form-errors.ts';
import { useEndSupportAccess } from '../lib/support-access/end-support-access.ts';
import { useSupportAccess } from '../lib/support-access/get-support-access.ts';
import styles from './layout.module.css';

/**
 * While a provider user's support-access window is open, every screen says so: whose patients these are,
 * that nothing can be changed, until when, and a way to end it now (decision 0020).
 */
export function SupportAccessBanner({ userId }: { userId: string }) {
  const user = useUserDetails(userId).data;
  const state = useSupportAccess(userId, Boolean(user && isProviderUser(user)));
  const end = useEndSupportAccess(userId);
  const active = state.data?.active;
  if (!active) return null;
  return (
    <section className={styles.supportBanner} aria-label="Support access">
      <p>
        <strong>Support access to {active.practiceName}</strong>: read-only until {formatTime(active.expiresAt)}. The practice
        sees that you opened it and why.
      </p>
      <button
        type="button"
        className={styles.supportEnd}
        disabled={end.isPending}
        onClick={() =>
          end.mutate(undefined, {
            onSuccess: () => {
              toast.success(`Support access to ${active.practiceName} ended: its patients are no longer shown.`);
              // The banner and its button go: focus goes to the screen's heading, not to <body> (issue 47).
              focusWhenReady(() => null);
            },
            onError: (error) => toast.error(failureText(error)),
          })
        }
      >
        End support access
      </button>
    </section>
  );
}
