import type { Queryable } from '../../../platform/db';
import { insertLinkToken, type LinkTokenKind } from '../identity.repository';
import { hashToken, randomToken } from '../secrets';
import type { AuthnContext } from './context';
import { identityLimits } from './limits';

const lifetimes: Record<LinkTokenKind, number> = {
  activation: identityLimits.activationTokenMs,
  recovery: identityLimits.recoveryTokenMs,
  unlock: identityLimits.unlockTokenMs,
};

/** Creates a link token (activation 24 hours, recovery and unlock 60 minutes) voiding the user's older ones of its kind. */
export async function issueLinkToken(
  c: AuthnContext,
  q: Queryable,
  userId: string,
  kind: LinkTokenKind,
): Promise<string> {
  const token = randomToken();
  const createdAt = c.clock.now();
  await insertLinkToken(q, {
    tokenHash: hashToken(token),
    userId,
    kind,
    createdAt,
    expiresAt: new Date(createdAt.getTime() + lifetimes[kind]),
  });
  return token;
}
