import { apiPaths, noticeLinkRedeemedSchema } from '@hcp/contract';
import { api } from '../../../lib/api-client.ts';

/**
 * POST /api/mdo/v1/users/{id}/notice-links/redeem: uses a fax cover sheet's one-time link. The code goes in the
 * body (never a query string or an API path, which logs would keep). Called from the route's loader: once per visit.
 */
export const redeemNoticeLink = (userId: string, code: string) =>
  api.request(apiPaths.noticeLinkRedeem(userId), { method: 'POST', body: { code }, schema: noticeLinkRedeemedSchema });
