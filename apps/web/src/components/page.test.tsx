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

  it('ends the heading and the document title with a count once it is known, its place held before', async () => {
    document.head.innerHTML = '<title>HCP Portal</title>';
    const router = renderRoutes(
      [
        { path: '/loading', element: <Page title="New Prescriptions List" count={null} /> },
        { path: '/known', element: <Page title="New Prescriptions List" count={12} /> },
      ],
      '/loading',
    );
    const heading = await screen.findByRole('heading', { level: 1, name: 'New Prescriptions List' });
    // No silent zero while unknown, but the count's (empty) place is there: on a phone it holds a line.
    expect(heading.querySelector('.heading-count')?.textContent).toBe('');
    expect(document.title).toBe('New Prescriptions List · HCP Portal');
    await router.navigate('/known');
    expect(await screen.findByRole('heading', { level: 1, name: 'New Prescriptions List (12)' })).toBeInTheDocument();
    expect(document.title).toBe('New Prescriptions List (12) · HCP Portal');
  });
});
