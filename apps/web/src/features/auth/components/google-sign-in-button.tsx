import { ROUTES } from '@hcp/contract';
import { useEffect, useRef, useState } from 'react';
import { generatePath, useNavigate } from 'react-router';

/** The few Google Identity Services calls we use (https://developers.google.com/identity/gsi/web/reference/js-reference). */
interface GoogleIdentityServices {
  accounts: {
    id: {
      initialize(options: { client_id: string; callback: (answer: { credential: string }) => void; ux_mode?: 'popup' }): void;
      renderButton(parent: HTMLElement, options: Record<string, string | number>): void;
    };
  };
}
declare global {
  interface Window {
    google?: GoogleIdentityServices;
  }
}

const GSI_SRC = 'https://accounts.google.com/gsi/client';
let gsiScript: Promise<GoogleIdentityServices> | null = null;

/** Loads Google's script once per page; the server's CSP allows it only when a client id is configured. */
function loadGoogleIdentityServices(): Promise<GoogleIdentityServices> {
  gsiScript ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GSI_SRC;
    script.async = true;
    script.onload = () => (window.google ? resolve(window.google) : reject(new Error('Google sign-in did not load')));
    script.onerror = () => {
      gsiScript = null;
      reject(new Error('Google sign-in could not be loaded'));
    };
    document.head.append(script);
  });
  return gsiScript;
}

/**
 * Google's own button (their branding rules require it). The ID token it hands back goes to the
 * /google/{token} landing route, which signs in exactly like the password form.
 */
export function GoogleSignInButton({ clientId }: { clientId: string }) {
  const navigate = useNavigate();
  const container = useRef<HTMLDivElement>(null);
  const [unavailable, setUnavailable] = useState(false);

  // Rendering a third-party widget into a DOM node is a side effect, not data fetching.
  useEffect(() => {
    let cancelled = false;
    loadGoogleIdentityServices()
      .then((google) => {
        if (cancelled || !container.current) return;
        google.accounts.id.initialize({
          client_id: clientId,
          ux_mode: 'popup',
          callback: ({ credential }) => navigate(generatePath(ROUTES.googleLogin, { token: credential })),
        });
        google.accounts.id.renderButton(container.current, { type: 'standard', text: 'signin_with', width: 320 });
      })
      .catch(() => !cancelled && setUnavailable(true));
    return () => {
      cancelled = true;
    };
  }, [clientId, navigate]);

  if (unavailable) return <p>Google sign-in is not available right now. Sign in with your e-mail and password.</p>;
  return <div ref={container} data-testid="google-sign-in" />;
}
