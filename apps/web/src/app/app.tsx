import { ROUTES } from '@hcp/contract';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './providers.tsx';
import { routes } from './routes.tsx';

const router = createBrowserRouter(routes);

export function App() {
  return (
    <AppProviders onSessionExpired={() => void router.navigate(ROUTES.logout, { replace: true })}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
