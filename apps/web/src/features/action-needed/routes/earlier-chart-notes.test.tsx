/** Reusable chart notes (issue 23): notes sent for the patient's earlier PA are offered on the next one. */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../lib/storage.ts';
import { actionNeeded, prescription, stubServer } from '../../../test/fixtures.ts';
import { renderActionNeeded } from './test-routes.tsx';

const RX = '11111111-1111-4111-8111-111111111111';

beforeEach(() => saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u' }));
afterEach(() => vi.unstubAllGlobals());

describe('chart notes sent before for the patient (issue 23)', () => {
  it('are offered above the box; one button puts them in to send again', async () => {
    const earlier = {
      records: [
        {
          prescriptionId: '33333333-3333-4333-8333-333333333333',
          drug: 'Januvia 100 mg',
          sentAt: '2026-10-02T14:30:00.000Z',
          chartNote: 'E11.9; metformin 1 g twice daily tried 6 months, A1c 8.4',
          isICD10TriedAndFailed: true,
        },
      ],
    };
    const fetchMock = stubServer({
      actionNeeded: actionNeeded([prescription({ needsRefillAuth: false, priorAuthStatus: 'PRIOR_AUTH_CHART_NOTES_NEEDED' })]),
      routes: (url) => (url.includes('/earlier-chart-notes') ? { status: 200, body: earlier } : undefined),
    });
    renderActionNeeded(`/action-needed/${RX}/priorAuth`);
    const offer = await screen.findByRole('region', { name: 'Chart notes sent before for this patient' });
    expect(offer).toHaveTextContent('Januvia 100 mg: “E11.9; metformin 1 g twice daily tried 6 months, A1c 8.4”');
    await userEvent.click(within(offer).getByRole('button', { name: /Use the notes sent .* for Januvia 100 mg/ }));
    const box = screen.getByLabelText('Chart notes (diagnosis, ICD-10 codes, treatments tried)');
    expect(box).toHaveValue('E11.9; metformin 1 g twice daily tried 6 months, A1c 8.4');
    expect(box).toHaveFocus();
    expect(screen.getByLabelText('Formulary alternatives for this diagnosis were tried and failed')).toBeChecked();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === `/api/mdo/v1/prescriptions/${RX}/earlier-chart-notes`)).toBe(
      true,
    );
  });

  it('offer nothing when there are none, and nothing (no false “none”) when the lookup fails', async () => {
    stubServer({
      actionNeeded: actionNeeded([prescription({ needsRefillAuth: false, priorAuthStatus: 'PRIOR_AUTH_CHART_NOTES_NEEDED' })]),
      routes: (url) =>
        url.includes('/earlier-chart-notes') ? { status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } } : undefined,
    });
    renderActionNeeded(`/action-needed/${RX}/priorAuth`);
    expect(await screen.findByLabelText('Chart notes (diagnosis, ICD-10 codes, treatments tried)')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Chart notes sent before for this patient' })).toBeNull();
  });
});
