import { type LoginResponse, ROUTES } from '@hcp/contract';
import { analytics } from '../../../lib/analytics.ts';
import { saveSession, storage } from '../../../lib/storage.ts';

export type SignInNext = { kind: 'route'; to: string } | { kind: 'external'; url: string };

/**
 * Spec §4 login flow, shared by the password form and the Google landing: tokens -> stored and on to
 * the app; an MFA challenge -> the user token and masked contacts for /login-verify; a redirection URL
 * -> the other brand's portal. Returns where to go; the caller navigates.
 */
export function applyLoginAnswer(answer: LoginResponse, from?: string): SignInNext {
  if ('jwtToken' in answer) {
    saveSession(answer.jwtToken);
    analytics.identify(answer.jwtToken.userID);
    // Required to have a strong factor and has none (decision 0060): that first, and nothing else until then.
    if (answer.jwtToken.enrolmentRequired) return { kind: 'route', to: ROUTES.addSignInFactor };
    return { kind: 'route', to: from && from !== ROUTES.login ? from : ROUTES.actionNeeded };
  }
  if ('mfaResponse' in answer) {
    storage.set('userToken', answer.mfaResponse.userToken);
    storage.set('maskedEmail', answer.mfaResponse.maskedEmail);
    storage.set('maskedPhone', answer.mfaResponse.maskedPhone);
    const methods = answer.mfaResponse.methods;
    if (methods?.length) storage.set('mfaMethods', methods.join(','));
    else storage.remove('mfaMethods');
    return { kind: 'route', to: ROUTES.loginVerify };
  }
  return { kind: 'external', url: answer.redirectionUrl };
}
