import { counterStore } from '../../../platform/counters';
import { identityLimits } from '../authn.service';
import { activationEmail, passwordResetEmail } from '../emails';
import { findUserByLogin } from '../identity.repository';
import type { IdentityService } from './types';
import type { IdentityServiceContext } from './context';

/* Forgotten password: the reset link (or an activation link for an account never activated). */

export async function requestPasswordReset(
  c: IdentityServiceContext,
  ...[email, meta = {}]: Parameters<IdentityService['requestPasswordReset']>
): ReturnType<IdentityService['requestPasswordReset']> {
  const { db, config, send, authn, ctx } = c;
  const user = await findUserByLogin(db, email.trim().toLowerCase());
  if (!user || (user.status !== 'ACTIVE' && user.status !== 'PROVISIONED')) return;
  const decision = await (
    await counterStore(ctx)
  ).take(`reset-email:${user.id}`, identityLimits.resetEmailsPerAccountPerHour, 60 * 60_000);
  const kind = user.status === 'PROVISIONED' ? ('activation' as const) : ('recovery' as const);
  const token = await db.transaction(async (q) => {
    await authn.audit(q, meta, {
      eventId: 'identity.password.reset.requested',
      customerId: user.customerId,
      isSuccess: decision.allowed,
      failureReason: decision.allowed ? null : 'RATE_LIMITED',
      details: { link: kind },
    });
    return decision.allowed ? authn.issueLinkToken(q, user.id, kind) : null;
  });
  if (!token) return;
  await send(
    kind === 'activation'
      ? activationEmail(user.login, user, config.publicUrl, token)
      : passwordResetEmail(user.login, user, config.publicUrl, token),
    meta,
  );
}
