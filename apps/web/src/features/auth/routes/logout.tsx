import { ROUTES } from '@hcp/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { clearSession } from '../../../lib/storage.ts';

/** Clears the stored session and the cached data of the signed-out user, then goes to login. */
export default function LogoutRoute() {
  const queryClient = useQueryClient();
  clearSession();
  useEffect(() => {
    queryClient.clear();
  }, [queryClient]);
  return <Navigate to={ROUTES.login} replace />;
}
