import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import LoginRoute from './login.tsx';

function setup(googleClientId: string | null) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ googleClientId }), { status: 200 })),
  );
  const router = createMemoryRouter([{ path: '/login', Component: LoginRoute }], { initialEntries: ['/login'] });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  for (const script of document.querySelectorAll('script')) script.remove();
});

describe('login page and Google sign-in', () => {
  it('offers Google sign-in and loads Google’s script only when a client id is configured', async () => {
    setup('client-1.apps.googleusercontent.com');
    expect(await screen.findByRole('heading', { name: 'Or sign in with Google' })).toBeInTheDocument();
    expect(document.querySelector('script[src="https://accounts.google.com/gsi/client"]')).not.toBeNull();
  });

  it('shows no Google button and loads nothing from Google without one', async () => {
    setup(null);
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { name: 'Or sign in with Google' })).toBeNull();
    expect(document.querySelector('script[src*="accounts.google.com"]')).toBeNull();
  });
});
