/**
 * The schema of the one error shape of DESIGN §3, which every server answer uses (and OpenAPI documents).
 * The codes, statuses and `normalizeError` are in rules/errors.ts, without zod, for the web app's first load.
 */
import { z } from 'zod';
import { ERROR_CODES, type ErrorBody, type ErrorDetail } from '../rules/errors.ts';

export const errorDetailSchema = z.object({
  /** Dotted path of the offending field, e.g. 'body.email' or 'query.startdate'. */
  path: z.string(),
  message: z.string(),
}) satisfies z.ZodType<ErrorDetail>;

export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    details: z.array(errorDetailSchema).optional(),
  }),
}) satisfies z.ZodType<ErrorBody>;
