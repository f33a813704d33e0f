import type { AuthnTransaction } from '@portal/contracts';
import { listFactors } from '../identity.repository';
import { oktaErrors } from '../okta-errors';
import type { AuthnContext } from './context';
import { mfaChallenge, mfaRequired, passwordReset } from './shapes';
import { liveTransaction, userOf } from './transactions';
import { enrolAnswer } from './enrol';

/**
 * The transaction of a stateToken as it stands, changing nothing: what Okta's SDK asks for to resume a
 * sign-in (`POST /api/v1/authn {stateToken}`) or to introspect it. A finished transaction has spent its
 * one-time session token, so, like an unknown, expired or cancelled one, it answers 401 E0000011.
 */
export async function introspect(c: AuthnContext, stateToken: string): Promise<AuthnTransaction> {
  const t = await liveTransaction(c, c.db, stateToken);
  const user = await userOf(c.db, t);
  switch (t.status) {
    case 'MFA_REQUIRED':
      return mfaRequired(c, stateToken, t, user);
    case 'MFA_CHALLENGE': {
      const factor = (await listFactors(c.db, user.id)).find((f) => f.id === t.factorId);
      return factor ? mfaChallenge(c, stateToken, t, user, factor) : mfaRequired(c, stateToken, t, user);
    }
    case 'MFA_ENROLL':
    case 'MFA_ENROLL_ACTIVATE':
      return enrolAnswer(c, stateToken, t, user);
    case 'PASSWORD_RESET':
      return passwordReset(c, stateToken, t, user);
    default:
      throw oktaErrors.invalidToken();
  }
}
