/**
 * Security headers: helmet's, with a strict CSP that the built web app satisfies (no inline script). They do not
 * depend on the request, so helmet runs once at start-up and each answer gets the same header set (the Fastify
 * plugin rebuilds helmet for every request: a sixth of a trivial request's cost, bench http-overhead).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

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

export interface CspOptions {
  allowGoogleSignIn: boolean;
  /** Exact inline <style> texts allowed by hash (the printable pages the app writes into a new window). */
  inlineStyles?: string[];
}

export const styleHash = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

export function cspDirectives(options: CspOptions) {
  const styleSrc = [...CSP_DIRECTIVES.styleSrc, ...(options.inlineStyles ?? []).map(styleHash)];
  if (!options.allowGoogleSignIn) return { ...CSP_DIRECTIVES, styleSrc };
  return {
    ...CSP_DIRECTIVES,
    scriptSrc: [...CSP_DIRECTIVES.scriptSrc, ...GOOGLE_SIGN_IN_SOURCES.scriptSrc],
    styleSrc: [...styleSrc, ...GOOGLE_SIGN_IN_SOURCES.styleSrc],
    frameSrc: GOOGLE_SIGN_IN_SOURCES.frameSrc,
    connectSrc: [...CSP_DIRECTIVES.connectSrc, ...GOOGLE_SIGN_IN_SOURCES.connectSrc],
  };
}

/** Paths of the API and sign-in services: their answers may carry patient data or tokens. */
const API_PREFIXES = ['/api/', '/auth/', '/auth-service/', '/fhir/', '/oauth2/'];

export async function registerSecurityHeaders(app: FastifyInstance, options: CspOptions): Promise<void> {
  // No answer of the API is kept by a browser or a shared cache unless its route says otherwise (a ZIP
  // lookup, the brand): patient data must not outlive the screen that showed it (HIPAA minimum necessary).
  app.addHook('onSend', async (request, reply) => {
    if (!reply.hasHeader('cache-control') && API_PREFIXES.some((p) => request.url.startsWith(p))) {
      reply.header('cache-control', 'no-store');
    }
  });
  const headers = helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(options) },
    crossOriginEmbedderPolicy: false,
    // The portal never needs the referrer of a patient screen to leave the site.
    referrerPolicy: { policy: 'no-referrer' },
    hsts: { maxAge: 31_536_000, includeSubDomains: true },
  });
  const entries = Object.entries(headers);
  // On the raw response, as helmet itself does: error answers and streamed files keep them too.
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of entries) reply.raw.setHeader(name, value);
    done();
  });
}

/** The headers helmet sets for these options, by running it once against a response that only records them. */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: () => undefined,
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}
