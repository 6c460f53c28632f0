import { useEffect, useState } from 'react';
import controls from '../../components/controls.module.css';
import { Dialog } from '../../components/dialog.tsx';
import { webConfig } from '../../lib/config.ts';
import styles from './modals.module.css';

export const TUTORIAL_TITLE = 'Please watch this short video on how to use the HCP portal';

/**
 * The tutorial video (spec §2, §4). 'Do not show this again' is offered only when it opened by itself;
 * closing either way is handled by the caller (it turns auto-show off for the session).
 */
export function TutorialModal({
  open,
  openedAutomatically,
  onClose,
  onDoNotShowAgain,
}: {
  open: boolean;
  openedAutomatically: boolean;
  onClose: () => void;
  onDoNotShowAgain: () => void;
}) {
  // The platform's media controls are built the first time a page shows a <video controls>: about 80 ms of style and
  // layout on a phone, inside the task that opens the dialog over the first screen (issue 50). The controls come one
  // task later, on the same element: focusable from the start (tabIndex), it takes the dialog's first focus as before.
  const [withControls, setWithControls] = useState(false);
  useEffect(() => {
    if (!open || withControls) return;
    const later = window.setTimeout(() => setWithControls(true), 0);
    return () => window.clearTimeout(later);
  }, [open, withControls]);
  return (
    <Dialog
      open={open}
      title={TUTORIAL_TITLE}
      onClose={onClose}
      actions={
        <>
          {openedAutomatically ? (
            <button type="button" className={controls.secondary} onClick={onDoNotShowAgain}>
              Do not show this again
            </button>
          ) : null}
          <button type="button" className={controls.primary} onClick={onClose}>
            Close
          </button>
        </>
      }
    >
      {/* preload="none": the video (and its metadata) downloads when played, not with every sign-in on a phone. */}
      <video className={styles.video} controls={withControls} tabIndex={0} preload="none" src={webConfig.tutorialVideoUrl}>
        <track kind="captions" src={webConfig.tutorialCaptionsUrl} srcLang="en" label="English" default />
      </video>
    </Dialog>
  );
}
