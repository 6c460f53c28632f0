import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Dialog } from './dialog.tsx';

function Screen({ openAtStart }: { openAtStart: boolean }) {
  const [open, setOpen] = useState(openAtStart);
  return (
    <main id="main" tabIndex={-1}>
      <h1 tabIndex={-1}>Action Needed</h1>
      <button type="button" onClick={() => setOpen(true)}>
        Tutorial
      </button>
      <Dialog
        open={open}
        title="Tutorial"
        onClose={() => setOpen(false)}
        actions={
          <button type="button" onClick={() => setOpen(false)}>
            Do not show this again
          </button>
        }
      >
        <p>Video</p>
      </Dialog>
    </main>
  );
}

describe('Dialog', () => {
  it('gives focus back to the button that opened it', async () => {
    render(<Screen openAtStart={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Tutorial' }));
    await userEvent.click(screen.getByRole('button', { name: 'Do not show this again' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Tutorial' })).toHaveFocus());
  });

  it('opened by itself (no opener), it leaves focus on the page heading, not on <body>', async () => {
    render(<Screen openAtStart />);
    await userEvent.click(screen.getByRole('button', { name: 'Do not show this again' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Action Needed' })).toHaveFocus());
  });
});
