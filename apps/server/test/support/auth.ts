/** Sign-in helpers for server tests: real login through the app, then authenticated requests. */
import { DASHBOARD, type Tokens } from '@hcp/contract';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { DEMO_PASSWORD } from '../../src/seed/index.ts';

export async function login(
  app: FastifyInstance,
  email: string,
  password = DEMO_PASSWORD,
  extra: Record<string, unknown> = {},
  host?: string,
) {
  return app.inject({
    method: 'POST',
    url: '/auth-service/login',
    payload: { email, username: email, password, dashboard: DASHBOARD, ...extra },
    ...(host ? { headers: { host } } : {}),
  });
}

/** Signs in through the real login; second-brand users sign in on their brand's host (e.g. 'harrow.localhost'). */
export async function signIn(app: FastifyInstance, email: string, host?: string): Promise<Tokens> {
  const res = await login(app, email, DEMO_PASSWORD, {}, host);
  if (res.statusCode !== 200 || !res.json().jwtToken)
    throw new Error(`sign-in of ${email} failed: ${res.statusCode} ${res.body}`);
  return res.json().jwtToken as Tokens;
}

export function authHeaders(tokens: Pick<Tokens, 'accessToken' | 'userID'>) {
  return { authorization: `Bearer ${tokens.accessToken}`, 'x-user-id': tokens.userID };
}

export function injectAs(app: FastifyInstance, tokens: Pick<Tokens, 'accessToken' | 'userID'>, options: InjectOptions) {
  return app.inject({ ...options, headers: { ...authHeaders(tokens), ...(options.headers ?? {}) } });
}
