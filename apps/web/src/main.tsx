import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppRouter } from './app/app.tsx';
import { markEntryStarted } from './lib/head-start.ts';
import './styles/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');
// A head start that arrives after this sends nothing: the shell's loader sends the requests instead (decision 0066).
markEntryStarted();
// Evaluating the modules above is one task; starting the router (the first screen's code and requests) another.
// On a slow phone each is ~65 ms at Lighthouse's 4x, one ~130 ms task together: the page would not answer a tap
// for the whole of it (issue 21, decision 0046). A landing screen's first requests left before either: the page's
// head start sent them as the entry downloaded (decision 0066), and the shell's loader takes their answers.
setTimeout(() => {
  const router = createAppRouter();
  // A transition lets React draw the first screen in slices, yielding to the browser between them: on a slow
  // phone the page answers taps while it starts instead of freezing for one long task (issue 21, decision 0028).
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App router={router} />
      </StrictMode>,
    );
  });
}, 0);
