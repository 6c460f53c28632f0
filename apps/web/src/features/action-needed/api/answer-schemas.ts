/**
 * The answer schemas of the decisions the list itself makes (sign as prepared, dismiss, undo), imported on demand
 * (`() => import('./answer-schemas.ts')`): the module starts loading with the request, so the list's first load
 * carries no zod (decision 0064). The detail pages load zod with their forms anyway.
 */
export { actionResultSchema, bulkActionResultSchema, undoResultSchema } from '@hcp/contract';
