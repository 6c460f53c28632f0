import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppRouter } from './app/app.tsx';
import { sendLandingRequestsEarly } from './lib/early-requests.ts';
import './styles/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');
// Evaluating the modules above is one task; starting the router (the first screen's code and requests) another.
// On a slow phone each is ~65 ms at Lighthouse's 4x, one ~130 ms task together: the page would not answer a tap
// for the whole of it (issue 21, decision 0046). The requests leave a few milliseconds later, not a round trip.
// The first screen's requests in a task of their own, before the router's (issue 50): together they were one.
setTimeout(sendLandingRequestsEarly, 0);
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
