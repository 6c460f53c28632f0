import { apiPaths } from '@hcp/contract';
import { api } from '../../../lib/api-client.ts';

/** POST /auth/logout with the three stored values; the server revokes them (spec §3, §4). */
export function postLogout(session: { userId: string; accessToken: string; refreshToken: string }): Promise<unknown> {
  return api.request(apiPaths.logout, { method: 'POST', auth: false, body: session });
}
