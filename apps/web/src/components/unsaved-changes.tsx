import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import controls from './controls.module.css';
import { Dialog } from './dialog.tsx';

export const UNSAVED_CHANGES_TITLE = 'Leave without saving?';

/**
 * Warns before an edited form is left: inside the app with a dialog (stay, or leave and lose the changes),
 * and on reload or closing the tab with the browser's own prompt.
 */
export function UnsavedChangesGuard({ when }: { when: boolean }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);
  return (
    <Dialog
      open={blocker.state === 'blocked'}
      title={UNSAVED_CHANGES_TITLE}
      onClose={() => blocker.reset?.()}
      actions={
        <>
          <button type="button" className={controls.primary} onClick={() => blocker.reset?.()}>
            Stay on this page
          </button>
          <button type="button" className={controls.secondary} onClick={() => blocker.proceed?.()}>
            Leave without saving
          </button>
        </>
      }
    >
      <p>You have changes that are not saved. If you leave now they are lost.</p>
    </Dialog>
  );
}
