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

  it('taken off the page while open (its parent is done with it), it still gives focus back to its opener', async () => {
    function Parent() {
      const [shown, setShown] = useState(false);
      return (
        <main id="main">
          <h1 tabIndex={-1}>Queue</h1>
          <button type="button" onClick={() => setShown(true)}>
            Deny…
          </button>
          {shown ? (
            <Dialog open title="Deny?" onClose={() => setShown(false)} actions={null} onSubmit={() => setShown(false)}>
              <label>
                Note <input />
              </label>
            </Dialog>
          ) : null}
        </main>
      );
    }
    render(<Parent />);
    await userEvent.click(screen.getByRole('button', { name: 'Deny…' }));
    // Enter in the dialog's field confirms it (the content is a form); the parent then drops the dialog.
    await userEvent.type(screen.getByRole('textbox', { name: 'Note' }), 'x{Enter}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Deny…' })).toHaveFocus());
  });
});
