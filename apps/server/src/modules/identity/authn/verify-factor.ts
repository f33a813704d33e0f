import type { AuthnTransaction } from '@portal/contracts';
import { findAuthenticator, findUserById } from '../identity.repository';
import { oktaErrors } from '../okta-errors';
import { challenge } from './challenge';
import { checkCode } from './codes';
import type { AuthnContext, RequestMeta } from './context';
import { challengePasskey, verifyPasskeyStep, type OktaAssertion } from './passkey';
import { userJson } from './shapes';
import { liveTransaction, transactionFactor } from './transactions';
import { verifyAuthenticator } from './verify-authenticator';

/**
 * Without passCode: sends a code (MFA_CHALLENGE). With it: SUCCESS + sessionToken, or 403 E0000068. An
 * authenticator app or backup codes factor takes its passCode straight away (verify-authenticator.ts); a
 * passkey answers a challenge first, then takes the assertion (passkey.ts).
 */
export async function verifyFactor(
  c: AuthnContext,
  factorId: string,
  stateToken: string,
  passCode: string | undefined,
  meta: RequestMeta,
  assertion: OktaAssertion = {},
): Promise<AuthnTransaction> {
  const live = await liveTransaction(c, c.db, stateToken);
  const app = await findAuthenticator(c.db, live.userId, factorId);
  if (app?.kind === 'webauthn') {
    const answered = assertion.clientData ?? assertion.authenticatorData ?? assertion.signatureData;
    return answered === undefined && passCode === undefined
      ? challengePasskey(c, live, stateToken, app)
      : verifyPasskeyStep(c, live, stateToken, app, assertion, meta);
  }
  if (app?.status === 'ACTIVE') return verifyAuthenticator(c, live, stateToken, factorId, passCode, meta);
  if (passCode === undefined) return challenge(c, factorId, stateToken, meta);
  const { t, user, factor } = await transactionFactor(c, stateToken, factorId);
  const checked = await checkCode(c, t.id, factor.id, passCode, meta);
  if (t.kind === 'signin') c.signInOutcome(checked.ok ? 'signed_in' : 'code_refused');
  if (!checked.ok) {
    if (checked.reason === 'wrong-state') {
      // A lock that happened meanwhile ended the transaction: say so as Okta would.
      await liveTransaction(c, c.db, stateToken);
      throw oktaErrors.wrongState();
    }
    throw oktaErrors.invalidPasscode(checked.cause);
  }
  const fresh = (await findUserById(c.db, user.id)) ?? user;
  return {
    status: 'SUCCESS',
    sessionToken: checked.sessionToken,
    expiresAt: checked.sessionExpiresAt.toISOString(),
    _embedded: { user: userJson(fresh) },
  };
}
