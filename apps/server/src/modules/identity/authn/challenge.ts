import type { AuthnTransaction } from '@portal/contracts';
import type { FactorRow, TransactionRow, UserRow } from '../identity.repository';
import { oktaErrors } from '../okta-errors';
import type { AuthnContext, RequestMeta } from './context';
import { issueCode, sendFailure } from './send-code';
import { mfaChallenge } from './shapes';
import { transactionFactor } from './transactions';

/** Sends a code for the factor and answers MFA_CHALLENGE, or 429 when a limit refuses the send. */
export async function sendChallenge(
  c: AuthnContext,
  stateToken: string,
  t: TransactionRow,
  user: UserRow,
  factor: FactorRow,
  meta: RequestMeta,
): Promise<AuthnTransaction> {
  const sent = await issueCode(c, t, user, factor, meta);
  if (!sent.ok) throw sendFailure(sent);
  return mfaChallenge(c, stateToken, sent.transaction, user, factor);
}

/** Verify without a passCode: sends a code for the chosen factor (MFA_CHALLENGE). */
export async function challenge(
  c: AuthnContext,
  factorId: string,
  stateToken: string,
  meta: RequestMeta,
): Promise<AuthnTransaction> {
  const { t, user, factor } = await transactionFactor(c, stateToken, factorId);
  if (t.status !== 'MFA_REQUIRED' && t.status !== 'MFA_CHALLENGE') throw oktaErrors.wrongState();
  return sendChallenge(c, stateToken, t, user, factor, meta);
}
