import type { AuthnTransaction } from '@portal/contracts';
import { consumeLinkToken, findUserById } from '../identity.repository';
import { oktaErrors } from '../okta-errors';
import { hashToken } from '../secrets';
import type { AuthnContext, RequestMeta } from './context';
import { passwordReset } from './shapes';
import { createTransaction } from './transactions';

/** {token} from the activation email: PASSWORD_RESET (ACCOUNT_ACTIVATION), or 401 E0000004. */
export async function activationToken(
  c: AuthnContext,
  token: string,
  meta: RequestMeta,
): Promise<AuthnTransaction> {
  const started = await c.db.transaction(async (q) => {
    const used = await consumeLinkToken(q, hashToken(token), 'activation', c.clock.now());
    const user = used ? await findUserById(q, used.userId, true) : null;
    if (!user || user.status !== 'PROVISIONED') {
      await c.audit(q, meta, {
        eventId: 'identity.activation',
        customerId: user?.customerId ?? null,
        isSuccess: false,
        failureReason: 'INVALID_TOKEN',
      });
      return null;
    }
    const created = await createTransaction(c, q, user.id, 'activation', 'PASSWORD_RESET');
    return { ...created, user };
  });
  if (!started) throw oktaErrors.authenticationFailed();
  return passwordReset(c, started.stateToken, started.transaction, started.user);
}
