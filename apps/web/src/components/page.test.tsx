import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../test/render-routes.tsx';
import { Page } from './page.tsx';

describe('Page', () => {
  it('names the document in its one <title> and renders the heading', async () => {
    document.head.innerHTML = '<title>HCP Portal</title>';
    const router = renderRoutes(
      [
        { path: '/a', element: <Page title="Action Needed" /> },
        { path: '/b', element: <Page title="All Patients" /> },
      ],
      '/a',
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Action Needed' })).toBeInTheDocument();
    expect(document.title).toBe('Action Needed · HCP Portal');
    await router.navigate('/b');
    expect(await screen.findByRole('heading', { level: 1, name: 'All Patients' })).toBeInTheDocument();
    expect(document.title).toBe('All Patients · HCP Portal');
    expect(document.querySelectorAll('title')).toHaveLength(1);
  });
});
