import { ROUTES } from '@hcp/contract';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './providers.tsx';
import { routes } from './routes.tsx';

type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * Creating the router matches the URL and starts the first screen's work: its code is asked for and the shell's
 * requests leave (decision 0044). main.tsx calls it in a task of its own (decision 0046).
 */
export const createAppRouter = (): AppRouter => createBrowserRouter(routes);

export function App({ router }: { router: AppRouter }) {
  return (
    <AppProviders onSessionExpired={() => void router.navigate(ROUTES.logout, { replace: true })}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
