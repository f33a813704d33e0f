import type { AuthnTransaction } from '@portal/contracts';
import { oktaErrors } from '../okta-errors';
import { sendChallenge } from './challenge';
import type { AuthnContext, RequestMeta } from './context';
import { transactionFactor } from './transactions';

/** A new code for the challenged factor; the old one dies. */
export async function resend(
  c: AuthnContext,
  factorId: string,
  stateToken: string,
  meta: RequestMeta,
): Promise<AuthnTransaction> {
  const { t, user, factor } = await transactionFactor(c, stateToken, factorId);
  if (t.status !== 'MFA_CHALLENGE' || t.factorId !== factor.id) throw oktaErrors.wrongState();
  return sendChallenge(c, stateToken, t, user, factor, meta);
}
