/** Sign-in helpers for server tests: real login through the app, then authenticated requests. */
import { DASHBOARD, type Tokens } from '@hcp/contract';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { DEMO_PASSWORD } from '../../src/seed/index.ts';

export async function login(app: FastifyInstance, email: string, password = DEMO_PASSWORD, extra: Record<string, unknown> = {}) {
  return app.inject({
    method: 'POST',
    url: '/auth-service/login',
    payload: { email, username: email, password, dashboard: DASHBOARD, ...extra },
  });
}

export async function signIn(app: FastifyInstance, email: string): Promise<Tokens> {
  const res = await login(app, email);
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
