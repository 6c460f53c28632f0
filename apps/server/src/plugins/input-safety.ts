/**
 * Hostile input stops at the door (issue 43), for every route, FHIR's included:
 *
 * - JSON deeper than MAX_JSON_DEPTH levels is refused before it is parsed: the parser and every walk after it
 *   (validation, mapping) are recursive, and 10,000 levels in under 1 MB overflowed the stack (a 500). A real
 *   request, a FHIR transaction Bundle included, is well under 20 levels deep.
 * - A string anywhere in the body, the query or the path holding NUL, another C0 control character (tab and line
 *   breaks aside) or a lone surrogate is refused with 400 naming where (the contract's `hasUnsafeCharacters`):
 *   PostgreSQL cannot store them, and no screen, mail or fax can show them.
 */
import { hasUnsafeCharacters, TEXT_SAFETY_MESSAGES } from '@hcp/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';

export const MAX_JSON_DEPTH = 64;
export const TOO_DEEP_MESSAGE = `The request body is nested too deeply (more than ${MAX_JSON_DEPTH} levels).`;

/** Whether JSON text nests deeper than `max` arrays and objects (one pass, no recursion; strings skipped). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return false;
}

/** The JSON parser of `contentTypes`: depth first, then Fastify's own (prototype-poisoning keys refused). */
export function registerDepthLimitedJson(app: FastifyInstance, contentTypes: string | string[]): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(contentTypes, { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(new AppError('BAD_REQUEST', TOO_DEEP_MESSAGE), undefined);
      return;
    }
    parse(request, text, done);
  });
}

/** The first string under `value` with unsafe characters, as a path ('body.items.0.note'); iterative. */
export function unsafeStringIn(value: unknown, root: string): string | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  while (stack.length > 0) {
    const next = stack.pop() as (typeof stack)[number];
    if (typeof next.value === 'string') {
      if (hasUnsafeCharacters(next.value)) return next.path;
      continue;
    }
    if (!next.value || typeof next.value !== 'object' || next.depth > MAX_JSON_DEPTH || Buffer.isBuffer(next.value)) continue;
    for (const [key, child] of Object.entries(next.value)) {
      if (hasUnsafeCharacters(key)) return `${next.path}.${key.replace(/[^\x20-\x7e]/g, '?')}`;
      stack.push({ value: child, path: `${next.path}.${key}`, depth: next.depth + 1 });
    }
  }
  return null;
}

export function registerInputSafety(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  registerDepthLimitedJson(app, 'application/json');
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const where =
      unsafeStringIn(request.params, 'params') ?? unsafeStringIn(request.query, 'query') ?? unsafeStringIn(request.body, 'body');
    if (where) {
      throw new AppError('VALIDATION_FAILED', TEXT_SAFETY_MESSAGES.unsafe, [
        { path: where, message: TEXT_SAFETY_MESSAGES.unsafe },
      ]);
    }
  });
}
