/**
 * Issue 48, EPCS on the refill page: a controlled substance offers no fax or plain eRx, only "Review and sign"; the
 * review shows what is signed and the rule's legal text; signing sends the password and the app's code to the
 * signing the server made; a refusal is said in the dialog, and nothing is said done.
 */
import { EPCS_LEGAL_TEXT, EPCS_MESSAGES, type EpcsSigning } from '@hcp/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../lib/storage.ts';
import { actionNeeded, prescription, stubServer } from '../../../test/fixtures.ts';
import { renderActionNeeded } from './test-routes.tsx';

const RX = '11111111-1111-4111-8111-111111111111';
const SIGNING = '22222222-2222-4222-8222-222222222222';
const shown: EpcsSigning = {
  signingId: SIGNING,
  expiresAt: '2026-12-03T15:05:00.000Z',
  legalText: EPCS_LEGAL_TEXT,
  factors: ['totp'],
  content: {
    kind: 'refill-authorization',
    prescriptionId: RX,
    issuedOn: '2026-10-01',
    signedOn: '2026-12-03',
    patient: { name: 'Pat Example', dob: '1970-01-02', address: '1 Main St, Columbus, OH 43004' },
    drug: { name: 'Alprazolam', strength: '0.5 mg', form: 'tablet', ndc: '00009-0029-01', schedule: 'IV' },
    quantity: 30,
    daysSupply: 30,
    sig: 'Take one tablet daily',
    refills: 2,
    prescriber: { name: 'Alex Morgan', npi: '1234567893', dea: 'BM1234563', address: 'Morgan Family Medicine, Columbus, OH' },
  },
};
const signed = {
  status: 'OK',
  prescriptionIds: [RX],
  signature: { algorithm: 'EdDSA', keyId: 'k', contentHash: 'h', signature: 's', signedAt: '2026-12-03T15:01:00.000Z' },
};
const controlled = () => actionNeeded([prescription({ controlled: { schedule: 'IV' }, refills: 2 })]);
const sent = (fetchMock: ReturnType<typeof stubServer>) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method && init.method !== 'GET')
    .map(([url, init]) => ({ url: String(url), body: init?.body ? JSON.parse(String(init.body)) : null }));

beforeEach(() => saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u' }));
afterEach(() => vi.unstubAllGlobals());

describe('a controlled substance’s refill', () => {
  it('is signed with EPCS only: the review shows what is signed and the legal text, then two factors sign it', async () => {
    const fetchMock = stubServer({
      actionNeeded: controlled(),
      routes: (url) =>
        url.endsWith('/epcs-signing')
          ? { status: 200, body: shown }
          : url.endsWith('/sign')
            ? { status: 200, body: signed }
            : undefined,
    });
    renderActionNeeded(`/action-needed/${RX}/refillAuth`);
    const form = await screen.findByRole('form', { name: 'Sign controlled substance (C-IV)' });
    expect(screen.queryByRole('button', { name: 'Authorize by fax' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Authorize by eRx' })).toBeNull();
    expect(screen.queryByRole('link', { name: /Stop asking/ })).toBeNull();
    // At most five refills can be chosen.
    const refills = within(form).getByLabelText('Refills');
    expect(
      within(refills)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['0', '1', '2', '3', '4', '5']);
    await userEvent.click(within(form).getByRole('button', { name: 'Review and sign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign controlled substance prescription' });
    expect(dialog).toHaveTextContent('Pat Example, born 01/02/1970');
    expect(dialog).toHaveTextContent('BM1234563');
    expect(dialog).toHaveTextContent('C-IV');
    expect(within(dialog).getByText(EPCS_LEGAL_TEXT)).toBeInTheDocument();
    const signButton = within(dialog).getByRole('button', { name: 'Sign and send' });
    expect(signButton).toHaveAccessibleDescription(EPCS_LEGAL_TEXT);
    await userEvent.type(within(dialog).getByLabelText('Your password'), 'the password');
    await userEvent.type(within(dialog).getByLabelText('6-digit code from your authenticator app'), '123456');
    await userEvent.click(signButton);
    await vi.waitFor(() => expect(sent(fetchMock)).toHaveLength(2));
    expect(sent(fetchMock)).toEqual([
      { url: `/api/mdo/v1/prescriptions/${RX}/epcs-signing`, body: { refills: 2, sig: 'Take one tablet daily' } },
      {
        url: `/api/mdo/v1/epcs-signings/${SIGNING}/sign`,
        body: { stepUp: { currentPassword: 'the password', totpCode: '123456' } },
      },
    ]);
  });

  it('says why it cannot be signed, in the dialog, and does not say it was done', async () => {
    stubServer({
      actionNeeded: controlled(),
      routes: (url) =>
        url.endsWith('/epcs-signing')
          ? { status: 200, body: shown }
          : url.endsWith('/sign')
            ? {
                status: 409,
                body: { error: { code: 'CONFLICT', message: EPCS_MESSAGES.changed, details: [], requestId: 'r' } },
              }
            : undefined,
    });
    renderActionNeeded(`/action-needed/${RX}/refillAuth`);
    await userEvent.click(await screen.findByRole('button', { name: 'Review and sign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign controlled substance prescription' });
    await userEvent.type(within(dialog).getByLabelText('Your password'), 'pw');
    await userEvent.type(within(dialog).getByLabelText('6-digit code from your authenticator app'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign and send' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(EPCS_MESSAGES.changed);
    expect(screen.queryByText('Controlled substance signed and sent to the pharmacy by eRx.')).toBeNull();
  });

  it('says a refusal of the review beside the button (no registration, no permission)', async () => {
    stubServer({
      actionNeeded: controlled(),
      routes: (url) =>
        url.endsWith('/epcs-signing')
          ? { status: 403, body: { error: { code: 'FORBIDDEN', message: EPCS_MESSAGES.noRights, details: [], requestId: 'r' } } }
          : undefined,
    });
    renderActionNeeded(`/action-needed/${RX}/refillAuth`);
    await userEvent.click(await screen.findByRole('button', { name: 'Review and sign' }));
    expect(await screen.findByText(EPCS_MESSAGES.noRights)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
