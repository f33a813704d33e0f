import type { Queryable } from '../../../platform/db';
import { insertLinkToken } from '../identity.repository';
import { hashToken, randomToken } from '../secrets';
import type { AuthnContext } from './context';
import { identityLimits } from './limits';

/** Creates a link token (activation 24 hours, recovery 60 minutes) that voids the user's older ones. */
export async function issueLinkToken(
  c: AuthnContext,
  q: Queryable,
  userId: string,
  kind: 'activation' | 'recovery',
): Promise<string> {
  const token = randomToken();
  const createdAt = c.clock.now();
  await insertLinkToken(q, {
    tokenHash: hashToken(token),
    userId,
    kind,
    createdAt,
    expiresAt: new Date(
      createdAt.getTime() +
        (kind === 'activation' ? identityLimits.activationTokenMs : identityLimits.recoveryTokenMs),
    ),
  });
  return token;
}
