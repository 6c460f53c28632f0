import type { UserDetails } from '@hcp/contract';
import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from './confirm-dialog.tsx';

/** What a decision sends, shown before it goes. */
export interface SendRequest {
  title: string;
  /** What the pharmacy will receive and how: the lines the user checks. */
  summary: ReactNode;
  confirmLabel: string;
  /** Sends it; `skipNextTime` is true when the user ticked 'Don't ask me again before sending'. */
  send: (skipNextTime: true | undefined) => void;
}

/**
 * Clinical decisions that go to the pharmacy (fax authorization, denial, chart notes, alternative,
 * phone correction) show what will be sent and to whom first, unless the user chose to skip that check
 * (issue 21; as eRx does). The choice is saved with the call (skipSendConfirmation) and can be turned
 * back on in Preferences.
 */
export function useSendConfirmation(user: UserDetails | undefined) {
  const [request, setRequest] = useState<SendRequest | null>(null);
  const confirmSend = (next: SendRequest) => {
    if (user?.mdOfficeUserPrefs.skipSendConfirmation) next.send(undefined);
    else setRequest(next);
  };
  const dialog = (
    <ConfirmDialog
      open={request !== null}
      title={request?.title ?? ''}
      confirmLabel={request?.confirmLabel ?? 'Send'}
      skipLabel="Don’t ask me again before sending"
      onCancel={() => setRequest(null)}
      onConfirm={(skip) => {
        const pending = request;
        setRequest(null);
        pending?.send(skip);
      }}
    >
      {request?.summary}
    </ConfirmDialog>
  );
  return { confirmSend, dialog };
}

/** The body field that saves the choice, only when it was ticked (undefined leaves the preference alone). */
export const sendChoice = (skipNextTime: true | undefined) => (skipNextTime ? { skipSendConfirmation: true as const } : {});
