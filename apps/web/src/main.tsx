import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import './styles/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');
// A transition lets React draw the first screen in slices, yielding to the browser between them: on a slow
// phone the page answers taps while it starts instead of freezing for one long task (issue 21, decision 0028).
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
