import { ROUTES } from '@hcp/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { FullPageLoader } from '../../../components/full-page-loader.tsx';
import { analytics } from '../../../lib/analytics.ts';
import { clearSession, readSession } from '../../../lib/storage.ts';
import { postLogout } from '../api/logout.ts';

/**
 * Signs out at once on this device (stored values and cached data cleared), then tells the server to
 * revoke the tokens. The user does not wait for the server: a slow network must not keep a session open.
 */
export default function LogoutRoute() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    const session = readSession();
    clearSession();
    analytics.reset();
    queryClient.clear();
    if (session) {
      postLogout({ userId: session.userId, accessToken: session.accessToken, refreshToken: session.refreshToken ?? '' }).catch(
        () => {
          // The tokens are gone from this device either way; they expire on their own.
        },
      );
    }
    navigate(ROUTES.login, { replace: true });
  }, [navigate, queryClient]);
  return <FullPageLoader label="Signing out…" />;
}
