/** The first answers (decision 0068): a landing screen's shell requests answered in one response. */
import { z } from 'zod';
import { LANDING_ROUTES, type LandingRoute, ROUTES } from '../routes.ts';
import { rxListRangeProblem } from '../rules/rx-list.ts';
import { isoDateSchema } from './fields.ts';

export const firstAnswersQuerySchema = z
  .object({
    screen: z.enum(LANDING_ROUTES as unknown as [LandingRoute, ...LandingRoute[]], {
      message: `screen must be one of ${LANDING_ROUTES.join(', ')}.`,
    }),
    startdate: isoDateSchema.optional(),
    enddate: isoDateSchema.optional(),
  })
  .superRefine((query, ctx) => {
    const window = query.startdate !== undefined || query.enddate !== undefined;
    if (query.screen !== ROUTES.rxList) {
      if (window) ctx.addIssue({ code: 'custom', path: ['startdate'], message: 'Only the Rx list has a window.' });
      return;
    }
    if (query.startdate === undefined || query.enddate === undefined) {
      ctx.addIssue({ code: 'custom', path: ['startdate'], message: 'The Rx list needs its startdate and enddate.' });
      return;
    }
    const problem = rxListRangeProblem(query.startdate, query.enddate);
    if (problem) ctx.addIssue({ code: 'custom', path: ['enddate'], message: problem });
  });

export type FirstAnswersQuery = z.infer<typeof firstAnswersQuerySchema>;

/** Each shell request's answer, in `shellRequestsFor`'s order: its status and the body it would have had alone. */
export const firstAnswersResponseSchema = z.object({
  answers: z.array(z.object({ status: z.number().int(), body: z.unknown() })),
});

export type FirstAnswersResponse = z.infer<typeof firstAnswersResponseSchema>;
