import {
  APPEAL_AUTH_FAILED,
  APPEAL_FILE_WRONG_TYPE,
  APPEAL_TOKEN_HEADER,
  type Appeal,
  type AppealDraft,
  type EarlierAppealFile,
  GENERIC_ERROR_MESSAGE,
} from '@hcp/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client.ts';
import { stubServer } from '../../../test/fixtures.ts';
import AppealsFormRoute from './appeals-form.tsx';
import GetCoveredRoute from './get-covered.tsx';
import GetCoveredFormRoute from './get-covered-form.tsx';

const APPEAL_ID = '0f0e0d0c-0b0a-4909-8807-060504030201';
const empty: AppealDraft = {
  clinicalJustification: '',
  diagnosisCodes: '',
  treatmentsTried: '',
  urgency: 'standard',
  attestation: false,
};

function appeal(overrides: Partial<Appeal> = {}): Appeal {
  return {
    id: APPEAL_ID,
    status: 'HCP_ACTION_REQUIRED',
    patientName: 'Jordan Rivera',
    patientDob: '1961-04-09',
    drugName: 'Xiidra',
    strength: '5%',
    payer: 'Aetna',
    denialReason: 'Not on formulary',
    denialDate: '2026-11-10',
    whatIsNeeded: 'Letter of medical necessity.',
    clinicalNotesRequired: false,
    prescriberName: 'Alex Morgan',
    draft: empty,
    files: [],
    submittedAt: null,
    ...overrides,
  };
}

interface Server {
  appeal: Appeal;
  calls: { url: string; method: string; body: unknown; token: string | null }[];
  failSave?: 'network' | 'server';
  /** The server finds the appeal incomplete (e.g. the pharmacy now requires the clinical notes). */
  refuseSubmit?: boolean;
  /** The files of the patient's earlier appeals the server offers (issue 23). */
  earlier?: EarlierAppealFile[];
}

function serve(server: Server) {
  return stubServer({
    routes: (url, init) => {
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : null;
      const headers = (init.headers ?? {}) as Record<string, string>;
      if (!url.includes('/appeal')) return undefined;
      server.calls.push({ url, method, body, token: headers[APPEAL_TOKEN_HEADER] ?? null });
      if (url.endsWith('/appeal-auth')) {
        return body.key === 'GOODKEY123'
          ? {
              status: 200,
              body: { token: 'tok', expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(), appeal: server.appeal },
            }
          : { status: 401, body: { error: { code: 'UNAUTHORIZED', message: APPEAL_AUTH_FAILED } } };
      }
      if (url.endsWith('/save')) {
        if (server.failSave === 'network') throw new TypeError('Failed to fetch');
        if (server.failSave === 'server') {
          return { status: 409, body: { error: { code: 'CONFLICT', message: 'This appeal was already submitted.' } } };
        }
        server.appeal = { ...server.appeal, draft: body };
        return { status: 200, body: server.appeal };
      }
      if (url.endsWith('/submit')) {
        if (server.refuseSubmit) {
          return {
            status: 400,
            body: {
              error: {
                code: 'VALIDATION_FAILED',
                message: 'The appeal is not complete yet.',
                details: [{ path: 'appeal.clinicalNotesFile', message: 'Attach the clinical notes or medical records.' }],
              },
            },
          };
        }
        server.appeal = { ...server.appeal, status: 'SUBMITTED', submittedAt: '2026-11-23T16:30:00.000Z' };
        return { status: 200, body: server.appeal };
      }
      if (url.endsWith('/earlier-files')) return { status: 200, body: { records: server.earlier ?? [] } };
      if (url.endsWith('/reuse-file')) {
        const file = server.earlier?.find((f) => f.fileId === body.fileId);
        if (!file) return { status: 404, body: { error: { code: 'NOT_FOUND', message: 'Attachment not found.' } } };
        const { fileId: _, submittedAt, ...rest } = file;
        server.appeal = {
          ...server.appeal,
          files: [
            ...server.appeal.files.filter((f) => f.slot !== body.slot),
            { ...rest, slot: body.slot, uploadedAt: submittedAt },
          ],
        };
        return { status: 200, body: server.appeal };
      }
      if (url.endsWith(`/appeal/${APPEAL_ID}`)) return { status: 200, body: server.appeal };
      return undefined;
    },
  });
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/appeals-form', Component: AppealsFormRoute },
      { path: '/getcovered', Component: GetCoveredRoute },
      { path: '/getcovered-form', Component: GetCoveredFormRoute },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={createQueryClient(() => {})}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

let server: Server;
beforeEach(() => {
  server = { appeal: appeal(), calls: [] };
  serve(server);
});
afterEach(() => vi.unstubAllGlobals());

async function openWithLink(path = '/appeals-form?npi=1234567893&key=GOODKEY123') {
  const user = userEvent.setup();
  const router = renderAt(path);
  await user.click(await screen.findByRole('button', { name: 'Continue' }));
  await screen.findByRole('heading', { name: 'Denied prescription' });
  return { user, router };
}

describe('HCP appeal', () => {
  it('opens with the NPI and key from the link and shows what was denied and the four slots by their labels', async () => {
    await openWithLink();
    expect(server.calls[0]?.body).toEqual({ npi: '1234567893', key: 'GOODKEY123' });
    expect(screen.getByText('Jordan Rivera')).toBeInTheDocument();
    expect(screen.getByText('04/09/1961')).toBeInTheDocument();
    expect(screen.getByText('Xiidra 5%')).toBeInTheDocument();
    expect(screen.getByText('Not on formulary')).toBeInTheDocument();
    for (const label of [
      'Denial Letter',
      'Relevant Clinical Studies or Practice Guidelines',
      'Clinical Notes/Medical Records',
      'Additional Attachment',
    ]) {
      expect(screen.getByRole('checkbox', { name: label })).not.toBeChecked();
    }
    // The stored client keys of spec §3 keep the tab's appeal.
    expect(window.sessionStorage.getItem('hcp.appealsNpi')).toBe('1234567893');
    expect(window.sessionStorage.getItem('hcp.appealsKey')).toBe('GOODKEY123');
    expect(JSON.parse(window.sessionStorage.getItem('hcp.appealsData') ?? '{}')).toMatchObject({
      appealId: APPEAL_ID,
      token: 'tok',
    });
  });

  it('shows the server’s refusal of a wrong key and checks the fields first', async () => {
    const user = userEvent.setup();
    renderAt('/appeals-form');
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Enter the 10-digit NPI.')).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);
    await user.type(screen.getByLabelText('Prescriber NPI'), '1234567893');
    await user.type(screen.getByLabelText('Access key'), 'WRONGKEY99');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(APPEAL_AUTH_FAILED);
  });

  it('offers a file picker once a slot is checked and refuses a fake PDF before sending it', async () => {
    const { user } = await openWithLink();
    await user.click(screen.getByRole('checkbox', { name: 'Denial Letter' }));
    const picker = screen.getByLabelText('File for Denial Letter');
    const fake = new File([new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03])], 'denial.pdf', { type: 'application/pdf' });
    await user.upload(picker, fake);
    expect(await screen.findByText(APPEAL_FILE_WRONG_TYPE)).toBeInTheDocument();
    expect(picker).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls.some((c) => c.url.includes('file-upload'))).toBe(false);
  });

  it('keeps typing in the tab at once and saves it to the server after a pause, with the appeal token', async () => {
    const { user } = await openWithLink();
    await user.type(screen.getByLabelText('Clinical justification (required)'), 'Failed metformin');
    expect(JSON.parse(window.sessionStorage.getItem('hcp.appealsData') ?? '{}').draft.clinicalJustification).toBe(
      'Failed metformin',
    );
    await waitFor(() => expect(server.calls.some((c) => c.url.endsWith('/save'))).toBe(true), { timeout: 4000 });
    const save = server.calls.find((c) => c.url.endsWith('/save'));
    expect(save?.token).toBe('tok');
    expect(save?.body).toMatchObject({ clinicalJustification: 'Failed metformin', urgency: 'standard' });
    expect(await screen.findByRole('status')).toHaveTextContent(/^Draft saved /);
  });

  it('shows the server’s error of a failed save, or “An error has occurred.” when there is none (spec §8)', async () => {
    const { user } = await openWithLink();
    server.failSave = 'server';
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('This appeal was already submitted.')).toBeInTheDocument();
    server.failSave = 'network';
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText(GENERIC_ERROR_MESSAGE)).toBeInTheDocument();
  });

  it('says what a submit still needs, then confirms, submits and shows the receipt', async () => {
    const { user } = await openWithLink();
    await user.click(screen.getByRole('button', { name: 'Submit appeal' }));
    expect(await screen.findByText('Explain why the patient needs this medication.')).toBeInTheDocument();
    expect(screen.getByText('Confirm the attestation to submit.')).toBeInTheDocument();
    expect(screen.getByLabelText('Clinical justification (required)')).toHaveFocus();
    expect(server.calls.some((c) => c.url.endsWith('/submit'))).toBe(false);

    await user.type(screen.getByLabelText('Clinical justification (required)'), 'Two formulary drugs failed.');
    await user.click(screen.getByRole('radio', { name: /^Expedited/ }));
    await user.click(screen.getByRole('checkbox', { name: /^I am the prescriber/ }));
    await user.click(screen.getByRole('button', { name: 'Submit appeal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Submit this appeal?' });
    await user.click(within(dialog).getByRole('button', { name: 'Submit appeal' }));
    const receipt = await screen.findByRole('heading', { name: 'Appeal submitted' });
    expect(receipt).toHaveFocus();
    expect(screen.getByText('0F0E0D0C0B')).toBeInTheDocument();
    expect(screen.getByText('Expedited')).toBeInTheDocument();
    const saved = server.calls.filter((c) => c.url.endsWith('/save')).at(-1);
    expect(saved?.body).toMatchObject({
      clinicalJustification: 'Two formulary drugs failed.',
      urgency: 'expedited',
      attestation: true,
    });
  });

  it('shows the server’s refusal of a submit, with the missing attachment at its slot', async () => {
    const { user } = await openWithLink();
    server.refuseSubmit = true;
    await user.type(screen.getByLabelText('Clinical justification (required)'), 'Needed.');
    await user.click(screen.getByRole('checkbox', { name: /^I am the prescriber/ }));
    await user.click(screen.getByRole('button', { name: 'Submit appeal' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Submit appeal' }));
    expect(await screen.findByText('The appeal is not complete yet.')).toBeInTheDocument();
    expect(screen.getByText('Attach the clinical notes or medical records.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Appeal submitted' })).not.toBeInTheDocument();
  });

  it('in the Get Covered form the clinical notes are checked, cannot be unchecked, and are required to submit', async () => {
    const { user, router } = await openWithLink('/getcovered?npi=1234567893&key=GOODKEY123');
    expect(router.state.location.pathname).toBe('/getcovered-form');
    const notes = screen.getByRole('checkbox', { name: 'Clinical Notes/Medical Records (required)' });
    expect(notes).toBeChecked();
    expect(notes).toBeDisabled();
    expect(screen.getByLabelText('File for Clinical Notes/Medical Records')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Clinical justification (required)'), 'Needed.');
    await user.click(screen.getByRole('checkbox', { name: /^I am the prescriber/ }));
    await user.click(screen.getByRole('button', { name: 'Submit appeal' }));
    expect(await screen.findByText('Attach the clinical notes or medical records.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('offers the patient’s earlier appeal files and puts one in its slot without uploading it again', async () => {
    server.earlier = [
      {
        fileId: '5f0e0d0c-0b0a-4909-8807-060504030201',
        slot: 'clinicalNotesFile',
        originalName: 'notes-2026.pdf',
        contentType: 'application/pdf',
        sizeBytes: 4096,
        submittedAt: '2026-10-12T15:00:00.000Z',
      },
    ];
    const { user } = await openWithLink();
    const section = await screen.findByRole('region', { name: 'From this patient’s earlier appeals' });
    expect(section).toHaveTextContent('notes-2026.pdf — Clinical Notes/Medical Records, 4 KB, sent 10/12/2026');
    await user.click(within(section).getByRole('button', { name: 'Use notes-2026.pdf as Clinical Notes/Medical Records' }));
    await waitFor(() => expect(within(section).getByText('Attached')).toBeInTheDocument());
    const reuse = server.calls.find((c) => c.url.endsWith('/reuse-file'));
    expect(reuse).toMatchObject({
      method: 'POST',
      body: { fileId: '5f0e0d0c-0b0a-4909-8807-060504030201', slot: 'clinicalNotesFile' },
      token: 'tok',
    });
    // Nothing was uploaded: the file is the earlier appeal's, shared by reference.
    expect(server.calls.some((c) => c.url.endsWith('/file-upload'))).toBe(false);
    expect(screen.getAllByText('notes-2026.pdf').length).toBeGreaterThanOrEqual(1);
  });

  it('opened to prepare it for the prescriber: fields and files are open, the attestation and the submit are theirs', async () => {
    window.sessionStorage.setItem(
      'hcp.appealsData',
      JSON.stringify({
        appealId: APPEAL_ID,
        token: 'tok',
        expiresAt: new Date(Date.now() + 20 * 60_000).toISOString(),
        prescriptionId: 'rx-1',
        prepareOnly: true,
      }),
    );
    renderAt('/appeals-form?prescription=rx-1');
    expect(await screen.findByLabelText('Clinical justification (required)')).toBeEnabled();
    expect(screen.getByRole('checkbox', { name: /I am the prescriber/ })).toBeDisabled();
    expect(
      screen.getByText(
        'You are preparing this appeal for Alex Morgan: what you fill in and attach is kept for them, and they attest and submit it.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit appeal' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Save draft' })).toBeEnabled();
  });

  it('a reload keeps the opened appeal and the unsaved text (no second sign-in)', async () => {
    window.sessionStorage.setItem(
      'hcp.appealsData',
      JSON.stringify({
        appealId: APPEAL_ID,
        token: 'tok',
        expiresAt: new Date(Date.now() + 20 * 60_000).toISOString(),
        draft: { ...empty, clinicalJustification: 'Not yet saved' },
      }),
    );
    renderAt('/appeals-form');
    expect(await screen.findByLabelText('Clinical justification (required)')).toHaveValue('Not yet saved');
    // The appeal itself with the stored token (and the patient's earlier files it offers); no sign-in call.
    expect(server.calls.map((c) => c.url.split('/').at(-1))).toEqual([APPEAL_ID, 'earlier-files']);
    expect(server.calls[0]?.token).toBe('tok');
  });
});
