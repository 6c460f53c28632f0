/** Security headers: helmet with a strict CSP that the built web app satisfies (no inline script). */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  mediaSrc: ["'self'", 'https:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

/** Google Identity Services' documented CSP needs, added only when Google sign-in is configured. */
const GOOGLE_SIGN_IN_SOURCES = {
  scriptSrc: ['https://accounts.google.com/gsi/client'],
  styleSrc: ['https://accounts.google.com/gsi/style'],
  frameSrc: ['https://accounts.google.com/gsi/'],
  connectSrc: ['https://accounts.google.com/gsi/'],
};

export function cspDirectives(options: { allowGoogleSignIn: boolean }) {
  if (!options.allowGoogleSignIn) return CSP_DIRECTIVES;
  return {
    ...CSP_DIRECTIVES,
    scriptSrc: [...CSP_DIRECTIVES.scriptSrc, ...GOOGLE_SIGN_IN_SOURCES.scriptSrc],
    styleSrc: [...CSP_DIRECTIVES.styleSrc, ...GOOGLE_SIGN_IN_SOURCES.styleSrc],
    frameSrc: GOOGLE_SIGN_IN_SOURCES.frameSrc,
    connectSrc: [...CSP_DIRECTIVES.connectSrc, ...GOOGLE_SIGN_IN_SOURCES.connectSrc],
  };
}

export async function registerSecurityHeaders(app: FastifyInstance, options: { allowGoogleSignIn: boolean }): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(options) },
    crossOriginEmbedderPolicy: false,
    // The portal never needs the referrer of a patient screen to leave the site.
    referrerPolicy: { policy: 'no-referrer' },
    hsts: { maxAge: 31_536_000, includeSubDomains: true },
  });
}
