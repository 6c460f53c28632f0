import { appEnv, endpoints } from './endpoints.ts';

export { endpoints };

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
