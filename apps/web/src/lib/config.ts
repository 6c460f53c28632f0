import { endpointsFor } from '@hcp/contract';

/**
 * The environment the build is for (spec §9 names; VITE_APP_ENV, else APP_ENV as the build saw it): it picks
 * the API, auth and operations addresses, each of which an explicit VITE_* setting still overrides.
 */
const appEnv = import.meta.env.VITE_APP_ENV ?? import.meta.env.APP_ENV;
/** The API, auth and operations addresses of the build (also read by the page's head start, decision 0066). */
export const endpoints = endpointsFor(appEnv, {
  api: import.meta.env.VITE_API_BASE_URL,
  auth: import.meta.env.VITE_AUTH_BASE_URL,
  operations: import.meta.env.VITE_OPERATIONS_ORDER_URL,
});

/** Build-time settings of the web app (Vite env), with working defaults for local use. */
export const webConfig = {
  appEnv: appEnv ?? 'development',
  endpoints,
  /** The tutorial video (spec §2: an mp4 from a content-delivery address); a small local copy by default. */
  tutorialVideoUrl: import.meta.env.VITE_TUTORIAL_VIDEO_URL ?? '/media/tutorial.mp4',
  tutorialCaptionsUrl: import.meta.env.VITE_TUTORIAL_CAPTIONS_URL ?? '/media/tutorial.en.vtt',
  /** Support contacts of the Contact modal (spec §9: two phones, a fax and an email). */
  support: {
    phone: import.meta.env.VITE_SUPPORT_PHONE ?? '(614) 555-0100',
    secondPhone: import.meta.env.VITE_SUPPORT_PHONE_2 ?? '(800) 555-0199',
    fax: import.meta.env.VITE_SUPPORT_FAX ?? '(614) 555-0101',
    email: import.meta.env.VITE_SUPPORT_EMAIL ?? 'support@hcp-portal.example',
  },
  /** The operations site that opens an order by number (spec §2 Rx list: `?orderNumber=`). */
  operationsOrderUrl: endpoints.operations,
};

export function operationsOrderHref(orderNumber: string): string {
  const url = new URL(webConfig.operationsOrderUrl);
  url.searchParams.set('orderNumber', orderNumber);
  return url.toString();
}
